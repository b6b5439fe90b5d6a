"""Validators for the options of rule parts, in the manner of ``attrs.validators``.

Each factory returns an attrs validator that refuses a bad option with a
:class:`~backalley.RuleSetError` naming the part and the option, and saying
what would work::

    min_bid: int = attrs.field(default=1, validator=whole(low=0))
    hook: bool = attrs.field(default=False, validator=boolean())
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from backalley.errors import RuleSetError

__all__ = ["boolean", "instance_or_none", "one_of", "whole", "whole_numbers", "whole_or_none"]

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


def boolean() -> Validator:
    """An on/off option: ``True`` or ``False``."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if not isinstance(value, bool):
            raise _fail(instance, attribute, "true or false", value)

    return check


def whole(low: int | None = None, high: int | None = None) -> Validator:
    """A whole number, at least ``low`` and at most ``high`` (either bound may be
    left out).  Only a plain ``int`` is one: ``True`` and an ``int`` enum are not."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if (
            not _is_whole(value)
            or (low is not None and value < low)
            or (high is not None and value > high)
        ):
            raise _fail(instance, attribute, _range_text(low, high), value)

    return check


def whole_or_none(low: int | None = None) -> Validator:
    """A whole number at least ``low`` (as :func:`whole`), or none (``None``)."""
    check_whole = whole(low)

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if value is None:
            return
        try:
            check_whole(instance, attribute, value)
        except RuleSetError:
            raise _fail(instance, attribute, _range_text(low, None) + " or none", value) from None

    return check


def whole_numbers(low: int | None = None) -> Validator:
    """A non-empty sequence of whole numbers (plain ``int``), each at least ``low``."""
    what = "one or more whole numbers" + ("" if low is None else f" >= {low}")

    def check(instance: Any, attribute: Any, value: Any) -> None:
        try:
            good = bool(value) and all(_is_whole(v) and (low is None or v >= low) for v in value)
        except TypeError:  # not a list at all
            good = False
        if not good:
            raise _fail(instance, attribute, what, value)

    return check


def one_of(choices: Collection[object]) -> Validator:
    """One of a few values, of the same type as the choice it equals
    (``True`` is not ``1``)."""
    what = "one of " + ", ".join(map(repr, choices))

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if not any(type(value) is type(c) and value == c for c in choices):
            raise _fail(instance, attribute, what, value)

    return check


def instance_or_none(cls: type, what: str) -> Validator:
    """A value of ``cls`` (described as ``what``) or none."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if value is not None and not isinstance(value, cls):
            raise _fail(instance, attribute, f"{what} or none", value)

    return check
