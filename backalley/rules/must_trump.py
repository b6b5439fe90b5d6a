"""House rule "must trump when void" (a follow part): a player who cannot
follow the suit led must play a trump if they hold one."""

from __future__ import annotations

from typing import ClassVar

import attrs

from backalley.cards import Card, Suit
from backalley.cardset import CardSet
from backalley.errors import Reason
from backalley.masks import ALL, HAND, TRUE, Cards, Choose, Cond, RestrictionForm, Some
from backalley.rules.context import DealContext
from backalley.rules.follow import FollowPolicy, TrumpPlay
from backalley.rules.protocols import Ranking
from backalley.rules.registry import register

__all__ = ["MustTrumpWhenVoid"]


@register
@attrs.frozen(slots=True, repr=False)
class MustTrumpWhenVoid(FollowPolicy):
    """Players must follow the suit led if able, as in :class:`FollowPolicy`
    (with its blooper options); in addition, a player who cannot follow must
    play a trump (a joker counts as a trump) if they hold one."""

    tag: ClassVar[str] = "must-trump"

    def restrictions_form(self, ranking: Ranking, trump: Suit | None, led: Card) -> RestrictionForm:
        """The follow rules of :class:`FollowPolicy`, then: where none of
        them narrows the hand, a trump if the hand holds one."""
        following = super().restrictions_form(ranking, trump, led)
        free: Cond = TRUE
        for cards, _reason in following:
            free = free & ~Some(ALL - cards)
        trumps = HAND & Cards(ranking.trumps(trump))
        return (*following, (Choose(free & Some(trumps), trumps, ALL), Reason.MUST_TRUMP))

    def explain(
        self,
        ctx: DealContext,
        reason: Reason,
        card: Card,
        allowed: CardSet,
        trick: tuple[Card, ...],
    ) -> str:
        if reason is Reason.MUST_TRUMP:
            return (
                f"you cannot follow the suit led, so you must play a trump if you hold one, "
                f"not {card}"
            )
        return super().explain(ctx, reason, card, allowed, trick)

    def _describe(self, jokers: bool, breaking: str = "") -> str:
        once = "Once trump is broken, a" if self.trump_play is TrumpPlay.NOT_UNTIL_BROKEN else "A"
        return (
            super()._describe(jokers, breaking)
            + f" {once} player who cannot follow the suit led must play a trump if they hold one."
        )
