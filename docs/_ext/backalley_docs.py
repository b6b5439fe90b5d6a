"""A small local Sphinx extension: documentation generated from the code.

Directives
----------

``.. rules-sheet:: [NAME]``
    The rules sheet that :func:`backalley.rules.sheet.rules_sheet` generates
    for the registered variant ``NAME``; without a name, one section per
    variant in :func:`backalley.variants.names`, so a newly registered variant
    appears in the rules reference without touching the docs.  Use it as the
    last thing in its section: it adds one subsection per variant.

``.. rule-parts::``
    A table of the eleven rule parts (:func:`backalley.rules.registered_parts`): the
    policy classes that can fill each part, with their stable tags and their
    parameters' defaults, read from the classes themselves.

``.. rule-options::``
    A table of every named rule option (each subclass of
    :class:`backalley.rules.Option`) and its values.

``.. house-rule-keys::``
    The key reference of house-rule files
    (:func:`backalley.io.houserule_keys.reference`): per part, a table of the
    values its ``type`` key may take (registered tags and forms) and, for
    each, its keys with their value types and defaults.

``.. public-names:: MODULE``
    autodoc entries for every name in ``MODULE.__all__`` that is not yet
    documented (under any name) earlier in the build of this document, so
    that a name added to the public API is never missing from the API
    reference.  Modules and private names are skipped.

``.. backalley-position::``
    A picture (:func:`backalley.render.svg.board`) of a real position: the game of
    ``:variant:`` (default ``gamerules``) dealt from ``:seed:``, after
    ``:moves:`` random legal moves (a ``random.Random(seed)`` picks them), as
    the full state or, with ``:seat:``, that seat's view; ``:legal:`` marks
    the legal moves and ``:last:`` the last move.  The content is the caption.

``.. backalley-run::``
    A notebook cell: the Python code of the content is run (one namespace per
    page, so later cells see earlier names) and shown, followed by what it
    printed and by the value of its last line, drawn as a picture when it
    has one (``_repr_svg_``, as a notebook shows it) or else as text.

The pictures are SVG files written into the build (``_images/``) when it
finishes, so they always show what the library draws.

The sheet text is turned into docutils nodes directly (never parsed as
reStructuredText), so whatever a policy's ``describe()`` says cannot break
the build; text the converter does not recognise is shown verbatim.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import re
import sys
import textwrap
import types
from typing import Any, ClassVar

import attrs
from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.errors import PycodeError
from sphinx.pycode import ModuleAnalyzer
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

__all__ = ["setup"]

_FIELD = re.compile(r"^([A-Z][A-Za-z ]{0,40}): (.+)$", re.DOTALL)
_TERM = re.compile(r"^\s+([a-z][a-z' ]{0,40}): (.+)$")


# -- helpers -------------------------------------------------------------------


def _py_ref(target: str, text: str | None = None, *, reftype: str = "class") -> nodes.Node:
    """A cross-reference to a Python object (plain text if it does not resolve)."""
    label = text if text is not None else target.rsplit(".", 1)[-1]
    ref = addnodes.pending_xref(
        "",
        refdomain="py",
        reftype=reftype,
        reftarget=target,
        refexplicit=True,
        refwarn=False,
    )
    ref += nodes.literal(label, label, classes=["xref", "py", f"py-{reftype}"])
    return ref


def _literal(text: str) -> nodes.literal:
    return nodes.literal(text, text)


def _table(
    headers: list[str], rows: list[list[nodes.Node | str]], widths: list[int]
) -> nodes.table:
    table = nodes.table(classes=["backalley-table"])
    group = nodes.tgroup(cols=len(headers))
    table += group
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    group += head
    row = nodes.row()
    for header in headers:
        row += nodes.entry("", nodes.paragraph(header, header))
    head += row
    body = nodes.tbody()
    group += body
    for cells in rows:
        row = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            if isinstance(cell, str):
                entry += nodes.paragraph(cell, cell)
            elif isinstance(cell, nodes.Body):  # block-level: paragraph, list, ...
                entry += cell
            else:
                entry += nodes.paragraph("", "", cell)
            row += entry
        body += row
    return table


def _default_of(field: Any) -> Any:
    default = field.default
    if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        default = ... if default.takes_self else default.factory()
    return default


def _note_package_sources(directive: SphinxDirective) -> None:
    """Make the page depend on every module of the package, so that an
    incremental build regenerates it when any rule's text changes."""
    for name, module in sorted(sys.modules.items()):
        if name == "backalley" or name.startswith("backalley."):
            path = getattr(module, "__file__", None)
            if path:
                directive.env.note_dependency(path)


def _value_text(cls: type, name: str, value: Any) -> str:
    """An option's default as the parts' table shows it: an enum by its
    value, a plain value as its type's description shows it on a sheet."""
    from backalley.rules.registry import option_kinds

    if isinstance(value, enum.Enum):
        return str(value.value)
    if value is None or isinstance(value, (bool, int, str, tuple, list, frozenset)):
        return option_kinds(cls)[name].text(value)
    return repr(value)


# -- rules sheets --------------------------------------------------------------


def sheet_nodes(text: str, section_id: str) -> nodes.section:
    """A rules sheet (plain text from ``rules_sheet``) as a docutils section."""
    blocks = [b for b in re.split(r"\n\s*\n", text.strip("\n")) if b.strip()]
    section = nodes.section(ids=[section_id], names=[section_id])
    title = section_id
    lines = blocks[0].splitlines() if blocks else []
    if len(lines) == 2 and set(lines[1].strip()) <= {"=", "-", "~"} and lines[1].strip():
        title = lines[0].strip()
        blocks = blocks[1:]
    section += nodes.title(title, title)

    fields: nodes.field_list | None = None
    for block in blocks:
        lines = block.splitlines()
        head, rest = lines[0], lines[1:]
        if head == "Terms:" and rest and all(_TERM.match(line) for line in rest):
            # the Terms block: a heading and a definition list, one term per line
            fields = None
            section += nodes.paragraph("", "", nodes.strong(head, head))
            terms = nodes.definition_list(classes=["backalley-terms"])
            for line in rest:
                term, meaning = _TERM.match(line).groups()  # type: ignore[union-attr]
                item = nodes.definition_list_item()
                item += nodes.term(term, term)
                item += nodes.definition("", nodes.paragraph(meaning, meaning))
                terms += item
            section += terms
            continue
        if rest and all(line.startswith((" ", "\t")) for line in rest):
            # "Settings (for software):" followed by indented lines: a heading and
            # a verbatim block
            fields = None
            section += nodes.paragraph("", "", nodes.strong(head, head))
            body = textwrap.dedent("\n".join(rest)).strip("\n")
            section += nodes.literal_block(
                body, body, classes=["backalley-options"], language="text"
            )
            continue
        if rest and rest[0].startswith((" ", "\t")):
            # indented text of some other shape: keep it exactly as written
            fields = None
            section += nodes.literal_block(block, block, language="text")
            continue
        prose = " ".join(block.split())  # a paragraph, possibly wrapped
        match = _FIELD.match(prose)
        if match:
            # "Part: description": one field of a field list
            if fields is None:
                fields = nodes.field_list(classes=["backalley-sheet"])
                section += fields
            name, value = match.group(1), match.group(2)
            field = nodes.field()
            field += nodes.field_name(name, name)
            field += nodes.field_body("", nodes.paragraph(value, value))
            fields += field
            continue
        fields = None
        section += nodes.paragraph(prose, prose)
    return section


class RulesSheetDirective(SphinxDirective):
    """``.. rules-sheet:: [NAME]``: generated rules sheets (see the module docstring)."""

    optional_arguments = 1
    final_argument_whitespace = False
    has_content = False

    def run(self) -> list[nodes.Node]:
        from backalley import variants
        from backalley.rules.sheet import rules_sheet

        _note_package_sources(self)
        wanted = [self.arguments[0]] if self.arguments else list(variants.names())
        out: list[nodes.Node] = []
        for name in wanted:
            try:
                rules = variants.get(name)
            except Exception as exc:  # an unknown name is a documentation error
                raise self.error(f"rules-sheet: {exc}") from None
            label = rules.name or name
            section = sheet_nodes(rules_sheet(rules), f"variant-{nodes.make_id(label)}")
            intro = nodes.paragraph()
            intro += nodes.Text("Generated from ")
            code = f'backalley.variants.get("{label}")'
            intro += _literal(code)
            intro += nodes.Text(" by ")
            intro += _py_ref("backalley.rules.rules_sheet", "rules_sheet()", reftype="func")
            intro += nodes.Text(".")
            section.insert(1, intro)
            note = getattr(variants, "PRESET_NOTES", {}).get(label)
            if isinstance(note, str) and note:
                section.insert(2, nodes.paragraph(note, note))
            self.state.document.note_implicit_target(section, section)
            out.append(section)
        return out


# -- option tables ---------------------------------------------------------------


class RulePartsDirective(SphinxDirective):
    """``.. rule-parts::``: the policy classes of each part, with parameter defaults."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from backalley import rules as rules_pkg
        from backalley.rules.registry import registered_parts

        _note_package_sources(self)
        default = rules_pkg.RuleSet()
        rows: list[list[nodes.Node | str]] = []
        for part, table in registered_parts().items():
            classes = [c for c in table.values() if c.__module__.startswith("backalley.")]
            for i, cls in enumerate(classes):
                public = f"backalley.rules.{cls.__name__}"
                cell = nodes.paragraph()
                cell += _py_ref(public, cls.__name__)
                cell += nodes.Text(" (tag ")
                cell += _literal(str(getattr(cls, "tag", "?")))
                cell += nodes.Text(")")
                if isinstance(getattr(default, part), cls):
                    cell += nodes.Text(", the default")
                params = nodes.bullet_list()
                for field in attrs.fields(cls):
                    item = nodes.list_item()
                    para = nodes.paragraph()
                    para += _literal(field.name)
                    para += nodes.Text(" = ")
                    value = _value_text(cls, field.name, _default_of(field))
                    para += _literal(value)
                    item += para
                    params += item
                if not len(params):
                    params = nodes.paragraph("", "(no parameters)")
                rows.append([_literal(part) if i == 0 else "", cell, params])
        return [_table(["part", "policy", "parameters (default)"], rows, [12, 40, 48])]


class HouseRuleKeysDirective(SphinxDirective):
    """``.. house-rule-keys::``: every key of a house-rules file, part by part."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from backalley.io.houserule_keys import reference
        from backalley.rules.registry import PART_NAMES

        _note_package_sources(self)
        kinds = [k for k in reference() if k.build.__module__.startswith("backalley.")]
        out: list[nodes.Node] = []
        for part in PART_NAMES:
            rows: list[list[nodes.Node | str]] = []
            for kind in (k for k in kinds if k.part == part):
                cell = nodes.container()
                head = nodes.paragraph()
                head += _literal(f'type = "{kind.name}"')
                head += nodes.Text(" builds ")
                target = kind.builds if kind.is_form else kind.builds.split(".")[0]
                reftype = "meth" if kind.is_form else "class"
                head += _py_ref(f"backalley.rules.{target}", kind.builds, reftype=reftype)
                if kind.is_default:
                    head += nodes.Text(" (the default)")
                cell += head
                self.state.nested_parse(StringList([kind.summary]), self.content_offset, cell)
                keys = nodes.bullet_list()
                for key in kind.keys:
                    item = nodes.list_item()
                    para = nodes.paragraph()
                    para += _literal(key.name)
                    para += nodes.Text(f": {key.words}; ")
                    if key.required:
                        para += nodes.strong("required", "required")
                    else:
                        para += nodes.Text("default ")
                        para += _literal(key.default_text)
                    item += para
                    keys += item
                if not len(keys):
                    keys = nodes.paragraph("", "(no other keys)")
                rows.append([cell, keys])
            section_id = f"house-rule-keys-{part}"
            section = nodes.section(ids=[section_id], names=[section_id])
            title = f"[{part}]"
            section += nodes.title(title, title)
            section += _table(["type", "keys: value (default)"], rows, [45, 55])
            out.append(section)
        return out


class RuleOptionsDirective(SphinxDirective):
    """``.. rule-options::``: every named option (an ``Option`` enum) and its values."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        import backalley.rules as rules_pkg
        from backalley.rules.base import Option

        _note_package_sources(self)
        public = {n for n in rules_pkg.__all__ if isinstance(getattr(rules_pkg, n), type)}
        options = sorted(_subclasses(Option), key=lambda c: c.__name__)
        rows: list[list[nodes.Node | str]] = []
        for cls in options:
            if cls.__name__ in public:
                target = f"backalley.rules.{cls.__name__}"
            else:
                target = f"{cls.__module__}.{cls.__qualname__}"
            values = nodes.paragraph()
            members: list[enum.Enum] = list(cls)
            for k, member in enumerate(members):
                if k:
                    values += nodes.Text(", ")
                values += _literal(str(member.value))
            rows.append([_py_ref(target, cls.__name__), values])
        return [_table(["option", "values"], rows, [30, 70])]


def _subclasses(cls: type[enum.Enum]) -> list[type[enum.Enum]]:
    out: list[type[enum.Enum]] = []
    subs: list[type[enum.Enum]] = cls.__subclasses__()
    for sub in subs:
        out.append(sub)
        out.extend(_subclasses(sub))
    return out


# -- completeness of the API reference -------------------------------------------


def _resolve(name: str) -> Any:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


class PublicNamesDirective(SphinxDirective):
    """``.. public-names:: MODULE``: autodoc for public names not yet documented."""

    required_arguments = 1
    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {"exclude": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        modname = self.arguments[0]
        module = importlib.import_module(modname)
        _note_package_sources(self)
        excluded = set((self.options.get("exclude") or "").replace(",", " ").split())
        domain = self.env.get_domain("py")
        documented_ids = set()
        for fullname, *_ in domain.get_objects():
            obj = _resolve(fullname)
            if obj is not None:
                documented_ids.add(id(obj))
        try:
            attr_docs = ModuleAnalyzer.for_module(modname).find_attr_docs()
        except PycodeError:
            attr_docs = {}
        lines: list[str] = []
        for name in getattr(module, "__all__", ()):
            if name.startswith("_") or name in excluded:
                continue
            obj = getattr(module, name)
            if isinstance(obj, types.ModuleType) or id(obj) in documented_ids:
                continue
            if inspect.isclass(obj) and issubclass(obj, BaseException):
                kind = "autoexception"
            elif inspect.isclass(obj):
                kind = "autoclass"
            elif inspect.isfunction(obj) or inspect.isbuiltin(obj):
                kind = "autofunction"
            else:
                kind = "autodata"
            if kind == "autodata" and ("", name) not in attr_docs:
                # autodoc would show the docstring of the value's type (dict, tuple...)
                lines.append(f".. py:data:: {name}")
                lines.append(f"   :module: {modname}")
            else:
                lines.append(f".. {kind}:: {modname}.{name}")
                if kind == "autodata":
                    lines.append("   :no-value:")
                if kind == "autoexception":
                    lines.append("   :show-inheritance:")
            lines.append("")
        if not lines:
            return []
        heading = f"More public names of {modname}"
        container = nodes.container(classes=["backalley-public-names"])
        container += nodes.rubric(heading, heading)
        content = StringList(lines, source=f"<public-names {modname}>")
        nested_parse_with_titles(self.state, content, container)
        return [container]


# -- autodoc tidying ---------------------------------------------------------------


def _hide_signature(
    app: Sphinx,
    what: str,
    name: str,
    obj: Any,
    options: Any,
    signature: str | None,
    ret: str | None,
) -> tuple[str, str] | None:
    """No constructor signature for the classes in ``backalley_hide_signatures``;
    attrs' ``NOTHING`` (a default made by a factory) shown as ``...``."""
    if what in ("class", "exception") and name in app.config.backalley_hide_signatures:
        return ("", "")
    if signature and "=NOTHING" in signature:
        return (re.sub(r"=NOTHING\b", "=...", signature), ret or "")
    return None


# -- pictures of positions ----------------------------------------------------------


def _pictures(env: Any) -> dict[str, dict[str, str]]:
    """The SVG files of every page: ``{docname: {file name: svg}}`` (kept in the env)."""
    if not hasattr(env, "backalley_pictures"):
        env.backalley_pictures = {}
    pictures: dict[str, dict[str, str]] = env.backalley_pictures
    return pictures


def _picture_node(directive: SphinxDirective, svg: str, alt: str) -> nodes.raw:
    """An ``<img>`` of ``svg``, whose file is written into the build's ``_images``."""
    docname = directive.env.docname
    count = directive.env.temp_data.get("backalley_picture_count", 0) + 1
    directive.env.temp_data["backalley_picture_count"] = count
    name = f"backalley-{re.sub(r'[^A-Za-z0-9]+', '-', docname)}-{count}.svg"
    _pictures(directive.env).setdefault(docname, {})[name] = svg
    _note_package_sources(directive)
    src = "../" * docname.count("/") + "_images/" + name
    alt_text = alt.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    html = (
        f'<p class="backalley-picture"><img src="{src}" alt="{alt_text}" '
        f'style="width: 100%; max-width: 480px"/></p>'
    )
    return nodes.raw("", html, format="html")


def _alt(svg: str) -> str:
    found = re.search(r"<title>(.*?)</title>", svg)
    return found.group(1) if found else "a position"


class PositionDirective(SphinxDirective):
    """``.. backalley-position::``: the picture of a real position (see the module docstring)."""

    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "variant": directives.unchanged,
        "seed": directives.nonnegative_int,
        "moves": directives.nonnegative_int,
        "seat": directives.nonnegative_int,
        "legal": directives.flag,
        "last": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        import random

        import backalley as ba
        from backalley.render.svg import board

        seed = self.options.get("seed", 0)
        try:
            state = ba.new_game(
                ba.variants.get(self.options.get("variant", "gamerules")), seed=seed
            )
            rng = random.Random(seed)
            last = None
            for _ in range(self.options.get("moves", 0)):
                if state.is_over:
                    break
                last = rng.choice(state.legal_moves())
                state = state.apply(last)
            position: Any = state
            if "seat" in self.options:
                position = state.view(self.options["seat"])
            svg = board(
                position,
                legal="legal" in self.options,
                highlight=last if "last" in self.options else None,
            )
        except ba.BackAlleyError as exc:
            raise self.error(f"backalley-position: {exc}") from None
        out: list[nodes.Node] = [_picture_node(self, svg, _alt(svg))]
        if self.content:
            caption = nodes.container(classes=["backalley-caption"])
            self.state.nested_parse(self.content, self.content_offset, caption)
            out.append(caption)
        return out


class RunDirective(SphinxDirective):
    """``.. backalley-run::``: a notebook cell (see the module docstring)."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        import ast
        import contextlib
        import io

        code = "\n".join(self.content)
        namespace = self.env.temp_data.setdefault("backalley_namespace", {"__name__": "__main__"})
        tree = ast.parse(code)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        printed = io.StringIO()
        value: Any = None
        try:
            with contextlib.redirect_stdout(printed):
                exec(compile(tree, f"<{self.env.docname}>", "exec"), namespace)
                if last is not None:
                    value = eval(
                        compile(ast.Expression(last.value), f"<{self.env.docname}>", "eval"),
                        namespace,
                    )
        except Exception as exc:  # a failing cell is a documentation error
            raise self.error(f"backalley-run: {type(exc).__name__}: {exc}") from None
        _note_package_sources(self)
        out: list[nodes.Node] = [
            nodes.literal_block(code, code, language="python", classes=["backalley-cell"])
        ]
        text = printed.getvalue()
        if value is not None and not hasattr(value, "_repr_svg_"):
            text += repr(value) + "\n"
        if text:
            out.append(
                nodes.literal_block(text, text, language="text", classes=["backalley-output"])
            )
        if value is not None and hasattr(value, "_repr_svg_"):
            svg = value._repr_svg_()
            out.append(_picture_node(self, svg, _alt(svg)))
        return out


def _purge_pictures(app: Sphinx, env: Any, docname: str) -> None:
    _pictures(env).pop(docname, None)


def _merge_pictures(app: Sphinx, env: Any, docnames: set[str], other: Any) -> None:
    theirs = _pictures(other)
    for docname in docnames:
        if docname in theirs:
            _pictures(env)[docname] = theirs[docname]


def _write_pictures(app: Sphinx, exception: Exception | None) -> None:
    """Write every page's pictures into ``_images`` of an HTML build."""
    if exception is not None or app.builder.format != "html":
        return
    from pathlib import Path

    target = Path(app.outdir) / "_images"
    target.mkdir(parents=True, exist_ok=True)
    for files in _pictures(app.env).values():
        for name, svg in files.items():
            (target / name).write_text(svg, encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("backalley_hide_signatures", [], "env", types=[list])
    app.connect("autodoc-process-signature", _hide_signature)
    app.add_directive("rules-sheet", RulesSheetDirective)
    app.add_directive("rule-parts", RulePartsDirective)
    app.add_directive("rule-options", RuleOptionsDirective)
    app.add_directive("house-rule-keys", HouseRuleKeysDirective)
    app.add_directive("public-names", PublicNamesDirective)
    app.add_directive("backalley-position", PositionDirective)
    app.add_directive("backalley-run", RunDirective)
    app.connect("env-purge-doc", _purge_pictures)
    app.connect("env-merge-info", _merge_pictures)
    app.connect("build-finished", _write_pictures)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
