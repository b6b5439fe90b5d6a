"""Simulations (backalley/sim/simulate.py, backalley/sim/ray_backend.py, ``backalley simulate``):
seeds derived from one seed, per-game numbers that are the games' own, sums
per side, duplicate seating, worker processes and Ray giving the same table."""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path
from typing import Any

import pytest

import backalley as ba
from backalley.cli import main
from backalley.cli.common import load_rules
from backalley.rules import Schedule
from backalley.sim.simulate import Plan, run_local, summarize, wilson_interval

SHORT = ba.variants.GAMERULES.replace(schedule=Schedule((3, 2, 1)), name="short")
SHORT_DOC = {"name": "short", "base": "gamerules", "schedule": {"hand_sizes": [3, 2, 1]}}
PLAYERS = ("random", "random", "random", "random")


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


@pytest.fixture
def short(tmp_path: Path) -> str:
    path = tmp_path / "short.json"
    path.write_text(json.dumps(SHORT_DOC), encoding="utf-8")
    return str(path)


def test_game_seeds_come_from_the_simulation_seed() -> None:
    tasks = Plan(SHORT, PLAYERS, games=6, seed=3).tasks()
    assert [t.index for t in tasks] == list(range(6))
    assert len({t.seed for t in tasks}) == 6 and {t.rotation for t in tasks} == {0}
    assert tasks == Plan(SHORT, PLAYERS, games=6, seed=3).tasks()
    assert tasks[0].seed != Plan(SHORT, PLAYERS, games=6, seed=4).tasks()[0].seed
    duplicate = Plan(SHORT, PLAYERS, games=6, seed=3, duplicate=True).tasks()
    assert [t.rotation for t in duplicate] == [0, 1] * 3
    assert [t.seed for t in duplicate[::2]] == [t.seed for t in duplicate[1::2]]
    with pytest.raises(ba.SetupError, match="multiple of 2"):
        Plan(SHORT, PLAYERS, games=5, seed=3, duplicate=True)
    with pytest.raises(ba.SetupError):
        Plan(SHORT, PLAYERS[:3], games=5, seed=3)


def test_a_games_numbers_are_those_of_its_record() -> None:
    """Points, winner, deals, contracts made and set: read again from the record."""
    plan = Plan(SHORT, ("random", "random", "random", "random"), games=8, seed=1, records=True)
    for outcome in run_local(plan):
        assert outcome.record is not None
        record = ba.from_json(outcome.record, ba.GameRecord)
        final = list(ba.replay(record))[-1]
        assert outcome.points == final.scores and outcome.winner == final.winner
        assert outcome.deals == final.deals_played == 3
        made = [0, 0]
        set_ = [0, 0]
        for result in final.deal_results:
            for side, (contract, tricks) in enumerate(zip(result.contracts, result.tricks)):
                if contract is not None:
                    (made if tricks >= contract.tricks else set_)[side] += 1
        assert list(outcome.contracts_made) == made and list(outcome.contracts_set) == set_


def test_duplicate_moves_the_sides_round_the_same_cards() -> None:
    plan = Plan(SHORT, ("random", "random", "random", "random"), 2, 5, True, True)
    first, second = run_local(plan)
    a = ba.from_json(first.record or "", ba.GameRecord)
    b = ba.from_json(second.record or "", ba.GameRecord)
    assert a.seed == b.seed and a.first_dealer == b.first_dealer
    assert ba.new_game(SHORT, seed=a.seed).hands == ba.new_game(SHORT, seed=b.seed).hands
    # in the second game side 0's players sit on team 1's seats: its points are team 1's
    final = list(ba.replay(b))[-1]
    assert second.points == (final.scores[1], final.scores[0])
    assert plan.seating(1) == (1, 2, 3, 0) and plan.side_of_team(1) == (1, 0)


def test_the_summary_adds_up_the_games() -> None:
    plan = Plan(SHORT, PLAYERS, games=10, seed=2)
    outcomes = run_local(plan)
    summary = summarize(plan, reversed(outcomes))  # the order games finish in does not matter
    assert summary == summarize(plan, outcomes)
    for s, side in enumerate(summary.sides):
        assert side.points == sum(o.points[s] for o in outcomes)
        assert side.wins == sum(o.winner == s for o in outcomes)
        assert side.points_per_deal == side.points / 30
        assert side.players == ("random", "random")
    assert sum(side.wins for side in summary.sides) + summary.draws == 10
    data = summary.to_data()
    assert json.loads(json.dumps(data)) == data and data["sides"][0]["win_rate_95"][0] >= 0


def test_wilson_interval() -> None:
    low, high = wilson_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    low, high = wilson_interval(50, 100)
    assert abs((low + high) / 2 - 0.5) < 1e-12


def test_worker_processes_play_the_same_games() -> None:
    plan = Plan(SHORT, PLAYERS, games=12, seed=8, duplicate=True)
    assert run_local(plan, jobs=2) == run_local(plan)


def test_the_command_prints_a_table_naming_the_bots_and_the_same_json(
    tmp_path: Path, short: str, capsys: pytest.CaptureFixture[str]
) -> None:
    json_path = tmp_path / "results.json"
    records = tmp_path / "games.jsonl"
    status, output = run(
        "simulate", "--variant", short, "--players", "random", "--games", "6", "--seed", "1",
        "--json", str(json_path), "--records", str(records),
    )  # fmt: skip
    assert status == 0
    assert capsys.readouterr().err == "", "no progress bar when not on a terminal"
    lines = output.splitlines()
    assert lines[0].startswith("short: 6 games, seed 1, 18 deals")
    assert "Won" in lines[2] and "95% CI" in lines[2] and "Boards made/set" in lines[2]
    assert [line.split()[:4] for line in lines[4:6]] == [
        ["1", "random", "+", "random"],
        ["2", "random", "+", "random"],
    ]
    data = json.loads(json_path.read_text(encoding="utf-8"))
    plan = Plan(load_rules(short), PLAYERS, games=6, seed=1)
    expected = summarize(plan, run_local(plan)).to_data()
    assert {k: v for k, v in data.items() if k != "backend"} == expected
    lines = records.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6
    assert ba.from_json(lines[0], ba.GameRecord).players == PLAYERS
    status, output = run("simulate", "--variant", short, "--games", "2", "--json", "-")
    assert status == 0 and json.loads(output)["games"] == 2


def test_the_command_refuses_what_it_cannot_run(
    short: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run("simulate", "--variant", short, "--games", "3", "--duplicate")[0] == 2
    assert "multiple of 2" in capsys.readouterr().err
    assert run("simulate", "--games", "0")[0] == 2
    assert run("simulate", "--address", "auto")[0] == 2
    assert run("simulate", "--records", "/nonexistent/x.jsonl")[0] == 2


def test_ray_gives_the_same_table_as_the_local_backend(tmp_path: Path, short: str) -> None:
    """A local Ray instance of 2 CPUs plays the same games: the same JSON, number for number."""
    results = {}
    records = {}
    for backend in ("local", "ray"):
        path = tmp_path / f"{backend}.json"
        games = tmp_path / f"{backend}.jsonl"
        status, output = run(
            "simulate", "--variant", short, "--players", "random", "--games", "8",
            "--seed", "4", "--duplicate", "--jobs", "2", "--backend", backend,
            "--json", str(path), "--records", str(games),
        )  # fmt: skip
        assert status == 0, output
        results[backend] = json.loads(path.read_text(encoding="utf-8"))
        assert results[backend].pop("backend") == backend
        records[backend] = games.read_text(encoding="utf-8")
    assert results["ray"] == results["local"]
    assert records["ray"] == records["local"], "the same games, in the same order"
    assert len(records["ray"].splitlines()) == 8


class _RecordingPool:
    """A stand-in for ProcessPoolExecutor: records ``max_workers`` in
    ``sizes`` and plays the chunks here (no process is started)."""

    def __init__(self, sizes: list[int], max_workers: int) -> None:
        sizes.append(max_workers)

    def __enter__(self) -> _RecordingPool:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(self, fn: Any, *iterables: Any) -> Any:
        return map(fn, *iterables)


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ``max_workers`` of every worker pool started, none really started."""
    from backalley.sim import simulate

    sizes: list[int] = []
    monkeypatch.setattr(simulate, "ProcessPoolExecutor", functools.partial(_RecordingPool, sizes))
    return sizes


def test_the_workers_are_no_more_than_the_games_and_the_cpus() -> None:
    from backalley.sim.simulate import available_cpus, worker_count

    assert worker_count(3000, 2, cpus=64) == 2
    assert worker_count(3000, 100, cpus=2) == 2
    assert worker_count(10**6, 10**6, cpus=8) == 8
    assert worker_count(3, 100, cpus=8) == 3
    assert worker_count(0, 100, cpus=8) == worker_count(5, 1, cpus=8) == 1
    assert 1 <= worker_count(3000, 2) <= min(2, available_cpus())
    assert available_cpus() >= 1


def test_the_library_starts_no_more_workers_than_the_games_or_cpus(
    pools: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    from backalley.sim import simulate

    plan = Plan(SHORT, PLAYERS, games=6, seed=8)
    monkeypatch.setattr(simulate, "available_cpus", lambda: 4)
    assert run_local(plan, jobs=10**6) == run_local(plan)
    monkeypatch.setattr(simulate, "available_cpus", lambda: 64)
    assert run_local(plan, jobs=10**6) == run_local(plan)
    assert pools == [4, 6]
    monkeypatch.setattr(simulate, "available_cpus", lambda: 1)
    assert run_local(plan, jobs=10**6) == run_local(plan)
    assert pools == [4, 6], "one worker: the games are played in this process"


def test_too_many_jobs_are_lowered_with_one_line_saying_so(
    short: str, pools: list[int], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    from backalley.cli import simulate as command
    from backalley.sim import simulate

    monkeypatch.setattr(simulate, "available_cpus", lambda: 2)
    monkeypatch.setattr(command, "available_cpus", lambda: 2)
    argv = ("simulate", "--variant", short, "--players", "random", "--json", "-")
    status, lowered = run(*argv, "--games", "2", "--jobs", "3000")
    assert status == 0 and pools == [2]
    assert capsys.readouterr().err == (
        "backalley simulate: --jobs 3000 lowered to 2 (2 games, 2 CPUs)\n"
    )
    assert run(*argv, "--games", "2", "--jobs", "2") == (0, lowered), "the same results"
    assert capsys.readouterr().err == "" and pools == [2, 2]
    assert run(*argv, "--games", "5", "--jobs", "8")[0] == 0 and pools == [2, 2, 2]
    assert capsys.readouterr().err == (
        "backalley simulate: --jobs 8 lowered to 2 (5 games, 2 CPUs)\n"
    )


def test_a_ray_instance_started_here_has_no_more_cpus_than_the_games_or_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from backalley.sim import simulate
    from backalley.sim.ray_backend import local_cpus

    assert local_cpus(None, 5) is None, "Ray's own default: every CPU"
    monkeypatch.setattr(simulate, "available_cpus", lambda: 4)
    assert local_cpus(3000, 100) == 4
    assert local_cpus(3000, 2) == 2
    assert local_cpus(3, 100) == 3
