"""The table service where several processes share one store (here: two
services on one SQLite file, as two processes would be), and the limits
that hold across them.

- One process decides a table's bots: the one holding the table's lease,
  which another takes over once it has expired (its holder died).
- A seat's continue after a deal, sent through one process, ends the wait
  on the process that decides the bots.
- The caps on making tables are the store's: one address cannot flood the
  lobby with tables without bots, and the list and a create never read
  every live row.
- An IPv6 client is counted by its /64 network.
- People who throw in deal after deal stop their table at ``max_thrown_in``.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

with warnings.catch_warnings():  # starlette's note about httpx2
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from backalley.server import ServerError, SqliteStore, TableService, create_app
from backalley.server.app import client_key

SHORT = {
    "format": "backalley/rules",
    "name": "short",
    "base": "gamerules",
    "schedule": {"hand_sizes": [2, 1]},
}
"""Two deals: 2 cards, then 1."""


class Clock:
    """A clock a test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "tables.db"


@pytest.fixture
def stores(path: Path) -> Iterator[list[SqliteStore]]:
    opened = [SqliteStore(path), SqliteStore(path)]
    yield opened
    for store in opened:
        store.close()


def test_only_the_lease_holder_decides_a_tables_bots_until_it_dies(
    stores: list[SqliteStore],
) -> None:
    clock = Clock()
    a, b = (TableService(store, clock=clock, lease_seconds=5.0) for store in stores)
    table = a.create("gamerules", ["random"] * 4)
    assert a.orphans(10) == [table]  # a bot is to move and nobody decides it
    turn = a.bot_turn(table)
    assert turn is not None
    assert b.bot_turn(table) is None  # A decides it
    assert b.orphans(10) == []
    assert a.bot_play(turn, turn.bot.choose(turn.view))
    clock.now += 4.0
    assert b.bot_turn(table) is None  # A's lease (renewed by its turn) still holds
    assert a.renew(table)
    clock.now += 5.5  # A died: its lease expired
    assert b.orphans(10) == [table]
    turn = b.bot_turn(table)
    assert turn is not None and turn.version == 1  # B read A's move, and decides now
    assert a.bot_turn(table) is None
    assert not a.release(table)  # A holds the lease no more
    assert b.release(table)
    assert (a.decisions, b.decisions) == (1, 1)


def test_a_continue_through_one_process_ends_the_wait_on_another(
    stores: list[SqliteStore],
) -> None:
    a, b = (TableService(store, deal_pause=60.0) for store in stores)
    table = a.create(SHORT, ["human", "random", "random", "random"])
    token = a.join(table, 0)
    for _ in range(200):  # the first deal played out: the person's moves through B
        if a.deal_end(table) is not None:
            break
        if not a.bot_step(table):
            view = b.view(table, 0, token)
            b.submit(table, 0, token, view["view"]["legal_moves"][-1])
    end = a.deal_end(table)
    assert end is not None and end["waiting"] == [0] and end["holding"]
    assert a.held(table) > 50 and not a.bot_to_act(table)
    done = b.continue_deal(table, 0, token, end["deal"])
    assert done["deal_end"]["waiting"] == []
    # A, which decides the bots, hears of it through the store: they go on
    assert a.held(table) == 0.0
    assert a.deal_end(table)["waiting"] == []  # type: ignore[index]
    assert a.bot_to_act(table) or b.view(table, 0, token)["view"]["to_act"] == 0


def test_one_address_cannot_flood_the_lobby_with_tables_without_bots(path: Path) -> None:
    """Tables without bots count against their address too (200 tables from
    one address pushed every real table off the list)."""
    store = SqliteStore(path)
    app = create_app(store, bot_delay=0, deal_pause=0, max_client_tables=3, create_burst=100)
    try:
        with TestClient(app, base_url="http://localhost") as client:
            made = [client.post("/api/tables", json={"seats": ["human"] * 4}) for _ in range(4)]
            assert [m.status_code for m in made] == [201, 201, 201, 429]
            assert made[-1].json()["error"] == "too-many-tables"
            assert "3 games going on" in made[-1].json()["message"]
            assert len(client.get("/api/tables").json()["tables"]) == 3
    finally:
        store.close()


class _NoFullReads(SqliteStore):
    """A store whose every-row read fails: what must never call it does not."""

    def tables(self) -> Any:
        raise AssertionError("every live row was read")


def test_the_list_and_a_create_never_read_every_live_row(path: Path) -> None:
    """The list reads the newest ids only, and a create counts in the store
    (each read every live row with its rules text: 36 ms at 10 tables,
    200 ms at 2,000)."""
    store = _NoFullReads(path)
    app = create_app(store, bot_delay=0, deal_pause=0, create_burst=100)
    try:
        with TestClient(app, base_url="http://localhost") as client:
            for _ in range(3):
                assert client.post("/api/tables", json={"seats": ["human"] * 4}).status_code == 201
            listed = client.get("/api/tables")
            assert listed.status_code == 200 and len(listed.json()["tables"]) == 3
    finally:
        store.close()


def test_an_ipv6_client_is_counted_by_its_64() -> None:
    assert client_key("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:2:bbbb::9") == client_key("2001:db8:1:2:aaaa::1")
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:10.0.0.7") == "10.0.0.7"  # an IPv4 client as IPv6 sees it
    assert client_key("10.0.0.7") == "10.0.0.7"
    assert client_key("testclient") == "testclient"


def test_people_who_throw_in_every_deal_stop_their_table(path: Path) -> None:
    store = SqliteStore(path)
    try:
        service = TableService(store, max_thrown_in=3)
        table = service.create("gamerules", ["human"] * 4)
        tokens = [service.join(table, seat) for seat in range(4)]
        passes = 0
        refused: ServerError | None = None
        while refused is None:
            seat = service.public(table)["public"]["to_act"]
            try:
                service.submit(table, seat, tokens[seat], "pass")
            except ServerError as exc:
                refused = exc
                break
            passes += 1
            assert passes <= 12, "the table never stopped"
        assert passes == 12  # three deals of four passes
        assert refused.status == 409 and refused.code == "stopped", refused
        assert "3 deals in a row were thrown in" in refused.message
        assert "3 deals in a row" in str(service.public(table)["stalled"])
        # a process that reads the table afresh stops it alike
        again = TableService(SqliteStore(path), max_thrown_in=3)
        with pytest.raises(ServerError, match="3 deals in a row"):
            again.submit(table, 0, tokens[0], "pass")
        assert store.table(table).finished is not None  # type: ignore[union-attr]
    finally:
        store.close()
