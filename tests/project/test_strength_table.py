"""The strength table's benchmark (``benchmarks/strength_table.py``): its
pairs play duplicate deals and report them, a split bot calls as one bot and
plays as another, and OpenSpiel's ISMCTS stops its search on a CPU budget."""

from __future__ import annotations

import argparse
import sys

import pytest

from .. import ROOT

BENCHMARKS = ROOT / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import strength_table  # noqa: E402

import backalley as ba  # noqa: E402
from backalley.bots import HeuristicBot, RandomBot  # noqa: E402


def test_a_pair_and_a_split_bot_play_duplicate_deals(capsys: pytest.CaptureFixture[str]) -> None:
    strength_table.main(
        ["--pairs", "heuristic:random,random+heuristic:random", "--deals", "2", "--rst"]
    )
    out = capsys.readouterr().out
    assert "heuristic vs random, 2 duplicate 5-card deals (seed 4417, from deal 0)" in out
    assert "random+heuristic vs random, 2 duplicate 5-card deals" in out
    assert "   * - heuristic vs random\n     - 2\n" in out


def test_an_unknown_bot_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        strength_table.main(["--pairs", "heuristic:nobody"])
    assert exit_.value.code == 2
    assert "not 'heuristic:nobody'" in capsys.readouterr().err


def test_a_split_bot_calls_as_the_first_and_plays_as_the_second() -> None:
    state = ba.new_game(ba.variants.GAMERULES, seed=4417)
    split = strength_table.Split(RandomBot(1), HeuristicBot(2))
    calls, plays = RandomBot(1), HeuristicBot(2)
    while not state.deal_results:
        assert state.to_act is not None
        view = state.view(state.to_act)
        expected = (plays if view.phase is ba.Phase.PLAYING else calls).choose(view)
        move = split.choose(view)
        assert move == expected
        state = state.apply(move)


def test_ismcts_stops_its_search_on_the_cpu_budget() -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("numpy")
    import ismcts_vs

    bot = ismcts_vs.IsmctsBot(1, simulations=1_000_000, uct_c=20.0, budget=0.001)
    state = ba.new_game(ba.variants.GAMERULES.replace(schedule=ba.rules.Schedule((3,))), seed=5)
    while not state.deal_results:
        assert state.to_act is not None
        state = state.apply(bot.choose(state.view(state.to_act)))
    assert bot.decisions > 0
    assert 2 * bot.decisions <= bot.simulations_run < 1_000_000


def test_the_in_house_reference_is_pimc_with_ten_times_the_budget() -> None:
    args = argparse.Namespace(budget=0.05, samples=7, simulations=1, uct_c=20.0, play_weight=None)
    known = strength_table.factories(args)
    pimc, reference = known["pimc"](1), known["pimc-10x"](1)
    assert type(reference) is type(pimc)
    assert pimc.budget == 0.05 and pimc.samples == 7
    assert reference.budget == pytest.approx(10 * 0.05) and reference.samples == 7
