"""Simulations (backalley/sim/simulate.py, backalley/sim/ray_backend.py, ``backalley simulate``):
seeds derived from one seed, per-game numbers that are the games' own, sums
per side, duplicate seating, worker processes and Ray giving the same table;
progress told of every game with an honest time left; sides named by their
seats; a Ray run that prints nothing but the table."""

from __future__ import annotations

import functools
import io
import json
import os
import subprocess
import sys
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

import backalley as ba
from backalley.cli import main
from backalley.cli.arguments import load_rules
from backalley.rules import Schedule
from backalley.sim.progress import TimeLeft, format_time_left
from backalley.sim.simulate import (
    GameOutcome,
    Plan,
    Task,
    iter_local,
    play_game,
    play_in_order,
    run_local,
    summarize,
    wilson_interval,
)

from .. import ROOT

SHORT = ba.variants.GAMERULES.replace(schedule=Schedule((3, 2, 1)), name="short")
SHORT_DOC = {
    "format": "backalley/rules",
    "name": "short",
    "base": "gamerules",
    "schedule": {"hand_sizes": [3, 2, 1]},
}
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
    assert lines[2].split() == ["95%", "Pts/", "Pts/", "Contracts", "Boards"]
    assert lines[3].split() == ["Side", "Players", "Won", "CI", "game", "deal"] + ["made/set"] * 2
    assert set(lines[4]) == {"-"}
    assert [line.split()[:4] for line in lines[5:7]] == [
        ["N-S", "random", "+", "random"],
        ["E-W", "random", "+", "random"],
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


def _command(*argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m backalley ARGV`` in a process of its own (standard error
    not a terminal, so no progress bar), its output captured whole."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "backalley", *argv],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=300,
    )  # fmt: skip


@pytest.mark.slow
def test_ray_prints_the_same_table_as_the_local_backend_and_nothing_else(
    tmp_path: Path, short: str
) -> None:
    """A local Ray instance of 2 CPUs plays the same games: the same JSON,
    number for number, the same records in the same order, the same table;
    and nothing of Ray's own (no warning, no log line) on either stream."""
    results = {}
    records = {}
    tables = {}
    for backend in ("local", "ray"):
        path = tmp_path / f"{backend}.json"
        games = tmp_path / f"{backend}.jsonl"
        proc = _command(
            "simulate", "--variant", short, "--players", "random", "--games", "8",
            "--seed", "4", "--duplicate", "--jobs", "2", "--backend", backend,
            "--json", str(path), "--records", str(games),
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr == "", f"{backend}: nothing on standard error, got {proc.stderr!r}"
        lines = proc.stdout.splitlines()
        assert lines[0].startswith("short: 8 games, duplicate, seed 4")
        assert lines[-2:] == [f"Records written to {games}", f"Results written to {path}"]
        assert len(lines) == 9, proc.stdout
        tables[backend] = lines[:-2]
        noise = [line for line in tables[backend] if "WARNING" in line or "ray" in line.lower()]
        assert noise == [], noise
        results[backend] = json.loads(path.read_text(encoding="utf-8"))
        assert results[backend].pop("backend") == backend
        records[backend] = games.read_text(encoding="utf-8")
    assert results["ray"] == results["local"]
    assert tables["ray"] == tables["local"]
    assert records["ray"] == records["local"], "the same games, in the same order"
    assert len(records["ray"].splitlines()) == 8


class _RecordingPool:
    """A stand-in for ProcessPoolExecutor: records ``max_workers`` in
    ``sizes`` and plays each game here as it is submitted (no process is
    started)."""

    def __init__(self, sizes: list[int], max_workers: int) -> None:
        sizes.append(max_workers)

    def __enter__(self) -> _RecordingPool:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def submit(self, fn: Any, *args: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args))
        return future


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
    from backalley.cli import simulate_command as command
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


# ------------------------------------------------------------------ progress


class _Calls:
    """A progress report that remembers every call."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    def __call__(self, done: int, total: int) -> None:
        self.calls.append((done, total))


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_hears_of_every_game_once_counting_up(jobs: int) -> None:
    """In this process and in worker processes alike: 0 when the games start,
    then one call per game, the count going up by one."""
    plan = Plan(SHORT, PLAYERS, games=7, seed=3)
    progress = _Calls()
    outcomes = list(iter_local(plan, jobs=jobs, progress=progress))
    assert [o.index for o in outcomes] == list(range(7)), "the outcomes come in game order"
    assert progress.calls == [(done, 7) for done in range(8)]


def test_games_finishing_out_of_order_are_counted_as_they_finish_and_yielded_in_order() -> None:
    """play_in_order (the local workers' and Ray's loop): each finished game
    is reported at once, the outcomes still come in game order, and no more
    than ``limit`` games are out at a time."""
    plan = Plan(SHORT, PLAYERS, games=6, seed=2)
    tasks = plan.tasks()
    out: list[int] = []
    high = [0]
    progress = _Calls()
    reported_when_yielded: list[int] = []

    def submit(task: Task) -> int:
        out.append(task.index)
        high[0] = max(high[0], len(out))
        return task.index

    def collect(handles: list[int]) -> list[tuple[int, GameOutcome]]:
        last = max(handles)  # the latest game started finishes first
        out.remove(last)
        return [(last, play_game(plan, tasks[last]))]

    order = []
    for outcome in play_in_order(tasks, submit, collect, limit=3, progress=progress):
        order.append(outcome.index)
        reported_when_yielded.append(progress.calls[-1][0])
    assert order == list(range(6))
    assert progress.calls == [(done, 6) for done in range(7)]
    assert high[0] == 3
    assert reported_when_yielded == sorted(reported_when_yielded)
    assert reported_when_yielded[0] == 3, "game 0 came after the two started after it"


class _FakeRay:
    """Enough of Ray for iter_ray, playing each task here when it is waited for."""

    def __init__(self) -> None:
        self.tasks: list[Any] = []

    def is_initialized(self) -> bool:
        return True

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 2.0}

    def put(self, value: Any) -> Any:
        return value

    def remote(self, fn: Any) -> Any:
        ray = self

        class Remote:
            def remote(self, *args: Any) -> Any:
                ref = (len(ray.tasks), fn, args)
                ray.tasks.append(ref)
                return ref

        return Remote()

    def wait(self, refs: list[Any], num_returns: int) -> tuple[list[Any], list[Any]]:
        return refs[:num_returns], refs[num_returns:]

    def get(self, ref: Any) -> Any:
        _, fn, args = ref
        return fn(*args)


def test_ray_progress_hears_of_every_game(monkeypatch: pytest.MonkeyPatch) -> None:
    from backalley.sim import ray_backend

    fake = _FakeRay()
    monkeypatch.setattr(ray_backend, "_ray", lambda: fake)
    plan = Plan(SHORT, PLAYERS, games=5, seed=6)
    progress = _Calls()
    assert ray_backend.run_ray(plan, progress=progress) == run_local(plan)
    assert progress.calls == [(done, 5) for done in range(6)]
    assert len(fake.tasks) == 5, "one Ray task a game"


class _Clock:
    def __init__(self, *times: float) -> None:
        self.times = list(times)

    def __call__(self) -> float:
        return self.times.pop(0)


def test_the_time_left_is_the_time_per_game_so_far_times_the_games_left() -> None:
    time_left = TimeLeft(_Clock(100.0, 103.0, 106.0, 130.0, 140.0))
    assert time_left(0, 10) is None, "nothing to go on before a game has finished"
    assert time_left(1, 10) == 27.0  # 3 s for 1 game, 9 to go
    assert time_left(3, 10) == 14.0  # 6 s for 3 games, 7 to go
    assert time_left(6, 10) == 20.0  # 30 s for 6 games, 4 to go
    assert time_left(10, 10) == 0.0
    assert format_time_left(None) == "time left unknown"
    assert format_time_left(27.0) == "0:27 left"
    assert format_time_left(3723.4) == "1:02:03 left"


def test_the_time_left_is_right_after_each_burst_of_games_from_workers() -> None:
    """Four workers, 10 s a game: four games finish within milliseconds every
    10 s.  Measured from the start (the call with 0 games done), the estimate
    after each burst is the time really left; an estimate from the pace since
    the first finished game (rich's ``TimeRemainingColumn``) says a second
    left after the first burst, which is why the command keeps this one."""
    finishes = [10.0 * (k // 4 + 1) + 0.001 * (k % 4) for k in range(12)]
    time_left = TimeLeft(_Clock(0.0, *finishes))
    assert time_left(0, 12) is None
    for done, at in enumerate(finishes, 1):
        left = time_left(done, 12)
        assert left is not None
        if done % 4 == 0:  # a burst ended: the time left is the bursts still to come
            assert left == pytest.approx(finishes[-1] - at, abs=0.01)
        else:  # within a burst: never less than the time really left
            assert left >= finishes[-1] - at


def test_the_plain_progress_line_counts_games_and_shows_the_time_left() -> None:
    from backalley.cli.simulate_command import progress_line

    stream = io.StringIO()
    report = progress_line(stream, _Clock(0.0, 2.0, 4.0), width=4)
    report(0, 4)
    report(1, 4)
    report(2, 4)
    shown = [part.rstrip() for part in stream.getvalue().split("\r")[1:]]
    assert shown == [
        "[....] 0/4 games, time left unknown",
        "[#...] 1/4 games, 0:06 left",
        "[##..] 2/4 games, 0:04 left",
    ]


def test_the_command_moves_its_progress_on_after_every_game(
    short: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """On a terminal (here without rich: the plain line) the count goes up
    game by game, in worker processes too."""
    from backalley.cli import simulate_command as command

    monkeypatch.setattr(command, "is_terminal", lambda stream: True)
    monkeypatch.setitem(sys.modules, "rich", None)
    monkeypatch.setitem(sys.modules, "rich.console", None)
    monkeypatch.setitem(sys.modules, "rich.progress", None)
    argv = ("simulate", "--variant", short, "--players", "random", "--games", "6", "--json", "-")
    assert run(*argv, "--jobs", "2")[0] == 0
    err = capsys.readouterr().err
    counts = [part.split("] ")[1].split(" games")[0] for part in err.split("\r")[1:]]
    assert counts == [f"{done}/6" for done in range(7)]
    assert err.endswith("\n")


# ------------------------------------------------------------------ side names


def test_sides_are_named_by_their_seats_in_the_summary_and_its_json() -> None:
    plan = Plan(SHORT, ("heuristic", "random", "heuristic", "heuristic"), games=2, seed=1)
    north_south, east_west = summarize(plan, run_local(plan)).sides
    assert (north_south.name, north_south.seats) == ("N-S", ("North", "South"))
    assert (east_west.name, east_west.seats) == ("E-W", ("East", "West"))
    assert north_south.label == "N-S (heuristic)"
    assert east_west.label == "E-W (random + heuristic)"
    data = north_south.to_data()
    assert {k: data[k] for k in ("side", "name", "label", "seats", "players")} == {
        "side": 0,
        "name": "N-S",
        "label": "N-S (heuristic)",
        "seats": ["North", "South"],
        "players": ["heuristic", "heuristic"],
    }


def test_two_sides_of_the_same_bot_can_be_told_apart_in_the_table(short: str) -> None:
    status, output = run(
        "simulate", "--variant", short, "--players", "heuristic", "--games", "2", "--seed", "3"
    )
    assert status == 0
    rows = [line.split()[:4] for line in output.splitlines()[5:]]
    assert rows == [["N-S", "heuristic", "+", "heuristic"], ["E-W", "heuristic", "+", "heuristic"]]


def test_players_alone_are_named_by_their_seats(tmp_path: Path) -> None:
    path = tmp_path / "three.json"
    path.write_text(
        json.dumps(
            {
                "format": "backalley/rules",
                "name": "three",
                "base": "cutthroat-3",
                "schedule": {"hand_sizes": [2, 1]},
            }
        ),
        encoding="utf-8",
    )
    status, output = run(
        "simulate", "--variant", str(path), "--players", "random", "--games", "2", "--json", "-"
    )
    assert status == 0
    sides = json.loads(output)["sides"]
    assert [(s["name"], s["label"], s["seats"]) for s in sides] == [
        (f"Seat {n}", f"Seat {n} (random)", [f"Seat {n}"]) for n in (1, 2, 3)
    ]
    status, output = run("simulate", "--variant", str(path), "--players", "random", "--games", "2")
    assert [line.split()[:2] for line in output.splitlines()[5:]] == [
        ["Seat", "1"], ["Seat", "2"], ["Seat", "3"],
    ]  # fmt: skip


def test_the_former_name_plan_still_imports_with_a_warning() -> None:
    """``backalley.sim.simulate.Plan`` was renamed ``SimulationPlan`` (one
    class of the library is called ``Plan``: the rule set's)."""
    from backalley.sim import simulate

    with pytest.warns(DeprecationWarning, match="use SimulationPlan"):
        former = simulate.Plan
    assert former is simulate.SimulationPlan
    with pytest.raises(AttributeError, match="no attribute 'Plans'"):
        simulate.Plans  # noqa: B018
