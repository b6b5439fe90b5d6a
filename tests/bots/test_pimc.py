"""The ``pimc`` bot (backalley.bots.pimc): legal play in several variants,
reproducibility from a seed, the cold board, the calls' weighting of layouts
and the memo of the bidding model each bot keeps; and the deadlines of every
bot and of the solver, counted on fake clocks and in positions, never timed."""

from __future__ import annotations

import gc
import itertools
import math
import random
import time
import warnings
from collections.abc import Callable

import pytest

import backalley as ba
from backalley import lowlevel
from backalley.bots import HeuristicBot, MonteCarloBot, PimcBot, RandomBot, make_bot
from backalley.bots.match import one_deal
from backalley.bots.montecarlo import distinct_cards, sample_hands
from backalley.bots.pimc import FIRST_SHARE, CallMemo, call_distance, layout_likelihood
from backalley.solver import SearchLimitError, Solver, solve

from ..helpers import apply_all, bot_move, cards, position, short


def _bits(text: str) -> int:
    mask = 0
    for card in cards(text):
        mask |= 1 << card.index
    return mask


def _fake_clock(step: float = 1.0) -> Callable[[], float]:
    """A clock that moves ``step`` seconds each time it is read."""
    ticks = itertools.count()
    return lambda: step * next(ticks)


@pytest.mark.parametrize("name", ["gamerules", "vietnam", "bab-online", "cutthroat-3"])
def test_pimc_plays_legal_moves(name: str) -> None:
    rules = short(ba.variants.get(name), 3, 4)
    state = ba.new_game(rules, seed=4)
    bots = [PimcBot(seed=s, samples=2) for s in range(rules.players)]
    while not state.is_over:
        state = bot_move(state, bots)  # applies with checking: an illegal move raises
    assert sum(b.stats.samples for b in bots) > 0
    assert all(b.stats.fallbacks == 0 for b in bots)


def test_pimc_is_registered_and_checks_its_settings() -> None:
    assert isinstance(make_bot("pimc", seed=1), PimcBot)
    for bad in (
        {"samples": 0},
        {"budget": 0},
        {"clock": "sundial"},
        {"solver_cards": -1},
        {"draws": 0},
        {"call_weight": -1.0},
        {"call_z": -0.5},
        {"call_z": float("inf")},
        {"call_z": "high"},
        {"card_z": -1.0},
        {"card_z": float("nan")},
    ):
        with pytest.raises(ba.SetupError):
            PimcBot(**bad)  # type: ignore[arg-type]


def test_pimc_is_reproducible_from_its_seed() -> None:
    rules = short(ba.variants.GAMERULES, 4)
    state = ba.new_game(rules, seed=8)
    a, b = PimcBot(seed=("x", 1), samples=3), PimcBot(seed=("x", 1), samples=3)
    seen = set()
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        move = a.choose(view)
        assert b.choose(view) == move
        seen.add(view.phase)
        state = state.apply(move)
    assert a.stats == b.stats
    assert {ba.Phase.BIDDING, ba.Phase.PLAYING} <= seen


def test_pimc_bids_board_on_a_cold_hand() -> None:
    """Eight top trumps (both jokers and A K Q J T 9 of spades, the turn-up's
    suit) and the red aces and kings and the ace of clubs: 13 sure tricks of 13."""
    hand = "BJ LJ AS KS QS JS TS 9S AH KH AD KD AC"
    state = position(["8S 7S", "6S 5S", "4S 3S", hand], "2S", hand_size=13)
    state = apply_all(state, ["pass", "pass"])  # the partner (seat 1) has spoken
    assert state.to_act == 3 and len(state.hands[3]) == 13
    bot = PimcBot(seed=1, samples=3)
    assert bot.choose(state.view(3)) == ba.BoardBid()
    values = bot.last_values
    assert ba.BoardBid() in values and len(values) > 1
    assert max(values, key=values.__getitem__) == ba.BoardBid()


def _first_call() -> ba.PlayerView:
    """The first call of a 5-card gamerules deal (seed 8): the heuristic,
    bidding from the trick table (as the bots of these tests do), passes with
    3C 8C QH 4S JS; its partner speaks third."""
    state = ba.new_game(short(ba.variants.GAMERULES, 5), seed=8)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert HeuristicBot(tricks="table").choose(view) == ba.Pass()
    return view


def _last_call_of_its_side() -> ba.PlayerView:
    """The third call of the same deal, after two passes: the heuristic
    passes with 2C AC 7H KH QS (the little joker turned up), its partner has
    spoken, and bidding 1 is worth about 7 points a deal more on the
    solver's layouts (some 4 standard errors over 40 layouts)."""
    state = ba.new_game(short(ba.variants.GAMERULES, 5), seed=8)
    state = apply_all(state, ["pass", "pass"])
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert HeuristicBot(tricks="table").choose(view) == ba.Pass()
    return view


def test_a_call_a_partner_still_reads_is_the_heuristics_unsampled() -> None:
    """With its partner still to speak, the seat makes the heuristic's call
    and scores no layout; its partner, the last of the side to speak, samples."""
    view = _first_call()
    assert lowlevel.partner_speaks_later(view, ba.Pass())
    bot = PimcBot(seed=1, samples=20, tricks="table")
    assert bot.choose(view) == ba.Pass()
    assert bot.stats.decisions == 0 and bot.stats.samples == 0
    last = _last_call_of_its_side()
    assert not lowlevel.partner_speaks_later(last, ba.Pass())
    bot.choose(last)
    assert bot.stats.decisions == 1 and bot.stats.samples == 20


def test_partner_speaks_later_asks_the_bidding_part() -> None:
    """Once around the table each seat speaks once: the first two speakers'
    partners speak later, the last two's have spoken; in the Vietnam auction
    a partner speaks again after a bid."""
    state = ba.new_game(short(ba.variants.GAMERULES, 5), seed=8)
    seen = []
    for _ in range(4):
        view = state.view(state.to_act)  # type: ignore[arg-type]
        seen.append(lowlevel.partner_speaks_later(view, ba.Pass()))
        state = state.apply(ba.Pass()) if ba.Pass() in view.legal_moves() else state
    assert seen[:2] == [True, True]
    vietnam = ba.new_game(short(ba.variants.get("vietnam"), 5), seed=8)
    view = vietnam.view(vietnam.to_act)  # type: ignore[arg-type]
    bid = next(m for m in view.legal_moves() if isinstance(m, ba.Bid))
    assert lowlevel.partner_speaks_later(view, bid)


def test_a_call_on_few_layouts_is_the_heuristics() -> None:
    """Three layouts are fewer than CALL_MIN_LAYOUTS: whatever they show,
    the bot passes as the heuristic does, every candidate still scored."""
    view = _last_call_of_its_side()
    bot = PimcBot(seed=1, samples=3, tricks="table")
    assert bot.choose(view) == ba.Pass()
    assert bot.stats.samples == 3 and len(bot.last_layouts) == 3
    assert bot.stats.overruled == 0
    assert set(bot.last_values) >= {ba.Pass(), ba.parse_move("bid 1")}


def test_a_call_shown_better_with_confidence_overrules_the_heuristics() -> None:
    """Over 20 layouts bidding 1 beats the heuristic's pass clearly, and the
    bot bids it; the same seed gives the same layouts and the same call."""
    view = _last_call_of_its_side()
    a, b = PimcBot(seed=1, samples=20, tricks="table"), PimcBot(seed=1, samples=20, tricks="table")
    assert a.choose(view) == b.choose(view) == ba.parse_move("bid 1")
    assert a.stats.overruled == 1 and a.stats == b.stats
    assert a.last_layouts == b.last_layouts and len(a.last_layouts) == 20


def test_pick_call_needs_a_confident_gain_on_enough_layouts() -> None:
    """The rule alone, on made-up layouts (weight, values of the heuristic's
    call and two others)."""
    bot = PimcBot(seed=1)
    assert PimcBot(seed=1, call_z=1.0).call_z == 1.0
    steady = [(1.0, [0.0, 5.0, 1.0])] * 10
    assert bot.pick_call(steady) == 1  # always 5 better: no doubt at all
    assert bot.pick_call(steady[:3]) == 0  # but 3 layouts are too few
    assert bot.pick_call([(1.0, [0.0, 5.0, 1.0])] * 3 + [(1e-9, [0.0, 5.0, 1.0])] * 7) == 0
    # board-like: +55 on two layouts of twenty, -10 on the others: a mean
    # of -3.5, never taken; and a big gain with a big spread is not enough
    lucky = [(1.0, [0.0, 55.0, 0.0])] * 2 + [(1.0, [0.0, -10.0, 0.0])] * 18
    assert bot.pick_call(lucky) == 0
    noisy = [(1.0, [0.0, 40.0, 0.0]), (1.0, [0.0, -30.0, 0.0])] * 3
    assert bot.pick_call(noisy) == 0  # mean +5, standard error 14.5
    assert PimcBot(seed=1, call_z=0.0).pick_call(noisy) == 1  # z 0: the mean alone
    # of two confident winners, the larger mean; equal means, the earlier
    both = [(1.0, [0.0, 2.0, 3.0]), (1.0, [0.0, 2.2, 3.2])] * 5
    assert bot.pick_call(both) == 2
    assert bot.pick_call([(1.0, [0.0, 2.0, 2.0]), (1.0, [0.0, 2.2, 2.2])] * 5) == 1


def _play_position(seed: int, step: int) -> ba.PlayerView:
    """A 5-card gamerules deal (``seed``) bid and played by the heuristic
    up to its ``step``-th card."""
    state = ba.new_game(short(ba.variants.GAMERULES, 5), seed=seed)
    heuristic = [HeuristicBot()] * 4
    while state.phase is not ba.Phase.PLAYING:
        state = bot_move(state, heuristic)
    for _ in range(step):
        state = bot_move(state, heuristic)
    seat = state.to_act
    assert seat is not None
    return state.view(seat)


def test_the_heuristics_card_stands_for_its_group_of_equivalent_cards() -> None:
    """Touching cards (of a suit, no unseen card between) play alike, so one
    of each group is scored: the lowest, or the heuristic's card itself,
    which the bot scores first.  On seed 15's first card the heuristic
    leads AD from A-K of diamonds: rollouts and the solver score AD (first)
    and not KD beside it."""
    view = _play_position(15, 0)
    moves = view.legal_moves()
    ad, kd, qc, ks = (ba.parse_move(f"play {c}") for c in ("AD", "KD", "QC", "KS"))
    assert HeuristicBot().choose(view) == ad
    assert distinct_cards(view, moves) == [qc, kd, ks]
    assert distinct_cards(view, moves, keep=ad) == [qc, ad, ks]
    assert distinct_cards(view, moves, keep=ba.parse_move("pass")) == [qc, kd, ks]
    assert PimcBot(seed=1, solver_cards=0).candidates(view, moves) == [ad, qc, ks]
    assert PimcBot(seed=1).candidates(view, moves) == [ad, qc, ks]


def test_of_cards_the_solver_values_alike_the_heuristics_is_played() -> None:
    """Near a deal's end the solver often sees no difference between cards.
    On seed 13's fourth card the heuristic plays 2H; over 8 layouts 2H, 3D
    and 6D have the same mean, the best, and the bot plays 2H (not 3D, the
    lowest card): where the layouts do not tell the cards apart, the model
    of its play says what it does."""
    view = _play_position(13, 3)
    two_h, three_d, six_d = (ba.parse_move(f"play {c}") for c in ("2H", "3D", "6D"))
    assert HeuristicBot().choose(view) == two_h
    bot = PimcBot(seed=1, samples=8)
    assert bot.choose(view) == two_h
    values = bot.last_values
    best = max(values.values())
    assert values[two_h] == values[three_d] == values[six_d] == best
    assert next(iter(values)) == two_h  # scored first: it wins the tie


@pytest.mark.slow
def test_a_card_scored_by_rollouts_needs_a_confident_gain_over_the_heuristics() -> None:
    """With more than ``solver_cards`` cards left, rollouts score the cards,
    the heuristic's first.  On seed 1's second card the heuristic plays 3D;
    over 20 layouts 8C has the best mean (about 5 points more) but not with
    confidence, so the bot plays 3D; with ``card_z=0`` it plays the mean's
    8C.  On seed 7's sixth card 9S clears the test and is played over the
    heuristic's 2D."""
    view = _play_position(1, 1)
    assert HeuristicBot().choose(view) == ba.parse_move("play 3D")
    gated = PimcBot(seed=1, samples=20, solver_cards=0)
    assert gated.candidates(view, view.legal_moves())[0] == ba.parse_move("play 3D")
    assert gated.choose(view) == ba.parse_move("play 3D")
    assert gated.stats.overruled == 0
    best = max(gated.last_values, key=gated.last_values.__getitem__)
    assert best == ba.parse_move("play 8C")
    assert PimcBot(seed=1, samples=20, solver_cards=0, card_z=0.0).choose(view) == best

    view = _play_position(7, 5)
    assert HeuristicBot().choose(view) == ba.parse_move("play 2D")
    bot = PimcBot(seed=1, samples=20, solver_cards=0)
    assert bot.choose(view) == ba.parse_move("play 9S")
    assert bot.stats.overruled == 1
    assert bot.pick_card(bot.last_layouts) == 2  # its index: 2D, TC, 9S


def test_a_card_the_solver_scores_is_the_best_mean() -> None:
    """The solver's values are exact on each layout: the card with the best
    weighted mean is played, without the test (seed 1's second card, every
    hand of 4 cards at most ``solver_cards``)."""
    view = _play_position(1, 1)
    bot = PimcBot(seed=1, samples=20)
    move = bot.choose(view)
    assert move == max(bot.last_values, key=bot.last_values.__getitem__)
    assert bot.stats.solved == 20 and bot.stats.rollouts == 0


def test_call_distance_counts_tricks() -> None:
    bid, board, cut = ba.parse_move("bid 3"), ba.BoardBid(), ba.Counter()
    assert call_distance(bid, bid, 5) == 0
    assert call_distance(bid, ba.parse_move("bid 1"), 5) == 2
    assert call_distance(ba.Pass(), bid, 5) == 3
    assert call_distance(ba.Pass(), bid, 5, level=2) == 1  # an auction's pass at 2
    assert call_distance(board, bid, 5) == 2
    assert call_distance(cut, bid, 5) == 1


def _weighted_position(call: str) -> tuple[ba.PlayerView, list[int], list[int]]:
    """A 5-card gamerules deal in which seat 1 made ``call`` holding the top
    trumps; seat 2's view, and two layouts of it: seat 1 with its real hand
    and with seat 3's (nothing)."""
    big, mine, junk, other = "BJ LJ AS KS QS", "2H 4H 6D 8C TC", "3H 5D 7D 9C JC", "7H 8H 9D TD QC"
    state = position([other, big, mine, junk], "2S")
    state = apply_all(state, [call])
    view = state.view(2)
    assert view.to_act == 2
    real = [_bits(other), _bits(big), _bits(mine), _bits(junk)]
    swapped = [_bits(other), _bits(junk), _bits(mine), _bits(big)]
    return view, real, swapped


def test_a_seat_that_passed_is_less_likely_to_hold_the_big_hand() -> None:
    view, real, swapped = _weighted_position("pass")
    holding = layout_likelihood(view, lowlevel.determinise(view, real))
    not_holding = layout_likelihood(view, lowlevel.determinise(view, swapped))
    assert holding is not None and not_holding is not None
    assert holding < not_holding
    # and a seat that bid high is more likely to
    view, real, swapped = _weighted_position("bid 4")
    holding = layout_likelihood(view, lowlevel.determinise(view, real))
    not_holding = layout_likelihood(view, lowlevel.determinise(view, swapped))
    assert holding is not None and not_holding is not None
    assert holding > not_holding
    # no weighting: every layout counts the same
    assert layout_likelihood(view, lowlevel.determinise(view, real), 0.0) == 1.0


def test_weighted_draws_give_a_passer_fewer_trumps() -> None:
    view, _real, _swapped = _weighted_position("pass")
    trumps = lowlevel.order_of(view).trumps

    def mean_trumps(bot: PimcBot) -> float:
        total = 0.0
        weights = 0.0
        for _ in range(40):
            picked = bot.draw(view)
            assert picked is not None
            layout, weight = picked
            total += weight * (lowlevel.hand_bits(layout, 1) & trumps).bit_count()
            weights += weight
        return total / weights

    # the weight of each draw matters only for a mean; picking among draws does the rest
    weighted = mean_trumps(PimcBot(seed=3, draws=6, call_weight=2.0))
    flat = mean_trumps(PimcBot(seed=3, draws=6, call_weight=0.0))
    assert weighted < flat
    # with nothing to weigh (no call yet), one layout is drawn a sample
    opening = position(["7H 8H 9D TD QC", "BJ LJ AS KS QS", "2H 4H 6D 8C TC", "3H 5D"], "2S",
                       hand_size=5)  # fmt: skip
    bot = PimcBot(seed=3, draws=6)
    assert bot.draw(opening.view(1)) is not None
    assert bot.stats.drawn == 1


def test_sample_hands_still_fit_the_view_the_bot_weighs() -> None:
    view, _real, _swapped = _weighted_position("pass")
    hands = sample_hands(view, random.Random(1))
    assert hands is not None
    layout = lowlevel.determinise(view, hands)
    weight = layout_likelihood(view, layout)
    assert weight is not None and 0 < weight <= 1


def test_a_cpu_budget_counts_samples_by_its_clock() -> None:
    """Budgets are read from the bot's clock once at the start of a decision
    and once after each sample: a fake clock that moves a second a reading
    lets a 2.5 s budget take three samples, whatever the machine does."""
    state = position(["2D 3H 4S", "BJ 9C AC", "5D 6H 7S", "8D 9H TS"], "2C")
    state = apply_all(state, ["pass", "pass"])  # seat 3's partner has spoken
    view = state.view(3)
    bot = PimcBot(seed=1, samples=50, budget=2.5, clock=_fake_clock())  # type: ignore[arg-type]
    bot.choose(view)
    assert bot.stats.decisions == 1
    assert bot.stats.samples == 3
    mc = MonteCarloBot(seed=1, samples=50, budget=2.5, clock=_fake_clock())  # type: ignore[arg-type]
    mc.choose(view)
    assert mc.stats.samples == 3
    # without a budget, the samples are the budget; the default clock is CPU time
    assert PimcBot().budget is None
    assert MonteCarloBot().clock is PimcBot().clock
    assert MonteCarloBot(clock="wall").clock is not MonteCarloBot().clock
    with pytest.raises(ba.SetupError, match="clock"):
        MonteCarloBot(clock="sundial")


class _Solver:
    """A stand-in for the pimc bot's solver: it records the deadline of each
    call, answers with the real solver, and on its ``stop_at``-th call stops
    as a real solve past its deadline would."""

    def __init__(self, stop_at: int) -> None:
        self.deadlines: list[float | None] = []
        self.collecting: list[bool] = []
        self.stop_at = stop_at

    def _ask(self, deadline: float | None) -> None:
        self.deadlines.append(deadline)
        self.collecting.append(gc.isenabled())
        if len(self.deadlines) == self.stop_at:
            raise SearchLimitError("deadline", lower=0, upper=3, nodes=1, seconds=0.0)

    def analyse(self, state: ba.GameState, *, deadline: float | None = None) -> dict[ba.Move, int]:
        self._ask(deadline)
        return Solver().analyse(state)

    def solve(self, state: ba.GameState, *, deadline: float | None = None) -> int:
        self._ask(deadline)
        return Solver().solve(state)


def _three_card_play() -> ba.PlayerView:
    """A card to play with three cards a hand: one solve a layout."""
    state = position(["2D 3H 4S", "BJ 9C AC", "5D 6H 7S", "8D 9H TS"], "2C")
    for _ in range(4):  # every seat bids its first number
        state = state.apply(next(m for m in state.legal_moves() if isinstance(m, ba.Bid)))
    assert state.phase is ba.Phase.PLAYING
    assert state.to_act is not None
    return state.view(state.to_act)


def test_a_budget_on_the_cpu_clock_bounds_every_solve_the_first_layouts_too() -> None:
    """Every solve of a decision gets what is left of the budget (CPU
    seconds) - the first layout's at most ``FIRST_SHARE`` of it - and a layout
    whose solve runs out of it is left out: the decision is made from the
    layouts before it.  Python's cyclic garbage collector is held off while
    the bot decides on such a budget, and is on again after."""
    view = _three_card_play()
    bot = PimcBot(seed=1, samples=50, budget=600.0)
    bot._dd = fake = _Solver(stop_at=3)
    assert gc.isenabled()
    move = bot.choose(view)
    assert gc.isenabled() and fake.collecting == [False] * 3
    assert move in view.legal_moves()
    assert all(d is not None and 0 < d <= 600.0 for d in fake.deadlines)
    assert fake.deadlines[0] is not None and fake.deadlines[0] <= FIRST_SHARE * 600.0
    assert (bot.stats.samples, bot.stats.stopped, bot.stats.out_of_time) == (2, 1, 0)
    assert len(bot.last_layouts) == 2


def test_a_first_solve_cut_short_is_replanned_as_rollouts() -> None:
    """The first layout's solve cut short (at its share of the budget) does
    not leave the decision to the heuristic: with time left, the bot plans
    again - rollouts, the heuristic's card first - and scores the rest of
    its layouts that way (counted in ``stats.planned``, not as out of time),
    without a warning; the solver is not asked again in that decision."""
    view = _three_card_play()
    bot = PimcBot(seed=1, samples=4, budget=600.0)
    bot._dd = fake = _Solver(stop_at=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        move = bot.choose(view)
    assert move in view.legal_moves()
    assert len(fake.deadlines) == 1
    stats = bot.stats
    assert (stats.samples, stats.stopped, stats.out_of_time, stats.fallbacks) == (3, 1, 0, 0)
    assert stats.planned == 1 and stats.rollouts > 0
    assert next(iter(bot.last_values)) == HeuristicBot().choose(view)


def test_a_play_whose_solve_is_known_too_slow_is_planned_as_rollouts() -> None:
    """The bot learns how long its solves take by the cards left: a play
    whose solve is expected to take more than ``PLAN_SHARE`` of the budget
    is planned as rollouts from the start (the solver is not asked); one
    expected to fit is solved."""
    view = _three_card_play()
    slow = PimcBot(seed=1, samples=3, budget=0.5)
    slow._dd = fake = _Solver(stop_at=0)
    slow._learn(False, 3, 10.0)
    assert slow.choose(view) in view.legal_moves()
    assert fake.deadlines == [] and slow.stats.planned == 1 and slow.stats.samples >= 1
    quick = PimcBot(seed=1, samples=3, budget=600.0)
    quick._dd = fake = _Solver(stop_at=0)
    quick._learn(False, 3, 1.0)
    assert quick.choose(view) in view.legal_moves()
    assert len(fake.deadlines) == 3 and quick.stats.planned == 0


def test_a_tight_budget_on_13_cards_holds() -> None:
    """On a real 13-card deal, the bot playing seat 0's cards with 0.1 s of
    CPU a decision: no decision takes more than a few times its budget (5x
    here, generous for a loaded machine: the true figures are in the
    benchmark), none is left to the heuristic for want of a layout, and the
    bot scores layouts in most of its decisions."""
    rules = short(ba.variants.GAMERULES, 13)
    state = ba.new_game(rules, seed=5)
    heuristic = HeuristicBot(5)
    bot = PimcBot(seed=3, samples=1000, budget=0.1)
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        if view.phase is ba.Phase.PLAYING and seat == 0:
            start = time.process_time()
            move = bot.choose(view)
            assert time.process_time() - start <= 5 * 0.1
        else:
            move = heuristic.choose(view)
        state = state.apply(move)
    stats = bot.stats
    assert stats.decisions >= 6 and stats.fallbacks == 0
    assert stats.out_of_time <= stats.decisions // 2 and stats.samples >= stats.decisions


@pytest.mark.parametrize("name", ["montecarlo", "pimc"])
@pytest.mark.parametrize("kind", ["call", "play"])
def test_a_budget_spent_before_the_first_sample_is_scored_makes_the_heuristics_move(
    name: str, kind: str
) -> None:
    """A CPU budget of a nanosecond runs out before the first candidate of
    the first sample is scored (the clock is read before each candidate): on
    a 13-card deal the bot stops inside that sample and makes the heuristic
    bot's move, a legal one, counted as out of time and not as a fallback."""
    rules = short(ba.variants.GAMERULES, 13)
    state = ba.new_game(rules, seed=31)
    heuristic = HeuristicBot()
    # a call: the third, whose seat's partner has spoken; a play: the first
    # lead, 13 cards in every hand
    for _ in range(2):
        assert state.to_act is not None
        state = state.apply(heuristic.choose(state.view(state.to_act)))
    if kind == "play":
        while state.phase is not ba.Phase.PLAYING:
            assert state.to_act is not None
            state = state.apply(heuristic.choose(state.view(state.to_act)))
    assert state.to_act is not None
    view = state.view(state.to_act)
    bot = SAMPLING_BOTS[name](seed=2, samples=50, budget=1e-9)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        move = bot.choose(view)
    assert move in view.legal_moves() and move == heuristic.choose(view)
    stats = bot.stats
    assert (stats.decisions, stats.samples, stats.stopped, stats.out_of_time) == (1, 0, 1, 1)
    assert stats.fallbacks == 0


@pytest.mark.parametrize("name", ["montecarlo", "pimc"])
def test_a_budget_that_runs_out_inside_a_sample_leaves_that_sample_out(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a clock the bot bounds within a sample (here a fake one, counted
    among the CPU and wall clocks), the clock is read at the start, before
    each candidate and after each sample: with a clock moving a second a
    reading the first sample takes the candidates plus one second, and a
    budget of 1.6 times that lets it finish, leaves enough for ``pimc`` to
    begin a second (more than half a sample's time) and stops the second
    inside, where it is left out."""
    from backalley.bots import montecarlo

    fake = _fake_clock()
    monkeypatch.setitem(montecarlo.CLOCKS, "fake", fake)
    rules = short(ba.variants.GAMERULES, 13)
    state = ba.new_game(rules, seed=31)
    heuristic = HeuristicBot()
    while state.phase is not ba.Phase.PLAYING:  # the first lead: rollouts, no solver
        assert state.to_act is not None
        state = state.apply(heuristic.choose(state.view(state.to_act)))
    assert state.to_act is not None
    view = state.view(state.to_act)
    probe = SAMPLING_BOTS[name](seed=2)
    cands = len(probe.candidates(view, view.legal_moves()))
    assert cands > 1
    bot = SAMPLING_BOTS[name](seed=2, samples=50, budget=1.6 * (cands + 1), clock=fake)
    assert bot.choose(view) in view.legal_moves()
    stats = bot.stats
    assert (stats.samples, stats.stopped, stats.out_of_time) == (1, 1, 0)
    if name == "pimc":  # 1.4 times a layout's time: too little left to begin a second
        short_of = PimcBot(seed=2, samples=50, budget=1.4 * (cands + 1), clock=fake)
        short_of.choose(view)
        assert (short_of.stats.samples, short_of.stats.stopped) == (1, 0)


# ------------------------------------------------------------ the model's memo


def test_each_bot_keeps_its_own_bounded_memo_of_the_bidding_model() -> None:
    """The heuristic's answers a pimc bot asks for are kept on the bot, not in
    the module: another bot starts empty, the answers do not depend on what
    a memo already holds, and a memo never holds more than its limit."""
    view, real, swapped = _weighted_position("bid 4")
    a, b = PimcBot(seed=1, draws=3), PimcBot(seed=1, draws=3)
    assert a.memo is not b.memo
    a.draw(view)
    assert a.memo.model_calls and a.memo.speakers
    assert not b.memo.model_calls and not b.memo.speakers
    layout = lowlevel.determinise(view, real)
    fresh = layout_likelihood(view, layout)
    assert layout_likelihood(view, layout, memo=a.memo) == fresh
    other = lowlevel.determinise(view, swapped)
    assert layout_likelihood(view, other, memo=a.memo) == layout_likelihood(view, other)
    small = CallMemo(limit=2)
    for seed in range(6):
        hands = sample_hands(view, random.Random(seed))
        assert hands is not None
        layout = lowlevel.determinise(view, hands)
        assert layout_likelihood(view, layout, memo=small) == layout_likelihood(view, layout)
        assert len(small.model_calls) <= 2 and len(small.speakers) <= 2


# ------------------------------------------------------- the cards played


def _played_position() -> tuple[ba.PlayerView, list[int], list[int]]:
    """A 5-card gamerules deal: seat 3 boards with the top trumps and leads
    the big joker, seat 0 (no trump) plays 7H and seat 1 3H, as the
    heuristic plays them.  Seat 2's view, and two layouts of it: the real
    one, and one with seats 0 and 1's other cards swapped, in which seat 0
    would have played 5D, not 7H."""
    other, junk, mine, big = "7H 8H 9D TD QC", "3H 5D 7D 9C JC", "2H 4H 6D 8C TC", "BJ LJ AS KS QS"
    state = position([other, junk, mine, big], "2S")
    state = apply_all(state, ["pass", "pass", "board", "pass", "play BJ", "play 7H", "play 3H"])
    view = state.view(2)
    real = [_bits("8H 9D TD QC"), _bits("5D 7D 9C JC"), _bits(mine), _bits("LJ AS KS QS")]
    swapped = [real[1], real[0], real[2], real[3]]
    return view, real, swapped


def test_a_layout_in_which_a_seat_would_not_have_played_its_card_weighs_less() -> None:
    view, real, swapped = _played_position()
    # the heuristic plays the real cards ...
    heuristic = HeuristicBot()
    start = position(["7H 8H 9D TD QC", "3H 5D 7D 9C JC", "2H 4H 6D 8C TC", "BJ LJ AS KS QS"],
                     "2S")  # fmt: skip
    start = apply_all(start, ["pass", "pass", "board", "pass", "play BJ"])
    assert heuristic.choose(start.view(0)) == ba.parse_move("play 7H")
    # ... and with the swapped hand, seat 0 would have played 5D
    other = position(["7H 5D 7D 9C JC", "3H 8H 9D TD QC", "2H 4H 6D 8C TC", "BJ LJ AS KS QS"],
                     "2S")  # fmt: skip
    other = apply_all(other, ["pass", "pass", "board", "pass", "play BJ"])
    assert heuristic.choose(other.view(0)) == ba.parse_move("play 5D")
    likely = lowlevel.determinise(view, real)
    unlikely = lowlevel.determinise(view, swapped)
    # the calls alone do not tell the layouts apart (both seats passed)
    assert layout_likelihood(view, likely) == layout_likelihood(view, unlikely)
    for weight in (0.5, 1.0, 2.0):
        assert layout_likelihood(view, likely, 0.0, play_weight=weight) == 1.0
        # one card the model would have played otherwise: exp(-play_weight)
        assert layout_likelihood(view, unlikely, 0.0, play_weight=weight) == pytest.approx(
            math.exp(-weight)
        )
    assert layout_likelihood(view, unlikely, play_weight=1.0) < layout_likelihood(
        view, likely, play_weight=1.0
    )
    # play_weight 0: the cards played weigh nothing (today's calls-only weighting)
    assert layout_likelihood(view, unlikely, 0.0, play_weight=0.0) == 1.0


def test_weighted_draws_follow_the_cards_played_and_are_remembered() -> None:
    view, real, _swapped = _played_position()

    five = _bits("5D")

    def share_five(bot: PimcBot) -> float:
        """The weighted share of draws in which seat 0 holds 5D (with which
        the heuristic would have played it rather than 7H)."""
        hit = total = 0.0
        for _ in range(60):
            picked = bot.draw(view)
            assert picked is not None
            layout, weight = picked
            total += weight
            hit += weight * bool(lowlevel.hand_bits(layout, 0) & five)
        return hit / total

    weighted = PimcBot(seed=5, draws=6, call_weight=0.0, play_weight=3.0)
    flat = PimcBot(seed=5, draws=6, call_weight=0.0, play_weight=0.0)
    assert share_five(weighted) < share_five(flat)
    assert flat.stats.drawn == 60  # nothing to weigh: one layout a sample
    # the heuristic's cards are kept in the bot's memo and give the same answers
    assert weighted.memo.model_plays and not flat.memo.model_plays
    layout = lowlevel.determinise(view, real)
    fresh = layout_likelihood(view, layout, 0.0, play_weight=3.0)
    assert layout_likelihood(view, layout, 0.0, memo=weighted.memo, play_weight=3.0) == fresh
    small = CallMemo(limit=3)
    for seed in range(6):
        hands = sample_hands(view, random.Random(seed))
        assert hands is not None
        layout = lowlevel.determinise(view, hands)
        assert layout_likelihood(view, layout, memo=small, play_weight=1.0) == layout_likelihood(
            view, layout, play_weight=1.0
        )
        assert len(small.model_plays) <= 3 and len(small.prefixes) <= 3


@pytest.mark.parametrize("name", ["gamerules", "cutthroat-3"])
def test_bots_weighing_the_cards_played_play_legal_moves(name: str) -> None:
    rules = short(ba.variants.get(name), 3, 4)
    state = ba.new_game(rules, seed=6)
    bots: list[PimcBot | MonteCarloBot] = [
        PimcBot(seed=0, samples=2, play_weight=1.0),
        MonteCarloBot(seed=1, samples=2, budget=None, play_weight=1.0),
    ] * 2
    bots = bots[: rules.players]
    while not state.is_over:
        state = bot_move(state, bots)
    assert any(isinstance(b, MonteCarloBot) and b.stats.drawn > b.stats.samples for b in bots)
    for bad in ({"play_weight": -1.0}, {"play_weight": float("nan")}, {"draws": 0}):
        with pytest.raises(ba.SetupError):
            MonteCarloBot(**bad)  # type: ignore[arg-type]
    with pytest.raises(ba.SetupError):
        PimcBot(play_weight=-0.5)


# ----------------------------------------------------------------- deadlines


SAMPLING_BOTS: dict[str, Callable[..., MonteCarloBot | PimcBot]] = {
    "montecarlo": MonteCarloBot,
    "pimc": PimcBot,
}


@pytest.mark.parametrize("name", SAMPLING_BOTS)
def test_a_sampling_bot_stops_at_its_budget_on_its_clock(name: str) -> None:
    """A fake clock moving 0.25 s a reading, a budget of 1 s and 50 samples
    asked: every decision the bot samples stops after five samples (the
    clock is read at the start and after each one), every move is legal,
    and a second bot from the same seed on a clock of its own makes the
    same moves with the same counts, whatever the machine is doing."""
    make = SAMPLING_BOTS[name]
    rules = short(ba.variants.GAMERULES, 3, 4, 5)
    state = ba.new_game(rules, seed=21)

    def bot(seed: int) -> MonteCarloBot | PimcBot:
        return make(seed=("deadline", seed), samples=50, budget=1.0, clock=_fake_clock(0.25))

    first, second = bot(0), bot(0)
    others = [HeuristicBot(seed=s) for s in range(rules.players)]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        if seat != 0:
            state = state.apply(others[seat].choose(view))
            continue
        before = first.stats.decisions, first.stats.samples
        move = first.choose(view)
        assert move in view.legal_moves()
        assert second.choose(view) == move
        if first.stats.decisions > before[0]:
            assert first.stats.samples - before[1] == 5
        state = state.apply(move)
    stats = first.stats
    assert stats.decisions >= 3
    assert stats.samples == 5 * stats.decisions < first.samples * stats.decisions
    assert stats.failed == stats.fallbacks == 0
    assert second.stats == stats


@pytest.mark.parametrize("make", [HeuristicBot, RandomBot], ids=["heuristic", "random"])
def test_the_heuristic_and_random_bots_never_read_a_clock(
    make: Callable[[object], HeuristicBot | RandomBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    """They take no budget: a decision is a fixed amount of work, so no
    deadline can cut it short.  With every clock of :mod:`time` broken they
    play a whole game legally, and again the same from the same seeds."""

    def broken() -> float:
        raise AssertionError("a bot without a budget read the clock")

    for name in ("process_time", "perf_counter", "monotonic", "time", "thread_time"):
        monkeypatch.setattr(time, name, broken)
    rules = short(ba.variants.GAMERULES, 2, 5)

    def game() -> tuple[ba.Move, ...]:
        state = ba.new_game(rules, seed=5)
        bots = [make(("clockless", s)) for s in range(rules.players)]
        while not state.is_over:
            state = bot_move(state, bots)
        return state.moves

    assert game() == game()


def test_the_solver_stops_at_a_deadline_already_passed_and_stays_usable() -> None:
    """A deadline of 0 s: the solver first looks at its clock after 16
    positions, so it stops there (never later) with a message naming the
    limit, the work done and the bounds; the same Solver then answers the
    position exactly, and a node limit stops it at exactly that many."""
    one = one_deal(ba.variants.GAMERULES, 10)
    state = ba.new_game(one, seed=0)
    bidder = HeuristicBot()
    while state.phase is not ba.Phase.PLAYING:
        seat = state.to_act
        assert seat is not None
        state = state.apply(bidder.choose(state.view(seat)))
    solver = Solver()
    with pytest.raises(
        SearchLimitError, match=r"deadline \(0 s of CPU\) after searching"
    ) as caught:
        solver.solve(state, deadline=0.0)
    error = caught.value
    assert isinstance(error, ba.BackAlleyError)
    assert 0 < error.nodes <= 16
    assert f"the answer lies in {error.lower}..{error.upper}" in str(error)
    exact = solver.solve(state)
    assert exact == solve(state)
    assert solver.nodes > 16  # the deal needs more than one look of the clock
    assert error.lower <= exact <= error.upper
    with pytest.raises(SearchLimitError, match=r"node limit \(max_nodes=50\)") as caught:
        Solver().analyse(state, max_nodes=50)
    assert caught.value.nodes == 50
    assert solver.analyse(state, deadline=3600.0) == Solver().analyse(state)
