"""A rule set compiled once into a plan: the per-rule-set functions the
engine calls on every decision.

The rules live in their parts; the plan is how they run fast.  It binds each
part's decision methods once (no attribute look-ups, no dispatch on the
part's type per decision), and offers the few composite decisions the engine
needs: the legal plays as a bit set and the refusal of a card, both from the
same restrictions of the lead or follow part.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from backalley.cards import CARDS
from backalley.errors import Reason
from backalley.moves import Move
from backalley.rules.context import NO_TRUMP, BiddingContext, DealContext
from backalley.rules.protocols import Refusal
from backalley.values import BiddingOutcome

if TYPE_CHECKING:
    from backalley.rules.ruleset import RuleSet

__all__ = ["Plan"]


class Plan:
    """The compiled form of one :class:`~backalley.RuleSet` (see :attr:`RuleSet.plan`)."""

    __slots__ = (
        "breaks_trump",
        "deck_cards",
        "deck_mask",
        "first_bidder",
        "follow_restrictions",
        "hand_sizes",
        "lead_restrictions",
        "legal_calls",
        "players",
        "ranking",
        "rules",
        "seat_teams",
        "teams",
        "trick_winner",
        "trumps",
    )

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.players = rules.players
        self.seat_teams = rules.seat_teams
        self.teams = rules.teams
        mask = rules.deck.mask
        self.deck_mask = mask
        self.deck_cards = tuple(i for i in range(54) if mask >> i & 1)
        self.hand_sizes = rules.schedule.hand_sizes
        self.ranking = rules.ranking
        self.trick_winner = rules.ranking.trick_winner
        self.trumps = rules.ranking.trumps
        self.lead_restrictions = rules.lead.restrictions
        self.follow_restrictions = rules.follow.restrictions
        self.breaks_trump = rules.lead.breaks_trump
        self.legal_calls = rules.bidding.legal_calls
        self.first_bidder = rules.bidding.first

    # ------------------------------------------------------------- contexts

    def deal_context(
        self,
        deal_index: int,
        dealer: int,
        hand_size: int,
        outcome: BiddingOutcome | None = None,
        trump: int = NO_TRUMP,
    ) -> DealContext:
        """The :class:`DealContext` of a deal of this rule set."""
        return DealContext(
            self.players,
            self.seat_teams,
            self.teams,
            deal_index,
            dealer,
            hand_size,
            outcome,
            trump,
            self.ranking,
        )

    def bidding_context(self, ctx: DealContext, calls: tuple[Move, ...]) -> BiddingContext:
        """The bidding part's view of the deal, with ``calls`` so far."""
        return BiddingContext(
            ctx.hand_size,
            self.players,
            self.first_bidder(ctx.dealer, self.players),
            calls,
            self.teams,
            self.seat_teams,
        )

    # ----------------------------------------------------------------- play

    def restrictions(
        self, ctx: DealContext, seat: int, hand: int, trick: tuple[int, ...], leader: int, broken: bool
    ) -> tuple[tuple[int, Reason], ...]:
        """The restrictions on ``seat``'s play: the lead part's when leading,
        else the follow part's."""
        if trick:
            return self.follow_restrictions(ctx, seat, hand, trick, leader)
        return self.lead_restrictions(ctx, seat, hand, broken)

    def play_mask(
        self, ctx: DealContext, seat: int, hand: int, trick: tuple[int, ...], leader: int, broken: bool
    ) -> int:
        """The cards ``seat`` may play from ``hand``, as a bit set."""
        if trick:
            found = self.follow_restrictions(ctx, seat, hand, trick, leader)
        else:
            found = self.lead_restrictions(ctx, seat, hand, broken)
        for allowed, _reason in found:
            hand &= allowed
        return hand

    def play_refusal(
        self,
        ctx: DealContext,
        seat: int,
        hand: int,
        trick: tuple[int, ...],
        leader: int,
        broken: bool,
        card: int,
    ) -> Refusal | None:
        """Why ``seat`` may not play ``card`` now, or ``None`` if it may: the
        first restriction that excludes it, explained by the same part."""
        bit = 1 << card
        if not self.deck_mask & bit:
            return (Reason.NOT_IN_DECK, f"{CARDS[card]} is not in this game's deck")
        if not hand & bit:
            return (Reason.NOT_IN_HAND, f"you do not hold {CARDS[card]}")
        rules = self.rules
        remaining = hand
        for allowed, reason in self.restrictions(ctx, seat, hand, trick, leader, broken):
            allowed &= remaining
            if not allowed & bit:
                if trick:
                    return (reason, rules.follow.explain(ctx, reason, card, allowed, trick))
                return (reason, rules.lead.explain(ctx, reason, card, allowed))
            remaining = allowed
        return None

    def winner_of(self, ctx: DealContext, trick: tuple[int, ...], leader: int) -> int:
        """The seat that wins a completed trick."""
        return (leader + self.trick_winner(trick, ctx.trump)) % self.players
