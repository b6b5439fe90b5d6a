"""Validators for the options of rule parts, in the manner of ``attrs.validators``.

Each factory returns an attrs validator (a small frozen value that declares
what it accepts, so the documents' schema can state the same bounds) that refuses a bad option with a
:class:`~backalley.RuleSetError` naming the part and the option, and saying
what would work::

    min_bid: int = attrs.field(default=1, validator=whole(low=0))
    hook: bool = attrs.field(default=False, validator=boolean())
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

import attrs

from backalley.errors import RuleSetError

__all__ = [
    "Boolean",
    "OneOf",
    "Whole",
    "WholeNumbers",
    "boolean",
    "declared",
    "instance_or_none",
    "one_of",
    "whole",
    "whole_numbers",
    "whole_or_none",
]

Validator = Callable[[Any, Any, Any], None]
"""An attrs validator: called with the instance, the attribute and the value."""


def _fail(instance: Any, attribute: Any, what: str, value: object) -> RuleSetError:
    """The refusal of ``value`` for ``attribute``, naming the part (its ``part``,
    else its class name) and the option, and saying what it ``must be``."""
    owner = getattr(type(instance), "part", type(instance).__name__)
    return RuleSetError([f"{owner}: {attribute.name} must be {what}, got {value!r}"])


def _is_whole(value: object) -> bool:
    return type(value) is int


def _range_text(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"a whole number from {low} to {high}"
    if low is not None:
        return f"a whole number >= {low}"
    if high is not None:
        return f"a whole number <= {high}"
    return "a whole number"


@attrs.frozen
class Boolean:
    """An on/off option: ``True`` or ``False`` (:func:`boolean`)."""

    def __call__(self, instance: Any, attribute: Any, value: Any) -> None:
        if not isinstance(value, bool):
            raise _fail(instance, attribute, "true or false", value)


@attrs.frozen
class Whole:
    """A whole number from ``low`` to ``high`` (either bound may be ``None``:
    none), or also none when ``or_none`` (:func:`whole`, :func:`whole_or_none`).
    The bounds are declared, so the documents' schema states them too."""

    low: int | None = None
    high: int | None = None
    or_none: bool = False

    def __call__(self, instance: Any, attribute: Any, value: Any) -> None:
        if value is None and self.or_none:
            return
        low, high = self.low, self.high
        if (
            not _is_whole(value)
            or (low is not None and value < low)
            or (high is not None and value > high)
        ):
            what = _range_text(low, high) + (" or none" if self.or_none else "")
            raise _fail(instance, attribute, what, value)


@attrs.frozen
class WholeNumbers:
    """A non-empty sequence of whole numbers, each at least ``low``
    (:func:`whole_numbers`)."""

    low: int | None = None

    def __call__(self, instance: Any, attribute: Any, value: Any) -> None:
        low = self.low
        try:
            good = bool(value) and all(_is_whole(v) and (low is None or v >= low) for v in value)
        except TypeError:  # not a list at all
            good = False
        if not good:
            what = "one or more whole numbers" + ("" if low is None else f" >= {low}")
            raise _fail(instance, attribute, what, value)


@attrs.frozen
class OneOf:
    """One of a few ``choices``, of the same type as the choice it equals
    (``True`` is not ``1``) (:func:`one_of`)."""

    choices: tuple[object, ...]

    def __call__(self, instance: Any, attribute: Any, value: Any) -> None:
        if not any(type(value) is type(c) and value == c for c in self.choices):
            what = "one of " + ", ".join(map(repr, self.choices))
            raise _fail(instance, attribute, what, value)


def boolean() -> Validator:
    """An on/off option: ``True`` or ``False``."""
    return Boolean()


def whole(low: int | None = None, high: int | None = None) -> Validator:
    """A whole number, at least ``low`` and at most ``high`` (either bound may be
    left out).  Only a plain ``int`` is one: ``True`` and an ``int`` enum are not."""
    return Whole(low, high)


def whole_or_none(low: int | None = None) -> Validator:
    """A whole number at least ``low`` (as :func:`whole`), or none (``None``)."""
    return Whole(low, None, or_none=True)


def whole_numbers(low: int | None = None) -> Validator:
    """A non-empty sequence of whole numbers (plain ``int``), each at least ``low``."""
    return WholeNumbers(low)


def one_of(choices: Collection[object]) -> Validator:
    """One of a few values, of the same type as the choice it equals
    (``True`` is not ``1``)."""
    return OneOf(tuple(choices))


def declared(validator: Any) -> tuple[Any, ...]:
    """The validators of an option that declare what they accept (those of
    this module), among ``validator`` (one, a list given to ``attrs.field``,
    or ``None``)."""
    if validator is None:
        return ()
    parts = getattr(validator, "_validators", None)  # attrs joins a list with and_()
    found = parts if isinstance(parts, tuple) else (validator,)
    return tuple(v for v in found if isinstance(v, (Boolean, Whole, WholeNumbers, OneOf)))


def instance_or_none(cls: type, what: str) -> Validator:
    """A value of ``cls`` (described as ``what``) or none."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if value is not None and not isinstance(value, cls):
            raise _fail(instance, attribute, f"{what} or none", value)

    return check
