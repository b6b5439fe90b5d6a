"""House rule "must head the trick when able" (a follow part): among the
cards the follow rules allow, a player must play one that beats the best card
of the trick so far, if they hold one."""

from __future__ import annotations

from typing import ClassVar

import attrs

from backalley.cards import Card, Suit
from backalley.cardset import CardSet
from backalley.errors import Reason
from backalley.masks import ALL, HAND, CardExpr, Choose, Heads, RestrictionForm, Some
from backalley.rules.context import DealContext
from backalley.rules.follow import FollowPolicy
from backalley.rules.protocols import Ranking
from backalley.rules.registry import register

__all__ = ["MustHeadTrick"]


@register
@attrs.frozen(slots=True, repr=False)
class MustHeadTrick(FollowPolicy):
    """Players must follow the suit led if able, as in :class:`FollowPolicy`
    (with its blooper options); in addition, among the cards those rules
    allow, a player must play one that wins the trick so far whenever they
    hold one (so a player who cannot follow must trump - or over-trump - when
    that wins the trick).  Which card wins is the ranking part's decision."""

    tag: ClassVar[str] = "must-head"

    def restrictions_form(self, ranking: Ranking, trump: Suit | None, led: Card) -> RestrictionForm:
        """The follow rules of :class:`FollowPolicy`, then: among the cards
        they allow, a card that wins the trick so far, if the hand holds one
        (and holds a card that would not)."""
        following = super().restrictions_form(ranking, trump, led)
        allowed: CardExpr = HAND
        for cards, _reason in following:
            allowed = allowed & cards
        heading = Heads(allowed)
        must = Some(heading) & Some(allowed - heading)
        return (*following, (Choose(must, heading, ALL), Reason.MUST_HEAD_TRICK))

    def explain(
        self,
        ctx: DealContext,
        reason: Reason,
        card: Card,
        allowed: CardSet,
        trick: tuple[Card, ...],
    ) -> str:
        if reason is Reason.MUST_HEAD_TRICK:
            return (
                f"you can beat the best card of this trick, so you must: play a card that "
                f"wins it, not {card}"
            )
        return super().explain(ctx, reason, card, allowed, trick)

    def _describe(self, jokers: bool, breaking: str = "") -> str:
        return (
            super()._describe(jokers, breaking)
            + " A player must head the trick when able: among the cards they may play, one "
            "that beats the best card played so far, if they hold one."
        )
