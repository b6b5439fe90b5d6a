"""The lead part: who leads the first trick, and when trump may be led (see
:ref:`rules-lead`)."""

from __future__ import annotations

from typing import ClassVar

import attrs

from backalley.cards import Card, Suit
from backalley.cardset import CardSet
from backalley.errors import Reason
from backalley.masks import (
    ALL,
    FALSE,
    SEAT_PLAYED,
    TRICK,
    Cards,
    Choose,
    Cond,
    Fact,
    Position,
    PositionFact,
    RestrictionForm,
    Some,
    decide,
    holds,
    restrictions,
)
from backalley.rules.base import Option, Part, has_jokers
from backalley.rules.context import DealContext
from backalley.rules.keys import PlayFact, PlayKey
from backalley.rules.protocols import Ranking, Restriction, RuleSetFacts
from backalley.rules.registry import register

__all__ = [
    "BoardTieLead",
    "FirstLead",
    "FirstTrickTrumpLead",
    "LeadPolicy",
    "TrumpBrokenBy",
    "TrumpBrokenFor",
    "TrumpLead",
]


_FIRST_LEADER_READS = frozenset({"dealer", "players", "outcome"})


class FirstLead(Option):
    """Who leads the first trick of a deal."""

    HIGHEST_BIDDER = "highest-bidder"
    """The last board claimer, else the highest numeric bid, ties to the
    earliest bidder (see :ref:`rules-first-lead`); in an auction, the declarer."""
    DECLARER = "declarer"
    """The declarer of the auction."""
    LEFT_OF_DEALER = "left-of-dealer"
    """The player left of the dealer."""


class TrumpLead(Option):
    """Option ``trump_lead``: when a trump may be led (see :ref:`rules-trump-lead`).

    A hand holding nothing but trumps may always lead one.
    """

    AFTER_BROKEN_OR_BOARD = "after-broken-or-board"
    """Once trump is broken, or by a player who bid board this deal (gamerules)."""
    AFTER_BROKEN = "after-broken"
    """Only once trump is broken (bab-online)."""
    ANY_TIME = "any-time"
    """Whenever the player likes (Vietnam)."""


class FirstTrickTrumpLead(Option):
    """Option ``first_trick_trump_lead``: whether a trump may be led to the deal's
    first trick (see :ref:`rules-trump-lead`)."""

    AS_LATER_TRICKS = "as-later-tricks"
    """As to every later trick (``trump_lead`` decides: a board bidder may,
    under ``after-broken-or-board``)."""
    NEVER = "never"
    """No trump is led to the first trick, but from a hand of nothing but trumps."""


class BoardTieLead(Option):
    """Option ``board_tie_lead``: which of several board claimers leads the
    first trick (see :ref:`rules-first-lead`)."""

    LAST_BOARD = "last-board"
    """The last player to bid board."""
    FIRST_BOARD = "first-board"
    """The first player to bid board."""


class TrumpBrokenBy(Option):
    """What breaks trump (see :ref:`rules-trump-lead`)."""

    ANY_TRUMP = "any-trump"
    """Any trump (jokers included) played in an earlier trick of the deal."""
    DISCARD = "discard"
    """Only a trump played by a player who could not follow the suit led."""


class TrumpBrokenFor(Option):
    """Option ``trump_broken_for``: for whom a trump played frees the lead of
    trumps (see :ref:`rules-trump-lead`)."""

    ANYONE = "anyone"
    """Once trump is broken (``trump_broken_by``), any player may lead a trump."""
    THE_LEADER = "the-leader"
    """A player may lead a trump only once they have played a trump themselves
    to an earlier trick of the deal (the Spanish gamerules sheet read word by
    word: "unless *he* has played a trump in an earlier trick")."""


@register
@attrs.frozen(slots=True, repr=False)
class LeadPolicy(Part):
    """Who leads first (``first_lead``, and ``board_tie_lead`` between board
    claimers), when trump may be led (``trump_lead``, and
    ``first_trick_trump_lead`` on the first trick), what breaks trump
    (``trump_broken_by``) and for whom (``trump_broken_for``)."""

    tag: ClassVar[str] = "lead"
    part: ClassVar[str] = "lead"

    first_lead: FirstLead = attrs.field(default=FirstLead.HIGHEST_BIDDER, converter=FirstLead)
    trump_lead: TrumpLead = attrs.field(
        default=TrumpLead.AFTER_BROKEN_OR_BOARD, converter=TrumpLead
    )
    trump_broken_by: TrumpBrokenBy = attrs.field(
        default=TrumpBrokenBy.ANY_TRUMP, converter=TrumpBrokenBy
    )
    first_trick_trump_lead: FirstTrickTrumpLead = attrs.field(
        default=FirstTrickTrumpLead.AS_LATER_TRICKS, converter=FirstTrickTrumpLead
    )
    board_tie_lead: BoardTieLead = attrs.field(
        default=BoardTieLead.LAST_BOARD, converter=BoardTieLead
    )
    trump_broken_for: TrumpBrokenFor = attrs.field(
        default=TrumpBrokenFor.ANYONE, converter=TrumpBrokenFor
    )

    def needs(self) -> frozenset[str]:
        return frozenset({"declarer"}) if self.first_lead is FirstLead.DECLARER else frozenset()

    def first_leader(self, ctx: DealContext) -> int:
        """Who leads the first trick (see :ref:`rules-first-lead`); the player left of
        the dealer when the bidding names nobody.

        With ``board_tie_lead = first-board``, the first player to bid board
        leads instead of the last (whom the bidding names): board is claimed
        in the one round of calls, which goes clockwise, so the first claimer
        is the first board bidder clockwise after the last one."""
        left = (ctx.dealer + 1) % ctx.players
        outcome = ctx.outcome
        if outcome is None or self.first_lead is FirstLead.LEFT_OF_DEALER:
            return left
        seat = outcome.declarer if self.first_lead is FirstLead.DECLARER else outcome.highest_bidder
        if seat is None:
            return left
        claimers = outcome.board_bidders
        if (
            self.board_tie_lead is BoardTieLead.FIRST_BOARD
            and self.first_lead is FirstLead.HIGHEST_BIDDER
            and seat in claimers
        ):
            seat = (seat + 1) % ctx.players
            while seat not in claimers:  # back at the last claimer at the latest
                seat = (seat + 1) % ctx.players
        return seat

    def context_reads(self, method: str) -> frozenset[str] | None:
        """:meth:`first_leader` reads the dealer, the number of players and
        the bidding's outcome of the deal's context."""
        return _FIRST_LEADER_READS if method == "first_leader" else None

    def restrictions_form(self, ranking: Ranking, trump: Suit | None) -> RestrictionForm:
        """Leading trump, as an expression of the mask algebra
        (:mod:`backalley.masks`): no trump lead until trump is broken (or by
        a board bidder, with ``after-broken-or-board``), unless the hand
        holds nothing but trumps; with ``trump_broken_for = the-leader``,
        trump is broken for the leader only once the leader has played a
        trump to an earlier trick; with ``first_trick_trump_lead = never``,
        no trump lead to the first trick but from such a hand (even by a
        board bidder, even under ``any-time``).  :meth:`restrictions`
        evaluates it."""
        trumps = Cards(ranking.trumps(trump))
        if self.trump_broken_for is TrumpBrokenFor.THE_LEADER:
            broken: Cond = Some(SEAT_PLAYED & trumps)
        else:
            broken = Fact(PositionFact.BROKEN)
        first: Cond = FALSE
        if self.first_trick_trump_lead is FirstTrickTrumpLead.NEVER:
            first = Fact(PositionFact.FIRST_TRICK)
        barred = ~broken & holds(trumps) & holds(~trumps)
        if self.trump_lead is TrumpLead.ANY_TIME:
            barred = barred & first
        elif self.trump_lead is TrumpLead.AFTER_BROKEN_OR_BOARD:
            barred = barred & (first | ~Fact(PositionFact.BOARD_BIDDER))
        return ((Choose(barred, ~trumps, ALL), Reason.TRUMP_NOT_BROKEN),)

    def restrictions(
        self, ctx: DealContext, seat: int, hand: CardSet, broken: bool
    ) -> tuple[Restriction, ...]:
        """The lead rule of :meth:`restrictions_form` at this position."""
        form = self.restrictions_form(ctx.ranking, ctx.trump)
        return restrictions(form, Position(ctx, seat, int(hand), (), seat, broken))

    def restrictions_key(self, ranking: Ranking, trump: Suit | None) -> PlayKey:
        """What :meth:`restrictions` reads of a lead (its key): whether the
        hand holds a trump and a card that is not one, whether trump is broken
        (or, with ``trump_broken_for = the-leader``, whether the seat has
        played a trump to an earlier trick), and - as the options ask -
        whether this is the first trick and whether the seat bid board."""
        trumps = ranking.trumps(trump)
        facts = set()
        seat_played: tuple[CardSet, ...] = ()
        if self.trump_broken_for is TrumpBrokenFor.THE_LEADER:
            seat_played = (trumps,)
        else:
            facts.add(PlayFact.BROKEN)
        if self.first_trick_trump_lead is FirstTrickTrumpLead.NEVER:
            facts.add(PlayFact.FIRST_TRICK)
        if self.trump_lead is TrumpLead.AFTER_BROKEN_OR_BOARD:
            facts.add(PlayFact.BOARD_BIDDER)
        return PlayKey(holds=(trumps, ~trumps), seat_played_holds=seat_played, facts=facts)

    def explain(self, ctx: DealContext, reason: Reason, card: Card, allowed: CardSet) -> str:
        if self.first_trick_trump_lead is FirstTrickTrumpLead.NEVER and ctx.first_trick:
            return (
                f"no trump may be led to the first trick, so you may not lead a trump ({card}) "
                "while you hold other suits"
            )
        if self.trump_broken_for is TrumpBrokenFor.THE_LEADER:
            msg = (
                f"you have not played a trump to an earlier trick yourself, so you may not "
                f"lead a trump ({card}) while you hold other suits"
            )
        else:
            msg = (
                f"trump has not been broken, so you may not lead a trump ({card}) while you "
                "hold other suits"
            )
        if self.trump_lead is TrumpLead.AFTER_BROKEN_OR_BOARD:
            msg += " (unless you bid board)"
        return msg

    def breaks_trump_form(self, ranking: Ranking, trump: Suit | None, led: Card) -> Cond:
        """Option ``trump_broken_by``, as a condition of the mask algebra on a
        completed trick (its cards, :data:`~backalley.masks.TRICK`) led with
        ``led`` under ``trump``: any trump played breaks trump, or only one
        played by a player who could not follow (a trump not led)."""
        trumps = ranking.trumps(trump)
        played = Some(TRICK & Cards(trumps))
        if self.trump_broken_by is TrumpBrokenBy.ANY_TRUMP:
            return played
        return FALSE if led in trumps else played

    def breaks_trump(self, ctx: DealContext, trick: tuple[Card, ...]) -> bool:
        """Whether the completed ``trick`` breaks trump (:meth:`breaks_trump_form`)."""
        form = self.breaks_trump_form(ctx.ranking, ctx.trump, trick[0])
        return decide(form, Position(ctx, 0, 0, trick, 0, ctx.broken))

    def describe(self) -> str:
        return self._describe(jokers=True, board=True, declarer=False, always=False)

    def describe_in(self, rules: RuleSetFacts) -> str:
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
                which = "first" if self.board_tie_lead is BoardTieLead.FIRST_BOARD else "last"
                who = (
                    f"The {which} player to bid board leads the first trick; without a board, "
                    "the highest bidder (the earliest of equal bids)"
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
        once = "once trump is broken"
        if self.trump_broken_for is TrumpBrokenFor.THE_LEADER:
            once = (
                "by a player who has played a trump to an earlier trick themselves (a trump "
                "played by anyone else does not free their lead)"
            )
        when = {
            TrumpLead.AFTER_BROKEN_OR_BOARD: (
                f" {a_trump} may be led only {once}, by a player "
                "who bid board, or from a hand of nothing but trumps."
            ),
            TrumpLead.AFTER_BROKEN: (
                f" {a_trump} may be led only {once}, or from a hand of nothing but trumps."
            ),
            TrumpLead.ANY_TIME: " Any card may be led.",
        }[mode]
        if self.first_trick_trump_lead is FirstTrickTrumpLead.NEVER:
            # after-broken says it already: trump is never broken before the first trick
            if mode is TrumpLead.ANY_TIME:
                when = (
                    f" Any card may be led, but no trump{' (jokers included)' if jokers else ''}"
                    " to the first trick unless the hand holds nothing but trumps."
                )
            elif mode is TrumpLead.AFTER_BROKEN_OR_BOARD:
                when += (
                    " To the first trick no trump may be led, not even by a player who bid "
                    "board, unless the hand holds nothing but trumps."
                )
        if mode is not TrumpLead.ANY_TIME and self.trump_broken_for is TrumpBrokenFor.ANYONE:
            when += (
                " Trump is broken by any trump played in an earlier trick."
                if self.trump_broken_by is TrumpBrokenBy.ANY_TRUMP
                else " Trump is broken only by a trump played by a player who could not follow."
            )
        return who + when
