"""House rule "must head the trick when able" (a follow part): among the
cards the follow rules allow, a player must play one that beats the best card
of the trick so far, if they hold one."""

from __future__ import annotations

from typing import ClassVar

import attrs

from backalley.cards import CARDS
from backalley.errors import Reason
from backalley.rules.context import DealContext
from backalley.rules.follow import FollowPolicy
from backalley.rules.protocols import Restriction
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

    def restrictions(
        self, ctx: DealContext, seat: int, hand: int, trick: tuple[int, ...], leader: int
    ) -> tuple[Restriction, ...]:
        following = super().restrictions(ctx, seat, hand, trick, leader)
        allowed = hand
        for mask, _reason in following:
            allowed &= mask
        heading = 0
        position = len(trick)
        rest = allowed
        while rest:
            low = rest & -rest
            rest ^= low
            if ctx.ranking.trick_winner((*trick, low.bit_length() - 1), ctx.trump) == position:
                heading |= low
        if heading and heading != allowed:
            return (*following, (heading, Reason.MUST_HEAD_TRICK))
        return following

    def explain(
        self, ctx: DealContext, reason: Reason, card: int, allowed: int, trick: tuple[int, ...]
    ) -> str:
        if reason is Reason.MUST_HEAD_TRICK:
            return (
                f"you can beat the best card of this trick, so you must: play a card that "
                f"wins it, not {CARDS[card]}"
            )
        return super().explain(ctx, reason, card, allowed, trick)

    def _describe(self, jokers: bool) -> str:
        return (
            super()._describe(jokers)
            + " A player must head the trick when able: among the cards they may play, one "
            "that beats the best card played so far, if they hold one."
        )
