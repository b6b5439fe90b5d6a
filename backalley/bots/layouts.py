"""The layouts a seat's view allows, weighed by the calls made: the part of
the ``pimc`` bot (:mod:`backalley.bots.pimc`) that infers where the unseen
cards are.

A *layout* is a full deal that agrees with a seat's
:class:`~backalley.PlayerView`: the unseen cards dealt to the other seats,
each seat as many cards as it holds, drawn from its
:meth:`~backalley.PlayerView.possible_cards` (the suits it has shown void in,
the trumps a blooper lead showed it lacks, the turn-up and discards;
:func:`~backalley.bots.montecarlo.sample_hands`), built with the deal's
calls and plays so far (:func:`backalley.engine.lowlevel.determinise`).

**The calls weigh the layouts.**  A layout in which a seat that passed holds
two aces should count for less than one in which it holds nothing.  The
library's own bidding model - the ``heuristic`` bot - is asked what each
other seat would have called with the cards the layout gives it, after the
calls that came before (and, where a declarer named trump, which suit it
would have named).  Each call that the model would have made differently
costs the layout a factor ``exp(-call_weight * d)``, where ``d`` is the
distance between the two calls in tricks (:func:`call_distance`).  The
likelihood of a layout (:func:`layout_likelihood`) is the product over the
seats' calls: a layout that explains every call has weight 1, and one that
misses a seat's bid by two tricks ``exp(-2)`` (with a ``call_weight`` of 1).

**Sampling importance resampling.**  :func:`draw_layout` draws ``draws``
layouts at random and picks one, with chances in proportion to their
likelihoods; it counts with the mean of those likelihoods, so the weighted
mean over the layouts picked is the same estimate as weighing every layout
drawn, with fewer layouts to score.

Every rule answer comes from the rule set's plan, through the engine's
sampling (:mod:`backalley.engine.lowlevel`) and the bidding model.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import attrs

from backalley.bots.heuristic import HeuristicBot
from backalley.bots.montecarlo import sample_hands
from backalley.engine import lowlevel
from backalley.engine.legality import Phase
from backalley.engine.state import GameState
from backalley.engine.views import PlayerView
from backalley.errors import BackAlleyError
from backalley.moves import Bid, BoardBid, Move, NameTrump, Pass

__all__ = [
    "MEMO_LIMIT",
    "CallMemo",
    "DrawCounts",
    "call_distance",
    "call_tricks",
    "draw_layout",
    "is_ascending",
    "layout_likelihood",
]

_HEURISTIC = HeuristicBot()


def call_tricks(call: Move, hand_size: int, level: int) -> int | None:
    """The tricks a call stands for: a number its own, board the hand size,
    pass ``level``; ``None`` for other calls."""
    if isinstance(call, Bid):
        return call.tricks
    if isinstance(call, BoardBid):
        return hand_size
    if isinstance(call, Pass):
        return level
    return None


def call_distance(actual: Move, model: Move, hand_size: int, level: int = 0) -> float:
    """How far apart two calls are, in tricks (see the module docstring):
    ``level`` is what a pass stands for (0 once around the table; in an
    ascending auction, the highest number announced before it)."""
    if actual == model:
        return 0.0
    a = call_tricks(actual, hand_size, level)
    b = call_tricks(model, hand_size, level)
    if a is None or b is None:
        return 1.0
    return float(abs(a - b))


def is_ascending(view: PlayerView) -> bool:
    """Whether the bidding is an auction whose winning call makes a declarer."""
    contracts = view.contracts
    if contracts is None and view.phase is Phase.BIDDING:
        moves = view.legal_moves()
        contracts = lowlevel.contracts_if(view, moves[0]) if moves else None
    return contracts is not None and any(
        c is not None and c.declarer is not None for c in contracts
    )


def _opening(state: GameState) -> GameState | None:
    """``state``'s deal at its opening (before any call), dealt the same
    hands, turn-up and discards (:func:`backalley.engine.lowlevel.deck_for`);
    ``None`` when no deck order reproduces them."""
    hands = [lowlevel.hand_bits(state, seat) for seat in range(state.players)]
    try:
        return lowlevel.deck_for(state.view(0), hands)[1]
    except BackAlleyError:
        return None


MEMO_LIMIT = 200_000
"""The most answers a bot's :class:`CallMemo` keeps in each of its tables
(both are emptied when one is full)."""


@attrs.define
class CallMemo:
    """What the bidding model answered, kept by one bot for its layouts: who
    made each call, and the heuristic's call with each hand.  Every key holds
    the rule set and the deal's public facts, so one memo serves any rules;
    each bot keeps its own (nothing is shared through the module), bounded
    by ``limit`` answers a table."""

    limit: int = MEMO_LIMIT
    speakers: dict[object, int | None] = attrs.field(factory=dict)
    """(the deal's public facts, the calls before) -> the seat that called next."""
    model_calls: dict[object, Move] = attrs.field(factory=dict)
    """(the deal's public facts, the calls before, the hand) -> the heuristic's call."""

    def remember_speaker(self, key: object, seat: int | None) -> None:
        """Keep who called after the calls of ``key``."""
        self._room(self.speakers)
        self.speakers[key] = seat

    def remember_call(self, key: object, call: Move) -> None:
        """Keep the heuristic's call for the hand and calls of ``key``."""
        self._room(self.model_calls)
        self.model_calls[key] = call

    def _room(self, table: dict[object, Any]) -> None:
        if len(table) >= self.limit:
            self.speakers.clear()
            self.model_calls.clear()


def layout_likelihood(
    view: PlayerView,
    layout: GameState,
    call_weight: float = 1.0,
    ascending: bool | None = None,
    memo: CallMemo | None = None,
) -> float | None:
    """How likely the other seats' calls of this deal are when they hold the
    cards of ``layout`` (a full state agreeing with ``view``, as
    :func:`~backalley.engine.lowlevel.determinise` builds): ``exp(-call_weight *
    total distance)`` between each call and the heuristic bot's call with the
    layout's hand after the same calls (see the module docstring).  1 when
    no other seat has called; ``None`` when the deal's opening cannot be
    rebuilt from the layout.

    The heuristic's calls are remembered in ``memo`` (a fresh one when
    ``None``) by the public facts before them and the hand (its choices
    depend on the view alone), so layouts that give a seat the same hand
    share the work."""
    if memo is None:
        memo = CallMemo()
    me = view.seat
    calls = view.calls
    named = view.phase is not Phase.BIDDING and view.declarer not in (None, me)
    if not calls and not named:
        return 1.0
    if ascending is None:
        ascending = is_ascending(view)
    h = view.hand_size
    deal = (
        view.rules,
        view.dealer,
        h,
        len(view.deal_results),
        view.scores,
        lowlevel.turn_up_index(view),
        lowlevel.discard_bits(view),
    )
    dealt = lowlevel.dealt_bits(layout)
    replay: list[GameState] = []  # the opening with the first calls replayed, built on demand

    def before(k: int) -> GameState | None:
        """The layout's deal before its ``k``-th call."""
        if not replay:
            opened = _opening(layout)
            if opened is None:
                return None
            replay.append(opened)
        while len(replay) <= k:
            replay.append(replay[-1].apply_unchecked(calls[len(replay) - 1]))
        return replay[k]

    level = 0
    total = 0.0
    for k, call in enumerate(calls):
        key = (deal, calls[:k])
        if key in memo.speakers:
            seat = memo.speakers[key]
        else:
            state = before(k)
            if state is None:
                return None
            seat = state.to_act if state.phase is Phase.BIDDING else None
            memo.remember_speaker(key, seat)
        if seat is None:  # pragma: no cover - the calls replay the view's
            return None
        if seat != me:
            mkey = (key, dealt[seat])
            model = memo.model_calls.get(mkey)
            if model is None:
                state = before(k)
                if state is None:
                    return None
                model = _HEURISTIC.choose(state.view(seat))
                memo.remember_call(mkey, model)
            total += call_distance(call, model, h, level if ascending else 0)
        if isinstance(call, Bid):
            level = max(level, call.tricks)
    if named:
        declarer = view.declarer
        assert declarer is not None
        tkey: object = ((deal, (*calls, None)), dealt[declarer])  # None: the naming of trump
        model = memo.model_calls.get(tkey)
        if model is None:
            state = before(len(calls))
            if state is None:
                return None
            if state.phase is not Phase.NAMING_TRUMP:
                model = NameTrump(view.trump)  # trump was not named: nothing to weigh
            else:
                model = _HEURISTIC.choose(state.view(declarer))
            memo.remember_call(tkey, model)
        if model != NameTrump(view.trump):
            total += 1.0
    return math.exp(-call_weight * total)


class DrawCounts(Protocol):
    """Where :func:`draw_layout` counts what it did (a bot's statistics)."""

    drawn: int
    """Layouts drawn and weighed."""
    failed: int
    """Layouts that could not be built (a view no deal reproduces)."""
    unweighted: int
    """Layouts whose calls could not be replayed, so counted with weight 1."""


class Draws(Protocol):
    """A source of random draws (``random.Random`` is one)."""

    def randrange(self, stop: int, /) -> int: ...

    def random(self) -> float: ...


def draw_layout(
    view: PlayerView,
    rng: Draws,
    counts: DrawCounts,
    *,
    draws: int = 4,
    call_weight: float = 1.0,
    ascending: bool | None = None,
    memo: CallMemo | None = None,
) -> tuple[GameState, float] | None:
    """One layout of ``view``'s deal and its weight, by sampling importance
    resampling (see the module docstring): ``draws`` layouts drawn with
    ``rng`` and weighed by :func:`layout_likelihood` (one, of weight 1, when
    ``call_weight`` is 0 or nobody has called), one of them picked with
    chances in proportion to their weights, returned with the mean weight.
    ``None`` when no layout could be built this time; raises
    :class:`LookupError` when no cards fit the view at all.  What it did is
    counted in ``counts``."""
    informative = call_weight > 0 and bool(view.calls)
    pool: list[tuple[GameState, float]] = []
    for _ in range(draws if informative else 1):
        hands = sample_hands(view, rng)
        if hands is None:
            raise LookupError("no cards fit the view")
        try:
            layout = lowlevel.determinise(view, hands)
        except BackAlleyError:
            counts.failed += 1
            continue
        counts.drawn += 1
        weight = 1.0
        if informative:
            likely = layout_likelihood(view, layout, call_weight, ascending, memo)
            if likely is None:
                counts.unweighted += 1
            else:
                weight = likely
        pool.append((layout, weight))
    if not pool:
        return None
    total = sum(w for _, w in pool)
    if len(pool) == 1:
        return pool[0]
    mark = rng.random() * total
    chosen = pool[-1][0]
    for layout, w in pool:
        mark -= w
        if mark < 0:
            chosen = layout
            break
    return chosen, total / len(pool)
