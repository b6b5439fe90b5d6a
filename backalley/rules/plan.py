"""A rule set compiled once into a plan: the per-rule-set functions and
tables the engine calls on every decision.

The rules live in their parts; the plan is how they run fast.  It is built
once per :class:`~backalley.RuleSet` (:attr:`RuleSet.plan`) from the parts'
own methods:

- **Plays**: :attr:`Plan.lead_mask` and :attr:`Plan.follow_mask` give the legal
  plays as a bit set in one call.  A part may offer a fast form of its rule
  through an optional ``compile(rules)`` method returning a
  :class:`Compiled` mapping (the built-in lead and follow parts do); a part
  without one - a user's own part, or a subclass that changes the rule - runs
  through its protocol method ``restrictions``, narrowing the hand by each
  restriction in turn.  Both forms give the same answer (the test suite checks
  the built-in compiled functions against the protocol methods on random
  positions).  A refused card is always explained from the protocol methods
  (:meth:`Plan.play_refusal`), so the reasons never change.
- **Bidding**: :class:`CallNode` values for (hand size, first bidder, calls
  so far), built lazily from the bidding part's ``legal_calls`` and
  ``outcome``: each node knows the legal calls, finds a call among them by
  identity, and knows the outcome of a complete bidding.  The first calls of a
  bidding, which every deal meets, are kept in a table bounded in size;
  deeper nodes only while they are among the latest met.
- **Trick and deal**: the ranking part's ``trick_winner``, the lead part's
  ``breaks_trump`` (or their compiled forms), and the contexts the parts
  decide from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypedDict

from backalley.cards import CARDS, Suit
from backalley.errors import Reason, SetupError
from backalley.moves import Move
from backalley.rules.context import NO_TRUMP, BiddingContext, DealContext
from backalley.rules.protocols import FollowRule, LeadRule, Refusal
from backalley.values import BiddingOutcome

if TYPE_CHECKING:
    from backalley.rules.ruleset import RuleSet

__all__ = [
    "CALL_NODE_LIMIT",
    "CallNode",
    "Compiled",
    "FollowMask",
    "LeadMask",
    "Plan",
    "TrumpBreak",
    "generic_follow_mask",
    "generic_lead_mask",
]

LeadMask = Callable[[DealContext, int, int, bool], int]
"""``lead_mask(ctx, seat, hand, broken)``: the cards ``seat`` may lead from ``hand``."""
FollowMask = Callable[[DealContext, int, int, tuple[int, ...], int], int]
"""``follow_mask(ctx, seat, hand, trick, leader)``: the cards ``seat`` may play to ``trick``."""
TrumpBreak = Callable[[DealContext, tuple[int, ...]], bool]
"""``breaks_trump(ctx, trick)``: whether a completed trick breaks trump."""
TrickWinner = Callable[[tuple[int, ...], int], int]
"""``trick_winner(trick, trump)``: the position in ``trick`` of the winning card."""


class Compiled(TypedDict, total=False):
    """What a part's optional ``compile(rules)`` may return: fast functions
    that give exactly the answers of the part's protocol methods (any key
    left out runs through the protocol method)."""

    lead_mask: LeadMask
    """The lead part's ``restrictions``, folded into a bit set."""
    breaks_trump: TrumpBreak
    """The lead part's ``breaks_trump``."""
    follow_mask: FollowMask
    """The follow part's ``restrictions``, folded into a bit set."""
    follow_suits: tuple[tuple[int, ...], ...]
    """With ``follow_mask``, where the rule is "follow the led card's suit if
    able": for each effective trump (0..4) and led card (0..53), the cards that
    follow it.  The legal plays are the hand's cards among them, or the whole
    hand when it holds none; ``0`` marks a led card the table does not decide
    (``follow_mask`` is asked).  It lets the engine's hottest loops decide a
    follow without a call."""
    trick_winner: TrickWinner
    """The ranking part's ``trick_winner``."""
    outcome: Callable[[BiddingContext], BiddingOutcome]
    """The bidding part's ``outcome``."""
    legal_calls: Callable[[BiddingContext], tuple[Move, ...]]
    """The bidding part's ``legal_calls``."""


_tuple = tuple.__new__  # a named tuple without NamedTuple.__new__'s Python-level call

_NO_IDS: dict[int, Move] = {}  # the calls of a closed bidding (never written to)
_NO_CHILDREN: dict[int, CallNode] = {}  # the nodes after a closed bidding (never written to)
_NO_FOLLOW_TABLE = ((0,) * 54,) * 5  # a follow part without a table: every follow asks it

CALL_NODE_LIMIT = 4_096
"""The most bidding nodes a plan keeps (a few MB); the table starts afresh beyond it."""

SHARED_CALLS = 2
"""The plan keeps the bidding nodes of at most this many calls, which every
deal meets again and again.  Deeper nodes, which biddings rarely share, are
built when reached and die young; only the last :data:`RECENT_NODES` met are
remembered, so that the same bidding met again soon (a document loaded again,
a replay) finds its nodes.  Kept, they would fill the table and give the
garbage collector long-lived objects to walk (about 4 % of a random game's
time)."""

RECENT_NODES = 64
"""How many of the latest deeper bidding nodes a plan remembers (see :data:`SHARED_CALLS`)."""


def _compiled(part: object, rules: RuleSet) -> Compiled:
    """A part's compiled functions (none for a part without ``compile``)."""
    hook = getattr(part, "compile", None)
    if hook is None:
        return {}
    found: Compiled | None = hook(rules)
    return found or {}


def generic_lead_mask(lead: LeadRule) -> LeadMask:
    """The lead part's rule run through its protocol method ``restrictions``."""
    restrictions = lead.restrictions

    def lead_mask(ctx: DealContext, seat: int, hand: int, broken: bool) -> int:
        for allowed, _reason in restrictions(ctx, seat, hand, broken):
            hand &= allowed
        return hand

    return lead_mask


def generic_follow_mask(follow: FollowRule) -> FollowMask:
    """The follow part's rule run through its protocol method ``restrictions``."""
    restrictions = follow.restrictions

    def follow_mask(
        ctx: DealContext, seat: int, hand: int, trick: tuple[int, ...], leader: int
    ) -> int:
        for allowed, _reason in restrictions(ctx, seat, hand, trick, leader):
            hand &= allowed
        return hand

    return follow_mask


class CallNode:
    """One point of a bidding: the calls so far (in :attr:`ctx`), the legal
    calls, and - once met - the node after each call and the outcome of the
    complete bidding.  Nodes of up to :data:`SHARED_CALLS` calls are shared by
    every deal of the plan with the same hand size, first bidder and calls;
    deeper ones only while they are among the latest met.  They never change
    what they answer."""

    __slots__ = ("_children", "_outcome", "_plan", "ctx", "ids", "legal", "open")

    def __init__(self, plan: Plan, ctx: BiddingContext) -> None:
        self._plan = plan
        self.ctx = ctx
        self.open: bool = plan.speaker(ctx) is not None
        """Whether a seat is still to speak (the bidding part's ``speaker``)."""
        self.legal: tuple[Move, ...] = ()
        """The calls the seat to speak may make (the bidding part's order)."""
        self.ids: dict[int, Move] = _NO_IDS
        """The legal calls by identity (each call is one of ``legal``)."""
        self._children: dict[int, CallNode] = _NO_CHILDREN
        self._outcome: BiddingOutcome | None = None
        if self.open:
            legal = self.legal = plan.legal_calls(ctx)
            self.ids = plan._ids_of(legal)
            if len(ctx.calls) < SHARED_CALLS:
                self._children = {}

    def find(self, move: object) -> Move | None:
        """The legal call equal to ``move`` (``None`` if it is not legal)."""
        found = self.ids.get(id(move))
        if found is not None:
            return found
        for m in self.legal:
            if m == move:
                return m
        return None

    def after(self, call: Move) -> CallNode:
        """The node after ``call``, which must be one of :attr:`legal` (by identity)."""
        child = self._children.get(id(call))
        if child is None:
            plan = self._plan
            recent = plan._recent.get(id(self))
            if recent is not None and recent[0] is self and recent[1].ctx.calls[-1] is call:
                return recent[1]  # the same bidding again (a document loaded again, a replay)
            if not self.open:
                raise SetupError(f"the bidding is over: no call follows, not {call}")
            hand_size, players, first, calls, teams, seat_teams = self.ctx
            ctx = _tuple(
                BiddingContext,
                (hand_size, players, first, calls + (call,), teams, seat_teams),  # noqa: RUF005  (half the cost of unpacking, per move)
            )
            child = CallNode(plan, ctx)
            if len(calls) < SHARED_CALLS:
                self._children[id(call)] = child
                plan._count_node()
            else:
                recents = plan._recent
                if len(recents) >= RECENT_NODES:
                    recents.clear()
                recents[id(self)] = (self, child)  # holds ``self``: its id stays its own
        return child

    @property
    def outcome(self) -> BiddingOutcome:
        """The bidding part's outcome of these (complete) calls."""
        out = self._outcome
        if out is None:
            out = self._plan.bidding_outcome(self.ctx)
            self._outcome = out
        return out


class Plan:
    """The compiled form of one :class:`~backalley.RuleSet` (see :attr:`RuleSet.plan`)."""

    __slots__ = (
        "_held",
        "_ids",
        "_nodes",
        "_recent",
        "_roots",
        "bidding_outcome",
        "breaks_trump",
        "deck_cards",
        "deck_mask",
        "direct_counters",
        "first_bidder",
        "first_bidders",
        "first_leader",
        "follow_mask",
        "follow_restrictions",
        "follow_suits",
        "hand_sizes",
        "lead_mask",
        "lead_restrictions",
        "legal_calls",
        "players",
        "ranking",
        "rules",
        "seat_teams",
        "speaker",
        "teams",
        "trick_winner",
        "trump_choices",
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
        self.trumps = rules.ranking.trumps
        self.lead_restrictions = rules.lead.restrictions
        self.follow_restrictions = rules.follow.restrictions
        self.first_bidder = rules.bidding.first
        self.first_bidders: tuple[int, ...] = tuple(
            rules.bidding.first(dealer, self.players) for dealer in range(self.players)
        )
        """The seat that speaks first in the bidding, by dealer (the bidding part's ``first``)."""
        self.speaker: Callable[[BiddingContext], int | None] = rules.bidding.speaker
        """The seat to speak next, ``None`` once the bidding is over: ``speaker(ctx)``."""
        self.trump_choices: Callable[[DealContext], tuple[Suit | None, ...]] = rules.trump.choices
        """What a declarer may name as trump (none: the deal is played at once)."""
        self.first_leader: Callable[[DealContext], int] = rules.lead.first_leader
        """Who leads the first trick of a played deal: ``first_leader(ctx)``."""
        lead = _compiled(rules.lead, rules)
        follow = _compiled(rules.follow, rules)
        ranking = _compiled(rules.ranking, rules)
        self.lead_mask: LeadMask = lead.get("lead_mask") or generic_lead_mask(rules.lead)
        """The legal leads as a bit set: ``lead_mask(ctx, seat, hand, broken)``."""
        self.follow_mask: FollowMask = follow.get("follow_mask") or generic_follow_mask(
            rules.follow
        )
        """The legal plays to a trick: ``follow_mask(ctx, seat, hand, trick, leader)``."""
        self.follow_suits: tuple[tuple[int, ...], ...] = (
            follow.get("follow_suits", _NO_FOLLOW_TABLE)
            if "follow_mask" in follow
            else _NO_FOLLOW_TABLE
        )
        """The follow part's table of suits to follow (see :class:`Compiled`);
        all ``0`` (every follow asks :attr:`follow_mask`) for a part without one."""
        self.breaks_trump: TrumpBreak = lead.get("breaks_trump") or rules.lead.breaks_trump
        self.trick_winner: TrickWinner = ranking.get("trick_winner") or rules.ranking.trick_winner
        bidding = _compiled(rules.bidding, rules)
        self.legal_calls: Callable[[BiddingContext], tuple[Move, ...]] = (
            bidding.get("legal_calls") or rules.bidding.legal_calls
        )
        """The legal calls of a bidding: ``legal_calls(ctx)``."""
        self.bidding_outcome: Callable[[BiddingContext], BiddingOutcome] = (
            bidding.get("outcome") or rules.bidding.outcome
        )
        """The contracts of a complete bidding: ``bidding_outcome(ctx)``."""
        hook = getattr(rules.bidding, "direct_counters", None)  # an optional hook
        self.direct_counters: tuple[int, ...] = tuple(hook()) if hook is not None else ()
        """The multipliers a direct counter call may name (the bidding part's
        optional ``direct_counters()``; none without it)."""
        self._roots: dict[tuple[int, int], CallNode] = {}
        self._ids: dict[tuple[int, ...], dict[int, Move]] = {}
        self._held: dict[int, tuple[tuple[Move, ...], dict[int, Move]]] = {}
        self._recent: dict[int, tuple[CallNode, CallNode]] = {}
        self._nodes = 0

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
            self.first_bidders[ctx.dealer],
            calls,
            self.teams,
            self.seat_teams,
        )

    # -------------------------------------------------------------- bidding

    def call_node(self, ctx: DealContext, calls: tuple[Move, ...] = ()) -> CallNode:
        """The bidding node of a deal after ``calls`` (each a call the bidding
        part allowed at its turn)."""
        node = self.opening_node(ctx.hand_size, self.first_bidders[ctx.dealer])
        for call in calls:
            found = node.find(call)
            if found is None:  # not a legal call: answer from the parts directly
                return CallNode(self, self.bidding_context(ctx, calls))
            node = node.after(found)
        return node

    def opening_node(self, hand_size: int, first: int) -> CallNode:
        """The bidding node of a deal of ``hand_size`` cards before any call,
        seat ``first`` to speak first (one node shared by every such deal)."""
        node = self._roots.get((hand_size, first))
        if node is None:
            ctx = BiddingContext(hand_size, self.players, first, (), self.teams, self.seat_teams)
            node = self._roots[(hand_size, first)] = CallNode(self, ctx)
            self._count_node()
        return node

    def _ids_of(self, legal: tuple[Move, ...]) -> dict[int, Move]:
        """The calls of ``legal`` by identity (one shared table per set of calls)."""
        held = self._held.get(id(legal))
        if held is not None and held[0] is legal:  # a shared tuple met before
            return held[1]
        key = tuple(map(id, legal))
        ids = self._ids.get(key)
        if ids is None:
            ids = {id(m): m for m in legal}
            self._ids[key] = ids
        self._held[id(legal)] = (legal, ids)  # holds ``legal``: its id stays its own
        return ids

    def _count_node(self) -> None:
        self._nodes += 1
        if self._nodes > CALL_NODE_LIMIT:
            self._restart()

    def _restart(self) -> None:
        """Bounded: start a fresh table (nodes still held by states keep working)."""
        self._roots = {}
        self._ids = {}
        self._held = {}
        self._recent = {}
        self._nodes = 0

    # ----------------------------------------------------------------- play

    def restrictions(
        self,
        ctx: DealContext,
        seat: int,
        hand: int,
        trick: tuple[int, ...],
        leader: int,
        broken: bool,
    ) -> tuple[tuple[int, Reason], ...]:
        """The restrictions on ``seat``'s play: the lead part's when leading,
        else the follow part's."""
        if trick:
            return self.follow_restrictions(ctx, seat, hand, trick, leader)
        return self.lead_restrictions(ctx, seat, hand, broken)

    def play_mask(
        self,
        ctx: DealContext,
        seat: int,
        hand: int,
        trick: tuple[int, ...],
        leader: int,
        broken: bool,
    ) -> int:
        """The cards ``seat`` may play from ``hand``, as a bit set."""
        if trick:
            return self.follow_mask(ctx, seat, hand, trick, leader)
        return self.lead_mask(ctx, seat, hand, broken)

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


def compiled_parts(rules: RuleSet) -> dict[str, Any]:
    """The compiled functions each part offers (for tests and curious readers)."""
    return {
        name: _compiled(getattr(rules, name), rules)
        for name in ("lead", "follow", "ranking", "bidding")
    }
