"""The follow part (RULES.md 1.6, 6): what a player must play to a trick."""

from __future__ import annotations

from typing import ClassVar

import attrs

from backalley.rules.base import Option, Part, is_bool

__all__ = ["BlooperForced", "FollowPolicy"]


class BlooperForced(Option):
    """Who must answer a blooper lead with their highest/lowest trump."""

    ALL_OTHERS = "all-others"
    """Every other player who holds a trump (gamerules)."""
    OPPONENTS = "opponents"
    """Only the leader's opponents; the leader's partner just follows (bab-online)."""


@attrs.frozen(slots=True)
class FollowPolicy(Part):
    """Players must follow the suit led if able; jokers belong to the trump
    suit (RULES.md 1.6).  With ``blooper_lead_forcing``, a led Big Blooper
    (``BJ``) forces every ``blooper_forced`` player holding a trump to play
    their highest trump, and - with ``little_blooper_forcing`` - a led Little
    Blooper (``LJ``) forces their lowest trump."""

    tag: ClassVar[str] = "follow"
    part: ClassVar[str] = "follow"

    blooper_lead_forcing: bool = attrs.field(default=True, validator=is_bool)
    blooper_forced: BlooperForced = attrs.field(
        default=BlooperForced.ALL_OTHERS, converter=BlooperForced
    )
    little_blooper_forcing: bool = attrs.field(default=True, validator=is_bool)

    def forces(self, big: bool, seat_is_opponent: bool) -> bool:
        """Whether a led blooper (``big`` or little) forces this seat."""
        if not self.blooper_lead_forcing or not (big or self.little_blooper_forcing):
            return False
        return self.blooper_forced is BlooperForced.ALL_OTHERS or seat_is_opponent

    def describe(self) -> str:
        text = (
            "Players must follow the suit led if able; the jokers belong to the trump suit, "
            "so a led trump or joker must be followed with a trump. A player who cannot "
            "follow may play any card."
        )
        if self.blooper_lead_forcing:
            who = (
                "every other player"
                if self.blooper_forced is BlooperForced.ALL_OTHERS
                else "each opponent of the leader"
            )
            text += f" When the Big Blooper (BJ) is led, {who} holding a trump must play their highest trump"
            if self.little_blooper_forcing:
                text += "; when the Little Blooper (LJ) is led, their lowest trump"
            text += "."
        return text
