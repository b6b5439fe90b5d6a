"""The seating part: players and teams, in partnerships or each alone (see :ref:`rules-seating`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import attrs

from backalley.rules.base import Part, Term
from backalley.rules.registry import register
from backalley.rules.validators import whole

if TYPE_CHECKING:
    from backalley.rules.protocols import RuleSetFacts

__all__ = ["Cutthroat", "Partnerships"]


@register
@attrs.frozen(slots=True, repr=False)
class Partnerships(Part):
    """Four players in two fixed partnerships, partners opposite:
    team 0 = seats 0 & 2, team 1 = seats 1 & 3 (see :ref:`rules-seating`)."""

    tag: ClassVar[str] = "partnerships"
    part: ClassVar[str] = "seating"

    @property
    def players(self) -> int:
        return 4

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        return ((0, 2), (1, 3))

    def team_of(self, seat: int) -> int:
        return seat % 2

    def describe(self) -> str:
        return (
            "4 players in two partnerships, partners opposite: North and South (seats 0 & 2) "
            "against East and West (seats 1 & 3). Seats run clockwise: North, East, South, "
            "West, so the player on your left is the next to play."
        )

    def terms_in(self, rules: RuleSetFacts) -> tuple[Term, ...]:
        """The side: a partnership."""
        return (
            Term(
                "side",
                "you and your partner (the player opposite you); a side's bids and tricks "
                "count together and it scores as one.",
                ("sides",),
            ),
        )


@register
@attrs.frozen(slots=True, repr=False)
class Cutthroat(Part):
    """Every player alone: ``players`` seats, each its own side, each scored alone."""

    tag: ClassVar[str] = "cutthroat"
    part: ClassVar[str] = "seating"

    players: int = attrs.field(default=4, validator=whole(2, 8))

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        return tuple((seat,) for seat in range(self.players))

    def team_of(self, seat: int) -> int:
        return seat

    def describe(self) -> str:
        return (
            f"{self.players} players, each playing and scoring alone (cutthroat). Seats run "
            f"clockwise, Seat 1 to Seat {self.players}."
        )
