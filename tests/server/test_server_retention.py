"""The life of the server's tables: finished games and idle tables are
archived after the configured times (their records still read at their
addresses), the cap on tables counts live tables only, a table archived by
another process is let go, and a table whose stored row or rules cannot be
read back is left out of the list and refused on its own - on SQLite and on
PostgreSQL (skipped, with the reason, when no cluster can be started)."""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import backalley as ba
from backalley.server import SqliteStore, TableService, create_app
from backalley.server.refusals import ServerError
from backalley.server.store import Store

HOST = "testserver"
WAIT = 20.0
SHORT = {
    "format": "backalley/rules",
    "name": "short",
    "base": "gamerules",
    "schedule": {"hand_sizes": [1]},
}


class Database:
    """One new database: stores opened on it, and its rows changed behind
    the stores' backs (as a damaged disk or an old release would)."""

    def __init__(self, kind: str, where: str) -> None:
        self.kind, self.where = kind, where
        self.opened: list[Store] = []

    def open(self) -> Store:
        if self.kind == "sqlite":
            self.opened.append(SqliteStore(self.where))
        else:
            from backalley.server.postgres_store import PostgresStore

            self.opened.append(PostgresStore(self.where))
        return self.opened[-1]

    def damage(self, table: str, column: str, value: str) -> None:
        if self.kind == "sqlite":
            with sqlite3.connect(self.where) as db:
                db.execute(f"UPDATE tables SET {column} = ? WHERE id = ?", (value, table))
            return
        import psycopg

        with psycopg.connect(self.where, autocommit=True) as conn:
            conn.execute(f"UPDATE backalley_tables SET {column} = %s WHERE id = %s", (value, table))

    def close(self) -> None:
        for store in self.opened:
            with contextlib.suppress(Exception):
                store.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        found = Database("sqlite", str(tmp_path / "tables.db"))
    else:
        found = Database("postgresql", request.getfixturevalue("postgres").new_database("life"))
    yield found
    found.close()


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def _service(store: Store, clock: Callable[[], float], **options: Any) -> TableService:
    options.setdefault("finished_keep", 3600.0)
    options.setdefault("idle_keep", 86_400.0)
    return TableService(store, clock=clock, **options)


def _refused(call: Callable[[], object], status: int, code: str) -> ServerError:
    with pytest.raises(ServerError) as found:
        call()
    assert (found.value.status, found.value.code) == (status, code), found.value.to_data()
    return found.value


def _play_out(service: TableService, table: str) -> None:
    for _ in range(200):
        if not service.bot_step(table):
            break
    assert service.summary(table)["over"]


# -- archived after their time ---------------------------------------------------------------


def test_a_finished_game_is_archived_after_finished_keep_and_its_record_stays(
    database: Database,
) -> None:
    clock = Clock()
    service = _service(database.open(), clock)
    table = service.create(SHORT, ["random"] * 4)
    _play_out(service, table)
    record = service.record(table)
    clock.now += 3599
    assert service.retire() == []
    assert table in service.ids()
    clock.now += 2
    assert service.retire() == [table]
    assert table not in service.ids() and service.in_memory() == 0
    assert service.record(table) == record  # still at its address, replayed from the store
    assert service.summary(table)["archived"] is True
    # another process reads it the same
    assert _service(database.open(), clock).record(table) == record


def test_an_idle_table_is_archived_and_takes_no_more_seats_or_moves(database: Database) -> None:
    clock = Clock()
    service = _service(database.open(), clock)
    table = service.create("gamerules", ["human"] * 4)
    seat = service._table(table).state.to_act
    assert seat is not None
    token = service.join(table, seat)
    legal = service.view(table, seat, token)["view"]["legal_moves"]
    clock.now += 80_000
    service.submit(table, seat, token, legal[0])  # a move: the table is not idle
    clock.now += 80_000
    assert service.retire() == []
    clock.now += 10_000
    assert service.retire() == [table]
    _refused(lambda: service.join(table, (seat + 2) % 4), 410, "archived")
    assert service.public(table)["version"] == 1  # still readable


def test_an_archived_tables_seat_is_refused_a_move(database: Database) -> None:
    clock = Clock()
    service = _service(database.open(), clock)
    table = service.create("gamerules", ["human"] * 4)
    seat = service._table(table).state.to_act
    assert seat is not None
    token = service.join(table, seat)
    legal = service.view(table, seat, token)["view"]["legal_moves"]
    clock.now += 86_401
    assert service.retire() == [table]
    _refused(lambda: service.submit(table, seat, token, legal[0]), 410, "archived")
    assert service.version(table) == 0
    assert not service.bot_to_act(table)


def test_a_table_that_moves_while_it_is_being_archived_stays_live(database: Database) -> None:
    """An idle table found due, then moved on before the archiving round
    reaches it, is not archived: the store checks that it is still due as
    it archives it.  (It was archived right after the move was answered.)"""
    clock = Clock()
    store = database.open()
    service = _service(store, clock)
    table = service.create("gamerules", ["human"] * 4)
    seat = service._table(table).state.to_act
    assert seat is not None
    token = service.join(table, seat)
    legal = service.view(table, seat, token)["view"]["legal_moves"]
    clock.now += 86_401
    stale = list(store.due(clock.now - 3600.0, clock.now - 86_400.0))
    assert stale == [table]
    service.submit(table, seat, token, legal[0])  # the move comes between the two reads
    store.due = lambda *_: stale  # type: ignore[method-assign]  # the round read before it
    assert service.retire() == []
    assert service.summary(table)["archived"] is False
    assert table in service.ids()


def test_the_table_cap_counts_live_tables_only(database: Database) -> None:
    clock = Clock()
    service = _service(database.open(), clock, max_tables=2, finished_keep=0.0)
    first = service.create(SHORT, ["random"] * 4)
    service.create("gamerules", ["human"] * 4)
    _refused(lambda: service.create("gamerules", ["human"] * 4), 503, "full")
    _play_out(service, first)
    clock.now += 1
    assert service.retire() == [first]
    assert service.create("gamerules", ["human"] * 4)


def _joined_then_archived_elsewhere(
    database: Database,
) -> tuple[Clock, TableService, str, int, str, list[Any]]:
    """A table made and joined by one process (the clock, ``here``, the
    table, the seat to act and its token, the seat's legal moves), then
    archived by another process a day later on the same clock."""
    clock = Clock()
    here = _service(database.open(), clock)
    table = here.create("gamerules", ["human"] * 4)
    seat = here._table(table).state.to_act
    assert seat is not None
    token = here.join(table, seat)
    legal = here.view(table, seat, token)["view"]["legal_moves"]
    clock.now += 86_401
    assert _service(database.open(), clock).retire() == [table]
    return clock, here, table, seat, token, legal


def test_a_table_archived_by_another_process_is_let_go_here(database: Database) -> None:
    _, here, table, seat, token, legal = _joined_then_archived_elsewhere(database)
    assert here.retire() == []  # nothing due here: the other process archived it
    _refused(lambda: here.submit(table, seat, token, legal[0]), 410, "archived")


def test_a_move_to_a_table_another_process_just_archived_is_refused_not_stored(
    database: Database,
) -> None:
    """A process that still holds a table in memory when another process
    archives it (before its own next archiving round lets the table go)
    refuses the next move with 410 and stores nothing: the store checks the
    table's archived mark in the move's transaction.  (The move was stored
    and answered 200: an archived table's record gained moves.)"""
    clock, here, table, seat, token, legal = _joined_then_archived_elsewhere(database)
    _refused(lambda: here.submit(table, seat, token, legal[0]), 410, "archived")
    assert here.version(table) == 0
    assert here.summary(table)["archived"] is True
    assert database.open().moves(table) == []
    # a bot's move is not stored either, and its run stops (no decision made again)
    bots = here.create("gamerules", ["random"] * 4)
    clock.now += 86_401
    assert _service(database.open(), clock).retire() == [bots]
    assert here.bot_step(bots) is False
    assert here.version(bots) == 0 and not here.bot_to_act(bots)


def test_the_server_archives_due_tables_by_itself(database: Database) -> None:
    store = database.open()
    app = create_app(
        store,
        bot_delay=0,
        deal_pause=0,
        allowed_hosts=HOST,
        list_burst=1000,
        finished_keep=0.0,
        retire_seconds=0.05,
    )
    with TestClient(app) as client:
        made = client.post("/api/tables", json={"rules": SHORT, "seats": ["random"] * 4})
        table = made.json()["table"]
        other = client.post("/api/tables", json={"seats": ["human"] * 4}).json()["table"]
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            listed = [t["table"] for t in client.get("/api/tables").json()["tables"]]
            if table not in listed:
                break
            time.sleep(0.05)
        assert listed == [other]
        assert client.get(f"/api/tables/{table}").json()["archived"] is True
        record = client.get(f"/api/tables/{table}/record")
        assert record.status_code == 200
        assert ba.from_json(record.text, ba.GameRecord).moves


# -- damaged rows -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("column", "value"),
    [("seats", "not json"), ("seats", '{"a": 1}'), ("seed", "forty"), ("rules", '{"no": 1}')],
)
def test_a_damaged_table_is_left_out_of_the_list_and_refused_on_its_own(
    database: Database, column: str, value: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = database.open()
    app = create_app(store, bot_delay=0, deal_pause=0, allowed_hosts=HOST, create_burst=100)
    with TestClient(app) as client:
        good = client.post("/api/tables", json={"seats": ["human"] * 4}).json()["table"]
        bad = client.post("/api/tables", json={"seats": ["human"] * 4}).json()["table"]
        database.damage(bad, column, value)
        app.state.service._live.pop(bad, None)  # as after a restart
        with caplog.at_level(logging.ERROR):
            for _ in range(3):
                listed = client.get("/api/tables")
                assert listed.status_code == 200, listed.text
                assert [t["table"] for t in listed.json()["tables"]] == [good]
        assert sum(bad in r.getMessage() for r in caplog.records) == 1  # logged once
        made = client.post("/api/tables", json={"seats": ["human"] * 4})
        assert made.status_code == 201, made.text
        refused = client.get(f"/api/tables/{bad}")
        assert refused.status_code == 500 and refused.json()["error"] == "corrupt"
        assert "Traceback" not in refused.text
        assert client.get(f"/api/tables/{good}").status_code == 200


def test_a_damaged_table_met_by_the_restart_and_the_list_is_logged_once(
    database: Database, caplog: pytest.LogCaptureFixture
) -> None:
    """A damaged table is said once in the log, whichever part of the
    server meets it first - the restart, a bots' run, the poll or the list -
    and without a traceback.  (The restart and the bots' runs each logged it
    again, a bots' run with a traceback.)  The restart reads the tables whose
    bots are to move: the damaged one is such a table."""
    store = database.open()
    settings: dict[str, Any] = {"bot_delay": 0, "deal_pause": 0, "allowed_hosts": HOST}
    with TestClient(create_app(store, **settings)) as client:
        good = client.post("/api/tables", json={"seats": ["human"] * 4}).json()["table"]
    # made by a service that runs no bots: its first bot is still to move
    bad = TableService(store).create("gamerules", ["random"] * 4)
    database.damage(bad, "rules", '{"no": 1}')
    with caplog.at_level(logging.ERROR), TestClient(create_app(store, **settings)) as client:
        deadline = time.monotonic() + WAIT
        while not any(bad in r.getMessage() for r in caplog.records):
            assert time.monotonic() < deadline, "the restart never met the damaged table"
            time.sleep(0.02)
        for _ in range(3):
            listed = client.get("/api/tables")
            assert [t["table"] for t in listed.json()["tables"]] == [good]
    said = [r for r in caplog.records if bad in r.getMessage()]
    assert len(said) == 1, [r.getMessage() for r in said]
    assert said[0].exc_info is None


@pytest.mark.parametrize("seats", ['["human", "human", "human", "human", "human"]', '["human"]'])
def test_a_table_stored_with_more_or_fewer_seats_than_players_is_left_out_of_the_list(
    database: Database, seats: str
) -> None:
    """A row whose seats are a JSON list of names, but not as many as its
    rules' players, is damaged like any other: left out of the list and
    refused on its own.  (Five seats for four players made the summary read
    a fifth seat's name, and the list answered 500 for everyone.)"""
    store = database.open()
    app = create_app(store, bot_delay=0, deal_pause=0, allowed_hosts=HOST, create_burst=100)
    with TestClient(app) as client:
        good = client.post("/api/tables", json={"seats": ["human"] * 4}).json()["table"]
        bad = client.post("/api/tables", json={"seats": ["human"] * 4}).json()["table"]
        database.damage(bad, "seats", seats)
        app.state.service._live.pop(bad, None)  # as after a restart
        listed = client.get("/api/tables")
        assert listed.status_code == 200, listed.text
        assert [t["table"] for t in listed.json()["tables"]] == [good]
        for path in (f"/api/tables/{bad}", f"/api/tables/{bad}/public"):
            refused = client.get(path)
            assert refused.status_code == 500 and refused.json()["error"] == "corrupt", path
        joined = client.post(f"/api/tables/{bad}/seats/0/join")
        assert joined.status_code == 500 and joined.json()["error"] == "corrupt"


def test_an_older_sqlite_database_gets_the_new_columns(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    rules = ba.to_json(ba.variants.get("gamerules"))
    with sqlite3.connect(path) as db:  # the schema of the first release
        db.execute(
            "CREATE TABLE tables (id TEXT PRIMARY KEY, rules TEXT NOT NULL, seed TEXT NOT NULL,"
            " first_dealer INTEGER NOT NULL, seats TEXT NOT NULL, created REAL NOT NULL)"
        )
        db.execute(
            "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?)",
            (
                "old",
                rules,
                "7",
                0,
                '["human", "human", "human", "human"]',
                time.time() - 30 * 86_400,
            ),
        )
    store = SqliteStore(path)
    try:
        (row,) = store.tables()
        assert (row.id, row.owner, row.finished, row.archived) == ("old", None, None, None)
        service = TableService(store, idle_keep=86_400)
        assert service.summary("old")["version"] == 0
        # made 30 days ago, last moved who knows when: idle from the upgrade on
        assert service.retire() == []
        assert service.retire(time.time() + 86_401) == ["old"]
    finally:
        store.close()


def test_an_older_postgresql_database_gets_the_new_columns(postgres: Any) -> None:
    import psycopg

    from backalley.server.postgres_store import PostgresStore

    url = postgres.new_database("old")
    rules = ba.to_json(ba.variants.get("gamerules"))
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE backalley_tables (id TEXT PRIMARY KEY, rules TEXT NOT NULL,"
            " seed TEXT NOT NULL, first_dealer INTEGER NOT NULL, seats TEXT NOT NULL,"
            " created DOUBLE PRECISION NOT NULL)"
        )
        conn.execute(
            "INSERT INTO backalley_tables VALUES (%s, %s, %s, %s, %s, %s)",
            (
                "old",
                rules,
                "7",
                0,
                '["human", "human", "human", "human"]',
                time.time() - 30 * 86_400,
            ),
        )
    store = PostgresStore(url)
    try:
        (row,) = store.tables()
        assert (row.id, row.owner, row.finished, row.archived) == ("old", None, None, None)
        assert store.due(time.time(), time.time() - 86_400) == []  # idle from the upgrade on
        assert store.due(time.time(), time.time() + 1) == ["old"]
        PostgresStore(url).close()  # opened again: the schema statements run again
    finally:
        store.close()
