"""The ``pimc`` bot (backalley.bots.pimc): legal play in several variants,
reproducibility from a seed, the cold board, the calls' weighting of layouts,
and budgets counted in samples with a fake clock."""

from __future__ import annotations

import itertools
import random

import pytest

import backalley as ba
from backalley import lowlevel
from backalley.bots import MonteCarloBot, PimcBot, make_bot
from backalley.bots import _rules as R
from backalley.bots.montecarlo import sample_hands
from backalley.bots.pimc import call_distance, layout_likelihood

from .helpers import apply_all, bot_move, cards, position, short


def _bits(text: str) -> int:
    mask = 0
    for card in cards(text):
        mask |= 1 << card.index
    return mask


def _fake_clock() -> object:
    """A clock that moves one second each time it is read."""
    ticks = itertools.count()
    return lambda: float(next(ticks))


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
    state = position(["8S 7S", hand, "6S 5S", "4S 3S"], "2S", hand_size=13)
    assert state.to_act == 1 and len(state.hands[1]) == 13
    bot = PimcBot(seed=1, samples=3)
    assert bot.choose(state.view(1)) == ba.BoardBid()
    values = bot.last_values
    assert ba.BoardBid() in values and len(values) > 1
    assert max(values, key=values.__getitem__) == ba.BoardBid()


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
    holding = layout_likelihood(view, R.determinise(view, real))
    not_holding = layout_likelihood(view, R.determinise(view, swapped))
    assert holding is not None and not_holding is not None
    assert holding < not_holding
    # and a seat that bid high is more likely to
    view, real, swapped = _weighted_position("bid 4")
    holding = layout_likelihood(view, R.determinise(view, real))
    not_holding = layout_likelihood(view, R.determinise(view, swapped))
    assert holding is not None and not_holding is not None
    assert holding > not_holding
    # no weighting: every layout counts the same
    assert layout_likelihood(view, R.determinise(view, real), 0.0) == 1.0


def test_weighted_draws_give_a_passer_fewer_trumps() -> None:
    view, _real, _swapped = _weighted_position("pass")
    trumps = R.trump_mask(R.trump_of(view))

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
    layout = R.determinise(view, hands)
    weight = layout_likelihood(view, layout)
    assert weight is not None and 0 < weight <= 1


def test_a_cpu_budget_counts_samples_by_its_clock() -> None:
    """Budgets are read from the bot's clock once at the start of a decision
    and once after each sample: a fake clock that moves a second a reading
    lets a 2.5 s budget take three samples, whatever the machine does."""
    state = position(["2D 3H 4S", "BJ 9C AC", "5D 6H 7S", "8D 9H TS"], "2C")
    view = state.view(1)
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
