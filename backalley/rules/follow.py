"""The follow part: what a player must play to a trick (see :ref:`rules-follow`)."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from backalley.cards import CARDS, Card
from backalley.cardset import CardSet
from backalley.errors import Reason
from backalley.rules.base import Option, Part, has_jokers, is_bool
from backalley.rules.context import DealContext
from backalley.rules.protocols import Restriction
from backalley.rules.registry import register

__all__ = ["BlooperForced", "FollowPolicy"]

BIG_BLOOPER = CARDS[53]
"""The Big Blooper (``BJ``); the Little Blooper is the other joker."""


class BlooperForced(Option):
    """Who must answer a blooper lead with their highest/lowest trump."""

    ALL_OTHERS = "all-others"
    """Every other player who holds a trump (gamerules)."""
    OPPONENTS = "opponents"
    """Only the leader's opponents; the leader's partner just follows (bab-online)."""


@register
@attrs.frozen(slots=True, repr=False)
class FollowPolicy(Part):
    """Players must follow the suit led if able; jokers belong to the trump
    suit (see :ref:`rules-follow`).  With ``blooper_lead_forcing``, a led Big Blooper
    (``BJ``) forces every ``blooper_forced`` player holding a trump to play
    their highest trump, and - with ``little_blooper_forcing`` - a led Little
    Blooper (``LJ``) forces their lowest trump.  Without jokers in the deck
    the blooper rules never apply."""

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

    def restrictions(
        self, ctx: DealContext, seat: int, hand: CardSet, trick: tuple[Card, ...], leader: int
    ) -> tuple[Restriction, ...]:
        """Follow the suit led if able (a led joker is a trump
        lead); a led blooper forces the highest (BJ) or lowest (LJ) trump."""
        led = trick[0]
        ranking = ctx.ranking
        same = hand & ranking.suit_cards(led, ctx.trump)
        if not same:
            return ()
        if led.is_joker and self.forces(led is BIG_BLOOPER, ctx.is_opponent(seat, leader)):
            if led is BIG_BLOOPER:
                best = ranking.highest(same, ctx.trump)
                forced = (CardSet.of((best,)), Reason.MUST_PLAY_HIGHEST_TRUMP)
            else:
                low = ranking.lowest(same, ctx.trump)
                forced = (CardSet.of((low,)), Reason.MUST_PLAY_LOWEST_TRUMP)
            return (forced, (same, Reason.MUST_FOLLOW_SUIT))
        return ((same, Reason.MUST_FOLLOW_SUIT),)

    def explain(
        self,
        ctx: DealContext,
        reason: Reason,
        card: Card,
        allowed: CardSet,
        trick: tuple[Card, ...],
    ) -> str:
        if reason is Reason.MUST_PLAY_HIGHEST_TRUMP:
            best = ctx.ranking.highest(allowed, ctx.trump)
            return f"the Big Blooper was led, so you must play your highest trump, {best}"
        if reason is Reason.MUST_PLAY_LOWEST_TRUMP:
            low = ctx.ranking.lowest(allowed, ctx.trump)
            return f"the Little Blooper was led, so you must play your lowest trump, {low}"
        led = trick[0]
        if led in ctx.ranking.trumps(ctx.trump):
            return f"a trump was led and you hold a trump, so you must play a trump, not {card}"
        name = led.suit.plural  # type: ignore[union-attr]  # a plain card: jokers are trumps
        return f"you hold a {name[:-1]}, so you must follow {name}"

    def describe(self) -> str:
        return self._describe(jokers=True)

    def describe_in(self, rules: Any) -> str:
        """Without jokers in the deck, no joker or blooper rule is stated."""
        return self._describe(jokers=has_jokers(rules))

    def _describe(self, jokers: bool) -> str:
        if not jokers:
            return (
                "Players must follow the suit led if able. A player who cannot follow may "
                "play any card."
            )
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
