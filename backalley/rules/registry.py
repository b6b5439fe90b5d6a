"""The open registry of rule parts: every policy class, built-in or a user's,
is registered under its rule part and a stable tag.

A rule written in a user's own code becomes a full citizen by one decorator::

    @backalley.rules.register
    @attrs.frozen
    class MustTrumpWhenVoid(FollowPolicy):
        tag = "my-club/must-trump"
        part = "follow"
        ...

It then validates when composed into a :class:`~backalley.RuleSet`, shows in the
rules sheet through its own ``describe()``, and is read back from JSON, TOML,
game records and views by its tag.  Its options' types are resolved once, when
it is registered, and kept here for the documents; an option they could not
read back is refused then, by name, rather than when a document is loaded.
"""

from __future__ import annotations

import inspect
import re
import sys
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

import attrs

from backalley.errors import Reason, RuleSetError
from backalley.rules.option_types import (
    OPTION_TYPES_TEXT,
    OptionType,
    OptionTypeError,
    describe,
    kinds_of,
    remember,
)

__all__ = [
    "PART_NAMES",
    "claims_part",
    "is_frozen",
    "is_registered",
    "lookup",
    "option_kinds",
    "option_types",
    "part_classes",
    "register",
    "register_reason",
    "registered_parts",
    "tag_of",
]

PART_NAMES: tuple[str, ...] = (
    "deck",
    "seating",
    "schedule",
    "dealer",
    "trump",
    "bidding",
    "lead",
    "follow",
    "ranking",
    "scoring",
    "end",
)
"""The rule parts of a rule set, in the order of a rules sheet."""

_TAG = re.compile(r"^[a-z0-9][a-z0-9._/-]{0,63}$")
_REGISTRY: dict[str, dict[str, type]] = {part: {} for part in PART_NAMES}
_REQUIRED = ("describe",)
_OPTION_TYPES: dict[type, dict[str, Any]] = {}
"""The resolved type of each option of every registered class, and of every
structured option class (an attrs class held in an option) they hold: filled
by :func:`register`, read by the rule-set documents."""

C = TypeVar("C", bound=Any)


def register(cls: C) -> C:
    """Class decorator: register a rule part class under ``cls.part`` and ``cls.tag``.

    The class must be a frozen attrs class (a value: hashable, comparable),
    name its rule part (one of :data:`PART_NAMES`) and a tag of lower-case
    letters, digits and ``. _ / -`` (at most 64 characters; a user's rules
    may use a prefix such as ``"myclub/..."``), and implement ``describe()``.
    Registering the same class twice is harmless; a second class under a tag
    already taken raises :class:`~backalley.RuleSetError`.

    Every option (attrs field) must be an ``__init__`` parameter under its own
    name, with a type annotation that resolves when the class is registered
    and a type that the rule-set documents write and read back equal (see
    :ref:`custom-rules-option-types`); any other option is refused, by name,
    with a :class:`~backalley.RuleSetError`.  The resolved types are kept
    (``backalley.rules.registry.option_types``).
    """
    problems = _registration_problems(cls)
    tables: dict[type, dict[str, Any]] = {}
    if not problems:
        problems = _option_problems(cls, tables, cls.__qualname__, "")
    if problems:
        raise RuleSetError(problems)
    table = _REGISTRY[cls.part]
    taken = table.get(cls.tag)
    if taken is not None and taken is not cls:
        raise RuleSetError(
            [
                f"{cls.part}: the tag {cls.tag!r} is taken by {taken.__module__}.{taken.__qualname__}; "
                f"choose another tag for {cls.__qualname__}"
            ]
        )
    table[cls.tag] = cls
    for described, options in tables.items():
        _OPTION_TYPES[described] = {name: tp for name, (tp, _) in options.items()}
        remember(described, {name: kind for name, (_, kind) in options.items()})
    return cls


def register_reason(tag: str, sentence: str) -> Reason:
    """Register a reason a user's rule refuses with, by ``tag``, and return it.

    The answer is a :class:`~backalley.Reason` like the built-in ones: a rule
    part returns it in its restrictions or refusals, and ``explain`` tells it
    apart with ``is``; its ``name`` is ``tag``, the code that views, refusals,
    the command line, the server and the JavaScript API write, and its
    ``value`` is ``sentence``, what the rule is.  The tag is spelt as a part's
    (lower-case letters, digits and ``. _ / -``, at most 64 characters; a
    prefix of your own, such as ``"ourclub/..."``, keeps it apart).  Call it
    where the rule is defined, beside :func:`register`::

        NO_ACE_DISCARDS = register_reason(
            "ourclub/no-ace-discards", "a player who cannot follow may not discard an ace"
        )

    Registering the same tag with the same sentence again answers the same
    reason (a module imported twice); a tag taken by another sentence, or one
    that spells a built-in reason's name (``"must-follow-suit"``), raises
    :class:`~backalley.RuleSetError`.
    """
    if not isinstance(tag, str) or not _TAG.match(tag):
        raise RuleSetError(
            [
                "a reason's tag is lower-case letters, digits and . _ / - (at most 64 "
                f"characters, such as 'ourclub/no-ace-discards'), not {tag!r}"
            ]
        )
    if not isinstance(sentence, str) or not sentence.strip():
        raise RuleSetError(
            [f"the reason {tag!r} needs a sentence saying the rule, not {sentence!r}"]
        )
    taken = Reason.__members__.get(tag)
    if taken is not None and taken.value == sentence:
        return taken
    if taken is not None:
        raise RuleSetError(
            [
                f"the reason tag {tag!r} is taken by another rule ({taken.value!r}); "
                "choose another tag"
            ]
        )
    spelt = re.sub(r"[^A-Z0-9]", "_", tag.upper())
    built_in = next((r for r in Reason if r.built_in and r.name == spelt), None)
    if built_in is not None:
        raise RuleSetError(
            [
                f"the reason tag {tag!r} spells the built-in reason {built_in.name} "
                f"({built_in.value!r}); refuse with Reason.{built_in.name} itself, or choose "
                "a tag of your own (such as 'ourclub/...')"
            ]
        )
    return Reason._add(tag, sentence)


def option_kinds(cls: type) -> Mapping[str, OptionType]:
    """The options of a registered class (or of a table one of them holds),
    described (:class:`~backalley.rules.option_types.OptionType`): how each is
    read, written, said, typed and shown; any other class raises
    :class:`~backalley.RuleSetError`."""
    return kinds_of(cls)


def option_types(cls: type) -> Mapping[str, Any]:
    """The options of a registered class (or of a structured option class one
    of them holds) and their types, resolved when it was registered (a read-only
    view); any other class raises :class:`~backalley.RuleSetError`."""
    table = _OPTION_TYPES.get(cls)
    if table is None:
        name = getattr(cls, "__qualname__", repr(cls))
        raise RuleSetError([f"{name} is not a registered rule part (nor an option one holds)"])
    return types.MappingProxyType(table)


def _option_problems(
    cls: type, tables: dict[type, dict[str, Any]], owner: str, prefix: str
) -> list[str]:
    """Why the options of ``cls`` cannot be carried by a rules document (none:
    they can); their resolved types and descriptions go into ``tables`` (and
    :func:`~backalley.rules.option_types.remember`), and so do those of the
    tables (attrs classes) they hold (checked the same way, once).
    ``owner`` names the registered class; ``prefix`` the option holding ``cls``."""
    if cls in tables or cls in _OPTION_TYPES:
        return []
    tables[cls] = {}
    return [
        problem
        for field in attrs.fields(cls)
        for problem in _field_problems(cls, field, tables, owner, prefix)
    ]


def _field_problems(
    cls: type,
    field: attrs.Attribute[Any],
    tables: dict[type, dict[str, Any]],
    owner: str,
    prefix: str,
) -> list[str]:
    """Why a rules document cannot carry the option ``field`` of ``cls``: it
    must be an ``__init__`` parameter under its own name, its annotation must
    resolve now, and its type must be one a document carries.  None: it can,
    and its resolved type and description go into ``tables[cls]``."""
    where = f"{owner}: option {prefix + field.name!r}"
    if not field.init or field.alias != field.name:
        return [f"{where} must be an __init__ parameter under its own name"]
    if field.type is None:
        return [f"{where} has no type annotation; an option may be {OPTION_TYPES_TEXT}"]
    try:
        tp = _resolved_type(cls, field)
    except Exception as exc:  # NameError, AttributeError, SyntaxError...: any bad annotation
        return [_unresolved(where, field.type, exc)]
    try:
        kind = describe(tp, field.validator)
    except OptionTypeError as exc:
        return [f"{where} is {_type_text(exc.tp)}: {exc.why}; an option may be {OPTION_TYPES_TEXT}"]
    tables[cls][field.name] = (tp, kind)
    return [
        problem
        for table in kind.tables()
        for problem in _option_problems(table, tables, owner, f"{prefix}{field.name}.")
    ]


def _resolved_type(cls: type, field: attrs.Attribute[Any]) -> Any:
    """The type of one field, its annotation resolved as :func:`typing.get_type_hints`
    would: in the module of the class that declares it, then that class's own
    names; the class's own name resolves to the class (which its module does
    not hold yet while it is being decorated)."""
    declaring = next(
        (base for base in cls.__mro__ if field.name in inspect.get_annotations(base)), cls
    )
    probe = type("_Option", (), {"__annotations__": {field.name: field.type}})
    module = sys.modules.get(declaring.__module__)
    names = {**vars(declaring), **(vars(module) if module is not None else {})}
    scope = {declaring.__name__: declaring, cls.__name__: cls}
    return typing.get_type_hints(probe, names, scope)[field.name]


def _unresolved(where: str, annotation: object, exc: Exception) -> str:
    """Why an annotation that does not resolve at registration is refused, and the cure."""
    return (
        f"{where}: its type {annotation!r} cannot be resolved when the class is registered "
        f"({type(exc).__name__}: {exc}); import what it names at run time (not only under "
        "`if TYPE_CHECKING:`) and define it at module level, before the class"
    )


def _type_text(tp: Any) -> str:
    """A type as a reader writes it: ``float``, ``list[int]``, ``int | str``."""
    return tp.__qualname__ if isinstance(tp, type) and not typing.get_args(tp) else str(tp)


_PROBE = "_backalley_frozen_probe"
"""The attribute :func:`is_frozen` tries to set (no class has it)."""


def is_frozen(cls: type) -> bool:
    """Whether ``cls`` is a frozen attrs class, judged by what its instances do.

    A bare instance (``cls.__new__(cls)``, no ``__init__`` run) is asked to
    take an attribute: a frozen attrs class refuses with
    :class:`attrs.exceptions.FrozenInstanceError`; a class that is not frozen
    takes it, or (slotted) refuses with a plain :class:`AttributeError`.  No
    private name of attrs is read.
    """
    if not isinstance(cls, type) or not attrs.has(cls):
        return False
    try:
        probe = cls.__new__(cls)
    except Exception:  # a __new__ that needs arguments: not a value class we can use
        return False
    try:
        setattr(probe, _PROBE, None)
    except attrs.exceptions.FrozenInstanceError:
        return True
    except Exception:  # AttributeError (slotted) or a custom __setattr__'s refusal
        return False
    return False


def _registration_problems(cls: Any) -> list[str]:
    name = getattr(cls, "__qualname__", repr(cls))
    if not isinstance(cls, type) or not attrs.has(cls):
        return [f"{name}: a rule part must be an attrs class (@attrs.frozen)"]
    part = cls.__dict__.get("part", getattr(cls, "part", None))
    if part not in _REGISTRY:
        return [f"{name}: `part` must be one of {', '.join(PART_NAMES)}, got {part!r}"]
    tag = cls.__dict__.get("tag")
    if not isinstance(tag, str) or not _TAG.match(tag):
        return [
            f"{name}: a rule part needs its own `tag`, lower-case letters, digits and . _ / - "
            f"(set `tag` on the class itself), got {tag!r}"
        ]
    problems = []
    if not is_frozen(cls):
        problems.append(f"{name}: a rule part must be frozen (@attrs.frozen)")
    for method in _REQUIRED:
        if not callable(getattr(cls, method, None)):
            problems.append(f"{name}: a rule part must implement {method}()")
    return problems


def part_classes(part: str) -> dict[str, type]:
    """The registered classes of one rule part, by tag (a copy)."""
    if part not in _REGISTRY:
        raise RuleSetError(
            [f"there is no rule part {part!r}; the parts are {', '.join(PART_NAMES)}"]
        )
    return dict(_REGISTRY[part])


def registered_parts() -> dict[str, dict[str, type]]:
    """Every registered class, by part and tag (copies)."""
    return {part: dict(table) for part, table in _REGISTRY.items()}


def lookup(part: str, tag: object) -> type:
    """The class registered as ``tag`` for ``part``; an unknown tag raises
    :class:`~backalley.RuleSetError` listing the known ones."""
    table = _REGISTRY.get(part)
    if table is None:
        raise RuleSetError(
            [f"there is no rule part {part!r}; the parts are {', '.join(PART_NAMES)}"]
        )
    cls = table.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise RuleSetError([f"{part}: unknown type {tag!r}; known: {', '.join(sorted(table))}"])
    return cls


def claims_part(value: object) -> bool:
    """Whether ``value`` is meant as a rule part (its class names a part),
    registered or not: for error messages that say what is missing."""
    return getattr(type(value), "part", None) in _REGISTRY


def tag_of(cls: type) -> str:
    """The tag a registered class is saved under (its name if it has none)."""
    tag = cls.__dict__.get("tag")
    return tag if isinstance(tag, str) else cls.__name__


def is_registered(value: object) -> bool:
    """Whether ``value`` is an instance of a registered class (under its own tag)."""
    cls = type(value)
    part = getattr(cls, "part", None)
    table = _REGISTRY.get(part) if isinstance(part, str) else None
    tag = cls.__dict__.get("tag")
    return table is not None and isinstance(tag, str) and table.get(tag) is cls
