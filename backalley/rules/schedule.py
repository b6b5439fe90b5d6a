"""The schedule part: the hand size of every deal (see :ref:`rules-schedule`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from backalley.errors import RuleSetError
from backalley.rules.base import Part
from backalley.rules.option_types import MAX_OPTION_ITEMS
from backalley.rules.registry import register
from backalley.rules.validators import whole_numbers

if TYPE_CHECKING:
    from backalley.rules.protocols import RuleSetFacts

__all__ = ["Schedule"]


MAX_DEALS = MAX_OPTION_ITEMS
"""The most deals a schedule may have: as many as a list option of a rules
document holds (so that documents stay small)."""


def _to_sizes(value: Iterable[int]) -> tuple[int, ...]:
    try:
        return tuple(value)
    except TypeError:
        raise RuleSetError(
            [f"schedule: hand sizes must be a list of numbers, got {value!r}"]
        ) from None


def _at_most_max_deals(instance: Schedule, attribute: Any, value: tuple[int, ...]) -> None:
    """attrs validator: a schedule has at most :data:`MAX_DEALS` deals (checked
    before its hand sizes are read one by one)."""
    if len(value) > MAX_DEALS:
        raise RuleSetError([f"schedule: a game has at most {MAX_DEALS} deals, not {len(value)}"])


@register
@attrs.frozen(slots=True, repr=False)
class Schedule(Part):
    """The hand size of each scored deal, in order; the game has one deal per entry.

    The default is the gamerules schedule 13, 12, …, 2, 1, 2, …, 13 (25 deals).
    """

    tag: ClassVar[str] = "schedule"
    part: ClassVar[str] = "schedule"
    forms: ClassVar[tuple[str, ...]] = ("fixed", "down_and_up", "up_and_down")
    """The classmethods a house-rules file may name as the schedule's ``type``
    (``type = "fixed"`` with ``hand_size`` and ``deals``; ``down-and-up``,
    ``up-and-down``), their parameters as its keys."""

    hand_sizes: tuple[int, ...] = attrs.field(
        factory=lambda: Schedule.down_and_up().hand_sizes,
        converter=_to_sizes,
        validator=[_at_most_max_deals, whole_numbers(low=1)],
    )

    @classmethod
    def down_and_up(
        cls, top: int = 13, bottom: int = 1, *, repeat_bottom: bool = False
    ) -> Schedule:
        """``top, top-1, …, bottom, …, top`` (the bottom deal twice if ``repeat_bottom``)."""
        down = list(range(top, bottom - 1, -1))
        up = list(range(bottom if repeat_bottom else bottom + 1, top + 1))
        return cls(tuple(down + up))

    @classmethod
    def up_and_down(cls, top: int = 13, bottom: int = 1) -> Schedule:
        """``bottom, …, top, …, bottom``."""
        return cls(tuple(list(range(bottom, top + 1)) + list(range(top - 1, bottom - 1, -1))))

    @classmethod
    def fixed(cls, hand_size: int, deals: int) -> Schedule:
        """``deals`` deals of ``hand_size`` cards each."""
        return cls((hand_size,) * deals)

    @property
    def deals(self) -> int:
        return len(self.hand_sizes)

    @property
    def largest(self) -> int:
        return max(self.hand_sizes)

    def problems(self, rules: RuleSetFacts) -> list[str]:
        """A deal of the largest hand size must fit the deck, with the cards
        the trump part needs beyond the hands (the turn-up, a card to draw)."""
        deck, players = rules.deck, rules.seating.players
        extra = rules.trump.stock_needed(deck)
        if players * self.largest + extra <= deck.size:
            return []
        need = f"{players} x {self.largest} cards"
        if extra:
            need += " + 1 card to turn up" + (
                " + 1 to draw for a swapped joker" if extra > 1 else ""
            )
        return [
            f"deck and schedule{' and trump' if extra else ''}: a deal of {self.largest} cards to "
            f"{players} players needs {need}, but the deck has {deck.size}"
        ]

    def describe(self) -> str:
        sizes = self.hand_sizes
        deals = f"{self.deals} scored deal{'s' if self.deals > 1 else ''}"
        if len(set(sizes)) == 1:
            each = " each" if self.deals > 1 else ""
            return f"{deals} of {sizes[0]} card{'s' if sizes[0] > 1 else ''}{each}."
        return f"{deals} of {', '.join(map(str, sizes))} cards."
