"""The server loses nothing when it is killed: ``backalley serve`` (a real
process) holds 50 short tables, each a person at seat 0 against three
``random`` bots; a few client threads play seat 0 of every table, sending
each move with a client move id and writing down every move the server
acknowledged.  Midway the server is killed with SIGKILL and started again on
the same data.  Then every table resumes at (or past) its last acknowledged
move, every acknowledged move is stored at its number exactly once, the
request a client never got an answer to, sent again with the same id, is
applied once (or answered ``repeated``), and every game plays to its end.
The same with the tables in PostgreSQL, on a private cluster (skipped, with
the reason, when none can be started)."""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytest.importorskip("httpx")
pytest.importorskip("starlette", reason="the server's extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the server's extra (uvicorn) is not installed")

import httpx

import backalley as ba
from backalley.server.store import Store

from ..server_services import PostgresCluster, Served

RULES = {
    "format": "backalley/rules",
    "name": "short",
    "base": "gamerules",
    "schedule": {"hand_sizes": [3, 2, 1]},
}
SEATS = ["human", "random", "random", "random"]
TABLES = 50
CLIENTS = 4
HUMAN_MOVES = 3 + (3 + 2 + 1)  # seat 0's calls and plays in a game of these rules, at least
KILL_AFTER = TABLES * HUMAN_MOVES * 2 // 5  # acknowledged moves before the kill
SOURCES = ("127.0.0.1", "127.0.0.2", "127.0.0.3")
"""Client addresses the tables are made from (a server lets one address make
20 tables at once, then one a second); all of 127.0.0.0/8 is this machine."""
TIMEOUT = httpx.Timeout(15.0, connect=5.0)
BUDGET = 90.0
"""Seconds the whole run of one store may take."""


@dataclass
class Seat:
    """Seat 0 of one table, as its client knows it."""

    table: str
    token: str
    acked: dict[int, tuple[str, str]] = field(default_factory=dict)
    """number -> (move, client move id), for every move answered 200."""
    pending: tuple[int, str, str] | None = None
    """(number, move, client move id) of the request sent but not answered."""
    resent: str | None = None
    """What re-sending the unanswered request did: "applied" or "repeated"."""
    over: bool = False

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


class Link:
    """Where the server is now, and whether it is up (the clients wait while not)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.up = threading.Event()
        self.up.set()
        self.acked = 0
        self.lock = threading.Lock()
        self.failures: list[str] = []


def _make_tables(url: str) -> list[Seat]:
    seats: list[Seat] = []
    clients = [
        httpx.Client(timeout=TIMEOUT, transport=httpx.HTTPTransport(local_address=address))
        for address in SOURCES
    ]
    try:
        deadline = time.monotonic() + 60
        while len(seats) < TABLES:
            assert time.monotonic() < deadline, "the tables were not made in time"
            client = clients[len(seats) % len(clients)]
            try:
                made = client.post(f"{url}/api/tables", json={"rules": RULES, "seats": SEATS})
            except httpx.ConnectError:
                if len(clients) == 1:
                    raise
                clients.remove(client)  # a system where 127.0.0.2 is not this machine
                client.close()
                continue
            if made.status_code == 429:
                time.sleep(min(2.0, float(made.headers.get("retry-after", "1"))))
                continue
            assert made.status_code == 201, made.text
            table = made.json()["table"]
            joined = client.post(f"{url}/api/tables/{table}/seats/0/join")
            assert joined.status_code == 201, joined.text
            seats.append(Seat(table, joined.json()["token"]))
    finally:
        for client in clients:
            client.close()
    return seats


def _send(client: httpx.Client, link: Link, seat: Seat) -> None:
    """Send ``seat.pending`` and write down the answer."""
    assert seat.pending is not None
    number, move, move_id = seat.pending
    sent = client.post(
        f"{link.url}/api/tables/{seat.table}/seats/0/moves",
        json={"move": move, "client_move_id": move_id},
        headers=seat.headers,
    )
    if sent.status_code == 429:
        time.sleep(min(2.0, float(sent.headers.get("retry-after", "1"))))
        return
    if sent.status_code != 200:
        raise AssertionError(f"table {seat.table}: {move} answered {sent.status_code} {sent.text}")
    body = sent.json()
    if body["number"] != number:
        raise AssertionError(f"table {seat.table}: {move} stored at {body['number']}, not {number}")
    if seat.resent is None and seat.acked.get(number) is None and body["repeated"]:
        seat.resent = "repeated"
    seat.acked[number] = (move, move_id)
    seat.pending = None
    with link.lock:
        link.acked += 1


def _drive(seats: list[Seat], link: Link, deadline: float, seed: int) -> None:
    """Play seat 0 of ``seats`` until every game is over (or the deadline)."""
    rng = random.Random(seed)
    with httpx.Client(timeout=TIMEOUT) as client:
        while not all(seat.over for seat in seats):
            if time.monotonic() > deadline:
                raise AssertionError("the games did not end in time")
            idle = True
            for seat in seats:
                if seat.over:
                    continue
                if not link.up.wait(max(0.0, deadline - time.monotonic())):
                    raise AssertionError("the server did not come back in time")
                try:
                    if seat.pending is not None:
                        _send(client, link, seat)
                        idle = False
                        continue
                    got = client.get(
                        f"{link.url}/api/tables/{seat.table}/seats/0/view", headers=seat.headers
                    )
                    assert got.status_code == 200, got.text
                    view = got.json()
                    if view["view"]["phase"] == "game-over":
                        seat.over = True
                        continue
                    if view["view"]["to_act"] != 0:
                        continue
                    move = rng.choice(view["view"]["legal_moves"])
                    seat.pending = (view["version"], move, uuid.uuid4().hex)
                    idle = False
                    _send(client, link, seat)
                except httpx.TransportError:
                    time.sleep(0.05)  # the server is down: wait for it
            if idle:
                time.sleep(0.02)


def _client_moves(store: Store, seat: Seat) -> dict[int, tuple[str, str]]:
    """The moves stored for seat 0 with a client move id: number -> (move, id)."""
    return {
        row.number: (row.move, row.client_move_id)
        for row in store.moves(seat.table)
        if row.seat == 0 and row.client_move_id is not None
    }


def _check_stored(store: Store, seats: list[Seat], *, finished: bool) -> None:
    """Every acknowledged move is stored at its number, once; nothing else of
    seat 0 is (but the unanswered requests, before the game finished)."""
    for seat in seats:
        stored = _client_moves(store, seat)
        for number, (move, move_id) in seat.acked.items():
            assert stored.get(number) == (move, move_id), (seat.table, number)
        extra = {n: m for n, m in stored.items() if n not in seat.acked}
        if finished or seat.pending is None:
            assert not extra, (seat.table, extra)
        else:
            assert list(extra.values()) in ([], [seat.pending[1:]]), (seat.table, extra)
        ids = [move_id for _, move_id in stored.values()]
        assert len(ids) == len(set(ids))


def _run(data: Path, database: str | None, open_store: Callable[[], Store]) -> None:
    began = time.monotonic()
    deadline = began + BUDGET
    served = Served(data, database=database).start()
    try:
        seats = _make_tables(served.url)
        link = Link(served.url)
        errors: list[BaseException] = []

        def client(index: int) -> None:
            try:
                _drive(seats[index::CLIENTS], link, deadline, seed=index)
            except BaseException as exc:
                errors.append(exc)
                link.up.set()

        threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        while link.acked < KILL_AFTER and not errors:
            assert time.monotonic() < deadline, f"only {link.acked} moves before the deadline"
            time.sleep(0.01)
        assert not errors, errors
        link.up.clear()
        served.kill()
        served = Served(data, database=database).start()

        # what the server stored before it was killed
        store = open_store()
        try:
            _check_stored(store, seats, finished=False)
        finally:
            store.close()
        with httpx.Client(timeout=TIMEOUT) as reader:
            for seat in seats:
                got = reader.get(
                    f"{served.url}/api/tables/{seat.table}/seats/0/view", headers=seat.headers
                )
                assert got.status_code == 200, got.text
                last = max(seat.acked, default=-1)
                assert got.json()["version"] >= last + 1, seat.table
                if last < 0:
                    continue
                # an acknowledged move sent again (its answer lost, say) is not applied again
                move, move_id = seat.acked[last]
                again = reader.post(
                    f"{served.url}/api/tables/{seat.table}/seats/0/moves",
                    json={"move": move, "client_move_id": move_id},
                    headers=seat.headers,
                )
                assert again.status_code == 200, again.text
                assert again.json()["repeated"] is True
                assert again.json()["number"] == last
        unanswered = [seat for seat in seats if seat.pending is not None]

        link.url = served.url
        link.up.set()
        for thread in threads:
            thread.join(max(1.0, deadline - time.monotonic()))
        assert not errors, errors
        assert not any(thread.is_alive() for thread in threads), "the clients did not finish"

        for seat in unanswered:
            assert seat.pending is None
            seat.resent = seat.resent or "applied"
        # every game played to its end; its record holds each acknowledged move once
        with httpx.Client(timeout=TIMEOUT) as reader:
            for seat in seats:
                got = reader.get(f"{served.url}/api/tables/{seat.table}/record")
                assert got.status_code == 200, got.text
                record = ba.from_json(got.text, ba.GameRecord)
                states = list(ba.replay(record))
                assert states[-1].is_over
                mine = {
                    number: str(move)
                    for number, move in enumerate(record.moves)
                    if states[number].to_act == 0
                }
                assert mine == {n: move for n, (move, _) in seat.acked.items()}, seat.table
                assert len(mine) >= HUMAN_MOVES  # more when a deal is thrown in
        store = open_store()
        try:
            _check_stored(store, seats, finished=True)
        finally:
            store.close()
    finally:
        served.stop()
    print(
        f"{len(seats)} tables, {sum(len(s.acked) for s in seats)} acknowledged moves, "
        f"{KILL_AFTER}+ before the kill; unanswered at the kill: "
        f"{[s.resent for s in unanswered]}; {time.monotonic() - began:.1f} s"
    )


@pytest.mark.slow
def test_a_killed_sqlite_server_loses_no_move(tmp_path: Path) -> None:
    from backalley.server.sqlite_store import SqliteStore

    _run(tmp_path, None, lambda: SqliteStore(tmp_path / "tables.db"))


def test_a_killed_postgresql_server_loses_no_move(
    tmp_path: Path, postgres: PostgresCluster
) -> None:
    from backalley.server.postgres_store import PostgresStore

    url = postgres.new_database("faults")
    _run(tmp_path, url, lambda: PostgresStore(url))


def test_the_rules_document_makes_short_games() -> None:
    rules = ba.houserules.loads(json.dumps(RULES), format="json")
    assert tuple(rules.schedule.hand_sizes) == (3, 2, 1)
