"""The package's shape, read from its source: no rule part keeps a second,
hand-written fast form of its rule; only the builders of values write into
them; no reader swallows every exception; no module keeps mutable state at
module level beyond the tables a rule set's plan owns."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from .. import ROOT

PACKAGE = ROOT / "backalley"
MODULES = sorted(PACKAGE.rglob("*.py"))


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _name(path: Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


@pytest.mark.parametrize("path", sorted((PACKAGE / "rules").rglob("*.py")), ids=_name)
def test_no_rule_part_defines_a_fast_form_of_its_rule(path: Path) -> None:
    """No class under ``rules/`` has a ``compile`` hook or a method that
    returns a function: each rule is its protocol method, nothing beside it."""
    for node in ast.walk(_tree(path)):
        if not isinstance(node, ast.ClassDef):
            continue
        for method in node.body:
            if not isinstance(method, ast.FunctionDef):
                continue
            assert method.name != "compile", f"{_name(path)}: {node.name}.compile"
            nested = {
                n.name
                for n in ast.walk(method)
                if isinstance(n, ast.FunctionDef) and n is not method
            }
            for ret in ast.walk(method):
                if isinstance(ret, ast.Return) and ret.value is not None:
                    returned = ret.value
                    assert not isinstance(returned, ast.Lambda), (
                        f"{_name(path)}: {node.name}.{method.name}"
                    )
                    assert not (isinstance(returned, ast.Name) and returned.id in nested), (
                        f"{_name(path)}: {node.name}.{method.name} returns a function"
                    )


BUILDERS: dict[str, set[str]] = {
    # the one builder of the value built on every move, by slot stores, and
    # the cache slot of its legal moves, filled when they are first asked
    "backalley/engine/state.py": {"_state", "_legal_of"},
}
"""The functions allowed to write into frozen instances (their modules may
also look the slot descriptors up once, at module level)."""


def _is_write(node: ast.AST) -> bool:
    if not isinstance(node, ast.Attribute):
        return False
    return node.attr == "__set__" or ast.unparse(node) in ("object.__setattr__", "object.__new__")


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_only_a_values_builder_writes_into_it(path: Path) -> None:
    """Nothing writes into a frozen value but its one builder: attrs' own
    ``__init__`` (with its validators and factories) everywhere, and the few
    builders of values made on every move."""
    tree = _tree(path)
    allowed = BUILDERS.get(_name(path), set())
    inside: set[int] = set()
    for func in ast.walk(tree):
        if isinstance(func, ast.FunctionDef):
            for node in ast.walk(func):
                if _is_write(node):
                    inside.add(id(node))
                    assert func.name in allowed, (
                        f"{_name(path)}:{node.lineno}: {func.name} writes into a frozen value"
                    )
    for node in ast.walk(tree):
        if _is_write(node) and id(node) not in inside:
            assert allowed, f"{_name(path)}:{node.lineno}: a write into frozen values"


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_reader_catches_every_exception(path: Path) -> None:
    """Bad input gets the library's own exception; no code hides all errors
    (an optional extra's import or a cluster probe may catch broadly, commented)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ExceptHandler):
            broad = node.type is None or (
                isinstance(node.type, ast.Name) and node.type.id in ("Exception", "BaseException")
            )
            if broad:
                assert "serialize" not in path.parts and "io" not in path.parts, (
                    f"{_name(path)}:{node.lineno}: a document reader catches every exception"
                )
                assert "#" in lines[node.lineno - 1], (
                    f"{_name(path)}:{node.lineno}: a broad except must say why"
                )


def _mutable(value: ast.expr) -> bool:
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    return isinstance(value, ast.Call) and ast.unparse(value.func) in (
        "dict",
        "list",
        "set",
        "collections.OrderedDict",
        "OrderedDict",
        "IdentityMemo",
        "weakref.WeakValueDictionary",
    )


MUTABLE_AT_MODULE_LEVEL: dict[str, set[str]] = {
    # the registries of named things users add to at import time
    "backalley/rules/registry.py": {"_REGISTRY", "_OPTION_TYPES"},
    "backalley/bots/__init__.py": {"_BOTS", "_FACTORIES"},
    "backalley/variants.py": {"_REGISTRY", "_ALIASES"},
    # the plug-ins a process has loaded (each entry point's function is called once)
    "backalley/plugins.py": {"_LOADED"},
    "backalley/io/serialize/convert.py": {"_KINDS"},
    # the described options of each registered class, filled as classes register
    "backalley/rules/option_types.py": {"_KINDS"},
    # bounded memos of the tools (a bot's and the solver's evaluation tables),
    # not of the rules engine
    "backalley/bots/bidding_model.py": {"_TABLES"},
    "backalley/solver/_search.py": {"_HOLDINGS"},
}


_WRITERS = {
    "clear",
    "update",
    "setdefault",
    "append",
    "pop",
    "popitem",
    "add",
    "extend",
    "insert",
    "discard",
    "remove",
}


def _written(tree: ast.Module, name: str) -> bool:
    """Whether a function of the module writes into its module-level ``name``
    (a table filled by a loop at import time is built, not written)."""
    functions = [
        f for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    for node in (n for f in functions for n in ast.walk(f)):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for target in targets:
                if isinstance(target, ast.Subscript) and ast.unparse(target.value) == name:
                    return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _WRITERS
            and ast.unparse(node.func.value) == name
        ):
            return True
        if isinstance(node, ast.Global) and name in node.names:
            return True
    return False


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_module_keeps_a_mutable_cache(path: Path) -> None:
    """Module-level tables are built once and only read; what is remembered
    lives in a rule set's plan (bounded) or in a registry users add to."""
    allowed = MUTABLE_AT_MODULE_LEVEL.get(_name(path), set())
    tree = _tree(path)
    for node in tree.body:
        targets: list[ast.expr] = []
        value = None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        if value is None or not _mutable(value):
            continue
        for target in targets:
            name = ast.unparse(target)
            if name in allowed:
                continue
            assert not _written(tree, name), (
                f"{_name(path)}:{node.lineno}: module-level cache {name}"
            )


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_only_the_kernel_builds_a_games_raw_form(path: Path) -> None:
    """A game's match and deal are built by the step kernel alone: every way
    of starting or moving a game on goes through it."""
    if _name(path) == "backalley/engine/kernel.py":
        return
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Call):
            name = ast.unparse(node.func).rsplit(".", 1)[-1]
            assert name not in ("Match", "Deal"), (
                f"{_name(path)}:{node.lineno}: {name}(...) outside the kernel"
            )


CACHED_FUNCTIONS: dict[str, set[str]] = {
    # bounded memos of the tools and adapters (not of the engine or the rules)
    "backalley/bots/match.py": {"one_deal"},
    # a trick model's data file, read once per file (a few at most)
    "backalley/bots/trick_model.py": {"_load"},
    "backalley/solver/_plan.py": {"*"},
    "backalley/io/vectors.py": {"*"},
    "backalley/adapters/openspiel.py": {"*"},
    "backalley/adapters/track.py": {"_deck", "_actions"},
    # the documents' schema and the OpenAPI document, generated from the
    # registry and kept by what is registered (a few at most)
    "backalley/io/schema/__init__.py": {"_text"},
    "backalley/server/openapi.py": {"_document_text"},
}


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_function_keeps_a_cache_but_the_listed_ones(path: Path) -> None:
    """``functools`` caches are module-level state too: only the listed,
    bounded memos of the tools keep one; nothing keys a table by ``id()``."""
    allowed = CACHED_FUNCTIONS.get(_name(path), set())
    tree = _tree(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                text = ast.unparse(dec)
                if "cache" in text:
                    assert "*" in allowed or node.name in allowed, (
                        f"{_name(path)}:{node.lineno}: {node.name} keeps a cache ({text})"
                    )
        is_id = isinstance(node, ast.Call) and ast.unparse(node.func) == "id"
        assert not is_id, f"{_name(path)}:{node.lineno}: id() (an identity memo?)"


TOOLS = ("bots", "solver", "sim", "batch", "cli", "server", "adapters", "render", "io", "web")
"""The folders of the tools and the layers above the engine: they read
positions through ``backalley.engine.lowlevel`` and the public API."""

RAW_TRUMP_NAMES = frozenset({"TRUMP_INDEX", "TRUMP_OF_INDEX", "NO_TRUMP", "trump_index"})


@pytest.mark.parametrize(
    "path", [p for p in MODULES if p.relative_to(PACKAGE).parts[0] in TOOLS], ids=_name
)
def test_a_tool_takes_the_trump_as_a_suit_not_a_number(path: Path) -> None:
    """Suits, not integers, cross the door: no tool reads the engine's trump
    numbers (a tool that keeps one row per trump takes the row from
    ``lowlevel.TRUMPS``)."""
    for node in ast.walk(_tree(path)):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.Attribute):
            names = [node.attr]
        elif isinstance(node, ast.Name):
            names = [node.id]
        for name in names:
            assert name not in RAW_TRUMP_NAMES, f"{_name(path)}:{node.lineno}: {name}"


def test_tools_have_one_door_to_the_engine() -> None:
    """No tool keeps an adapter module of its own between it and the engine
    (``lowlevel`` is the one read-only interface to positions), and no two
    modules of the engine's door share a name with another module."""
    for folder in TOOLS:
        for path in (PACKAGE / folder).rglob("*.py"):
            assert path.stem != "_rules", _name(path)
    door = {p.stem for p in (PACKAGE / "engine" / "lowlevel").glob("*.py")} - {"__init__"}
    others = {p.stem for p in MODULES if "lowlevel" not in p.parts}
    assert not door & others


ENGINE_INSIDE = ("kernel", "public", "sampling", "lowlevel.")
"""The engine's modules a tool does not import: its step kernel, the facts
states and views share, the deprecated home of the sampler, and the door's
own modules (a tool imports ``lowlevel`` itself)."""


@pytest.mark.parametrize(
    "path",
    [p for p in MODULES if p.relative_to(PACKAGE).parts[0] in TOOLS and "io" not in p.parts],
    ids=_name,
)
def test_a_tool_reaches_the_engine_through_the_door(path: Path) -> None:
    """A tool reads positions through the public API and
    ``backalley.engine.lowlevel`` alone, never the kernel or another module
    of the engine's inside (the documents' reader in ``io/`` replays through
    the kernel, as every way of moving a game on does)."""
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("backalley.engine"):
            if node.module == "backalley.engine":
                modules = [a.name for a in node.names]
            else:
                modules = [(node.module or "").removeprefix("backalley.engine.")]
            for module in modules:
                assert module == "lowlevel" or not f"{module}.".startswith(ENGINE_INSIDE), (
                    f"{_name(path)}:{node.lineno}: backalley.engine.{module}"
                )


LONG = 500
"""A module longer than this many lines says in its docstring why it is one job."""
GENERATED = {"backalley/bots/_tricks_table.py", "backalley/bots/_tricks_exact.py"}
"""Modules a script writes (their docstring says which)."""


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_a_long_module_says_why_it_is_one_job(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").count("\n")
    if lines <= LONG or _name(path) in GENERATED:
        return
    doc = ast.get_docstring(_tree(path)) or ""
    assert "one job" in " ".join(doc.split()), (
        f"{_name(path)} has {lines} lines: say in its docstring why it is one job, or split it"
    )
