"""The lead part (RULES.md 1.5, 1.6, 2.3, 5, 6): who leads the first trick, and
when trump may be led."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from backalley.cards import CARDS
from backalley.errors import Reason
from backalley.rules.base import Option, Part, has_jokers
from backalley.rules.context import DealContext
from backalley.rules.protocols import Restriction
from backalley.rules.registry import register

if TYPE_CHECKING:
    from backalley.rules.plan import Compiled
    from backalley.rules.ruleset import RuleSet

__all__ = ["FirstLead", "LeadPolicy", "TrumpBrokenBy", "TrumpLead"]


class FirstLead(Option):
    """Who leads the first trick of a deal."""

    HIGHEST_BIDDER = "highest-bidder"
    """The last board claimer, else the highest numeric bid, ties to the
    earliest bidder (RULES.md 1.5); in an auction, the declarer."""
    DECLARER = "declarer"
    """The declarer of the auction (RULES.md 2.2)."""
    LEFT_OF_DEALER = "left-of-dealer"
    """The player left of the dealer."""


class TrumpLead(Option):
    """Option ``trump_lead`` (RULES.md 1.6, 5, 6): when a trump may be led.

    A hand holding nothing but trumps may always lead one.
    """

    AFTER_BROKEN_OR_BOARD = "after-broken-or-board"
    """Once trump is broken, or by a player who bid board this deal (gamerules)."""
    AFTER_BROKEN = "after-broken"
    """Only once trump is broken (bab-online)."""
    ANY_TIME = "any-time"
    """Whenever the player likes (Vietnam)."""


class TrumpBrokenBy(Option):
    """What breaks trump (RULES.md 5)."""

    ANY_TRUMP = "any-trump"
    """Any trump (jokers included) played in an earlier trick of the deal."""
    DISCARD = "discard"
    """Only a trump played by a player who could not follow the suit led."""


@register
@attrs.frozen(slots=True, repr=False)
class LeadPolicy(Part):
    """Who leads first (``first_lead``), when trump may be led (``trump_lead``)
    and what breaks trump (``trump_broken_by``)."""

    tag: ClassVar[str] = "lead"
    part: ClassVar[str] = "lead"

    first_lead: FirstLead = attrs.field(default=FirstLead.HIGHEST_BIDDER, converter=FirstLead)
    trump_lead: TrumpLead = attrs.field(
        default=TrumpLead.AFTER_BROKEN_OR_BOARD, converter=TrumpLead
    )
    trump_broken_by: TrumpBrokenBy = attrs.field(
        default=TrumpBrokenBy.ANY_TRUMP, converter=TrumpBrokenBy
    )

    def needs(self) -> frozenset[str]:
        return frozenset({"declarer"}) if self.first_lead is FirstLead.DECLARER else frozenset()

    def first_leader(self, ctx: DealContext) -> int:
        """Who leads the first trick (RULES.md 1.5, 2.2); the player left of
        the dealer when the bidding names nobody."""
        left = (ctx.dealer + 1) % ctx.players
        outcome = ctx.outcome
        if outcome is None or self.first_lead is FirstLead.LEFT_OF_DEALER:
            return left
        seat = outcome.declarer if self.first_lead is FirstLead.DECLARER else outcome.highest_bidder
        return left if seat is None else seat

    def may_lead_trump(self, broken: bool, bid_board: bool) -> bool:
        """Whether a hand that holds a non-trump may lead a trump (RULES.md 1.6)."""
        mode = self.trump_lead
        if mode is TrumpLead.ANY_TIME or broken:
            return True
        return mode is TrumpLead.AFTER_BROKEN_OR_BOARD and bid_board

    def restrictions(
        self, ctx: DealContext, seat: int, hand: int, broken: bool
    ) -> tuple[Restriction, ...]:
        """RULES.md 1.6 "Leading trump": no trump lead until trump is broken
        (or by a board bidder, with ``after-broken-or-board``), unless the hand
        holds nothing but trumps."""
        if self.trump_lead is TrumpLead.ANY_TIME or broken:
            return ()
        trumps = hand & ctx.ranking.trumps(ctx.trump)
        if not trumps or trumps == hand:
            return ()
        if self.trump_lead is TrumpLead.AFTER_BROKEN_OR_BOARD and seat in ctx.board_bidders:
            return ()
        return ((hand & ~trumps, Reason.TRUMP_NOT_BROKEN),)

    def explain(self, ctx: DealContext, reason: Reason, card: int, allowed: int) -> str:
        msg = (
            f"trump has not been broken, so you may not lead a trump ({CARDS[card]}) while you "
            "hold other suits"
        )
        if self.trump_lead is TrumpLead.AFTER_BROKEN_OR_BOARD:
            msg += " (unless you bid board)"
        return msg

    def breaks_trump(self, ctx: DealContext, trick: tuple[int, ...]) -> bool:
        """RULES.md 1.6, option ``trump_broken_by``: any trump played breaks
        trump, or only one played by a player who could not follow."""
        tmask = ctx.ranking.trumps(ctx.trump)
        if not any((tmask >> card) & 1 for card in trick):
            return False
        return self.trump_broken_by is TrumpBrokenBy.ANY_TRUMP or not (tmask >> trick[0]) & 1

    def compile(self, rules: RuleSet) -> Compiled:
        """Fast forms of :meth:`restrictions` (as a bit set) and
        :meth:`breaks_trump`, for the rule set's plan: the same rule, with the
        ranking's trumps looked up once per trump.  A subclass that changes
        either method runs through its protocol method instead."""
        out: Compiled = {}
        trumps_of = tuple(rules.ranking.trumps(t) for t in range(5))
        if type(self).restrictions is LeadPolicy.restrictions:
            mode = self.trump_lead
            board_ok = mode is TrumpLead.AFTER_BROKEN_OR_BOARD

            def lead_mask(ctx: DealContext, seat: int, hand: int, broken: bool) -> int:
                if broken:
                    return hand
                trumps = hand & trumps_of[ctx.trump]
                if not trumps or trumps == hand:
                    return hand
                if board_ok and seat in ctx.board_bidders:
                    return hand
                return hand ^ trumps

            out["lead_mask"] = (
                (lambda ctx, seat, hand, broken: hand) if mode is TrumpLead.ANY_TIME else lead_mask
            )
        if type(self).breaks_trump is LeadPolicy.breaks_trump:
            any_trump = self.trump_broken_by is TrumpBrokenBy.ANY_TRUMP

            def breaks_trump(ctx: DealContext, trick: tuple[int, ...]) -> bool:
                tmask = trumps_of[ctx.trump]
                for card in trick:
                    if tmask >> card & 1:
                        return any_trump or not tmask >> trick[0] & 1
                return False

            out["breaks_trump"] = breaks_trump
        return out

    def describe(self) -> str:
        return self._describe(jokers=True, board=True, declarer=False, always=False)

    def describe_in(self, rules: Any) -> str:
        """Only what can apply under ``rules``: board bidders only where board
        can be bid, the declarer where an auction makes one, jokers where the
        deck has them."""
        provided = rules.bidding.provides()
        return self._describe(
            jokers=has_jokers(rules),
            board="board-bids" in provided,
            declarer="declarer" in provided,
            always="contract-every-deal" in provided,
        )

    def _describe(self, jokers: bool, board: bool, declarer: bool, always: bool) -> str:
        fallback = "" if always else "; in a deal nobody bid for, the player left of the dealer"
        first = self.first_lead
        if first is FirstLead.HIGHEST_BIDDER and declarer:
            first = FirstLead.DECLARER  # an auction's highest bidder is its declarer
        if first is FirstLead.HIGHEST_BIDDER:
            who = "The highest bidder leads the first trick (the earliest of equal bids)"
            if board:
                who = (
                    "The last player to bid board leads the first trick; without a board, the "
                    "highest bidder (the earliest of equal bids)"
                )
            who += fallback + "."
        elif first is FirstLead.DECLARER:
            who = "The declarer leads the first trick" + fallback + "."
        else:
            who = "The player left of the dealer leads the first trick."
        a_trump = "A trump (jokers included)" if jokers else "A trump"
        mode = self.trump_lead
        if mode is TrumpLead.AFTER_BROKEN_OR_BOARD and not board:
            mode = TrumpLead.AFTER_BROKEN
        when = {
            TrumpLead.AFTER_BROKEN_OR_BOARD: (
                f" {a_trump} may be led only once trump is broken, by a player "
                "who bid board, or from a hand of nothing but trumps."
            ),
            TrumpLead.AFTER_BROKEN: (
                f" {a_trump} may be led only once trump is broken, or from a "
                "hand of nothing but trumps."
            ),
            TrumpLead.ANY_TIME: " Any card may be led.",
        }[mode]
        if mode is not TrumpLead.ANY_TIME:
            when += (
                " Trump is broken by any trump played in an earlier trick."
                if self.trump_broken_by is TrumpBrokenBy.ANY_TRUMP
                else " Trump is broken only by a trump played by a player who could not follow."
            )
        return who + when
