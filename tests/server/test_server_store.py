"""The server's stores keep their promise, each the same way: the SQLite
store and the PostgreSQL store (on a private cluster the test starts;
skipped with the reason when it cannot be started) run the same contract -
tables read back as written, moves stored in order and only at the table's
version, a seat's client move id used once, a seat joined once, everything
there after reopening, and of moves racing for one number (from threads of
one store, or from two stores as two server processes) exactly one stored.

And what server processes sharing one store agree on, the same way: the
lease of a table's bots (one holder at a time, renewed by its holder, taken
over once expired), the tables whose bots nobody moves, the caps on making
tables counted in the creating transaction (also by two processes racing),
the continues after a deal, each move's time, the newest ids, and -
PostgreSQL only - every committed move heard by another process's store as
it commits."""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the server's extra (starlette) is not installed")

import backalley as ba
from backalley.server.sqlite_store import SqliteStore
from backalley.server.store import (
    CONFLICT,
    DUPLICATE,
    STORED,
    Caps,
    MoveRow,
    Store,
    TableRow,
    change_text,
    read_change,
)

from ..server_services import PostgresCluster

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


# -- what processes sharing a store agree on ------------------------------


HUMANS = ("human",) * 4


def _people(id_: str, owner: str | None = "1.2.3.4", created: float = 1.0) -> TableRow:
    row = _row(id_, created=created)
    return TableRow(
        id=row.id,
        rules=row.rules,
        seed=row.seed,
        first_dealer=row.first_dealer,
        seats=HUMANS,
        created=created,
        owner=owner,
    )


def _bots(id_: str, owner: str | None = "1.2.3.4", created: float = 1.0) -> TableRow:
    row = _people(id_, owner, created)
    return TableRow(
        id=row.id,
        rules=row.rules,
        seed=row.seed,
        first_dealer=row.first_dealer,
        seats=("human", "random", "random", "random"),
        created=created,
        owner=owner,
    )


def test_one_process_holds_a_tables_lease_until_it_expires(opener: Opener) -> None:
    a, b = opener(), opener()
    a.create_table(_bots("t"), bot_next=True)
    assert a.take_lease("t", "A", until=110.0, now=100.0)
    assert not b.take_lease("t", "B", until=111.0, now=101.0)  # A holds it
    assert a.take_lease("t", "A", until=120.0, now=105.0)  # its holder renews it
    assert not b.take_lease("t", "B", until=125.0, now=119.0)
    assert b.take_lease("t", "B", until=131.0, now=121.0)  # expired: A died
    assert not a.release_lease("t", "A")  # A holds it no more
    assert b.release_lease("t", "B")
    assert a.take_lease("t", "A", until=140.0, now=130.0)  # free again
    assert not a.take_lease("nothing", "A", until=140.0, now=130.0)


def test_the_tables_whose_bots_nobody_moves_are_found(opener: Opener) -> None:
    store = opener()
    store.create_table(_bots("bot-next", created=1.0), bot_next=True)
    store.create_table(_bots("person-next", created=2.0), bot_next=False)
    store.create_table(_bots("leased", created=3.0), bot_next=True)
    store.create_table(_bots("expired", created=4.0), bot_next=True)
    store.take_lease("leased", "A", until=200.0, now=100.0)
    store.take_lease("expired", "A", until=150.0, now=100.0)
    assert sorted(store.orphans(now=160.0, most=10)) == ["bot-next", "expired"]
    assert len(store.orphans(now=160.0, most=1)) == 1
    # a move that leaves a person to act takes the table off; one that ends the game too
    assert store.append("bot-next", MoveRow(0, 1, "bid 1"), when=170.0) == STORED
    assert store.orphans(now=160.0, most=10) == ["expired"]
    assert store.append("expired", MoveRow(0, 1, "bid 1"), when=171.0, bot_next=True) == STORED
    assert store.append("expired", MoveRow(1, 2, "bid 1"), when=172.0, over=True, bot_next=True)
    assert store.orphans(now=160.0, most=10) == []


def test_a_move_keeps_the_time_it_was_stored(opener: Opener) -> None:
    store = opener()
    store.create_table(_people("t"))
    store.append("t", MoveRow(0, 0, "bid 1"), when=1234.5)
    store.append("t", MoveRow(1, 1, "bid 2"))
    assert [m.played for m in opener().moves("t")] == [1234.5, None]


def test_the_continues_after_a_deal_are_shared(opener: Opener) -> None:
    a, b = opener(), opener()
    a.create_table(_people("t"))
    assert b.continued("t", 1) == frozenset()
    a.continue_deal("t", 1, 2)
    a.continue_deal("t", 1, 2)  # again: nothing more
    b.continue_deal("t", 1, 0)
    b.continue_deal("t", 2, 3)
    assert a.continued("t", 1) == frozenset({0, 2})
    assert a.continued("t", 2) == frozenset({3})


def test_the_newest_ids_are_read_without_the_rows(opener: Opener) -> None:
    store = opener()
    for number in range(5):
        store.create_table(_people(f"t{number}", created=float(number)))
    assert store.ids() == ["t4", "t3", "t2", "t1", "t0"]
    assert store.ids(2) == ["t4", "t3"]
    store.archive("t4", 10.0, finished_before=0.0, idle_before=100.0)
    assert store.ids(2) == ["t3", "t2"]


def test_the_caps_count_an_owners_live_unfinished_tables(opener: Opener) -> None:
    store = opener()
    caps = Caps(tables=10, client_tables=3, client_bot_tables=2)
    assert store.create_table(_bots("b1"), caps) == "stored"
    assert store.create_table(_bots("b2"), caps) == "stored"
    assert store.create_table(_bots("b3"), caps) == "client-bot-tables"
    assert store.create_table(_people("p1"), caps) == "stored"  # no bot: the other cap
    assert store.create_table(_people("p2"), caps) == "client-tables"
    assert store.create_table(_people("x1", owner="5.6.7.8"), caps) == "stored"
    # a finished table no longer counts
    store.append("b1", MoveRow(0, 0, "bid 1"), when=5.0, over=True)
    assert store.create_table(_bots("b3"), caps) == "stored"
    # nor does the owner count against another's cap, nor an unknown owner
    for number in range(5):
        assert store.create_table(_people(f"n{number}", owner=None), caps) == "stored"
    # 10 live tables (a finished one is live until it is archived)
    assert store.create_table(_people("n9", owner=None), caps) == "full"


def test_racing_creates_through_two_stores_never_pass_a_cap(opener: Opener) -> None:
    stores = [opener(), opener()]
    caps = Caps(tables=1000, client_tables=100, client_bot_tables=5)
    answers: list[str] = []
    start = threading.Barrier(8)

    def make(worker: int) -> None:
        start.wait()
        for number in range(4):
            row = _bots(f"w{worker}-{number}")
            answers.append(stores[worker % 2].create_table(row, caps))

    threads = [threading.Thread(target=make, args=(w,)) for w in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(answers).count("stored") == 5, answers
    assert answers.count("client-bot-tables") == 27


def test_the_words_of_a_change_read_back() -> None:
    assert read_change(change_text("abc", 12)) == ("abc", 12)
    assert read_change(change_text("abc", "continue")) == ("abc", None)
    assert read_change("") is None
    assert read_change("abc") is None


def test_a_committed_move_is_heard_by_another_processs_store(postgres: object) -> None:
    from backalley.server.postgres_store import PostgresStore

    url = postgres.new_database("heard")  # type: ignore[attr-defined]
    a, b = PostgresStore(url), PostgresStore(url)
    heard: queue.Queue[str] = queue.Queue()
    watch = b.watch(heard.put)
    try:
        assert watch is not None
        assert heard.get(timeout=10) == ""  # listening: look at every table once
        assert watch.listening
        a.create_table(_people("t"))
        began = time.monotonic()
        assert a.append("t", MoveRow(0, 0, "bid 1"), when=1.0) == STORED
        assert heard.get(timeout=5) == "t 1"
        assert time.monotonic() - began < 1.0  # as it commits, not at a poll
        a.append("t", MoveRow(0, 1, "bid 2"), when=1.0)  # a conflict: rolled back, not told
        a.continue_deal("t", 1, 0)
        assert heard.get(timeout=5) == "t continue"
        assert heard.empty()
    finally:
        watch.close() if watch is not None else None
        a.close()
        b.close()


def test_the_embedded_store_tells_no_other_process(tmp_path: Path) -> None:
    store: Store = SqliteStore(tmp_path / "tables.db")
    try:
        assert store.watch(lambda change: None) is None  # the server polls instead
    finally:
        store.close()
