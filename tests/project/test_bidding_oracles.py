"""The oracles' benchmark (``benchmarks/bidding_oracles.py``): its deals are
``duplicate_match``'s, the par oracle's side ends with the contract it aims
at, the partner oracle's layouts keep its side's hands, and the heuristic's
calls against themselves make no difference."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from .. import ROOT

BENCHMARKS = ROOT / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bidding_oracles as bo  # noqa: E402
import strength_table  # noqa: E402

import backalley as ba  # noqa: E402
from backalley.bots import HeuristicBot, RandomBot  # noqa: E402
from backalley.bots.match import duplicate_match  # noqa: E402
from backalley.engine import lowlevel  # noqa: E402
from backalley.solver import solve  # noqa: E402

RULES = ba.variants.GAMERULES


def _deal(seed: int, k: int, size: int) -> bo.Deal:
    return next(bo.deals(RULES, seed, k, 1, size))


def _contracts(deal: bo.Deal, oracle: bo.Oracle, side: int) -> ba.DealResult:
    players: list[bo.Player] = [
        oracle if RULES.seat_teams[s] == side else HeuristicBot() for s in range(RULES.players)
    ]
    return bo.play_table(deal, players).deal_results[0]


@pytest.mark.parametrize("shift", [0, 1, 2, 3])
def test_the_par_oracle_makes_its_sides_par_less_the_shift(shift: int) -> None:
    deal = _deal(11, 2, 5)  # side 0 takes 4 of the 5 tricks double dummy
    opening = ba.new_game(deal.rules, seed=deal.dealer, dealer=deal.dealer, decks=[deal.order])
    playing = bo.first_lead(opening)  # the heuristic's calls at every seat
    leader = playing.to_act
    assert leader is not None
    par = solve(playing) if RULES.seat_teams[leader] == 0 else 5 - solve(playing)
    assert par == 4
    oracle = bo.ParOracle(shift, bo.Solves(30.0))
    result = _contracts(deal, oracle, 0)
    assert oracle.pars == [par]
    contract = result.contracts[0]
    assert contract is not None and not contract.board
    assert contract.tricks == par - shift
    assert (
        result.contracts[1]
        == _contracts(deal, bo.ParOracle(shift, bo.Solves(30.0)), 0).contracts[1]
    )


def test_the_par_oracle_claims_board_twice_for_every_trick() -> None:
    deal = _deal(11, 2, 3)  # side 0 takes all 3 tricks double dummy
    oracle = bo.ParOracle(0, bo.Solves(30.0))
    result = _contracts(deal, oracle, 0)
    assert oracle.pars == [3]
    contract = result.contracts[0]
    # every claim raises the deal's multiplier: the side's two claims make it x2
    assert contract is not None and contract.board and contract.multiplier == 2
    assert [str(result.bids[s]) for s in RULES.teams[0]] == ["board", "board"]
    # shifted, a number: par - 1 = 2
    result = _contracts(deal, bo.ParOracle(1, bo.Solves(30.0)), 0)
    assert result.contracts[0] == ba.Contract(2)


def test_the_partner_oracles_layouts_keep_its_sides_hands() -> None:
    deal = _deal(11, 4, 6)
    state = ba.new_game(deal.rules, seed=deal.dealer, dealer=deal.dealer, decks=[deal.order])
    seat = state.to_act
    assert seat is not None
    partner = (seat + 2) % 4
    own, theirs = lowlevel.hand_bits(state, seat), lowlevel.hand_bits(state, partner)
    view = state.view(seat)
    out_of_play = lowlevel.out_of_play_bits(view)
    oracle = bo.PartnerOracle(12, bo.Solves(30.0), "test")
    layouts = oracle.layouts(state, seat)
    assert len(layouts) == 12
    others = set()
    for hands in layouts:
        assert hands[seat] == own and hands[partner] == theirs
        for s in ((seat + 1) % 4, (seat + 3) % 4):
            assert hands[s] & (own | theirs | out_of_play) == 0
            assert hands[s].bit_count() == 6
            others.add(hands[s])
        assert hands[(seat + 1) % 4] & hands[(seat + 3) % 4] == 0
    assert len(others) > 2  # the other side's hands do vary
    # and its aim is one its side reaches
    result = _contracts(deal, bo.PartnerOracle(4, bo.Solves(30.0), "test"), RULES.seat_teams[seat])
    assert result.contracts[RULES.seat_teams[seat]] is not None


def test_the_deals_are_duplicate_matchs_deals() -> None:
    args = argparse.Namespace(samples=10, budget=0.01, partner_samples=2)
    makers = bo.side_makers(args, bo.Solves(30.0))

    def split(seed: object) -> strength_table.Split:
        return strength_table.Split(RandomBot(seed), HeuristicBot(seed))

    for deal in bo.deals(RULES, 5, 10, 4, 0):
        expected = duplicate_match(
            RULES, split, HeuristicBot, deals=1, seed=deal.seed, hand_sizes=[deal.size]
        ).differences[0]

        def side(d: bo.Deal, a_side: int) -> Callable[[int], bo.Player]:
            return lambda s: split((d.seed, 0, a_side, s))

        assert bo.duplicate(deal, side) == expected
        assert bo.duplicate(deal, makers["heuristic"]) == 0


@pytest.mark.slow
def test_the_heuristic_against_itself_is_even_and_logs_combine(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    logs = []
    for start in (0, 5):
        bo.main(["--rows", "heuristic,par-2", "--deals", "5", "--start", str(start),
                 "--seed", "3", "--verbose", "--rst"])  # fmt: skip
        out = capsys.readouterr().out
        deal_lines = [line for line in out.splitlines() if line.startswith("  deal ")]
        assert len(deal_lines) == 5
        assert all(" heuristic=+0 " in line for line in deal_lines)
        assert (
            f"gamerules: heuristic vs heuristic calls, 5 duplicate schedule (in turn) deals "
            f"(seed 3, from deal {start}): +0.00 points per deal" in out
        )
        assert "   * - par-2 vs heuristic calls\n     - 5\n" in out
        logs.append(tmp_path / f"half{start}.log")
        logs[-1].write_text(out)
    bo.main(["--combine", *map(str, logs)])
    out = capsys.readouterr().out
    assert "10 deals from 2 logs, 0 skipped" in out
    assert (
        "heuristic vs heuristic calls, 10 duplicate schedule (in turn) deals (seed 3, from deal 0)"
        in out
    )
    assert "par-2 vs heuristic calls, 10 duplicate" in out


def test_an_unknown_row_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        bo.main(["--rows", "par,nobody"])
    assert exit_.value.code == 2
    assert "not 'par,nobody'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--deals", "-1"], "--deals must be a whole number >= 1, not -1"),
        (["--partner-samples", "0"], "--partner-samples must be a whole number >= 1"),
        (["--solve-limit", "0"], "--solve-limit must be a number of seconds > 0"),
        (["--call-weight", "-1"], "--call-weight must be a number >= 0, not -1.0"),
        (["--call-weight", "nan"], "--call-weight must be a number >= 0, not nan"),
        (["--rules", "nosuch"], "unknown variant 'nosuch'"),
        (["--combine", "/no/such/log"], "there is no log '/no/such/log'"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        bo.main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_the_pimc_row_calls_with_the_given_call_weight() -> None:
    """``--call-weight`` reaches the pimc bot that makes side A's calls."""
    args = argparse.Namespace(samples=7, budget=0.1, call_weight=3.0, partner_samples=8)
    deal = next(bo.deals(ba.variants.GAMERULES, 7575, 0, 1, 0))
    player = bo.side_makers(args, bo.Solves(60.0))["pimc"](deal, 0)(0)
    assert player.calls.call_weight == 3.0 and player.calls.samples == 7
