"""The bidding tree of a rule set: the bidding part's answers, asked and remembered.

A rule set's :class:`~backalley.rules.plan.Plan` builds one :class:`CallTree`
and asks it every bidding question: the legal calls at a point of the bidding
(the bidding part's ``calls`` that its ``refusal`` lets through, and whether
its ``speaker`` says a seat is still to speak), why a call is refused, every
call the part knows there, and the outcome of a complete bidding.  Each answer
is the part's own, checked (a speaker out of turn, no legal call, an outcome
that does not fit the rule set raise :class:`~backalley.RuleSetError` naming
the part); the tree only remembers them, in bounded tables:

- one :class:`CallNode` per point of a bidding met (the legal calls there, the
  node after each call, the outcome once complete), from a root per hand size
  and first bidder;
- one :class:`CallAnswers` per *answer key*.  A bidding part may say what its
  answers depend on through ``answer_key(ctx)``; the tree trusts that
  declaration only when it comes from the part's own class or from a class
  below which no subclass defines a method of its own
  (:func:`trusted_answer_key`); otherwise the key is the whole bidding (the
  hand size, the first bidder and the calls).  So a subclass that changes a
  rule is never given its parent's answers.  In the checking mode the tree
  asks the part again wherever it would answer by a key, and raises
  :class:`~backalley.RuleSetError` naming the part when the answers differ.

Both tables hold at most :data:`CALL_NODE_LIMIT` entries and start afresh
beyond (nodes that states hold keep working).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

from backalley.errors import Reason, RuleSetError, SetupError
from backalley.moves import Bid, BoardBid, Counter, Move, Pass
from backalley.rules.claims import checked_refusal, trusted_declaration
from backalley.rules.context import BiddingContext
from backalley.rules.protocols import KeyedBidding, Refusal
from backalley.values import BiddingOutcome

if TYPE_CHECKING:
    from backalley.rules.ruleset import RuleSet

__all__ = [
    "CALL_NODE_LIMIT",
    "CallAnswers",
    "CallNode",
    "CallTree",
    "trusted_answer_key",
]

CALL_NODE_LIMIT = 8_192
"""The most bidding nodes (and answer sets) a plan keeps; its tables start afresh beyond."""

_CALLS = (Pass, Bid, BoardBid, Counter)
"""The kinds of move a bidding part's ``calls`` may answer."""

_tuple = tuple.__new__  # a named tuple from its fields, without NamedTuple.__new__'s frame


def trusted_answer_key(part: object) -> Callable[[BiddingContext], Hashable] | None:
    """The part's ``answer_key`` (:class:`~backalley.rules.protocols.KeyedBidding`)
    when the plan may trust it: declared by the part's class, or by an
    ancestor below which no class defines a method of its own (see
    :func:`~backalley.rules.claims.trusted_declaration`)."""
    if not isinstance(part, KeyedBidding):
        return None
    return trusted_declaration(part, "answer_key")


class CallAnswers:
    """The bidding part's answers at one point of a bidding: whether a seat
    is still to speak, the legal calls in the part's order, and the same calls
    by value."""

    __slots__ = ("by_value", "legal", "open")

    def __init__(self, is_open: bool, legal: tuple[Move, ...]) -> None:
        self.open = is_open
        self.legal = legal
        self.by_value: dict[object, Move] = {m: m for m in legal}


class CallNode:
    """One point of a bidding: the calls so far (in :attr:`ctx`), the bidding
    part's answers there, and - once met - the node after each call and the
    outcome of the complete bidding.  A tree's nodes never change what they
    answer; the tree keeps at most :data:`CALL_NODE_LIMIT` of them."""

    __slots__ = ("_children", "_outcome", "_tree", "answers", "ctx")

    def __init__(self, tree: CallTree, ctx: BiddingContext) -> None:
        self._tree = tree
        self.ctx = ctx
        self.answers: CallAnswers = tree.answers_at(ctx)
        self._children: dict[Move, CallNode] = {}
        self._outcome: BiddingOutcome | None = None

    def __eq__(self, other: object) -> bool:
        # a node is its point of the bidding: equal rule sets meet equal nodes
        return self is other or (type(other) is CallNode and other.ctx == self.ctx)

    def __hash__(self) -> int:
        return hash(self.ctx)

    @property
    def open(self) -> bool:
        """Whether a seat is still to speak (the bidding part's ``speaker``)."""
        return self.answers.open

    @property
    def legal(self) -> tuple[Move, ...]:
        """The calls the seat to speak may make, in the bidding part's order."""
        return self.answers.legal

    def find(self, move: object) -> Move | None:
        """The legal call equal to ``move`` (``None`` if it is not legal)."""
        by_value: dict[object, Move] = self.answers.by_value
        try:
            return by_value.get(move)
        except TypeError:  # not hashable: not a call
            return None

    def after(self, call: Move) -> CallNode:
        """The node after ``call``, which must be one of :attr:`legal`."""
        child = self._children.get(call)
        if child is None:
            if not self.answers.open:
                raise SetupError(f"the bidding is over: no call follows, not {call}")
            hand_size, players, first, calls, teams, seat_teams = self.ctx
            ctx = _tuple(
                BiddingContext, (hand_size, players, first, (*calls, call), teams, seat_teams)
            )
            child = CallNode(self._tree, ctx)
            self._children[call] = child
            self._tree.count_node()
        return child

    @property
    def outcome(self) -> BiddingOutcome:
        """The bidding part's outcome of these (complete) calls."""
        out = self._outcome
        if out is None:
            out = self._outcome = self._tree.outcome(self.ctx)
        return out


class CallTree:
    """The bidding answers of one :class:`~backalley.RuleSet`, asked of its
    bidding part and remembered (see the module's description); built and
    owned by the rule set's plan."""

    __slots__ = ("_answers", "_check", "_key", "_nodes", "_roots", "rules")

    def __init__(self, rules: RuleSet, check: bool) -> None:
        self.rules = rules
        self._check = check
        """Whether to ask the part again wherever an answer comes from its key."""
        self._key = trusted_answer_key(rules.bidding)
        self._roots: dict[tuple[int, int], CallNode] = {}
        self._answers: dict[Hashable, CallAnswers] = {}
        self._nodes = 0

    def answers_at(self, ctx: BiddingContext) -> CallAnswers:
        """The bidding part's answers at ``ctx``, remembered by its answer key."""
        key: Hashable = (
            self._key(ctx) if self._key is not None else (ctx.hand_size, ctx.first, ctx.calls)
        )
        found = self._answers.get(key)
        if found is None:
            found = self._answers[key] = self._ask_calls(ctx)
        elif self._check and self._key is not None:
            fresh = self._ask_calls(ctx)
            if fresh.open != found.open or fresh.legal != found.legal:
                name = type(self.rules.bidding).__name__
                raise RuleSetError(
                    [
                        f"bidding: {name}.answer_key gives the bidding after "
                        f"{', '.join(map(str, ctx.calls)) or 'no call'} ({ctx.hand_size} cards, "
                        f"seat {ctx.first} first) the key of an earlier one, but {name} answers "
                        f"it differently: {', '.join(map(str, fresh.legal)) or 'the end'}, not "
                        f"{', '.join(map(str, found.legal)) or 'the end'}"
                    ]
                )
        return found

    def _ask_calls(self, ctx: BiddingContext) -> CallAnswers:
        # Any: the part's answers reach the checks as they are (mypyc checks no types here)
        bidding: Any = self.rules.bidding
        name = type(bidding).__name__
        speaker = bidding.speaker(ctx)
        if speaker is None:
            if not ctx.calls:
                raise RuleSetError(
                    [
                        f"bidding: {name}.speaker answered None before any call; a bidding "
                        f"takes at least one call (seat {ctx.seat} speaks first)"
                    ]
                )
            return CallAnswers(False, ())
        if speaker != ctx.seat:
            raise RuleSetError(
                [
                    f"bidding: {name}.speaker answered {speaker!r}; calls go round "
                    f"clockwise, so the next speaker is seat {ctx.seat} (or None to end)"
                ]
            )
        refusal = bidding.refusal
        legal = tuple(call for call in bidding.calls(ctx) if refusal(ctx, call) is None)
        if not legal:
            raise RuleSetError(
                [
                    f"bidding: {name} leaves seat {ctx.seat} no legal call after "
                    f"{', '.join(map(str, ctx.calls)) or 'no call'} with {ctx.hand_size} "
                    "card(s) (its calls are all refused)"
                ]
            )
        return CallAnswers(True, legal)

    def legal_calls(self, ctx: BiddingContext) -> tuple[Move, ...]:
        """The legal calls at ``ctx``: the bidding part's calls its ``refusal`` lets through."""
        return self.answers_at(ctx).legal

    def call_refusal(self, ctx: BiddingContext, move: Move) -> Refusal | None:
        """Why ``move`` may not be called at ``ctx`` (the bidding part's
        ``refusal``), or ``None`` if it may."""
        if move in self.answers_at(ctx).by_value:
            return None
        # Any: the part's answers reach the checks as they are (mypyc checks no types here)
        bidding: Any = self.rules.bidding
        why = bidding.refusal(ctx, move)
        if why is None:  # a call the part allows but does not list among its calls
            return (Reason.WRONG_PHASE, f"{move} is not a call these rules know")
        return checked_refusal(why, f"bidding: {type(self.rules.bidding).__name__}.refusal")

    def known_calls(self, ctx: BiddingContext) -> tuple[Move, ...]:
        """Every call the bidding part knows at ``ctx`` (its ``calls``), legal
        or not, in its order; none once the bidding is over."""
        if not self.answers_at(ctx).open:
            return ()
        # Any: the part's answers reach the checks as they are (mypyc checks no types here)
        bidding: Any = self.rules.bidding
        calls = bidding.calls(ctx)
        if not isinstance(calls, tuple) or not all(isinstance(c, _CALLS) for c in calls):
            raise RuleSetError(
                [
                    f"bidding: {type(self.rules.bidding).__name__}.calls must answer a tuple "
                    f"of calls (Pass, Bid, BoardBid, Counter), not {calls!r}"
                ]
            )
        return calls

    def outcome(self, ctx: BiddingContext) -> BiddingOutcome:
        """The contracts of a complete bidding (the bidding part's ``outcome``)."""
        rules = self.rules
        out = rules.bidding.outcome(ctx)
        seats = range(rules.players)
        if (
            not isinstance(out, BiddingOutcome)
            or len(out.contracts) != len(rules.teams)
            or not (out.declarer is None or out.declarer in seats)
            or not (out.highest_bidder is None or out.highest_bidder in seats)
            or not all(seat in seats for seat in out.board_bidders)
            or len(out.announcements) not in (0, len(rules.teams))
        ):
            raise RuleSetError(
                [
                    f"bidding: {type(rules.bidding).__name__}.outcome must answer a "
                    f"BiddingOutcome with one contract per side ({len(rules.teams)}) and seats "
                    f"0 to {rules.players - 1} for its declarer and bidders (and announcements "
                    f"for every side or none), not {out!r}"
                ]
            )
        return out

    def opening_node(self, hand_size: int, first: int) -> CallNode:
        """The node of a deal of ``hand_size`` cards before any call, seat
        ``first`` to speak first (one node shared by every such deal)."""
        node = self._roots.get((hand_size, first))
        if node is None:
            rules = self.rules
            ctx = BiddingContext(hand_size, rules.players, first, (), rules.teams, rules.seat_teams)
            node = self._roots[(hand_size, first)] = CallNode(self, ctx)
            self.count_node()
        return node

    def count_node(self) -> None:
        """Count a new node; beyond :data:`CALL_NODE_LIMIT` the tables start
        afresh (nodes held by states work on)."""
        self._nodes += 1
        if self._nodes > CALL_NODE_LIMIT:
            self._roots = {}
            self._answers = {}
            self._nodes = 0
