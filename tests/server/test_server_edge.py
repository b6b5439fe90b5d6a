"""The server's network edge: what a client reaches before any route or store.

Each test is named after a way the server was broken from the outside: the
sockets a client without a token could hold (past the process's open files,
or locking a seated person out of their table), a NUL in a table id or a
client move id reaching the database, a lone surrogate echoed back that no
answer could encode, another site's page making tables, a DNS-rebinding page
reading them, a client's reset socket logged as the server's error, a proxy
that every client shared one rate limit behind, and a rules document that
did not say it was one.  Most run in-process (Starlette's TestClient);
those about the process (its open files, its log) run ``backalley serve``.
Every wait is bounded.
"""

from __future__ import annotations

import base64
import contextlib
import ipaddress
import json
import os
import resource
import socket
import struct
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
    from starlette.testclient import TestClient, WebSocketDenialResponse

import httpx

import backalley as ba
from backalley.cli.serve_command import default_hosts
from backalley.io import houserules
from backalley.server import ServerSettings, SqliteStore, create_app
from backalley.server.edge import client_address, host_allowed, same_origin
from backalley.server.settings import socket_limit
from backalley.server.store import Store

from ..server_services import PostgresCluster, Served, SocketReader

HUMANS = ["human"] * 4
HOST = "testserver"
"""The host Starlette's TestClient names (its sockets always do)."""
WAIT = 15.0


def _app(store: Store, **settings: Any) -> Any:
    settings.setdefault("bot_delay", 0)
    settings.setdefault("deal_pause", 0)
    settings.setdefault("create_burst", 1000)
    settings.setdefault("allowed_hosts", HOST)
    return create_app(store, **settings)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    found = SqliteStore(tmp_path / "tables.db")
    yield found
    found.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A new store on SQLite, then on PostgreSQL (skipped without a cluster)."""
    found: Store
    if request.param == "sqlite":
        found = SqliteStore(tmp_path / "tables.db")
    else:
        from backalley.server.postgres_store import PostgresStore

        cluster: PostgresCluster = request.getfixturevalue("postgres")
        found = PostgresStore(cluster.new_database("edge"))
    yield found
    found.close()


def _refused(answer: Any, status: int, code: str, *words: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    body = dict(json.loads(answer.content.decode("utf-8")))
    assert body["error"] == code, body
    for word in words:
        assert word in body["message"], (word, body)
    return body


def _table(client: TestClient, **extra: Any) -> str:
    answer = client.post("/api/tables", json={"seats": HUMANS}, **extra)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["table"])


def _join(client: TestClient, table: str, seat: int) -> str:
    answer = client.post(f"/api/tables/{table}/seats/{seat}/join")
    assert answer.status_code == 201, answer.text
    return str(answer.json()["token"])


class Socket(SocketReader):
    def next(self) -> dict[str, Any]:
        return self.messages.get(timeout=WAIT)

    def json(self) -> dict[str, Any]:
        message = self.next()
        assert message["type"] == "websocket.send", message
        return dict(json.loads(message["text"]))


def _spied(store: Store) -> list[tuple[str, tuple[Any, ...]]]:
    """Every call made on ``store`` from now on (its name and arguments)."""
    calls: list[tuple[str, tuple[Any, ...]]] = []
    for name in dir(store):
        method = getattr(store, name)
        if name.startswith("_") or not callable(method):
            continue

        def spy(*args: Any, _name: str = name, _method: Any = method, **kw: Any) -> Any:
            calls.append((_name, args + tuple(kw.values())))
            return _method(*args, **kw)

        setattr(store, name, spy)
    return calls


# -- sockets ---------------------------------------------------------------------


def _closed_busy(reader: Socket, words: str) -> None:
    """The socket's next message closes it with 1013 ("try again later"),
    the reason saying ``words``."""
    closed = reader.next()
    assert closed["type"] == "websocket.close" and closed["code"] == 1013, closed
    assert words in closed["reason"], closed


def test_spectators_never_lock_out_a_seated_player(store: SqliteStore) -> None:
    """A table full of spectators' sockets refuses the next spectator (1013),
    but never a socket with the seat's token; a seat's sockets have a limit
    of their own, and so has one client address."""
    app = _app(store, max_table_sockets=2, max_seat_sockets=1, max_client_sockets=3)
    with TestClient(app) as client:
        table = _table(client)
        token = _join(client, table, 0)
        path = f"/api/tables/{table}/socket"
        with client.websocket_connect(path) as one, client.websocket_connect(path) as two:
            assert Socket(one).json()["type"] == Socket(two).json()["type"] == "public"
            with client.websocket_connect(path) as three:
                _closed_busy(Socket(three), "spectators' sockets are open on one table")
            with client.websocket_connect(f"/api/tables/{table}/seats/0/socket") as seat:
                reader = Socket(seat)
                seat.send_text(json.dumps({"token": token}))
                view = reader.json()
                assert view["type"] == "view" and view["view"]["seat"] == 0, view
                # a second socket of the same seat is past the seat's own limit
                with client.websocket_connect(f"/api/tables/{table}/seats/0/socket") as more:
                    again = Socket(more)
                    more.send_text(json.dumps({"token": token}))
                    _closed_busy(again, "for one seat")
                # a third spectator's socket from this address opens, a fourth is
                # refused (the seat's sockets are counted apart)
                other = _table(client)
                with client.websocket_connect(f"/api/tables/{other}/socket") as fourth:
                    assert Socket(fourth).json()["type"] == "public"
                    with client.websocket_connect(f"/api/tables/{other}/socket") as fifth:
                        _closed_busy(Socket(fifth), "from one address")


def test_spectators_from_the_seated_players_own_address_never_lock_it_out(
    store: SqliteStore,
) -> None:
    """Spectators' sockets that fill one client address's share (the same
    address as the seated person: one machine, or people behind one router)
    never keep out a socket with the seat's token: an address's spectators
    and its seats are counted apart.  (They were counted together: 200
    spectators' sockets from 127.0.0.1 left the seated player at 127.0.0.1
    refused with 1013, "at most 64 sockets ... from one address".)"""
    app = _app(store, max_client_sockets=2)
    with TestClient(app) as client:
        table = _table(client)
        token = _join(client, table, 0)
        path = f"/api/tables/{table}/socket"
        with client.websocket_connect(path) as one, client.websocket_connect(path) as two:
            assert Socket(one).json()["type"] == Socket(two).json()["type"] == "public"
            with client.websocket_connect(path) as three:
                _closed_busy(Socket(three), "from one address")
            with client.websocket_connect(f"/api/tables/{table}/seats/0/socket") as seat:
                reader = Socket(seat)
                seat.send_text(json.dumps({"token": token}))
                view = reader.json()
                assert view["type"] == "view" and view["view"]["seat"] == 0, view


def test_a_spectator_socket_that_hears_nothing_is_closed(store: SqliteStore) -> None:
    """A spectator's socket on a table where nothing happens does not stay
    open for ever: it is closed (4408) after ``spectator_idle`` seconds, and
    the page connects again."""
    with TestClient(_app(store, spectator_idle=0.3)) as client:
        table = _table(client)
        with client.websocket_connect(f"/api/tables/{table}/socket") as ws:
            reader = Socket(ws)
            started = time.monotonic()
            assert reader.json()["type"] == "public"
            closed = reader.next()
            assert closed["type"] == "websocket.close" and closed["code"] == 4408, closed
            assert 0.25 <= time.monotonic() - started < WAIT


def test_the_socket_limit_leaves_room_for_the_open_file_limit() -> None:
    """The process's sockets are at most half of what its open-file limit
    leaves after 64 files: 1,024 open files make 480 sockets, never 5,000."""
    assert socket_limit(5_000, 1_024) == 480
    assert socket_limit(300, 1_024) == 300
    assert socket_limit(5_000, 10) == 1
    assert socket_limit(5_000, None) <= 5_000


FILES = 160
"""The open-file limit the served process gets: 48 sockets, 36 of them for spectators."""


def _spectate(sockets: contextlib.ExitStack, url: str, table: str) -> Any:
    """A spectator's socket on ``table``, closed with ``sockets``."""
    from websockets.sync.client import connect

    address = f"{url.replace('http', 'ws', 1)}/api/tables/{table}/socket"
    return sockets.enter_context(connect(address, open_timeout=WAIT))


def test_spectators_stop_at_the_open_file_limit_while_http_is_still_answered(
    tmp_path: Path,
) -> None:
    """One client opening spectators' sockets on a server with 160 open
    files gets 1013 ("try again later") once the spectators' share of what
    those files allow is taken; the server still answers HTTP, and a
    seat's socket with its token still opens."""
    pytest.importorskip("websockets")
    pytest.importorskip("uvicorn")
    from websockets.exceptions import ConnectionClosed

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < FILES:
        pytest.skip(f"the open-file limit is {hard}")
    limit = socket_limit(5_000, FILES)
    spectators = limit - max(1, limit // 4)
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, hard))
    try:
        served = Served(tmp_path).start()  # the process keeps the limit it started with
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        with httpx.Client(timeout=WAIT) as http, contextlib.ExitStack() as sockets:
            made = http.post(f"{served.url}/api/tables", json={"seats": HUMANS})
            assert made.status_code == 201, made.text
            table = made.json()["table"]
            token = http.post(f"{served.url}/api/tables/{table}/seats/0/join").json()["token"]
            for _ in range(spectators):
                ws = _spectate(sockets, served.url, table)
                assert json.loads(ws.recv(timeout=WAIT))["type"] == "public"
            refused = _spectate(sockets, served.url, table)
            with pytest.raises(ConnectionClosed) as info:
                refused.recv(timeout=WAIT)
            assert info.value.rcvd is not None and info.value.rcvd.code == 1013
            assert "spectators' sockets" in info.value.rcvd.reason
            assert http.get(f"{served.url}/api/tables").status_code == 200
            from websockets.sync.client import connect

            url = served.url.replace("http", "ws", 1)
            with connect(f"{url}/api/tables/{table}/seats/0/socket", open_timeout=WAIT) as seat:
                seat.send(json.dumps({"token": token}))
                assert json.loads(seat.recv(timeout=WAIT))["type"] == "view"
    finally:
        served.stop()


def _reset_after_handshake(url: str, path: str) -> None:
    """Open a WebSocket by hand and reset the connection (RST) right after
    the server's 101."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=WAIT) as raw:
        key = base64.b64encode(os.urandom(16)).decode()
        raw.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        got = b""
        while b"\r\n\r\n" not in got:
            chunk = raw.recv(4096)
            assert chunk, got
            got += chunk
        assert b" 101 " in got.split(b"\r\n", 1)[0], got[:200]
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def test_a_socket_reset_after_its_handshake_logs_no_error(tmp_path: Path) -> None:
    """A client that resets its socket right after the handshake (any
    client can, again and again) is a client gone, not the server's error:
    nothing is logged ("Exception in ASGI application" with a traceback was)."""
    pytest.importorskip("uvicorn")
    with Served(tmp_path) as served, httpx.Client(timeout=WAIT) as http:
        table = http.post(f"{served.url}/api/tables", json={"seats": HUMANS}).json()["table"]
        for _ in range(15):
            _reset_after_handshake(served.url, f"/api/tables/{table}/socket")
            _reset_after_handshake(served.url, f"/api/tables/{table}/seats/0/socket")
        assert http.get(f"{served.url}/api/tables/{table}").status_code == 200
        time.sleep(0.5)  # the server's handlers see the resets
        log = served.stderr()
    assert "Exception" not in log and "Traceback" not in log, log


async def _reset_during_accept(app: Any, path: str) -> None:
    """A WebSocket whose client is gone when the server accepts it: the
    accept raises what uvicorn raises then (``ClientDisconnected``, an
    ``OSError``), as TestClient's client address."""
    messages: list[dict[str, Any]] = [{"type": "websocket.connect"}]

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop(0)
        return {"type": "websocket.disconnect", "code": 1006}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "websocket.accept":
            raise OSError("the client reset the connection")

    scope = {
        "type": "websocket",
        "asgi": {"version": "3.0"},
        "scheme": "ws",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", HOST.encode())],
        "client": ("testclient", 50000),
        "server": (HOST, 80),
        "subprotocols": [],
    }
    await app(scope, receive, send)


def test_a_socket_whose_accept_fails_is_no_longer_counted(store: SqliteStore) -> None:
    """A socket counted and then lost while the server accepts it (the
    client reset the connection mid-handshake) is uncounted: over many such
    sockets, one address (or the whole process) would otherwise be refused
    every socket for good.  (The count was kept: after one such spectator's
    socket, with ``max_client_sockets=1``, the address got 1013 for ever.)"""
    app = _app(store, max_client_sockets=1)
    with TestClient(app) as client:
        table = _table(client)
        token = _join(client, table, 0)
        for path in (f"/api/tables/{table}/socket", f"/api/tables/{table}/seats/0/socket"):
            for _ in range(3):
                client.portal.call(_reset_during_accept, app, path)
        with client.websocket_connect(f"/api/tables/{table}/socket") as watching:
            assert Socket(watching).json()["type"] == "public"
        with client.websocket_connect(f"/api/tables/{table}/seats/0/socket") as seat:
            reader = Socket(seat)
            seat.send_text(json.dumps({"token": token}))
            assert reader.json()["type"] == "view"


def test_a_plain_request_naming_an_upgrade_does_not_turn_the_health_of_websockets_off(
    store: SqliteStore,
) -> None:
    """``Upgrade: websocket`` without ``Connection: upgrade`` is a plain
    request any client may send (a WebSocket-speaking server never passes a
    real handshake on as HTTP): it is answered 404 and leaves ``GET
    /api/health`` alone.  (It told every page, until a restart, that the
    server could not open WebSockets.)"""
    with TestClient(_app(store)) as client:
        for path in ("/api/nothing", "/api/tables/abc/socket"):
            answer = client.get(path, headers={"Upgrade": "websocket"})
            _refused(answer, 404, "no-route")
        health = client.get("/api/health").json()
        assert (health["websockets"], health["message"]) == (True, None)


# -- what reaches the store ------------------------------------------------------------


def test_a_nul_in_a_table_id_or_a_move_id_is_refused_before_any_store(any_store: Store) -> None:
    """A ``%00`` in a table's address is 404 ``not-found`` and a NUL in a
    client move id 422 ``bad-move-id`` on every store - PostgreSQL's driver
    refuses a NUL with an exception, which was a 500 - and no store method
    is ever called with it."""
    with TestClient(_app(any_store)) as client:
        table = _table(client)
        token = _join(client, table, 1)
        me = {"Authorization": f"Bearer {token}"}
        calls = _spied(any_store)
        for bad in ["a%00b", "%00", table + "%00", "%ED%A0%80", "caf%C3%A9"]:
            base = f"/api/tables/{bad}"
            _refused(client.get(base), 404, "not-found")
            _refused(client.get(f"{base}/public"), 404, "not-found")
            _refused(client.get(f"{base}/record"), 404, "not-found")
            _refused(client.post(f"{base}/seats/1/join"), 404, "not-found")
            _refused(client.get(f"{base}/seats/1/view", headers=me), 404, "not-found")
            _refused(
                client.post(f"{base}/seats/1/moves", json={"move": "pass"}, headers=me),
                404,
                "not-found",
            )
            for path, first in [(f"{base}/socket", None), (f"{base}/seats/1/socket", token)]:
                with client.websocket_connect(path) as ws:
                    reader = Socket(ws)
                    if first is not None:
                        ws.send_text(json.dumps({"token": first}))
                    message = reader.json()
                    assert message["error"] == "not-found", message
        view = client.get(f"/api/tables/{table}/seats/1/view", headers=me).json()
        seat = view["view"]["to_act"]
        token = token if seat == 1 else _join(client, table, seat)
        legal = client.get(
            f"/api/tables/{table}/seats/{seat}/view", headers={"Authorization": f"Bearer {token}"}
        ).json()["view"]["legal_moves"]
        answer = client.post(
            f"/api/tables/{table}/seats/{seat}/moves",
            json={"move": legal[0], "client_move_id": "m\x00"},
            headers={"Authorization": f"Bearer {token}"},
        )
        _refused(answer, 422, "bad-move-id", "NUL")
        assert client.get(f"/api/tables/{table}").json()["version"] == 0
    leaked = [(name, args) for name, args in calls if "\\x00" in repr(args)]
    assert calls and not leaked, leaked


def test_a_lone_surrogate_in_a_rules_key_is_answered_escaped(store: SqliteStore) -> None:
    """A house-rules key holding a lone surrogate (JSON's ``"\\ud800"``) is
    refused 422 ``bad-rules`` with the key escaped in the message; the
    answer was once a reset connection (its text could not be encoded)."""
    with TestClient(_app(store)) as client:
        for rules in [
            '{"format": "backalley/rules", "bidding": {"a\\ud800": 1}}',
            '{"format": "backalley/rules", "b\\udfff": 1}',
            '{"format": "backalley/rules", "trump": {"type": "x\\ud800"}}',
        ]:
            body = '{"rules": ' + rules + ', "seats": ["human", "human", "human", "human"]}'
            answer = client.post(
                "/api/tables", content=body.encode(), headers={"Content-Type": "application/json"}
            )
            found = _refused(answer, 422, "bad-rules")
            assert "\\ud800" in found["message"] or "\\udfff" in found["message"], found
        assert client.get("/api/tables").json()["tables"] == []
    with pytest.raises(houserules.HouseRulesError) as info:
        houserules.loads('{"format": "backalley/rules", "a\\ud800": 1}', format="json")
    str(info.value).encode("utf-8")  # every problem can be written out
    assert info.value.path == "$.a\\ud800"


# -- another site's page ----------------------------------------------------------------


def test_another_sites_page_cannot_make_or_join_a_table(store: SqliteStore) -> None:
    """A request another site's page can send without asking first - a form
    or ``text/plain`` body - is refused 415; a request or socket whose
    ``Origin`` is another site is refused 403, and nothing is made or
    joined.  The server's own page (its own origin) is served as before."""
    with TestClient(_app(store)) as client:
        table = _table(client)
        body = json.dumps({"seats": HUMANS})
        for kind in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]:
            answer = client.post("/api/tables", content=body, headers={"Content-Type": kind})
            _refused(answer, 415, "bad-media-type", "application/json")
        _refused(client.post("/api/tables", content=body.encode()), 415, "bad-media-type")
        _refused(
            client.post(
                f"/api/tables/{table}/seats/0/join", headers={"Content-Type": "text/plain"}
            ),
            415,
            "bad-media-type",
        )
        elsewhere = {"Origin": "https://elsewhere.example"}
        for origin in [elsewhere, {"Origin": "null"}, {"Origin": "http://testserver:8080"}]:
            _refused(
                client.post("/api/tables", json={"seats": HUMANS}, headers=origin),
                403,
                "bad-origin",
            )
            _refused(
                client.post(f"/api/tables/{table}/seats/0/join", headers=origin), 403, "bad-origin"
            )
            with (
                pytest.raises(WebSocketDenialResponse) as denied,
                client.websocket_connect(f"/api/tables/{table}/socket", headers=origin),
            ):
                pass
            assert denied.value.status_code == 403
        assert len(client.get("/api/tables").json()["tables"]) == 1
        # the server's own page: its origin, JSON bodies, and reading is open to all
        own = {"Origin": "http://testserver"}
        assert client.post("/api/tables", json={"seats": HUMANS}, headers=own).status_code == 201
        assert client.post(f"/api/tables/{table}/seats/0/join", headers=own).status_code == 201
        assert client.get("/api/tables", headers=elsewhere).status_code == 200
        with client.websocket_connect(f"/api/tables/{table}/socket", headers=own) as ws:
            assert Socket(ws).json()["type"] == "public"


def test_a_dns_rebinding_page_cannot_read_or_join_tables(store: SqliteStore) -> None:
    """A request for a host the server was not given - the name of a page
    that was made to point at this machine - is refused 421 ``bad-host``,
    reading included; by default only this machine's loopback names are
    answered."""
    client = TestClient(create_app(store, bot_delay=0), base_url="http://localhost:8000")
    with client:
        table = _table(client)
        assert client.get("/api/tables").status_code == 200
        for host in ["rebound.example:8000", "rebound.example", "127.0.0.1.rebound.example"]:
            headers = {"Host": host}
            _refused(client.get("/api/tables", headers=headers), 421, "bad-host", "--allowed-host")
            _refused(client.get(f"/api/tables/{table}/public", headers=headers), 421, "bad-host")
            _refused(
                client.post(f"/api/tables/{table}/seats/0/join", headers=headers), 421, "bad-host"
            )
        with (  # the test client's sockets name the host "testserver"
            pytest.raises(WebSocketDenialResponse) as denied,
            client.websocket_connect(f"/api/tables/{table}/socket"),
        ):
            pass
        assert denied.value.status_code == 421
        for host in ["127.0.0.1:8000", "[::1]:8000", "LOCALHOST"]:
            assert client.get("/api/tables", headers={"Host": host}).status_code == 200


def test_allowed_hosts_match_names_ports_and_addresses() -> None:
    assert host_allowed("localhost:8000", "http", ["localhost"])
    assert host_allowed("tables.example.org", "https", ["tables.example.org:443"])
    assert not host_allowed("tables.example.org:8443", "https", ["tables.example.org:443"])
    assert not host_allowed("localhost:9000", "http", ["localhost:8000"])
    assert host_allowed("192.168.1.5:8000", "http", ["0.0.0.0:8000"])
    assert host_allowed("[fe80::1]:8000", "http", ["0.0.0.0:8000"])
    assert not host_allowed("rebound.example:8000", "http", ["0.0.0.0:8000"])
    assert host_allowed("anything", "http", ["*"])
    assert not host_allowed(None, "http", ["localhost"])
    assert same_origin("http://localhost:8000", "localhost:8000", "http")
    # behind a proxy that speaks HTTPS to the browser and passes Host on without a port
    assert same_origin("https://tables.example.org", "tables.example.org", "http")
    assert same_origin("https://tables.example.org", "tables.example.org:443", "ws")
    assert not same_origin("https://tables.example.org:8443", "tables.example.org", "http")
    assert not same_origin("https://elsewhere.example", "tables.example.org", "http")
    assert not same_origin("http://localhost:8001", "localhost:8000", "http")
    assert not same_origin("http://localhost", "localhost:8000", "http")
    assert not same_origin("null", "localhost:8000", "http")
    assert default_hosts("127.0.0.1", 8000) == ("127.0.0.1:8000", "localhost:8000", "[::1]:8000")
    assert default_hosts("192.168.1.5", 80) == ("192.168.1.5:80",)
    assert "0.0.0.0:8000" in default_hosts("0.0.0.0", 8000)
    with pytest.raises(ba.SetupError, match="allowed_hosts"):
        ServerSettings(allowed_hosts=["bad host"])
    with pytest.raises(ba.SetupError, match="trusted_proxies"):
        ServerSettings(trusted_proxies=["proxy.example"])


def test_a_served_process_answers_only_the_names_it_listens_under(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    with Served(tmp_path) as served, httpx.Client(timeout=WAIT) as http:
        port = served.url.rsplit(":", 1)[1]
        assert http.get(f"{served.url}/api/tables").status_code == 200
        rebound = http.get(f"{served.url}/api/tables", headers={"Host": f"rebound.example:{port}"})
        _refused(rebound, 421, "bad-host")
        local = http.get(f"{served.url}/api/tables", headers={"Host": f"localhost:{port}"})
        assert local.status_code == 200


# -- behind a proxy --------------------------------------------------------------------


def test_behind_a_trusted_proxy_each_client_has_its_own_rate_limit(store: SqliteStore) -> None:
    """From a trusted proxy, the client ``X-Forwarded-For`` names is the one
    rate-limited (each has its own budget); from anyone else the header is
    ignored, so a client cannot make up addresses to escape its limit."""

    def made(client: TestClient, forwarded: str) -> int:
        headers = {"X-Forwarded-For": forwarded}
        return int(client.post("/api/tables", json={"seats": HUMANS}, headers=headers).status_code)

    proxied = _app(store, create_burst=2, create_rate=0.001, trusted_proxies=["127.0.0.1"])
    with TestClient(proxied, client=("127.0.0.1", 5000)) as client:
        assert [made(client, "10.0.0.1") for _ in range(3)] == [201, 201, 429]
        assert made(client, "10.0.0.2") == 201
        # what the client wrote left of the address the proxy added is not believed
        assert made(client, "10.0.0.2, 10.0.0.1") == 429
    direct = _app(store, create_burst=2, create_rate=0.001)
    with TestClient(direct, client=("127.0.0.1", 5000)) as client:
        assert [made(client, f"10.0.1.{n}") for n in range(3)] == [201, 201, 429]


def test_the_client_is_the_rightmost_untrusted_forwarded_address() -> None:
    proxies = (ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("::1/128"))
    assert client_address("10.0.0.5", "203.0.113.9", proxies) == "203.0.113.9"
    assert client_address("10.0.0.5", "198.51.100.1, 203.0.113.9, 10.0.0.7", proxies) == (
        "203.0.113.9"
    )
    assert client_address("::1", "[2001:db8::1]:443", proxies) == "2001:db8::1"
    assert client_address("10.0.0.5", "not-an-address", proxies) == "10.0.0.5"
    assert client_address("203.0.113.9", "198.51.100.1", proxies) == "203.0.113.9"
    assert client_address("10.0.0.5", None, proxies) == "10.0.0.5"


def test_a_trusted_ipv4_proxy_seen_by_a_server_on_ipv6_is_still_trusted() -> None:
    """A server listening on ``::`` sees an IPv4 proxy as ``::ffff:a.b.c.d``:
    that is the same proxy, and its ``X-Forwarded-For`` is believed (it was
    not: every client behind it shared the proxy's rate limits)."""
    proxies = (ipaddress.ip_network("127.0.0.1/32"),)
    assert client_address("::ffff:127.0.0.1", "203.0.113.9", proxies) == "203.0.113.9"
    assert client_address("::ffff:127.0.0.2", "203.0.113.9", proxies) == "::ffff:127.0.0.2"
    chain = "198.51.100.1, 203.0.113.9, ::ffff:127.0.0.1"
    assert client_address("127.0.0.1", chain, proxies) == "203.0.113.9"


# -- rules documents --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "words"),
    [
        ({}, ("format: missing", "backalley/rules")),
        ({"format": None}, ("format: got null",)),
        ({"format": 5, "base": "vietnam"}, ("format: got 5",)),
        ({"format": "backalley/state"}, ("'backalley/state' document",)),
    ],
)
def test_a_rules_document_that_does_not_name_its_format_is_refused(
    store: SqliteStore, document: dict[str, Any], words: tuple[str, ...]
) -> None:
    """A JSON rules document names its format; one that does not (``{}``
    made a table of the default game, named null) is refused with the
    house-rules error, and by the server as 422 ``bad-rules``."""
    with pytest.raises(houserules.HouseRulesError) as info:
        houserules.loads(json.dumps(document), format="json")
    assert info.value.path == "$.format"
    for word in words:
        assert word in str(info.value)
    with TestClient(_app(store)) as client:
        answer = client.post("/api/tables", json={"rules": document, "seats": HUMANS})
        _refused(answer, 422, "bad-rules", "format")
        assert client.get("/api/tables").json()["tables"] == []
        named = {"format": "backalley/rules", **document}
        named["format"] = "backalley/rules"
        assert client.post("/api/tables", json={"rules": named, "seats": HUMANS}).status_code == 201
