"""Two house rules written as a user writes them, each refusing with a reason
of its own (registered by tag, beside the part that refuses with it), and the
variant ``test-reasons/our-club`` that plays them.

- The bidding: nobody bids more than half the hand (``HALF_THE_HAND``); the
  gamerules bidding refuses the rest as before.
- The lead: the opening lead of a deal may not be the highest card the leader
  could otherwise lead, when there are two or more (``NO_HIGH_OPENING``).

The tests import this module through :func:`tests.user_rules.house_rules`,
which takes its parts out of the registry again after them; the JavaScript
API's test runs its text in Pyodide (``pyodide.runPython``), as a page would
run a user's own rules, so it imports nothing but the library.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

import backalley as ba
from backalley.rules import BiddingContext, DealContext, LeadPolicy, OnceAroundBidding, register

HALF_THE_HAND = ba.register_reason(
    "test-reasons/half-the-hand", "nobody may bid more than half the hand"
)
NO_HIGH_OPENING = ba.register_reason(
    "test-reasons/no-high-opening",
    "the opening lead of a deal may not be the highest card the leader could lead",
)


@register
@attrs.frozen
class HalfTheHand(OnceAroundBidding):
    """The gamerules bidding, and nobody bids more than half the hand."""

    tag: ClassVar[str] = "test-reasons/half-the-hand"

    def refusal(self, ctx: BiddingContext, move: ba.Move) -> tuple[ba.Reason, str] | None:
        why = super().refusal(ctx, move)
        half = ctx.hand_size // 2
        if why is None and isinstance(move, ba.Bid) and move.tricks > half:
            return (HALF_THE_HAND, f"with {ctx.hand_size} cards nobody may bid more than {half}")
        return why

    def describe(self) -> str:
        return super().describe() + " Nobody may bid more than half the hand."


@register
@attrs.frozen
class NoHighOpening(LeadPolicy):
    """The gamerules lead, and the opening lead is not the leader's highest card."""

    tag: ClassVar[str] = "test-reasons/no-high-opening"

    def restrictions(
        self, ctx: DealContext, seat: int, hand: ba.CardSet, broken: bool
    ) -> tuple[tuple[ba.CardSet, ba.Reason], ...]:
        built_in = super().restrictions(ctx, seat, hand, broken)
        if not ctx.first_trick:
            return built_in
        allowed = hand
        for cards, _reason in built_in:
            allowed = allowed & cards
        if len(allowed) < 2:
            return built_in
        highest = max(allowed, key=lambda card: card.rank.value)
        return (*built_in, (allowed - ba.CardSet.of([highest]), NO_HIGH_OPENING))

    def explain(
        self, ctx: DealContext, reason: ba.Reason, card: ba.Card, allowed: ba.CardSet
    ) -> str:
        if reason is NO_HIGH_OPENING:
            return f"at our club the opening lead may not be your highest card ({card})"
        return super().explain(ctx, reason, card, allowed)

    def describe(self) -> str:
        return super().describe() + " The opening lead may not be the leader's highest card."


OUR_CLUB = ba.variants.GAMERULES.replace(
    bidding=HalfTheHand(), lead=NoHighOpening(), name="our club"
)
"""The gamerules game with both house rules (not a registered variant, so
that the tests over every variant do not meet it)."""
