"""The server's stores keep their promise, each the same way: the SQLite
store and the PostgreSQL store (on a private cluster the test starts;
skipped with the reason when it cannot be started) run the same contract -
tables read back as written, moves stored in order and only at the table's
version, a seat's client move id used once, a seat joined once, everything
there after reopening, and of moves racing for one number (from threads of
one store, or from two stores as two server processes) exactly one stored."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the server's extra (starlette) is not installed")

import backalley as ba
from backalley.server.sqlite_store import SqliteStore
from backalley.server.store import CONFLICT, DUPLICATE, STORED, MoveRow, Store, TableRow

from .server_services import PostgresCluster

Opener = Callable[[], Store]
"""Opens one more store on the same database (another process's view)."""


@pytest.fixture(params=["sqlite", "postgresql"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """A function opening stores on one new database, closed at the end."""
    opened: list[Store] = []
    if request.param == "sqlite":
        path = tmp_path / "tables.db"

        def open_store() -> Store:
            opened.append(SqliteStore(path))
            return opened[-1]

    else:
        from backalley.server.postgres_store import PostgresStore

        url = request.getfixturevalue("postgres").new_database("store")

        def open_store() -> Store:
            opened.append(PostgresStore(url))
            return opened[-1]

    yield open_store
    for store in opened:
        with contextlib.suppress(Exception):
            store.close()


def _row(id_: str, created: float = 1.0, seed: int = 2**63 - 1) -> TableRow:
    return TableRow(
        id=id_,
        rules=ba.to_json(ba.variants.get("gamerules")),
        seed=seed,
        first_dealer=3,
        seats=("human", "random", "heuristic", "human"),
        created=created,
    )


def test_tables_read_back_as_made(opener: Opener) -> None:
    store = opener()
    assert store.tables() == []
    assert store.table("nope") is None
    later, first = _row("b2", created=20.5, seed=7), _row("a1", created=10.25)
    store.create_table(later)
    store.create_table(first)
    assert store.table("a1") == first
    assert store.table("b2") == later
    assert list(store.tables()) == [first, later]  # oldest first
    assert store.version("a1") == 0
    assert list(store.moves("a1")) == []


def test_moves_are_stored_in_order(opener: Opener) -> None:
    store = opener()
    store.create_table(_row("t"))
    rows = [MoveRow(0, 1, "bid 2"), MoveRow(1, 2, "bid 0", "c1"), MoveRow(2, 3, "pass")]
    assert [store.append("t", row) for row in rows] == [STORED] * 3
    assert list(store.moves("t")) == rows
    assert list(store.moves("t", 1)) == rows[1:]
    assert list(store.moves("t", 3)) == []
    assert store.version("t") == 3


def test_a_move_at_a_wrong_number_is_a_conflict(opener: Opener) -> None:
    store = opener()
    store.create_table(_row("t"))
    assert store.append("t", MoveRow(1, 0, "bid 1")) == CONFLICT  # a gap
    assert store.append("t", MoveRow(0, 0, "bid 1")) == STORED
    assert store.append("t", MoveRow(0, 1, "bid 2")) == CONFLICT  # taken
    assert store.append("t", MoveRow(5, 1, "bid 2")) == CONFLICT
    assert store.append("missing", MoveRow(0, 1, "bid 2")) == CONFLICT  # no such table
    assert list(store.moves("t")) == [MoveRow(0, 0, "bid 1")]
    assert store.version("t") == 1


def test_a_client_move_id_is_used_once_per_seat(opener: Opener) -> None:
    store = opener()
    store.create_table(_row("t"))
    store.create_table(_row("u", created=2.0))
    assert store.append("t", MoveRow(0, 1, "bid 1", "same")) == STORED
    assert store.append("t", MoveRow(1, 1, "bid 2", "same")) == DUPLICATE
    assert store.append("t", MoveRow(1, 2, "bid 2", "same")) == STORED  # another seat
    assert store.append("u", MoveRow(0, 1, "bid 3", "same")) == STORED  # another table
    assert store.append("t", MoveRow(2, 3, "bid 0")) == STORED  # no id: never a duplicate
    assert store.append("t", MoveRow(3, 0, "bid 0")) == STORED
    assert store.client_move("t", 1, "same") == MoveRow(0, 1, "bid 1", "same")
    assert store.client_move("t", 2, "same") == MoveRow(1, 2, "bid 2", "same")
    assert store.client_move("t", 0, "same") is None
    assert store.client_move("t", 1, "other") is None
    assert store.version("t") == 4


def test_a_seat_is_claimed_once(opener: Opener) -> None:
    store = opener()
    store.create_table(_row("t"))
    assert store.seat_hash("t", 0) is None
    assert store.claim_seat("t", 0, "a" * 64)
    assert not store.claim_seat("t", 0, "b" * 64)
    assert store.seat_hash("t", 0) == "a" * 64
    assert store.claim_seat("t", 3, "c" * 64)
    assert store.seat_hash("t", 3) == "c" * 64
    assert store.seat_hash("t", 1) is None
    assert not store.claim_seat("missing", 0, "d" * 64)


def test_everything_is_there_after_reopening(opener: Opener) -> None:
    store = opener()
    row = _row("t", seed=123456789012345678)
    store.create_table(row)
    store.claim_seat("t", 0, "e" * 64)
    moves = [MoveRow(n, n % 4, f"bid {n}", f"id{n}" if n % 2 else None) for n in range(6)]
    for move in moves:
        assert store.append("t", move) == STORED
    store.close()
    again = opener()
    assert again.table("t") == row
    assert list(again.tables()) == [row]
    assert list(again.moves("t")) == moves
    assert again.version("t") == 6
    assert again.seat_hash("t", 0) == "e" * 64
    assert again.client_move("t", 1, "id1") == moves[1]
    assert again.append("t", MoveRow(6, 2, "bid 0")) == STORED


def _race(stores: list[Store], rounds: int, threads: int) -> None:
    """``threads`` threads (taking turns among ``stores``) append a move at
    the same number, ``rounds`` times: exactly one is stored each time."""
    stores[0].create_table(_row("race"))
    barrier = threading.Barrier(threads, timeout=30)
    answers: list[list[tuple[int, str]]] = [[] for _ in range(rounds)]
    failures: list[BaseException] = []

    def run(index: int) -> None:
        store = stores[index % len(stores)]
        try:
            for number in range(rounds):
                barrier.wait()
                # every thread uses the same client move id, to race on it too
                got = store.append(
                    "race", MoveRow(number, index % 4, f"move {index}", f"c{number}")
                )
                answers[number].append((index, got))
                barrier.wait()
        except BaseException as exc:
            failures.append(exc)
            barrier.abort()

    workers = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert not failures, failures
    assert not any(worker.is_alive() for worker in workers)
    stored = stores[-1].moves("race")
    assert [row.number for row in stored] == list(range(rounds))
    for number, got in enumerate(answers):
        assert len(got) == threads
        winners = [index for index, answer in got if answer == STORED]
        assert len(winners) == 1, got
        assert {answer for _, answer in got} <= {STORED, CONFLICT, DUPLICATE}
        assert stored[number].move == f"move {winners[0]}"
    for store in stores:
        assert store.version("race") == rounds


def test_threads_racing_for_one_number_store_exactly_one(opener: Opener) -> None:
    _race([opener()], rounds=12, threads=6)


def test_two_stores_racing_as_two_processes_store_exactly_one(opener: Opener) -> None:
    _race([opener(), opener()], rounds=12, threads=6)


# -- the PostgreSQL store on its own ------------------------------------------------------


def test_an_unreachable_database_is_a_setup_error_without_the_password() -> None:
    pytest.importorskip("psycopg")
    from backalley.server.postgres_store import PostgresStore

    with pytest.raises(ba.SetupError) as caught:
        PostgresStore("postgresql://someone:s3cret-word@127.0.0.1:1/tables", connect_timeout=2)
    message = str(caught.value)
    assert "s3cret-word" not in message
    assert "127.0.0.1:1" in message and "cannot reach the database" in message


def test_addresses_are_shown_without_their_password() -> None:
    pytest.importorskip("psycopg")
    from backalley.server.postgres_store import redacted

    assert redacted("postgresql://ann:pw@db:5432/x") == "postgresql://ann:***@db:5432/x"
    assert redacted("postgresql://ann@db/x") == "postgresql://ann@db/x"
    assert "hush" not in redacted("host=db user=ann password=hush dbname=x")
    assert "hush" not in redacted("postgresql://db/x?user=ann&password=hush")


def test_without_psycopg_the_store_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("psycopg")
    from backalley.server import postgres_store

    monkeypatch.setattr(postgres_store, "_HAVE_PSYCOPG", False)
    with pytest.raises(ba.SetupError, match=r"pip install 'backalley\[server\]'"):
        postgres_store.PostgresStore("postgresql://x@127.0.0.1:1/y")


def test_a_dropped_connection_is_opened_again(postgres: PostgresCluster) -> None:
    import psycopg

    from backalley.server.postgres_store import PostgresStore

    url = postgres.new_database("dropped")
    store = PostgresStore(url)
    try:
        store.create_table(_row("t"))
        assert store.append("t", MoveRow(0, 0, "bid 1")) == STORED
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        assert store.version("t") == 1
        assert store.append("t", MoveRow(1, 1, "bid 2")) == STORED
        assert [row.move for row in store.moves("t")] == ["bid 1", "bid 2"]
    finally:
        store.close()
