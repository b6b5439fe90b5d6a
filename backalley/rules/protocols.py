"""The protocol of each rule part: the decisions the engine asks of it.

Every part answers from one :class:`~backalley.rules.context.DealContext` (plus
the few facts that change card by card: the hand, the trick, whether trump is
broken; the cards played to the deal's earlier tricks and whether trump is
broken are also in the context, as ``played`` and ``broken``).  The engine
calls these methods and never looks at a part's type or options, so a new
house rule is one class implementing its part's protocol, registered with
:func:`backalley.rules.register`.

Parts speak the game's terms: cards are :class:`~backalley.Card` values, sets
of cards (a hand, the trumps, what a rule allows) :class:`~backalley.CardSet`
values, and a trump a :class:`~backalley.Suit` or ``None`` for no trump suit.

A *restriction* is ``(allowed, reason)``: the cards a rule allows (a
:class:`~backalley.CardSet`) and the :class:`~backalley.Reason` it gives for
refusing the others.  The legal plays are the hand narrowed by every
restriction in order; a refused card is explained by the first restriction
that excludes it, through the same part's ``explain``.  Legal moves and
refusals therefore come from the same method of the same part.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from backalley.cards import Card, Suit
from backalley.cardset import CardSet
from backalley.errors import Reason
from backalley.moves import Move
from backalley.values import BiddingOutcome

if TYPE_CHECKING:
    from backalley.rules.context import BiddingContext, DealContext
    from backalley.rules.keys import PlayKey
    from backalley.rules.ruleset import RuleSet
    from backalley.rules.trump import TrumpSetup

__all__ = [
    "BiddingRule",
    "DealerRule",
    "DeckRule",
    "DirectCounters",
    "DrawsTrumpBeforeDeal",
    "EndRule",
    "FollowRule",
    "KeyedBidding",
    "KeyedBiddingStates",
    "KeyedFollow",
    "KeyedLead",
    "LeadRule",
    "PricesOvertricks",
    "Ranking",
    "ReadsContext",
    "Refusal",
    "Restriction",
    "RulePart",
    "RuleSetFacts",
    "ScheduleRule",
    "ScoringRule",
    "SeatingRule",
    "ShowsStock",
    "TrumpRule",
]

Restriction = tuple[CardSet, Reason]
"""``(the cards a rule allows, the reason it refuses the others)``."""
Refusal = tuple[Reason, str]
"""``(reason, a sentence for the player)``."""


class RulePart(Protocol):
    """What every rule part has: a stable tag, its part, a description, and
    what it needs from and provides to the other parts of a rule set."""

    tag: ClassVar[str]
    part: ClassVar[str]

    def describe(self) -> str:
        """The rule as a paragraph of the rules sheet."""
        ...

    def describe_in(self, rules: RuleSet) -> str:
        """The rule as a paragraph of the rules sheet of ``rules``, mentioning
        only what can apply there (:class:`~backalley.rules.Part` gives
        :meth:`describe`)."""
        ...

    def options(self) -> dict[str, Any]:
        """The part's parameters, by name."""
        ...

    def summary(self) -> str:
        """One line: the tag and the parameters."""
        ...

    def needs(self) -> frozenset[str]:
        """Capabilities this part needs another part to provide (e.g. ``"declarer"``)."""
        ...

    def provides(self) -> frozenset[str]:
        """Capabilities this part provides to the others."""
        ...

    def problems(self, rules: RuleSet) -> list[str]:
        """Why this part does not fit the rest of ``rules`` (each problem names the parts)."""
        ...


class DeckRule(RulePart, Protocol):
    """Which cards are in play."""

    @property
    def size(self) -> int: ...

    @property
    def has_jokers(self) -> bool: ...

    @property
    def cards(self) -> CardSet:
        """The cards in play."""
        ...


class SeatingRule(RulePart, Protocol):
    """How many players there are and how they form sides."""

    @property
    def players(self) -> int: ...

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]: ...

    def team_of(self, seat: int) -> int: ...


class ScheduleRule(RulePart, Protocol):
    """The hand size of every scored deal."""

    @property
    def hand_sizes(self) -> tuple[int, ...]: ...

    @property
    def deals(self) -> int: ...

    @property
    def largest(self) -> int: ...


class DealerRule(RulePart, Protocol):
    """Who deals next."""

    def dealer_after(self, ctx: DealContext, points: Sequence[int]) -> int:
        """The dealer of the next scored deal, given this deal's points per side."""
        ...


class TrumpRule(RulePart, Protocol):
    """How each deal's trump is fixed.

    A part may also draw the trump before the deal, from a shuffle of the
    whole deck of its own (:class:`DrawsTrumpBeforeDeal`): each deal is then
    dealt from a second shuffle, its :meth:`opening` called with
    ``ctx.trump`` set to the answer.  A part without the method draws
    nothing before the deal.  And a part may show cards to be left in the
    stock (:class:`ShowsStock`)."""

    def opening(
        self, ctx: DealContext, hands: tuple[CardSet, ...], stock: tuple[Card, ...]
    ) -> TrumpSetup:
        """What the part does to a freshly dealt deal: the turn-up (and any
        joker handling), the opening trump.  ``ctx.trump`` is not known yet
        (``None``), unless the part draws trump before the deal (above)."""
        ...

    def turns_up(self) -> bool:
        """Whether a card is turned up after the deal."""
        ...

    def stock_needed(self, deck: DeckRule) -> int:
        """How many cards the part needs beyond the hands (the turn-up, a card
        to draw): the schedule's largest deal must leave them in the stock."""
        ...

    def trump_for(self, ctx: DealContext, turn_up: Card | None) -> Suit | None:
        """The effective trump (a suit, or ``None`` for no trump suit) at the
        opening of a deal with this turn-up (``None``: no card turned)."""
        ...

    def choices(self, ctx: DealContext) -> tuple[Suit | None, ...]:
        """The trumps a declarer may name after the bidding (``None`` = no
        trump); empty when nobody names trump."""
        ...

    def discardable(self, ctx: DealContext, turn_up: Card | None) -> CardSet:
        """The cards that :meth:`opening` may put out of play
        besides the turn-up, in a deal with this turn-up (for checking a
        player's view, which shows the discards)."""
        ...


class BiddingRule(RulePart, Protocol):
    """The calls, and the contracts they make."""

    def first(self, dealer: int, players: int) -> int:
        """Who speaks first."""
        ...

    def speaker(self, ctx: BiddingContext) -> int | None:
        """Who speaks next, or ``None`` when the calls ``ctx.calls`` end the
        bidding.  Calls go round clockwise from :meth:`first` (call ``i`` is
        made by ``ctx.seat_of(i)``), so the next speaker is ``ctx.seat``: a
        part decides when the bidding ends (every player once by default;
        one player per side in the literal Vietnam auction)."""
        ...

    def calls(self, ctx: BiddingContext) -> tuple[Move, ...]:
        """Every call this bidding knows at ``ctx``, in a fixed order (a
        superset of the legal ones): the legal calls are those :meth:`refusal`
        lets through, in this order."""
        ...

    def refusal(self, ctx: BiddingContext, move: Move) -> Refusal | None:
        """Why the seat to speak may not call ``move`` now, or ``None`` if it
        may: the one place that says no to a call.  (A part may also say
        what its :meth:`speaker` and :meth:`refusal` answers depend on,
        :class:`KeyedBidding`, so that the rule set's plan can remember them.)"""
        ...

    def outcome(self, ctx: BiddingContext) -> BiddingOutcome:
        """The contracts made by the complete calls ``ctx.calls``."""
        ...

    def redealer(self, dealer: int, players: int) -> int:
        """Who deals again after a thrown-in deal."""
        ...

    def max_bid(self, hand_size: int) -> int:
        """The highest numeric bid on a deal of ``hand_size`` cards."""
        ...


class LeadRule(RulePart, Protocol):
    """Who leads first, what may be led, and what breaks trump."""

    def first_leader(self, ctx: DealContext) -> int:
        """Who leads the first trick of the deal."""
        ...

    def restrictions(
        self, ctx: DealContext, seat: int, hand: CardSet, broken: bool
    ) -> tuple[Restriction, ...]:
        """The rules narrowing what ``seat`` may lead from ``hand``."""
        ...

    def explain(self, ctx: DealContext, reason: Reason, card: Card, allowed: CardSet) -> str:
        """Why ``card`` may not be led (``allowed``: what the restriction allows)."""
        ...

    def breaks_trump(self, ctx: DealContext, trick: tuple[Card, ...]) -> bool:
        """Whether a completed trick breaks trump."""
        ...


class FollowRule(RulePart, Protocol):
    """What a player must play to a trick that has been led."""

    def restrictions(
        self, ctx: DealContext, seat: int, hand: CardSet, trick: tuple[Card, ...], leader: int
    ) -> tuple[Restriction, ...]:
        """The rules narrowing what ``seat`` may play from ``hand`` to ``trick``."""
        ...

    def explain(
        self,
        ctx: DealContext,
        reason: Reason,
        card: Card,
        allowed: CardSet,
        trick: tuple[Card, ...],
    ) -> str:
        """Why ``card`` may not be played to ``trick``."""
        ...


class Ranking(RulePart, Protocol):
    """The order of the cards and who wins a trick."""

    def trumps(self, trump: Suit | None) -> CardSet:
        """The cards that are trumps under the effective trump."""
        ...

    def suit_cards(self, card: Card, trump: Suit | None) -> CardSet:
        """The cards that belong to the same suit as ``card`` (what following it means)."""
        ...

    def trick_winner(self, trick: tuple[Card, ...], trump: Suit | None) -> int:
        """The position in ``trick`` (0 = the lead) of the card that wins it."""
        ...

    def highest(self, cards: CardSet, trump: Suit | None) -> Card:
        """The highest card of a non-empty set of cards of one suit."""
        ...

    def lowest(self, cards: CardSet, trump: Suit | None) -> Card:
        """The lowest card of a non-empty set of cards of one suit."""
        ...


class ScoringRule(RulePart, Protocol):
    """Points per side at the end of a deal."""

    def score(
        self, ctx: DealContext, tricks: Sequence[int], dealt: Sequence[CardSet]
    ) -> tuple[int, ...]:
        """The points of each side: ``tricks`` per side, ``dealt`` the hands as dealt."""
        ...


class EndRule(RulePart, Protocol):
    """Who wins when the last deal is scored."""

    def winner(self, scores: Sequence[int]) -> int | None:
        """The winning side, or ``None`` for a draw."""
        ...


class RuleSetFacts(Protocol):
    """What a part may read of the rule set it is part of (in ``describe_in``,
    ``problems`` and the like): the other parts and the seats and sides.
    :class:`~backalley.RuleSet` is one."""

    @property
    def deck(self) -> DeckRule: ...
    @property
    def seating(self) -> SeatingRule: ...
    @property
    def schedule(self) -> ScheduleRule: ...
    @property
    def dealer(self) -> DealerRule: ...
    @property
    def trump(self) -> TrumpRule: ...
    @property
    def bidding(self) -> BiddingRule: ...
    @property
    def lead(self) -> LeadRule: ...
    @property
    def follow(self) -> FollowRule: ...
    @property
    def ranking(self) -> Ranking: ...
    @property
    def scoring(self) -> ScoringRule: ...
    @property
    def end(self) -> EndRule: ...
    @property
    def players(self) -> int: ...
    @property
    def teams(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def seat_teams(self) -> tuple[int, ...]: ...


# ----------------------------------------------------------- optional hooks
#
# A part may give any of these methods besides its protocol's.  The rule
# set's plan finds them once, when it is built (``isinstance`` against these
# runtime-checkable protocols); a key - something a part claims of its own
# answers - is trusted only from the class that decides (see
# :func:`backalley.rules.plan.trusted_declaration`) and checked in the
# checking mode (``BACKALLEY_CHECK_KEYS=1``).


@runtime_checkable
class KeyedBidding(Protocol):
    """A bidding part that says what its answers at a point of the bidding
    depend on."""

    def answer_key(self, ctx: BiddingContext) -> Hashable:
        """What :meth:`BiddingRule.speaker`, :meth:`BiddingRule.calls` and
        :meth:`BiddingRule.refusal` read of ``ctx``: two points of a bidding
        with equal keys get the same answers (the plan remembers them per key)."""
        ...


@runtime_checkable
class KeyedBiddingStates(Protocol):
    """A bidding part that says what the rest of a bidding depends on."""

    def state_key(self, ctx: BiddingContext) -> Hashable:
        """What the rest of the bidding reads of the calls ``ctx.calls``: two
        points of a bidding with equal state keys get the same answers
        (speaker, calls, refusals) after every equal continuation, and the
        same outcome once complete - so the bidding is an automaton whose
        states are the keys (the batch engine's)."""
        ...


@runtime_checkable
class ReadsContext(Protocol):
    """A part that says which facts of a deal's context its decisions read."""

    def context_reads(self, method: str) -> frozenset[str] | None:
        """The fields of the :class:`~backalley.rules.context.DealContext`
        that the part's decision ``method`` (e.g. ``"first_leader"``) reads,
        and the names of those of its other arguments that the answer reads
        (e.g. ``"points"`` of ``dealer_after``); ``None`` when the part does
        not say.  A tool may then remember the answer per those facts."""
        ...


@runtime_checkable
class DirectCounters(Protocol):
    """A bidding part whose counter calls may name their multiplier."""

    def direct_counters(self) -> Sequence[int]:
        """The multipliers a direct counter call (``counter xK``) may name,
        which gives them action ids in the research adapters."""
        ...


@runtime_checkable
class PricesOvertricks(Protocol):
    """A scoring part that says whether a trick beyond a made contract can cost points."""

    def overtricks_cost(self, hand_size: int) -> bool:
        """Whether, on the ``hand_size``-card deal, a side that has taken
        exactly its contract can score fewer points by taking one trick more
        (a bot then sheds its tricks once its contract is made)."""
        ...


@runtime_checkable
class KeyedLead(Protocol):
    """A lead part that says what its ``restrictions`` depend on."""

    def restrictions_key(self, ranking: Ranking, trump: Suit | None) -> PlayKey | None:
        """What :meth:`LeadRule.restrictions` reads of a lead under ``trump``
        (see :class:`~backalley.rules.keys.PlayKey`), or ``None`` when the
        plan should ask it at every lead."""
        ...


@runtime_checkable
class KeyedFollow(Protocol):
    """A follow part that says what its ``restrictions`` depend on."""

    def restrictions_key(self, ranking: Ranking, trump: Suit | None, led: Card) -> PlayKey | None:
        """What :meth:`FollowRule.restrictions` reads of a trick led with
        ``led`` under ``trump`` (see :class:`~backalley.rules.keys.PlayKey`),
        or ``None`` when the plan should ask it at every such play."""
        ...


@runtime_checkable
class DrawsTrumpBeforeDeal(Protocol):
    """A trump part that draws each deal's trump from a shuffle of its own
    before the deal."""

    def trump_before_deal(self, ctx: DealContext, deck: tuple[Card, ...]) -> Suit | None:
        """The trump drawn from ``deck`` (that shuffle of the whole deck, top
        card first)."""
        ...


@runtime_checkable
class ShowsStock(Protocol):
    """A trump part whose opening shows cards to be left in the stock."""

    def left_in_stock(self, ctx: DealContext, turn_up: Card | None, discards: CardSet) -> CardSet:
        """The cards an opening with this turn-up and these discards shows to
        be in no hand (left in the stock), for what a player may infer of the
        other hands.  A part without it shows nothing."""
        ...
