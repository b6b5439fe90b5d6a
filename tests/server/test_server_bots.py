"""The server's bots: their decisions are made in a bounded pool apart from
the requests (a busy table of search bots does not slow another table's
answers), each under the server's CPU budget, taking turns between client
addresses; an address's bot tables count against its own limit; the bots are
seeded from the table's secret seed, never its public id; the task that
resumes the bots after a restart and the poll both go on past a damaged
table or a failing database."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import statistics
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import backalley as ba
from backalley.bots import make_bot
from backalley.server import SqliteStore, TableService, create_app
from backalley.server.bot_pool import BotFailed, BotPool, budgeted_bot

from .. import ROOT
from ..server_services import SocketReader

HOST = "testserver"
WAIT = 20.0
SHORT = {
    "format": "backalley/rules",
    "name": "short",
    "base": "gamerules",
    "schedule": {"hand_sizes": [3, 2, 1]},
}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    found = SqliteStore(tmp_path / "tables.db")
    yield found
    found.close()


def _client(store: SqliteStore, address: str = "testclient", **limits: Any) -> TestClient:
    limits.setdefault("bot_delay", 0)
    limits.setdefault("deal_pause", 0)
    limits.setdefault("create_burst", 1000)
    limits.setdefault("allowed_hosts", HOST)
    return TestClient(create_app(store, **limits), client=(address, 50000))


def _make(client: TestClient, seats: list[str], rules: object = "gamerules") -> Any:
    return client.post("/api/tables", json={"rules": rules, "seats": seats})


def _wait(check: Any, what: str, seconds: float = WAIT) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"gave up waiting for {what} after {seconds} s")


# -- apart from the requests ----------------------------------------------------------


def test_busy_search_bot_tables_do_not_slow_another_tables_answers(store: SqliteStore) -> None:
    """Eight tables of four ``pimc`` bots decide all the time; another
    table's summary is answered in well under half a second (it took 1.3 to
    2.9 s when the bots decided on the request threads)."""
    with _client(store, bot_budget=0.3, bot_workers=1) as client:
        quiet = _make(client, ["human"] * 4).json()["table"]
        busy = [_make(client, ["pimc"] * 4).json()["table"] for _ in range(8)]
        _wait(
            lambda: all(client.get(f"/api/tables/{t}").json()["version"] > 0 for t in busy[:2]),
            "the pimc bots to move",
        )
        took = []
        for _ in range(20):
            began = time.perf_counter()
            answer = client.get(f"/api/tables/{quiet}")
            took.append(time.perf_counter() - began)
            assert answer.status_code == 200
            time.sleep(0.05)
        moved = sum(client.get(f"/api/tables/{t}").json()["version"] for t in busy)
    assert moved >= 2, "the bots did not move while the summaries were asked for"
    assert statistics.median(took) < 0.1, took
    assert max(took) < 0.5, took


def test_each_bot_is_made_with_the_servers_cpu_budget(store: SqliteStore) -> None:
    assert budgeted_bot("pimc", 1, 0.25).budget == 0.25  # type: ignore[attr-defined]
    assert budgeted_bot("montecarlo", 1, 0.25).budget == 0.25  # type: ignore[attr-defined]
    # a bot's own budget smaller than the server's is kept
    assert budgeted_bot("montecarlo", 1, 5.0).budget == 0.8  # type: ignore[attr-defined]
    assert type(budgeted_bot("heuristic", 1, 0.25)).__name__ == "HeuristicBot"
    service = TableService(store, bot_budget=0.2)
    table = service.create("gamerules", ["pimc", "montecarlo", "human", "random"])
    bots = service._table(table).bots
    assert bots[0].budget == bots[1].budget == 0.2  # type: ignore[attr-defined]


def test_a_search_bots_decision_stays_near_its_budget() -> None:
    """A ``pimc`` decision with no budget of its own took up to 9 s; with the
    server's it stops near the budget (by no more than one layout)."""
    state = ba.new_game(ba.variants.get("gamerules"), seed=7)
    bot = budgeted_bot("pimc", 3, 0.2)
    seat = state.to_act
    assert seat is not None
    began = time.process_time()
    bot.choose(state.view(seat))
    assert time.process_time() - began < 1.5


class _Recorder:
    """A bot that notes which table asked, in the order decisions are made,
    after waiting for ``gate`` (so that every decision is queued first)."""

    def __init__(self, name: str, log: list[str], gate: threading.Event | None = None) -> None:
        self.name, self.log, self.gate = name, log, gate

    def choose(self, view: ba.PlayerView) -> ba.Move:
        if self.gate is not None:
            assert self.gate.wait(10)
        self.log.append(self.name)
        return view.legal_moves()[0]


def _kept(move: ba.Move, bot: object) -> bool:
    return True


def test_bot_decisions_take_turns_between_client_addresses() -> None:
    """One address's three tables and another's one, all waiting: the other
    address's table is decided second, not after the first address's whole
    queue."""
    state = ba.new_game(ba.variants.get("gamerules"), seed=1)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    log: list[str] = []
    gate = threading.Event()

    async def run() -> None:
        pool = BotPool(0)  # one thread: one decision at a time, in order
        try:
            first = asyncio.ensure_future(
                pool.decide("gate", "g", _Recorder("g", log, gate), view, _kept)
            )
            await asyncio.sleep(0.05)  # the gate's decision holds the only worker
            waiting = [
                asyncio.ensure_future(pool.decide(owner, name, _Recorder(name, log), view, _kept))
                for owner, name in [("a", "a1"), ("a", "a2"), ("a", "a3"), ("b", "b1")]
            ]
            await asyncio.sleep(0.05)
            assert pool.waiting() == 4
            gate.set()
            await asyncio.gather(first, *waiting)
        finally:
            pool.close()

    asyncio.run(run())
    assert log == ["g", "a1", "b1", "a2", "a3"]


def test_a_bot_that_fails_in_the_pool_is_reported_not_raised_as_its_own_error() -> None:
    class Failing:
        def choose(self, view: ba.PlayerView) -> ba.Move:
            raise RuntimeError("cannot choose from AS KS")

    state = ba.new_game(ba.variants.get("gamerules"), seed=1)
    seat = state.to_act
    assert seat is not None

    async def run() -> BaseException | None:
        pool = BotPool(0)
        try:
            await pool.decide("a", "t", Failing(), state.view(seat), _kept)
        except BotFailed as exc:
            assert "cannot choose" in exc.detail and "cannot choose" not in str(exc)
            return exc
        finally:
            pool.close()
        return None

    assert asyncio.run(run()) is not None


class Stubborn:
    """A bot that ignores every budget (module level: a worker process
    imports it to unpickle it)."""

    def choose(self, view: ba.PlayerView) -> ba.Move:
        time.sleep(60)
        return view.legal_moves()[0]


def test_a_decision_past_the_pools_limit_stops_its_worker_not_the_pool() -> None:
    state = ba.new_game(ba.variants.get("gamerules"), seed=2)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    moved: list[str] = []

    def commit(move: ba.Move, bot: object) -> bool:
        moved.append(str(move))
        return True

    async def run() -> float:
        pool = BotPool(1, limit=3.0)
        try:
            began = time.monotonic()
            with pytest.raises(BotFailed) as failed:
                await pool.decide("a", "t", Stubborn(), view, commit)
            assert "no decision within 3 s" in failed.value.detail
            took = time.monotonic() - began
            # the pool goes on with a new worker
            assert await pool.decide("a", "t", make_bot("random", 1), view, commit)
            return took
        finally:
            pool.close()

    took = asyncio.run(run())
    assert took < 15, took
    assert len(moved) == 1


def test_bots_in_worker_processes_play_a_game_to_its_end(store: SqliteStore) -> None:
    with _client(store, bot_workers=1) as client:
        table = _make(client, ["heuristic", "random", "pimc", "random"], SHORT).json()["table"]
        _wait(lambda: client.get(f"/api/tables/{table}").json()["over"], "the game's end")
        assert client.get(f"/api/tables/{table}/record").status_code == 200


# -- a client's own limit --------------------------------------------------------------


def test_an_address_may_hold_only_so_many_games_with_bots(store: SqliteStore) -> None:
    with _client(store, max_client_bot_tables=2) as client:
        for _ in range(2):
            assert _make(client, ["human", "random", "random", "random"]).status_code == 201
        refused = _make(client, ["human", "random", "random", "random"])
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"] == "too-many-bot-tables"
        assert _make(client, ["human"] * 4).status_code == 201  # no bot: not counted
    with _client(store, "127.0.0.9", max_client_bot_tables=2) as other:
        assert _make(other, ["human", "random", "random", "random"]).status_code == 201


def test_a_finished_game_no_longer_counts_against_its_address(store: SqliteStore) -> None:
    with _client(store, max_client_bot_tables=1) as client:
        table = _make(client, ["random"] * 4, SHORT).json()["table"]
        _wait(lambda: client.get(f"/api/tables/{table}").json()["over"], "the game's end")
        assert _make(client, ["random"] * 4, SHORT).status_code == 201


# -- seeded secretly --------------------------------------------------------------------


def test_a_random_bots_moves_are_not_those_its_table_id_predicts(store: SqliteStore) -> None:
    """Anyone could make the ``random`` bot with the table's public id as its
    seed and know its every choice; now the seed comes from the table's
    secret seed."""
    service = TableService(store)
    table = service.create("gamerules", ["random"] * 4)
    for _ in range(40):
        assert service.bot_step(table)
    row = store.table(table)
    assert row is not None
    predictors = {seat: make_bot("random", seed=f"{table}:{seat}") for seat in range(4)}
    state = ba.new_game(ba.from_json(row.rules, ba.RuleSet), seed=row.seed, dealer=row.first_dealer)
    choices = matched = 0
    for stored in store.moves(table):
        view = state.view(stored.seat)
        guess = predictors[stored.seat].choose(view)
        if len(view.legal_moves()) > 1:
            choices += 1
            matched += str(guess) == stored.move
        state = state.apply(ba.parse_move(stored.move))
    assert choices >= 10
    assert matched < choices, "every choice was the one the table's id predicts"


def test_a_tables_bots_play_differently_from_another_tables_with_the_same_id_seed(
    store: SqliteStore,
) -> None:
    """Two tables' bots are seeded from their own secret seeds: the same
    position does not make them choose alike every time."""
    service = TableService(store)
    first = service.create("gamerules", ["random"] * 4)
    bots = service._table(first).bots
    other = TableService(store)
    second = other.create("gamerules", ["random"] * 4)
    others = other._table(second).bots
    state = ba.new_game(ba.variants.get("gamerules"), seed=5)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    mine = [str(bots[seat].choose(view)) for _ in range(30)]
    theirs = [str(others[seat].choose(view)) for _ in range(30)]
    assert mine != theirs


# -- the restart and the poll go on -------------------------------------------------------


def _break_rules(path: Path, table: str) -> None:
    with sqlite3.connect(path) as db:
        db.execute("UPDATE tables SET rules = ? WHERE id = ?", ('{"not": "rules"}', table))


def test_a_table_whose_rules_no_longer_load_leaves_the_older_tables_bots_moving(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tables.db"
    store = SqliteStore(path)
    try:
        service = TableService(store)
        older = [service.create("gamerules", ["random"] * 4) for _ in range(2)]
        newest = service.create("gamerules", ["random"] * 4)
    finally:
        store.close()
    _break_rules(path, newest)  # the restart looks at the newest table first
    store = SqliteStore(path)
    try:
        with _client(store) as client:
            for table in older:
                _wait(
                    lambda t=table: client.get(f"/api/tables/{t}").json()["version"] > 0,
                    "an older table's bots to move after the restart",
                )
            broken = client.get(f"/api/tables/{newest}")
            assert broken.status_code == 500 and broken.json()["error"] == "corrupt"
    finally:
        store.close()


def test_the_poll_goes_on_after_the_database_was_locked(tmp_path: Path) -> None:
    """A move stored by another process is pushed to the table's sockets,
    though the poll's read failed once with "database is locked" before."""
    path = tmp_path / "tables.db"
    store = SqliteStore(path)
    try:
        with _client(store, poll_seconds=0.05) as client:
            table = _make(client, ["human"] * 4).json()["table"]
            service = client.app.state.service
            real = service.version
            failures: list[str] = []
            armed = threading.Event()

            def version(table_id: str) -> int:
                if armed.is_set() and not failures:
                    failures.append(table_id)
                    raise sqlite3.OperationalError("database is locked")
                return int(real(table_id))

            service.version = version
            with client.websocket_connect(f"/api/tables/{table}/socket") as ws:
                socket = SocketReader(ws)
                first = json.loads(socket.messages.get(timeout=WAIT)["text"])
                assert first["version"] == 0
                time.sleep(0.3)  # the socket's own first look is done: the poll's next one fails
                armed.set()
                _wait(lambda: failures, "the poll to meet the locked database")
                # another server process on the same file stores a move
                elsewhere = SqliteStore(path)
                try:
                    other = TableService(elsewhere)
                    seat = other._table(table).state.to_act
                    token = other.join(table, seat)
                    legal = other.view(table, seat, token)["view"]["legal_moves"]
                    other.submit(table, seat, token, legal[0])
                finally:
                    elsewhere.close()
                deadline = time.monotonic() + 5
                pushed = first
                while pushed["version"] < 1:  # the poll may push version 0 once first
                    left = max(0.01, deadline - time.monotonic())
                    pushed = json.loads(socket.messages.get(timeout=left)["text"])
                assert pushed["version"] == 1, pushed
    finally:
        store.close()


def test_a_bot_move_for_an_archived_table_is_not_stored(store: SqliteStore) -> None:
    clock = [1000.0]
    service = TableService(store, clock=lambda: clock[0], idle_keep=10)
    table = service.create("gamerules", ["random"] * 4)
    turn = service.bot_turn(table)
    assert turn is not None
    clock[0] += 11
    assert service.retire() == [table]
    move = turn.bot.choose(turn.view)
    assert not service.bot_play(turn, move)
    assert store.version(table) == 0


def test_serve_reads_the_bots_and_the_life_of_tables_from_its_flags() -> None:
    from backalley.cli import build_parser

    args = build_parser().parse_args(
        [
            *("serve", "--bot-workers", "2", "--bot-budget", "0.25"),
            *("--keep-finished", "60", "--keep-idle", "3600"),
        ]
    )
    assert (args.bot_workers, args.bot_budget, args.keep_finished, args.keep_idle) == (
        2,
        0.25,
        60.0,
        3600.0,
    )
    defaults = build_parser().parse_args(["serve"])
    from backalley.server import ServerSettings

    settings = ServerSettings()
    assert (defaults.bot_workers, defaults.bot_budget) == (
        settings.bot_workers,
        settings.bot_budget,
    )
    assert (defaults.keep_finished, defaults.keep_idle) == (
        settings.finished_keep,
        settings.idle_keep,
    )
    for flag, value in [
        ("--bot-workers", "-1"),
        ("--bot-budget", "0"),
        ("--keep-idle", "x"),
        ("--keep-idle", "0"),
    ]:
        with pytest.raises(SystemExit):
            build_parser().parse_args(["serve", flag, value])


# -- a short soak ----------------------------------------------------------------------------


def _soak_module() -> Any:
    import importlib.util

    path = ROOT / "benchmarks" / "soak.py"
    spec = importlib.util.spec_from_file_location("backalley_soak", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_short_soak_keeps_answering_without_growing_or_logging(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """``benchmarks/soak.py`` for a few seconds on a real server: tables of
    ``pimc`` bots under a CPU budget, people against bots and spectators, and
    one spectator that never reads; the bots move, the people's moves are
    answered quickly, descriptors and memory stay flat and the server logs
    nothing."""
    pytest.importorskip("uvicorn")
    pytest.importorskip("websockets")
    database = None
    if kind == "postgresql":
        database = request.getfixturevalue("postgres").new_database("soak")
    figures = _soak_module().soak(
        tmp_path, database=database, tables=4, humans=2, sockets=12, stuck=1, seconds=8, warmup=2
    )
    assert figures["moves"] > 0 and figures["human_moves"] > 0, figures
    assert figures["human_p99_ms"] < 500, figures
    assert figures["end"]["server_fds"] <= figures["start"]["server_fds"] + 4, figures
    assert figures["end"]["workers_fds"] <= figures["start"]["workers_fds"] + 4, figures
    assert figures["end"]["server_rss_mb"] < figures["start"]["server_rss_mb"] + 40, figures
    assert figures["log_lines"] == 0 and figures["log_lines_before"] == 0, figures["log_tail"]
    assert figures["refused"] == {} and figures["failed_tasks"] == [], figures
