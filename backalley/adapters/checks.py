"""The checks of the adapters' arguments, shared by the OpenSpiel game
(:mod:`.openspiel`) and the PettingZoo environment (:mod:`.backalley_v0`).

Each check returns the value it accepts and refuses any other with a
:class:`~backalley.SetupError` whose message names the argument and the
values it may take.  A Python argument spells "not given" ``None``; an
OpenSpiel game parameter, which must be a number, spells it with a number
of its own (``deals=0``, ``dealer=-1``): the checks take that spelling as
``unset``.
"""

from __future__ import annotations

from typing import TypeGuard

from backalley.errors import SetupError
from backalley.rules import RuleSet

__all__ = ["first_deals", "is_whole", "optional_whole", "whole_number"]


def is_whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number: an ``int`` that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole_number(value: object, name: str, low: int, high: int, *, why: str = "") -> int:
    """``value`` itself when it is a whole number from ``low`` to ``high``.

    Raises :class:`~backalley.SetupError` naming ``name`` and the range
    (``why``, if given, says where the range comes from).
    """
    if not is_whole(value) or not low <= value <= high:
        reason = f" ({why})" if why else ""
        raise SetupError(f"{name} must be a whole number {low}..{high}{reason}, not {value!r}")
    return value


def optional_whole(
    value: object, name: str, low: int, high: int, *, unset: int | None, meaning: str
) -> int | None:
    """``None`` when ``value`` is ``unset`` (the argument's "not given", which
    ``meaning`` explains), else ``value`` itself when it is a whole number
    from ``low`` to ``high``.

    Raises :class:`~backalley.SetupError` naming ``name``, ``unset`` and the range.
    """
    if value is None and unset is None:
        return None
    if is_whole(value) and value == unset:
        return None
    if not is_whole(value) or not low <= value <= high:
        raise SetupError(
            f"{name} must be {unset} ({meaning}) or a whole number {low}..{high}, not {value!r}"
        )
    return value


def first_deals(deals: object, rules: RuleSet, *, unset: int | None = None) -> int | None:
    """How many first deals of the schedule of ``rules`` to play: ``None`` for
    the whole schedule (``deals`` is ``unset``: ``None`` for a Python argument,
    ``0`` for the OpenSpiel parameter), else ``deals`` itself, 1 up to the
    schedule's number of deals.

    The one check of ``deals`` for both adapters.  Raises
    :class:`~backalley.SetupError` naming ``deals`` and its range.
    """
    total = rules.schedule.deals
    whose = rules.name or "these rules"
    return optional_whole(
        deals,
        "deals",
        1,
        total,
        unset=unset,
        meaning=f"all {total} deals of {whose}",
    )
