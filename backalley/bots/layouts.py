"""The layouts a seat's view allows, weighed by the calls made and the cards
played: the part of the ``pimc`` bot (:mod:`backalley.bots.pimc`) that
infers where the unseen cards are.

A *layout* is a full deal that agrees with a seat's
:class:`~backalley.PlayerView`: the unseen cards dealt to the other seats,
each seat as many cards as it holds, drawn from its
:meth:`~backalley.PlayerView.possible_cards` (the suits it has shown void in,
the trumps a blooper lead showed it lacks, the turn-up and discards;
:func:`sample_hands`), built with the deal's
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

**The cards played weigh the layouts** (``play_weight`` above 0; policy-based
inference, as Rebstock et al. 2019 weigh Skat layouts by how likely the
observed plays were under a play policy).  A layout in which a seat would
not have played the card it did should count for less.  The play model is
the ``heuristic`` bot's play, softened: with the cards the layout gives it,
each other seat is asked, at each of its cards played so far this deal
(the layout's play replayed to that card), which card it would play
(:meth:`~backalley.bots.HeuristicBot.play_card`); a card of the same group
of equivalent cards as the model's (:func:`card_groups`, as the seat saw
them) agrees with it, and a play with one group alone says nothing.  The
softened policy plays the model's group with odds ``exp(play_weight)`` to
any other legal group, so each card the model would have played otherwise
costs the layout a factor ``exp(-play_weight)``, as a call costs
``exp(-call_weight * d)``; the policy's normaliser, ``1 + (g - 1) *
exp(-play_weight)`` for ``g`` groups, is left out (with it, every card that
agrees would weigh less in a layout that gave the seat more groups to
choose from: a restricted-choice inference right for a random player, not
for one that follows a plan), so a layout that explains every call and
every card has weight 1.  The heuristic's cards are remembered per play of
the deal and hand (:class:`CallMemo`), so the layouts drawn for a decision,
and later decisions of the deal, share the work.

**Sampling importance resampling.**  :func:`draw_layout` draws ``draws``
layouts at random and picks one, with chances in proportion to their
likelihoods; it counts with the mean of those likelihoods, so the weighted
mean over the layouts picked is the same estimate as weighing every layout
drawn, with fewer layouts to score.

Every rule answer comes from the rule set's plan, through the engine's
sampling (:mod:`backalley.engine.lowlevel`) and the bidding model.

One module, one job: drawing a layout and weighing it are one piece - the
draw's chances are the weights, and the calls and the cards played weigh a
layout through the same replay of its deal and the same memo.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Protocol

import attrs

from backalley.bots.bidding_model import is_auction
from backalley.bots.heuristic import HeuristicBot
from backalley.cards import CARDS
from backalley.engine import lowlevel
from backalley.engine.legality import Phase
from backalley.engine.state import GameState
from backalley.engine.views import PlayerView
from backalley.errors import BackAlleyError
from backalley.moves import Bid, BoardBid, Move, NameTrump, Pass, Play

__all__ = [
    "MEMO_LIMIT",
    "NEGLIGIBLE",
    "CallMemo",
    "DrawCounts",
    "call_distance",
    "call_tricks",
    "card_groups",
    "draw_layout",
    "layout_likelihood",
    "others_played",
    "sample_hands",
]

_HEURISTIC = HeuristicBot()


def sample_hands(view: PlayerView, rng: Any) -> list[int] | None:
    """One random assignment of the unseen cards to the other seats (bit
    sets, the cards each seat holds now) consistent with the view: each seat
    gets as many cards as it holds, each from its
    :meth:`~backalley.PlayerView.possible_cards`.  ``None`` only when no
    assignment exists (possible cards that a user's rule left unsound).

    The cards are drawn one at a time, a card kept only when the seats can
    still be filled after it (so the draw never fails half-way): the engine's
    :func:`backalley.engine.lowlevel.sample_hands`, which the OpenSpiel game's
    ``resample_from_infostate`` draws with too."""
    return lowlevel.sample_hands(view, rng, possible=lowlevel.possible_bits)


def card_groups(view: PlayerView, cards: int) -> list[int]:
    """The cards of the bit set ``cards`` in groups of equivalent cards, as
    ``view``'s seat sees them (bit sets, the group of the lowest card index
    first): cards are equivalent when they touch, of the same suit of the card
    order, one next above the other with no unseen card between (the plan's
    order, learned from the ranking part; each card alone when its answers
    fit no order)."""
    order = lowlevel.order_of(view)
    indices = [c for c in range(cards.bit_length()) if cards >> c & 1]
    if not order.standard:
        return [1 << c for c in indices]
    suit, above = order.suit, order.above
    gone = (
        lowlevel.hand_bits(view, view.seat)
        | lowlevel.out_of_play_bits(view)
        | lowlevel.played_bits(view)
    )
    groups: list[int] = []
    prev = -1
    for c in indices:
        if prev >= 0 and suit[prev] == suit[c] and above[prev] >> c & 1:
            between = above[prev] & ~above[c] & ~(1 << c)
            if not between & ~gone:
                groups[-1] |= 1 << c  # touching the previous card: equivalent
                prev = c
                continue
        groups.append(1 << c)
        prev = c
    return groups


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


def _opening(state: GameState) -> GameState | None:
    """``state``'s deal at its opening (before any call), dealt the same
    hands, turn-up and discards (:func:`backalley.engine.lowlevel.deck_for`);
    ``None`` when no deck order reproduces them."""
    hands = [lowlevel.hand_bits(state, seat) for seat in range(state.players)]
    try:
        return lowlevel.deck_for(state.view(0), hands)[1]
    except BackAlleyError:
        return None


NEGLIGIBLE = math.exp(-8)
"""How much less likely than another layout of its pool a layout may be
found before :func:`draw_layout` stops weighing its cards (its chance to be
picked, and its share of the pool's mean weight, are then below 0.04 %)."""

MEMO_LIMIT = 200_000
"""The most answers a bot's :class:`CallMemo` keeps in each of its tables
(both are emptied when one is full)."""


@attrs.define
class CallMemo:
    """What the bidding and play model answered, kept by one bot for its
    layouts: who made each call, the heuristic's call with each hand, and
    its card with each hand at each point of the play.  Every key holds the
    rule set and the deal's public facts, so one memo serves any rules; each
    bot keeps its own (nothing is shared through the module), bounded by
    ``limit`` answers a table."""

    limit: int = MEMO_LIMIT
    speakers: dict[object, int | None] = attrs.field(factory=dict)
    """(the deal's public facts, the calls before) -> the seat that called next."""
    model_calls: dict[object, Move] = attrs.field(factory=dict)
    """(the deal's public facts, the calls before, the hand) -> the heuristic's call."""
    prefixes: dict[object, int] = attrs.field(factory=dict)
    """(the deal's public facts and calls) or (a number, a card) -> the number
    of the play so far with that card after it: a short name for the plays
    before a card, so that a key of :attr:`model_plays` stays small."""
    model_plays: dict[tuple[int, int], tuple[int, int]] = attrs.field(factory=dict)
    """(the number of the plays before, the hand) -> the heuristic's card's
    group of equivalent cards (a bit set, 0 when the play was forced) and
    the number of groups among the legal cards."""
    _next: int = 0

    def remember_speaker(self, key: object, seat: int | None) -> None:
        """Keep who called after the calls of ``key``."""
        self._room(self.speakers)
        self.speakers[key] = seat

    def remember_call(self, key: object, call: Move) -> None:
        """Keep the heuristic's call for the hand and calls of ``key``."""
        self._room(self.model_calls)
        self.model_calls[key] = call

    def prefix(self, key: object) -> int:
        """The number of the plays named by ``key`` (a new one when unknown:
        numbers are never given twice, so one left in a key after the tables
        were emptied names nothing else)."""
        known = self.prefixes.get(key)
        if known is None:
            self._room(self.prefixes)
            known = self._next
            self._next += 1
            self.prefixes[key] = known
        return known

    def remember_play(self, key: tuple[int, int], answer: tuple[int, int]) -> None:
        """Keep the heuristic's card's group (and the groups) for ``key``."""
        self._room(self.model_plays)
        self.model_plays[key] = answer

    def _room(self, table: dict[Any, Any]) -> None:
        if len(table) >= self.limit:
            self.speakers.clear()
            self.model_calls.clear()
            self.prefixes.clear()
            self.model_plays.clear()


def layout_likelihood(
    view: PlayerView,
    layout: GameState,
    call_weight: float = 1.0,
    ascending: bool | None = None,
    memo: CallMemo | None = None,
    play_weight: float = 0.0,
    floor: float = 0.0,
) -> float | None:
    """How likely the other seats' calls and plays of this deal are when they
    hold the cards of ``layout`` (a full state agreeing with ``view``, as
    :func:`~backalley.engine.lowlevel.determinise` builds), by the heuristic
    bot's calls and cards softened (see the module docstring): the product
    of ``exp(-call_weight * d)`` for each call, ``d`` the distance to the
    heuristic's call with the layout's hand after the same calls, and, with
    ``play_weight`` above 0, of ``exp(-play_weight) / (g - 1)`` for each card
    a seat played outside the heuristic's card's group of equivalent cards,
    of ``g`` groups among the seat's legal cards in the layout (1 for a card
    of the heuristic's group; ``play_weight`` 0 weighs no play, as
    ``call_weight`` 0 no call).  1 when no other seat has called or played;
    ``None`` when the deal's opening cannot be rebuilt from the layout.
    Once the likelihood is below ``floor``, the cards left are not weighed
    (a likelihood at most ``floor`` is returned): :func:`draw_layout` asks
    no more of a layout that could hardly be picked.

    The heuristic's calls and cards are remembered in ``memo`` (a fresh one
    when ``None``) by the public facts before them and the hand (its choices
    depend on the view alone), so layouts that give a seat the same hand
    share the work."""
    if memo is None:
        memo = CallMemo()
    me = view.seat
    calls = view.calls
    named = view.phase is not Phase.BIDDING and view.declarer not in (None, me)
    plays = play_weight > 0 and view.phase is Phase.PLAYING
    if not (calls or named) and not plays:
        return 1.0
    if ascending is None:
        ascending = is_auction(view)
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

    total = 0.0
    if call_weight > 0:
        weighed = _call_distances(view, calls, named, ascending, deal, dealt, before, memo)
        if weighed is None:
            return None
        total += call_weight * weighed
    if plays:
        limit = -math.log(floor) - total if floor > 0 else math.inf
        weighed = _play_costs(view, play_weight, deal, dealt, before, memo, limit)
        if weighed is None:
            return None
        total += weighed
    return math.exp(-total)


def _call_distances(
    view: PlayerView,
    calls: tuple[Move, ...],
    named: bool,
    ascending: bool,
    deal: object,
    dealt: tuple[int, ...],
    before: Any,
    memo: CallMemo,
) -> float | None:
    """The total distance between the other seats' calls (and the naming of
    trump) and the heuristic's with the layout's hands; ``None`` when the
    layout's opening cannot be rebuilt."""
    me = view.seat
    h = view.hand_size
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
    return total


def _play_costs(
    view: PlayerView,
    play_weight: float,
    deal: object,
    dealt: tuple[int, ...],
    before: Any,
    memo: CallMemo,
    limit: float = math.inf,
) -> float | None:
    """Minus the log-likelihood of the other seats' cards played so far with
    the layout's hands (see :func:`layout_likelihood`), or the first sum past
    ``limit``; ``None`` when the layout's opening cannot be rebuilt.  The layout's play is replayed only
    as far as a card the memo does not know needs."""
    me = view.seat
    n = view.players
    calls = view.calls
    sequence: list[tuple[int, int]] = []  # (seat, card) in the order played
    for lead, cards, _win in lowlevel.history(view):
        sequence.extend(((lead + j) % n, c) for j, c in enumerate(cards))
    lead = view.leader
    sequence.extend(((lead + j) % n, c) for j, c in enumerate(lowlevel.trick_cards(view)))
    prefix = memo.prefix((deal, calls, view.trump))
    gone = [0] * n  # the cards each seat has played so far
    state: GameState | None = None  # the layout's deal before play ``at``, built on demand
    at = 0
    total = 0.0
    for k, (seat, card) in enumerate(sequence):
        if seat != me:
            key = (prefix, dealt[seat] & ~gone[seat])
            answer = memo.model_plays.get(key)
            if answer is None:
                if state is None:
                    state = before(len(calls))
                    if state is None:
                        return None
                    if state.phase is Phase.NAMING_TRUMP:
                        state = state.apply_unchecked(NameTrump(view.trump))
                while at < k:
                    state = state.apply_unchecked(Play(CARDS[sequence[at][1]]))
                    at += 1
                answer = _model_play(state, seat)
                memo.remember_play(key, answer)
            group = answer[0]
            if group and not group >> card & 1:
                total += play_weight
                if total > limit:
                    return total  # the layout can hardly be picked: enough
        gone[seat] |= 1 << card
        prefix = memo.prefix((prefix, card))
    return total


def others_played(view: PlayerView) -> bool:
    """Whether a seat other than ``view``'s has played a card this deal."""
    if view.phase is not Phase.PLAYING:
        return False
    played = len(lowlevel.history(view)) * view.players + len(lowlevel.trick_cards(view))
    mine = view.hand_size - view.hand_counts[view.seat]
    return played > mine


def _model_play(state: GameState, seat: int) -> tuple[int, int]:
    """The heuristic's card for ``seat`` (to act in ``state``) as its group of
    equivalent cards among the seat's legal cards (a bit set; 0 when it has
    one group alone), and the number of groups."""
    legal = lowlevel.legal_play_mask(state)
    if not legal & (legal - 1):
        return 0, 1
    seen = state.view(seat)
    groups = card_groups(seen, legal)
    if len(groups) < 2:
        return 0, 1
    card = _HEURISTIC.play_card(seen, legal)
    return next(g for g in groups if g >> card & 1), len(groups)


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
    play_weight: float = 0.0,
    enough: Callable[[], bool] | None = None,
) -> tuple[GameState, float] | None:
    """One layout of ``view``'s deal and its weight, by sampling importance
    resampling (see the module docstring): ``draws`` layouts drawn with
    ``rng`` and weighed by :func:`layout_likelihood` (one, of weight 1, when
    there is nothing to weigh: ``call_weight`` 0 or nobody has called, and
    ``play_weight`` 0 or no other seat has played), one of them picked with
    chances in proportion to their weights, returned with the mean weight
    (the cards of a layout found :data:`NEGLIGIBLE` times as likely as one
    drawn before it are not all weighed: its weight is then at most that;
    and once ``enough()`` says so after a layout, no more are drawn: the
    pick is made from those drawn, as good an estimate with fewer draws).
    ``None`` when no layout could be built this time; raises
    :class:`LookupError` when no cards fit the view at all.  What it did is
    counted in ``counts``."""
    informative = (call_weight > 0 and bool(view.calls)) or (
        play_weight > 0 and others_played(view)
    )
    pool: list[tuple[GameState, float]] = []
    floor = 0.0  # a layout less likely than this could hardly be picked
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
            likely = layout_likelihood(
                view, layout, call_weight, ascending, memo, play_weight=play_weight, floor=floor
            )
            if likely is None:
                counts.unweighted += 1
            else:
                weight = likely
        pool.append((layout, weight))
        floor = max(floor, weight * NEGLIGIBLE)
        if enough is not None and enough():
            break
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
