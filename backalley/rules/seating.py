"""The seating part: players and teams, in partnerships or each alone (see :ref:`rules-seating`)."""

from __future__ import annotations

from typing import ClassVar

import attrs

from backalley.rules.base import Part
from backalley.rules.registry import register
from backalley.rules.validators import whole

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
        return "4 players in two partnerships, partners opposite (seats 0 & 2 against 1 & 3)."


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
        return f"{self.players} players, each playing and scoring alone (cutthroat)."
