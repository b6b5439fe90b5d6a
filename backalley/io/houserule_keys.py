"""The keys of a house-rules file, read from the registry: for every rule
part, the values its ``type`` key may take and, for each, the keys of its
table with their value types and defaults.

A part's types are its registered tags (:func:`backalley.rules.register`)
and the *forms* its classes offer: a class may name, in a class attribute
``forms``, classmethods that build the part from a few options of their own
(the schedule's ``fixed``, ``down-and-up`` and ``up-and-down``, after
:meth:`Schedule.fixed <backalley.rules.Schedule.fixed>` ...).  A form's
name is its method's name with ``-`` for ``_``; a registered tag of the same
part takes precedence over a form of that name.

:func:`reference` is the whole vocabulary, as data (the documentation's key
reference and ``backalley rules --keys`` are made from it);
:func:`table_types` that of one part.
"""

from __future__ import annotations

import inspect
import json
import re
import typing
from collections.abc import Callable
from typing import Any

import attrs

from backalley.errors import RuleSetError, SerializationError
from backalley.rules.option_types import OptionType, OptionTypeError, describe
from backalley.rules.registry import PART_NAMES, option_kinds, option_types, part_classes
from backalley.rules.ruleset import RuleSet

__all__ = [
    "Key",
    "TableType",
    "reference",
    "reference_text",
    "table_types",
    "plain",
    "toml_key",
    "toml_text",
    "toml_value",
    "value_words",
]

REQUIRED = "required"
"""The default text of a key that has no default: the table must give it."""


@attrs.frozen
class Key:
    """One key of a part's table: its name, its value type (as Python
    declares it, and described: :class:`~backalley.rules.option_types.OptionType`,
    which reads it, writes it and says it in words) and its default
    (``attrs.NOTHING``: none, the key is required)."""

    name: str
    type: Any = attrs.field(eq=False)
    default: Any = attrs.field(eq=False)
    kind: OptionType = attrs.field(eq=False, repr=False)

    @property
    def required(self) -> bool:
        return self.default is attrs.NOTHING

    @property
    def words(self) -> str:
        """The value a file gives, in words (``true or false``, ``a whole number``)."""
        return self.kind.words()

    @property
    def default_text(self) -> str:
        """The default as a file would write it (``13``, ``"redeal-next-dealer"``,
        ``[1, 2, 3, 4]``), ``none`` for none, or ``required``."""
        if self.required:
            return REQUIRED
        return toml_text(self.kind.write(self.default))


@attrs.frozen
class TableType:
    """One value of a part's ``type`` key and the keys its table takes.

    ``name`` is what the file writes (``type = "fixed"``); ``builds`` names
    what it builds (``Schedule`` for a registered type, ``Schedule.fixed``
    for a form); ``tag`` is the registered tag of the part it builds;
    ``is_default``: it is the part of the default rule set.  ``build`` makes
    the part from the keys' values, read (keyword arguments).
    """

    part: str
    name: str
    tag: str
    builds: str
    summary: str
    keys: tuple[Key, ...]
    is_form: bool
    is_default: bool
    build: Callable[..., Any] = attrs.field(eq=False, repr=False)

    def key(self, name: str) -> Key | None:
        """The key ``name`` of this table, or ``None`` when it has none such."""
        return next((k for k in self.keys if k.name == name), None)


def table_types(part: str) -> dict[str, TableType]:
    """Every value the ``type`` key of part ``part`` may take: its registered
    tags (in the order registered), then its classes' forms."""
    default_tag = getattr(RuleSet(), part).tag
    out: dict[str, TableType] = {}
    classes = part_classes(part)
    for tag, cls in classes.items():
        out[tag] = TableType(
            part=part,
            name=tag,
            tag=tag,
            builds=cls.__qualname__,
            summary=_summary(cls),
            keys=_option_keys(cls),
            is_form=False,
            is_default=tag == default_tag,
            build=cls,
        )
    for tag, cls in classes.items():
        for method_name in getattr(cls, "forms", ()):
            name = method_name.replace("_", "-")
            method = getattr(cls, method_name, None)
            if name in out or not callable(method):
                continue
            out[name] = TableType(
                part=part,
                name=name,
                tag=tag,
                builds=f"{cls.__qualname__}.{method_name}",
                summary=_summary(method),
                keys=_parameter_keys(method),
                is_form=True,
                is_default=False,
                build=method,
            )
    return out


def reference() -> tuple[TableType, ...]:
    """Every type of every part, part by part in the order of a rules sheet
    (:data:`~backalley.rules.PART_NAMES`): what a house-rules file may write."""
    return tuple(t for part in PART_NAMES for t in table_types(part).values())


def reference_text() -> str:
    """:func:`reference` as plain text: one block per part, one line per type
    and one per key (``  min_bid = a whole number (default 1)``)."""
    lines: list[str] = []
    for part in PART_NAMES:
        lines.append(f"[{part}]")
        for kind in table_types(part).values():
            notes = [f"builds {kind.builds}"] + (["the default"] if kind.is_default else [])
            lines.append(f'  type = "{kind.name}"  ({"; ".join(notes)}): {plain(kind.summary)}')
            for key in kind.keys:
                shown = "required" if key.required else f"default {key.default_text}"
                lines.append(f"    {key.name} = {key.words} ({shown})")
            if not kind.keys:
                lines.append("    (no other keys)")
        lines.append("")
    return "\n".join(lines)


def _summary(obj: object) -> str:
    """The first sentence of ``obj``'s docstring, on one line (as written:
    reStructuredText; :func:`plain` reads it as text)."""
    doc = inspect.getdoc(obj) or ""
    first = " ".join(doc.split("\n\n")[0].split())
    depth = 0
    for i, char in enumerate(first):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "." and depth <= 0 and first[i + 1 : i + 3][:1] == " ":
            following = first[i + 2 : i + 3]
            if following.isupper() or following in "`:":
                return first[: i + 1]
    return first


_SEE = re.compile(r"\s*\(see :ref:`[^`]*`\)")
_ROLE = re.compile(r":[a-z:]+:`~?([^`<]*?)(?:\s*<[^>]*>)?`")


def plain(text: str) -> str:
    """reStructuredText of a docstring as plain text: ``(see :ref:`...`)``
    left out, a role's target and ````literal```` marks dropped."""
    text = _SEE.sub("", text)
    text = _ROLE.sub(lambda m: m.group(1), text)
    return text.replace("``", "")


def _option_keys(cls: type) -> tuple[Key, ...]:
    types_of = option_types(cls)
    kinds = option_kinds(cls)
    keys = []
    for field in attrs.fields(cls):
        default = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = default.factory()
        keys.append(Key(field.name, types_of[field.name], default, kinds[field.name]))
    return tuple(keys)


def _parameter_keys(method: Callable[..., Any]) -> tuple[Key, ...]:
    """The keys of a form: its method's parameters (``cls`` bound already)."""
    try:
        hints = typing.get_type_hints(method)
    except (NameError, AttributeError, TypeError, SyntaxError) as exc:  # a bad annotation
        raise RuleSetError([f"{method.__qualname__}: its parameters' types: {exc}"]) from None
    keys = []
    for name, parameter in inspect.signature(method).parameters.items():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        empty = parameter.default is inspect.Parameter.empty
        tp = hints.get(name, Any)
        try:
            kind = describe(tp)
        except OptionTypeError as exc:
            raise RuleSetError(
                [f"{method.__qualname__}: its parameter {name!r} ({exc.tp}): {exc.why}"]
            ) from None
        keys.append(Key(name, tp, attrs.NOTHING if empty else parameter.default, kind))
    return tuple(keys)


def value_words(tp: Any, *, plural: bool = False) -> str:
    """What a file writes for a value of type ``tp``, in words: ``true or
    false``, ``a whole number``, ``one of "any-time", "after-broken"``, ``a
    list of whole numbers``, ``a table {hand_size = a whole number, ...}``
    (the words of its :func:`~backalley.rules.option_types.describe`)."""
    return describe(tp).words(plural=plural)


def toml_text(value: Any) -> str:
    """A plain value (as a document holds it) as TOML writes it
    (:func:`toml_value`), and ``none`` for none (which TOML cannot write)."""
    return "none" if value is None else toml_value(value)


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_key(key: str) -> str:
    """A key in TOML: bare (``hand_size``) where TOML allows it, else quoted."""
    return key if _BARE_KEY.fullmatch(key) else toml_value(key)


def toml_value(value: Any) -> str:
    """A plain value (as a document holds it: text, a whole number, true or
    false, a list, a table) in TOML; a table's fields that are ``None`` are
    left out, and ``None`` anywhere else raises
    :class:`~backalley.SerializationError` (TOML has no null).

    Written here rather than by a TOML writer package (``tomli-w``): the
    library's runtime dependencies are attrs and cattrs alone, this writes
    only the few kinds of value a document holds, and the tests read what it
    writes back with the standard TOML reader (``tomllib``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        # JSON's escapes are TOML's, except for characters beyond the BMP (surrogate
        # pairs): write every character as itself and escape only what TOML requires,
        # and DEL, which JSON writes as itself but TOML forbids
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):  # a structured option: an inline table, its None fields left out
        inner = ", ".join(
            f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items() if v is not None
        )
        return f"{{ {inner} }}"
    if value is None:
        raise SerializationError(
            "TOML has no null for an item of a list; write these rules as JSON"
        )
    raise TypeError(value)  # pragma: no cover
