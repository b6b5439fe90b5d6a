"""Defects found by a review of the table server, each kept fixed by a test:
odd seats and ids that ended in a 500, binary socket frames, answers that
were not JSON, a bot's error text reaching spectators, a failed push that
left a socket silent, bot runs kept forever, a bot run that stopped on an
error and never went on, a spectator that stopped reading and held up the
pushes and the bots, and a locked database that ended a socket with a
traceback."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
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
    from starlette.websockets import WebSocket

import backalley as ba
from backalley.server import SqliteStore, TableService, create_app
from backalley.server import app as server_app
from backalley.server import hub as server_hub
from backalley.server.refusals import ServerError

from .test_server_api import (
    HUMANS,
    Socket,
    Unchanged,
    _auth,
    _client,
    _join,
    _move,
    _public,
    _refused,
    _table,
    _view,
    _wait,
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    found = SqliteStore(tmp_path / "tables.db")
    yield found
    found.close()


@pytest.fixture
def client(store: SqliteStore) -> Iterator[TestClient]:
    with _client(store) as found:
        yield found


def test_a_seat_in_other_digits_is_no_seat(client: TestClient, store: SqliteStore) -> None:
    # "²" is a digit to str.isdigit but not to int(): it ended in a 500
    table = _table(client)
    token = _join(client, table, 0)
    same = Unchanged(client, store, table, {0: token})
    for seat in ["%C2%B2", "%D9%A1", "-1", "1e0"]:  # "²", Arabic-Indic one
        base = f"/api/tables/{table}/seats/{seat}"
        _refused(client.post(f"{base}/join"), 404, "no-seat")
        _refused(client.get(f"{base}/view", headers=_auth(token)), 404, "no-seat")
        _refused(_move(client, table, seat, token, "bid 3"), 404, "no-seat")
        with client.websocket_connect(f"{base}/socket") as ws:
            socket = Socket(ws)
            ws.send_text(json.dumps({"token": token}))
            message = socket.json()
            assert message["type"] == "error" and message["error"] == "no-seat", message
            assert socket.raw()["type"] == "websocket.close"
    same.check()
    assert _view(client, table, "00", token)["seat"] == 0  # type: ignore[arg-type]


def test_a_client_move_id_that_cannot_be_stored_is_refused(
    client: TestClient, store: SqliteStore
) -> None:
    # JSON's "\ud800" reads as a lone surrogate, which SQLite cannot store: it was a 500
    table = _table(client)
    tokens = {seat: _join(client, table, seat) for seat in range(4)}
    same = Unchanged(client, store, table, tokens)
    seat = _public(client, table)["public"]["to_act"]
    move = _view(client, table, seat, tokens[seat])["view"]["legal_moves"][0]
    body = json.dumps({"move": move, "client_move_id": "a"}).replace('"a"', '"a\\ud800"')
    answer = client.post(
        f"/api/tables/{table}/seats/{seat}/moves",
        content=body.encode(),
        headers={**_auth(tokens[seat]), "Content-Type": "application/json"},
    )
    _refused(answer, 422, "bad-move-id", "surrogate")
    same.check()


def test_a_binary_frame_is_refused_on_every_socket(client: TestClient) -> None:
    table = _table(client, ["human", "random", "human", "random"])
    token = _join(client, table, 0)
    with client.websocket_connect(f"/api/tables/{table}/seats/0/socket") as ws:
        socket = Socket(ws)  # a token sent as bytes: refused, not a traceback
        ws.send_bytes(json.dumps({"token": token}).encode())
        message = socket.json()
        assert message["type"] == "error" and message["error"] == "bad-token", message
        closed = socket.raw()
        assert closed["type"] == "websocket.close" and closed["code"] == 4401, closed
    for path, first in [
        (f"/api/tables/{table}/seats/0/socket", json.dumps({"token": token})),
        (f"/api/tables/{table}/socket", None),
    ]:
        with client.websocket_connect(path) as ws:
            socket = Socket(ws)
            if first is not None:
                ws.send_text(first)
            assert socket.json()["type"] in ("view", "public")
            ws.send_bytes(b"\x00\x01")  # was read as an error and the socket left open
            closed = socket.raw()
            assert closed["type"] == "websocket.close" and closed["code"] == 1003, closed


def test_unknown_addresses_and_methods_are_answered_as_json(client: TestClient) -> None:
    _refused(client.get("/api/nothing/here"), 404, "no-route")
    _refused(client.get("/static/nothing.js"), 404, "no-route")
    answer = _refused(client.delete("/api/tables"), 405, "bad-method", "DELETE")
    assert answer and "POST" in client.delete("/api/tables").headers["allow"]
    _refused(client.get("/api/tables/x/seats/0/join"), 405, "bad-method")


def test_a_failure_of_the_server_is_answered_as_json(store: SqliteStore) -> None:
    app = create_app(store, bot_delay=0, deal_pause=0, allowed_hosts="testserver")
    app.state.service.summary = _broken  # a store that fails under one route
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/api/tables/x")
        body = _refused(answer, 500, "server-error")
        assert "Traceback" not in answer.text and "broken" not in body["message"]


def _broken(*_: object) -> None:
    raise OSError("the store is broken")


class _FailingBot:
    """A bot that fails with its own hand in its sentence."""

    def choose(self, view: ba.PlayerView) -> ba.Move:
        raise RuntimeError(f"cannot choose from {' '.join(map(str, view.hand))}")


def test_a_failing_bot_tells_nobody_its_cards(store: SqliteStore) -> None:
    service = TableService(store)
    table = service.create("gamerules", ["random"] * 4)
    live = service._table(table)
    seat = live.state.to_act
    assert seat is not None
    live.bots[seat] = _FailingBot()
    hand = [str(card) for card in live.state.hands[seat]]
    assert not service.bot_step(table)
    public = service.public(table)
    assert public["stalled"] and f"seat {seat} stopped" in public["stalled"]
    sent = json.dumps(public)
    assert not [card for card in hand if f" {card}" in public["stalled"]], public["stalled"]
    assert "cannot choose" not in sent
    assert not service.bot_to_act(table)


def test_a_push_that_fails_closes_the_socket(store: SqliteStore) -> None:
    with _client(store) as client:
        table = _table(client, HUMANS)
        tokens = {seat: _join(client, table, seat) for seat in range(4)}
        to_act = _public(client, table)["public"]["to_act"]
        watcher = (to_act + 1) % 4
        service = client.app.state.service
        with client.websocket_connect(f"/api/tables/{table}/seats/{watcher}/socket") as ws:
            socket = Socket(ws)
            ws.send_text(json.dumps({"token": tokens[watcher]}))
            assert socket.json()["type"] == "view"
            real = service.view_of

            def view_of(table_id: str, seat: int) -> dict[str, Any]:
                if seat == watcher:
                    raise ServerError(503, "unavailable", "the store did not answer")
                return dict(real(table_id, seat))

            service.view_of = view_of
            try:
                legal = _view(client, table, to_act, tokens[to_act])["view"]["legal_moves"]
                assert _move(client, table, to_act, tokens[to_act], legal[0]).status_code == 200
                closed = socket.raw()  # was: forgotten, left open, never pushed to again
            finally:
                service.view_of = real
            assert closed["type"] == "websocket.close" and closed["code"] == 1011, closed


SHORT_BOTS = {"format": "backalley/rules", "name": "short", "base": "gamerules", "schedule": {"hand_sizes": [1]}}


def test_a_finished_bot_run_is_not_kept(store: SqliteStore) -> None:
    with _client(store) as client:
        table = _table(client, ["random"] * 4, SHORT_BOTS)
        _wait(lambda: client.get(f"/api/tables/{table}").json()["over"], "the bots' game")
        runs = client.app.state.runs
        _wait(lambda: table not in runs, "the bots' run to be let go")


def test_a_bot_run_stopped_by_an_error_goes_on(store: SqliteStore) -> None:
    with _client(store, poll_seconds=0.05) as client:
        service = client.app.state.service
        real = service.bot_play
        armed: list[bool] = []
        failed: list[str] = []

        def bot_play(turn: Any, move: ba.Move, bot: Any = None) -> bool:
            # the store fails once, for the first bot move after a person's
            # (the socket was pushed that move: the poll sees nothing new)
            if armed and not failed:
                failed.append(turn.table)
                raise OSError("the database went away for a moment")
            return bool(real(turn, move, bot))

        service.bot_play = bot_play
        table = _table(client, ["human", "random", "random", "random"], SHORT_BOTS)
        token = _join(client, table, 0)
        with client.websocket_connect(f"/api/tables/{table}/seats/0/socket") as ws:
            socket = Socket(ws)  # a watched table: the poll looks at it
            ws.send_text(json.dumps({"token": token}))
            assert socket.json()["type"] == "view"
            for _ in range(10):  # play seat 0 whenever it is to act, until the game is over
                view = _wait(
                    lambda: (
                        (v := _view(client, table, 0, token))["view"]["to_act"] in (0, None) and v
                    ),
                    "the bots to reach seat 0 (or the end)",
                )
                if view["view"]["to_act"] is None:
                    break
                armed.append(True)
                answer = _move(client, table, 0, token, view["view"]["legal_moves"][0])
                assert answer.status_code == 200, answer.text
        assert failed == [table]
        assert client.get(f"/api/tables/{table}").json()["over"]


def test_the_variants_list_names_each_ones_seats(tmp_path: Path) -> None:
    """The lobby takes the number of seats from the server, never from the rules."""
    from starlette.testclient import TestClient

    from backalley.server import SqliteStore, create_app

    store = SqliteStore(tmp_path / "seats.db")
    try:
        app = create_app(store, bot_delay=0, deal_pause=0, allowed_hosts="testserver")
        with TestClient(app) as client:
            answer = client.get("/api/variants").json()
        assert set(answer["players"]) == set(answer["variants"]) == set(ba.variants.names())
        for name, players in answer["players"].items():
            assert players == ba.variants.get(name).players
        assert 3 in answer["players"].values()  # a cutthroat table for three
    finally:
        store.close()


def test_tables_past_the_memory_bound_are_replayed_when_asked_for(tmp_path: Path) -> None:
    """``max_live`` bounds the tables kept in memory; a table let go is read
    back from the store, at its version, and plays on."""
    store = SqliteStore(tmp_path / "live.db")
    try:
        service = TableService(store, max_live=2)
        tables = [service.create("gamerules", ["human"] * 4) for _ in range(4)]
        tokens = {table: service.join(table, 0) for table in tables}
        assert service.in_memory() == 2
        first = tables[0]
        state = service.view(first, 0, tokens[first])
        to_act = state["view"]["to_act"]
        token = tokens[first] if to_act == 0 else service.join(first, to_act)
        move = service.view(first, to_act, token)["view"]["legal_moves"][0]
        done = service.submit(first, to_act, token, move)
        assert done.version == 1
        for table in tables[1:]:
            service.view(table, 0, tokens[table])  # lets the first table go
        assert service.in_memory() == 2
        again = service.view(first, 0, tokens[first])
        assert again["version"] == 1 and again["view"]["calls"] == [move]
    finally:
        store.close()


# -- trust, fifth round ------------------------------------------------------------


class _Stuck:
    """A socket whose client stopped reading: a send never ends, nor a close
    (its close frame waits behind the documents it did not read)."""

    def __init__(self) -> None:
        self.closes = 0

    async def send_json(self, data: Any, mode: str = "text") -> None:
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closes += 1
        await asyncio.Event().wait()


class _Reading:
    """A socket whose client reads every document at once."""

    def __init__(self) -> None:
        self.versions: list[int] = []

    async def send_json(self, data: Any, mode: str = "text") -> None:
        self.versions.append(data["version"])

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


def test_spectators_that_stop_reading_hold_up_a_push_once_and_briefly(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four spectators that stopped reading cost a push ``SEND_SECONDS`` at
    most, all together, and nothing after: they are dropped and closed in
    the background, never waited on.  (The close was awaited without a
    limit: one push, and the move or the bots' run behind it, stood still
    until the spectator left.)"""
    send = 0.5
    monkeypatch.setattr(server_hub, "SEND_SECONDS", send)
    service = TableService(store)
    table = service.create("gamerules", HUMANS)
    hub = server_app.Hub(service)
    stuck = [_Stuck() for _ in range(4)]
    reading = _Reading()

    async def pushes() -> list[float]:
        for socket in stuck:
            hub.add(table, socket, None, 0)  # type: ignore[arg-type]
        hub.add(table, reading, None, 0)  # type: ignore[arg-type]
        took = []
        for _ in range(2):
            start = time.monotonic()
            await asyncio.wait_for(hub.push(table), 8 * send)
            took.append(time.monotonic() - start)
        await asyncio.sleep(0)  # the background closes begin
        return took

    first, second = asyncio.run(pushes())
    assert first < 2 * send, first  # once for all four, not once each
    assert second < send / 2, second  # dropped: not waited on again
    assert reading.versions == [0, 0]
    assert list(hub.sockets[table]) == [reading]
    assert [socket.closes for socket in stuck] == [1] * 4  # each told to connect again


def test_a_spectator_that_stops_reading_does_not_stop_the_bots(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spectator's socket whose sends and close never end (its client
    stopped reading) is dropped by the bots' next push: the bots go on and
    the other spectator is pushed their moves.  (After about 220 moves a
    table of four bots stood still until the spectator left.)"""
    monkeypatch.setattr(server_hub, "SEND_SECONDS", 0.3)
    armed = threading.Event()
    released = threading.Event()

    async def blocked(socket: WebSocket) -> None:
        while armed.is_set() and socket.query_params.get("stuck") and not released.is_set():
            await asyncio.sleep(0.01)

    send_json, close = WebSocket.send_json, WebSocket.close

    async def stuck_send_json(socket: WebSocket, data: Any, mode: str = "text") -> None:
        await blocked(socket)
        await send_json(socket, data, mode)

    async def stuck_close(socket: WebSocket, code: int = 1000, reason: str | None = None) -> None:
        await blocked(socket)
        await close(socket, code, reason)

    monkeypatch.setattr(WebSocket, "send_json", stuck_send_json)
    monkeypatch.setattr(WebSocket, "close", stuck_close)
    with _client(store, bot_delay=0.01) as client:
        table = _table(client, ["random"] * 4)
        try:
            with (
                client.websocket_connect(f"/api/tables/{table}/socket") as watching_ws,
                client.websocket_connect(f"/api/tables/{table}/socket?stuck=1") as stuck_ws,
            ):
                watching = Socket(watching_ws)
                assert watching.json()["type"] == "public"
                assert Socket(stuck_ws).json()["type"] == "public"
                armed.set()
                version = _public(client, table)["version"]
                # the bots' next push meets the stuck socket: they go on, and
                # the other spectator hears of their moves
                _wait(
                    lambda: _public(client, table)["version"] >= version + 20,
                    "the bots to go on past the spectator that stopped reading",
                    seconds=10,
                )
                watching.until(lambda doc: doc["version"] >= version + 20, timeout=10)
        finally:
            released.set()


def test_a_locked_database_under_a_sockets_first_look_closes_it_with_1011_and_one_line(
    store: SqliteStore, caplog: pytest.LogCaptureFixture
) -> None:
    """A store that fails for a moment ("database is locked") while a
    socket looks whether moves came between its first document and its
    joining the pushes closes that socket with 1011 (its client connects
    again) and logs one line without a traceback; it ended the socket with
    "Exception in ASGI application" and a traceback.  Both kinds of socket."""
    with _client(store, poll_seconds=60) as client:  # no poll reads the table meanwhile
        table = _table(client)
        token = _join(client, table, 0)
        service = client.app.state.service
        real = service.version
        fail: list[bool] = []

        def version(table_id: str) -> int:
            if fail:
                fail.pop()
                raise sqlite3.OperationalError("database is locked")
            return int(real(table_id))

        service.version = version
        for path, first, kind in [
            (f"/api/tables/{table}/socket", None, "public"),
            (f"/api/tables/{table}/seats/0/socket", json.dumps({"token": token}), "view"),
        ]:
            caplog.clear()
            fail.append(True)
            with caplog.at_level(logging.WARNING), client.websocket_connect(path) as ws:
                socket = Socket(ws)
                if first is not None:
                    ws.send_text(first)
                assert socket.json()["type"] == kind
                closed = socket.raw()
                assert closed["type"] == "websocket.close" and closed["code"] == 1011, closed
            assert not fail
            logged = [r for r in caplog.records if r.levelno >= logging.WARNING]
            assert len(logged) == 1, [r.getMessage() for r in logged]
            assert logged[0].exc_info is None and "database is locked" in logged[0].getMessage()
            assert "\n" not in logged[0].getMessage()
        # the table is still watched and pushed to once the store answers
        with client.websocket_connect(f"/api/tables/{table}/socket") as ws:
            assert Socket(ws).json()["type"] == "public"
