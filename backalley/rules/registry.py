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
game records and views by its tag.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

import attrs

from backalley.errors import RuleSetError

__all__ = [
    "PART_NAMES",
    "claims_part",
    "is_frozen",
    "is_registered",
    "lookup",
    "part_classes",
    "register",
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

C = TypeVar("C", bound=Any)


def register(cls: C) -> C:
    """Class decorator: register a rule part class under ``cls.part`` and ``cls.tag``.

    The class must be a frozen attrs class (a value: hashable, comparable),
    name its rule part (one of :data:`PART_NAMES`) and a tag of lower-case
    letters, digits and ``. _ / -`` (at most 64 characters; a user's rules
    may use a prefix such as ``"myclub/..."``), and implement ``describe()``.
    Registering the same class twice is harmless; a second class under a tag
    already taken raises :class:`~backalley.RuleSetError`.
    """
    problems = _registration_problems(cls)
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
    return cls


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
