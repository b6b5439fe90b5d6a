"""The ASGI application: the HTTP API, the sockets and the browser table.

:func:`create_app` builds a Starlette application around a
:class:`~backalley.server.tables.TableService`.  Routes (all JSON; the
OpenAPI document at ``/openapi.json`` describes each):

- ``GET /`` the browser table; ``GET /static/...`` its script and style;
- with ``web`` (a folder written by ``backalley build-web``): ``GET /web/...``
  the library in the browser (the table that needs no server, backalley.js,
  the Pyodide runtime, the wheels), which the table page then loads too
  (:mod:`backalley.server.web`);
- ``GET /api/variants``, ``GET /api/variants/{name}``, ``GET /api/bots``;
- ``GET /api/tables``, ``POST /api/tables``, ``GET /api/tables/{table}``;
- ``POST /api/tables/{table}/seats/{seat}/join`` (answers the seat token);
- ``POST /api/tables/{table}/seats/{seat}/continue`` (the seat has seen the
  end of the last deal: the bots need not wait for it);
- ``GET /api/health`` (whether the server can open WebSockets);
- ``GET /api/tables/{table}/seats/{seat}/view`` and
  ``POST /api/tables/{table}/seats/{seat}/moves`` (``Authorization: Bearer
  <token>``);
- ``GET /api/tables/{table}/public``, ``GET /api/tables/{table}/record``;
- WebSocket ``/api/tables/{table}/seats/{seat}/socket`` (the first message
  is ``{"token": "..."}``; then the seat's view after every move) and
  ``/api/tables/{table}/socket`` (the public facts after every move).

No CORS headers are sent, and :class:`~backalley.server.edge.Edge` refuses
a host the server does not answer to, another site's ``Origin`` and a body
not sent as JSON: only pages served by the server itself can call it from a
browser.  A table's id is checked here, before any store reads it.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import ipaddress
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

import backalley as ba
from backalley.bots import bot_names
from backalley.rules.seats import seat_names
from backalley.server.bot_pool import BotFailed, BotPool
from backalley.server.edge import Edge
from backalley.server.errors import ServerError
from backalley.server.limits import RateLimiter, ServerSettings, socket_limit
from backalley.server.openapi import openapi_document
from backalley.server.sockets import SocketCounts
from backalley.server.store import Store, Watch, read_change
from backalley.server.tables import BotTurn, TableService
from backalley.server.tokens import token_hash
from backalley.server.web import WASM_PAGE_POLICY, WebFiles, page_with_library, web_folder

__all__ = ["LISTED", "SEND_SECONDS", "STATIC", "Hub", "client_key", "create_app"]

STATIC = Path(__file__).parent / "static"
"""The browser table's files."""

SEND_SECONDS = 5.0
"""How long a push may wait for a socket's client to take it; past that the
socket is dropped and closed in the background, as long at most (its client
reconnects and reads the view afresh)."""

LISTED = 200
"""The most tables ``GET /api/tables`` lists (the newest first)."""

SWEPT = 200
"""The most tables whose bots nobody moves that one round of the sweep
starts again (the next round takes the others)."""

_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
_PAGE_HEADERS = {
    **_HEADERS,
    "Content-Security-Policy": (
        "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "X-Frame-Options": "DENY",
}

Handler = Callable[[Request], Awaitable[Response]]

_log = logging.getLogger(__name__)


class _Headers:
    """An ASGI application that adds the page's security headers to ``app``'s
    answers (the static files: script, style, icon, and the page itself as
    ``/static/index.html``, which must not be framed either)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in _PAGE_HEADERS.items():
                    if name != "Cache-Control":  # the files keep their own (ETag)
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _JSONResponse(JSONResponse):
    """JSON that is always sent: text a client gave (a key, an id) that
    holds a lone surrogate (JSON's ``"\\ud800"``) is written escaped, as
    JSON writes it, rather than failing to encode (which reset the
    connection)."""

    def render(self, content: Any) -> bytes:
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return text.encode("utf-8", "backslashreplace")


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> JSONResponse:
    return _JSONResponse(data, status_code=status, headers={**_HEADERS, **(headers or {})})


def _error(exc: ServerError, headers: dict[str, str] | None = None) -> JSONResponse:
    return _json(exc.to_data(), exc.status, headers)


def _client(request: HTTPConnection) -> str:
    """The client's address, the key of its rate limits, socket limits and
    table caps (behind a trusted proxy, the address it forwarded:
    :class:`Edge`): :func:`client_key` of it."""
    return client_key(request.client.host) if request.client else "?"


def client_key(host: str) -> str:
    """What a client address is counted as: an IPv4 address as itself, an
    IPv6 address as its /64 network (``2001:db8:1:2::/64``: one household or
    machine is given a whole /64, so counting each address alone gave one
    client 2**64 allowances); anything else as it is written."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if address.version == 6:
        mapped = address.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""What a table's id may be (the server makes 16 hexadecimal digits)."""


def _check_move_id(move_id: object) -> None:
    """Refuse (422 ``bad-move-id``) a client move id holding a NUL, which a
    database may refuse to store, before any store sees it (the service
    checks its type and length)."""
    if isinstance(move_id, str) and "\x00" in move_id:
        raise ServerError(
            422, "bad-move-id", "a client move id is a text without NUL characters (\\u0000)"
        )


def _check_table_id(params: dict[str, Any]) -> None:
    """Refuse (404 ``not-found``) a table id no table can have, before any
    store reads it: a NUL (``%00``), a lone surrogate or any other character
    a database may refuse never reaches one."""
    table = params.get("table")
    if table is not None and not (isinstance(table, str) and _TABLE_ID.fullmatch(table)):
        raise ServerError(404, "not-found", f"there is no table {str(table)[:40]!r}")


def _limited(limiter: RateLimiter, key: str, message: str) -> JSONResponse | None:
    """The 429 answer (with ``Retry-After``) when ``key`` is past its rate
    limit, else ``None`` (the request counted)."""
    wait = limiter.allow(key)
    if not wait:
        return None
    return _error(ServerError(429, "too-many", message), {"Retry-After": str(int(wait) + 1)})


def _bearer(request: Request) -> str | None:
    value = request.headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


class Hub:
    """The sockets open on each table, and the pushes after every move."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.sockets: dict[str, dict[WebSocket, int | None]] = {}
        """table -> socket -> its seat (``None``: a spectator)."""
        self.pushed: dict[str, int] = {}
        """table -> the version last pushed."""
        self.sent: dict[WebSocket, int] = {}
        """socket -> the version last sent to it (never an older one after it)."""
        self.sent_at: dict[WebSocket, float] = {}
        """socket -> when it was last sent a document (``time.monotonic``)."""
        self.closing: set[asyncio.Task[None]] = set()
        """The closes of dropped sockets under way (:meth:`drop`)."""

    def add(self, table: str, socket: WebSocket, seat: int | None, version: int) -> None:
        """Push to ``socket`` from now on; it was sent ``version`` already."""
        self.sockets.setdefault(table, {})[socket] = seat
        self.sent[socket] = version
        self.sent_at[socket] = time.monotonic()

    def idle(self, socket: WebSocket) -> float:
        """Seconds since ``socket`` was last sent a document."""
        return time.monotonic() - self.sent_at.get(socket, 0.0)

    def remove(self, table: str, socket: WebSocket) -> None:
        found = self.sockets.get(table)
        self.sent.pop(socket, None)
        self.sent_at.pop(socket, None)
        if found is not None:
            found.pop(socket, None)
            if not found:
                del self.sockets[table]
                self.pushed.pop(table, None)

    async def push(self, table: str) -> None:
        """Send every socket of ``table`` its document as it stands now, to all
        sockets at once: a client that does not read holds up the push (and
        the move or the bots behind it) for :data:`SEND_SECONDS` at most,
        once, however many such clients there are (:meth:`drop`)."""
        found = self.sockets.get(table)
        if not found:
            return
        public: dict[str, Any] | None = None
        views: dict[int, dict[str, Any]] = {}
        ready: list[tuple[WebSocket, str, dict[str, Any]]] = []
        for socket, seat in list(found.items()):
            try:
                if seat is None:
                    if public is None:
                        public = await run_in_threadpool(self.service.public, table)
                        self.pushed[table] = public["version"]
                    kind, doc = "public", public
                else:
                    if seat not in views:
                        views[seat] = await run_in_threadpool(self.service.view_of, table, seat)
                        self.pushed[table] = views[seat]["version"]
                    kind, doc = "view", views[seat]
            except Exception:  # its document not read: forget the socket
                self.drop(table, socket)
                continue
            ready.append((socket, kind, doc))
        # from here to the sends' start nothing is awaited, so no other push
        # runs in between: a push that read the table before another push sent
        # a later version sends nothing, and the sends to one socket start in
        # the order of their versions (a socket's versions never go back)
        sends: list[Awaitable[None]] = []
        for socket, kind, doc in ready:
            if socket not in self.sent or doc["version"] < self.sent[socket]:
                continue
            self.sent[socket] = doc["version"]
            sends.append(self._send(table, socket, {"type": kind, **doc}))
        await asyncio.gather(*sends)

    async def _send(self, table: str, socket: WebSocket, message: dict[str, Any]) -> None:
        """Send ``message`` to ``socket``, or drop it (gone away, or its client
        did not take the message within :data:`SEND_SECONDS`)."""
        try:
            await asyncio.wait_for(socket.send_json(message), SEND_SECONDS)
        except Exception:  # gone away, or too slow to read: dropped, never awaited again
            self.drop(table, socket)
            return
        if socket in self.sent:  # not forgotten meanwhile (its client gone)
            self.sent_at[socket] = time.monotonic()

    def drop(self, table: str, socket: WebSocket) -> None:
        """Forget ``socket`` and close it (1011) in the background, so that its
        client knows to connect again rather than wait for pushes that will
        never come.  The close is never waited for, and is given up after
        :data:`SEND_SECONDS`: a client that stopped reading does not take the
        close frame either, and waiting on it held up the push, the move and
        the table's bots for as long as that client stayed."""
        if socket not in self.sent:  # dropped already, or its handler is done with it
            return
        self.remove(table, socket)
        closing = asyncio.get_running_loop().create_task(_close_soon(socket))
        self.closing.add(closing)  # kept until done: the loop holds a task only weakly
        closing.add_done_callback(self.closing.discard)


async def _close_soon(socket: WebSocket) -> None:
    """Close ``socket`` with 1011, waiting :data:`SEND_SECONDS` at most."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(socket.close(code=1011), SEND_SECONDS)


class _App:
    """The routes' shared state: the service, the hub, limits and bot runs."""

    def __init__(self, service: TableService, settings: ServerSettings) -> None:
        self.service = service
        self.settings = settings
        self.hub = Hub(service)
        self.moves = RateLimiter(settings.move_rate, settings.move_burst)
        self.creates = RateLimiter(settings.create_rate, settings.create_burst)
        self.lists = RateLimiter(settings.list_rate, settings.list_burst)
        self.sockets = SocketCounts(
            limit=socket_limit(settings.max_sockets),
            table_spectators=settings.max_table_sockets,
            seat_sockets=settings.max_seat_sockets,
            client_sockets=settings.max_client_sockets,
        )
        """The sockets open now, and whether one more may be."""
        self.runs: dict[str, asyncio.Task[None]] = {}
        self.kicked: set[str] = set()
        """Tables kicked since their bot run last looked whether a bot is to act."""
        self.wakes: dict[str, asyncio.TimerHandle] = {}
        """Tables whose bots wait at the end of a deal: the kick when the wait is over."""
        self.pool = BotPool(settings.bot_workers, limit=max(10.0, 20 * settings.bot_budget))
        """Where the bots' decisions are made, apart from the request threads."""
        self.watch: Watch | None = None
        """The store's changes as they are committed (``None``: the store
        cannot tell them; the poll looks for them)."""
        self.resync = False
        """Set when the changes were heard again after a lost connection: the
        next poll round looks at every watched table once."""
        self.tasks: set[asyncio.Task[None]] = set()
        """The pushes of changes heard, under way."""
        self.pushing: dict[str, bool] = {}
        """Tables with a push under way for a change heard -> whether another
        change came meanwhile (then it pushes again)."""

    # -- bots --------------------------------------------------------------

    def kick(self, table: str) -> None:
        """Let the bots of ``table`` move until a person is to act."""
        self.kicked.add(table)
        running = self.runs.get(table)
        if running is None or running.done():
            self.runs[table] = asyncio.get_running_loop().create_task(self._bots(table))

    async def _bots(self, table: str) -> None:
        """Let the bots of ``table`` move, each decision made in the bot pool
        (in turn with the other tables' bots), until no bot is to act."""
        service = self.service
        try:
            # a kick that comes while this run is past its last look (a person
            # moved during its last push) makes it look again, never lost
            while table in self.kicked:
                self.kicked.discard(table)
                while True:
                    turn = await run_in_threadpool(service.bot_turn, table)
                    if turn is None:
                        break
                    try:
                        moved = await self._renewing(table, self._decide(turn))
                    except BotFailed as exc:  # the bot's own error stops its table
                        await run_in_threadpool(service.bot_failed, turn, exc.detail)
                        break
                    if not moved:
                        break
                    await self.hub.push(table)
                await self.hub.push(table)
                # the bots wait at the end of a deal: this process keeps the
                # table's lease through the wait, and looks again when it is over
                held = await run_in_threadpool(service.held, table)
                if held > 0:
                    if await run_in_threadpool(service.hold, table, held):
                        self.wake(table, held)
                # a move another process stored while this one held the lease
                # (it could not take the lease) may leave a bot to act: look again
                elif await run_in_threadpool(service.release, table) and (
                    await run_in_threadpool(service.bot_to_act, table)
                ):
                    self.kicked.add(table)
        except asyncio.CancelledError:
            raise
        except ServerError as exc:  # a table damaged meanwhile: said once, as the list says it
            if not service.note_damaged(table, exc):
                _log.error("table %s: the bots' run stopped: %s", table, exc.message)
        except Exception:  # a store that failed: the next kick (or the poll) tries again
            _log.exception("table %s: the bots' run stopped", table)
        finally:  # a finished run is not kept: one entry per table ever kicked would grow
            if self.runs.get(table) is asyncio.current_task():
                del self.runs[table]

    async def _decide(self, turn: BotTurn) -> bool:
        """The bot of ``turn`` decides (after ``bot_delay``), in the pool, and
        its move is played: whether the table moved on."""
        if self.settings.bot_delay:
            await asyncio.sleep(self.settings.bot_delay)
        return await self.pool.decide(
            turn.owner, turn.table, turn.bot, turn.view, partial(self.service.bot_play, turn)
        )

    async def _renewing(self, table: str, work: Awaitable[bool]) -> bool:
        """``work``, while this process renews its lease of ``table`` every
        third of ``lease_seconds`` (a decision may take longer than a lease)."""

        async def beat() -> None:
            while True:
                await asyncio.sleep(self.settings.lease_seconds / 3)
                await run_in_threadpool(self.service.renew, table)

        beating = asyncio.get_running_loop().create_task(beat())
        try:
            return await work
        finally:
            beating.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await beating

    def wake(self, table: str, seconds: float) -> None:
        """Kick ``table`` in ``seconds`` (once: a later call replaces it)."""
        old = self.wakes.pop(table, None)
        if old is not None:
            old.cancel()

        def kick() -> None:
            self.wakes.pop(table, None)
            self.kick(table)

        self.wakes[table] = asyncio.get_running_loop().call_later(seconds + 0.05, kick)

    async def _poll(self) -> None:
        """Push the moves other server processes stored, for watched tables,
        and start again the bot runs that stopped - while the store's changes
        are not heard as they are committed (:meth:`heard`), and once after
        they are heard again (changes may have been missed meanwhile).  A
        failure (a database that is locked or answers nothing for a while)
        is logged and the poll goes on at its next round: it ends only with
        the server."""
        while True:
            await asyncio.sleep(self.settings.poll_seconds)
            if self.watch is not None and self.watch.listening and not self.resync:
                continue
            self.resync = False
            for table in list(self.hub.sockets):
                try:
                    await self._poll_table(table)
                except asyncio.CancelledError:
                    raise
                except ServerError as exc:
                    # a damaged table is said once, not every round
                    if not self.service.note_damaged(table, exc) and exc.status >= 500:
                        _log.warning("table %s: the poll could not read it: %s", table, exc)
                except Exception:  # a database locked or gone for a moment: the next round
                    _log.exception("table %s: the poll could not read it", table)

    async def _poll_table(self, table: str) -> None:
        version = await run_in_threadpool(self.service.version, table)
        if version != self.hub.pushed.get(table):
            await self.hub.push(table)
            self.kick(table)
        elif table not in self.runs and await run_in_threadpool(self.service.bot_to_act, table):
            self.kick(table)  # a bot run that stopped on an error

    def heard(self, change: str) -> None:
        """A change the store heard committed (on the loop's thread): a move
        or a continue at a table watched here is pushed to its sockets at
        once; ``""`` (heard again after a lost connection) makes the next
        poll round look at every watched table.  The bots are not kicked:
        the process that stored the change kicked them."""
        if not change:
            self.resync = True
            return
        found = read_change(change)
        if found is None:
            return
        table, version = found
        if table not in self.hub.sockets:
            return
        if version is not None and version == self.hub.pushed.get(table):
            return
        if version is None and table in self.wakes:
            self.kick(table)  # a continue heard while this process holds the deal's end
        if table in self.pushing:
            self.pushing[table] = True  # pushed again once the push under way ends
            return
        self.pushing[table] = False
        task = asyncio.get_running_loop().create_task(self._push_heard(table))
        self.tasks.add(task)  # kept until done: the loop holds a task only weakly
        task.add_done_callback(self.tasks.discard)

    async def _push_heard(self, table: str) -> None:
        try:
            while True:
                try:
                    await self.hub.push(table)
                except Exception:  # a store failing for a moment: the poll tries later
                    _log.warning("table %s: a change heard could not be pushed", table)
                if not self.pushing.get(table):
                    return
                self.pushing[table] = False
        finally:
            self.pushing.pop(table, None)

    async def _sweep(self) -> None:
        """Let the bots go on at every table where one is to act and no
        process decides them (this server restarted, or the process that
        held the table's lease died), the most recently moved first: now,
        and every ``lease_seconds``.  A table that cannot be read back
        (rules that no longer load) is logged and left; the others go on."""
        while True:
            try:
                tables = await run_in_threadpool(self.service.orphans, SWEPT)
            except Exception:  # a database that does not answer: the next round
                _log.warning("the tables whose bots nobody moves could not be listed")
                tables = []
            for table in tables:
                if table in self.runs:
                    continue
                try:
                    if await run_in_threadpool(self.service.bot_to_act, table):
                        self.kick(table)
                except ServerError as exc:  # a damaged table: said once, the others go on
                    if not self.service.note_damaged(table, exc):
                        _log.error(
                            "table %s: its bots could not be resumed: %s", table, exc.message
                        )
                except Exception:  # any other failure of one table: the others go on
                    _log.exception("table %s: its bots could not be resumed", table)
            await asyncio.sleep(self.settings.lease_seconds)

    async def _retire(self) -> None:
        """Archive the tables due, every ``retire_seconds`` (a failure is
        logged; the next round tries again)."""
        while True:
            try:
                for table in await run_in_threadpool(self.service.retire):
                    self.kicked.discard(table)
            except Exception:  # a database that does not answer: the next round tries again
                _log.exception("the tables due could not be archived")
            await asyncio.sleep(self.settings.retire_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(self, _: Starlette) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()

        def heard(change: str) -> None:  # on the store's thread
            with contextlib.suppress(RuntimeError):  # the loop closed: the server is ending
                loop.call_soon_threadsafe(self.heard, change)

        self.watch = self.service.store.watch(heard)
        resume = loop.create_task(self._sweep())
        poll = loop.create_task(self._poll())
        retire = loop.create_task(self._retire())
        try:
            yield
        finally:
            if self.watch is not None:
                await run_in_threadpool(self.watch.close)
            resume.cancel()
            poll.cancel()
            retire.cancel()
            for handle in self.wakes.values():
                handle.cancel()
            for task in self.runs.values():
                task.cancel()
            for task in [resume, poll, retire, *self.runs.values()]:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            self.pool.close()

    # -- reading requests ------------------------------------------------------

    async def body(self, request: Request) -> dict[str, Any]:
        """The request's JSON object, read to at most ``max_body`` bytes."""
        limit = self.settings.max_body
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            raise ServerError(413, "too-large", f"a request body is at most {limit} bytes")
        chunks: list[bytes] = []
        size = 0
        try:
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise ServerError(413, "too-large", f"a request body is at most {limit} bytes")
                chunks.append(chunk)
        except ClientDisconnect:
            # the client went away before its whole body came (or sent a
            # Content-Length larger than it): nobody reads the answer, and a
            # client gone is not the server's failure, so nothing is logged
            raise ServerError(
                400, "bad-json", "the request body ended before its Content-Length"
            ) from None
        try:
            data = json.loads(b"".join(chunks) or b"{}")
        except (ValueError, RecursionError):
            raise ServerError(400, "bad-json", "the request body is not JSON text") from None
        if not isinstance(data, dict):
            raise ServerError(400, "bad-json", "the request body is a JSON object")
        return data


async def _text(socket: WebSocket) -> str | None:
    """The socket's next message: its text, ``None`` for a binary one
    (:class:`WebSocketDisconnect` when the client went away)."""
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None


_NO_WEBSOCKETS = (
    "this server cannot open WebSockets, which the table needs for its live updates: "
    "the ASGI server has no WebSocket support installed "
    "(pip install 'backalley[server]' brings it: websockets)"
)


_GONE = (WebSocketDisconnect, RuntimeError, OSError)
"""What a socket's client going away raises in a handler: a disconnect
read, a send on a closed socket (``RuntimeError``), a reset connection
(uvicorn's ``ClientDisconnected`` is an ``OSError``)."""


def _websocket_library() -> bool:
    """Whether a WebSocket library uvicorn uses (websockets, wsproto) is installed."""
    return any(importlib.util.find_spec(name) is not None for name in ("websockets", "wsproto"))


def _asks_upgrade(request: Request) -> bool:
    """Whether ``request`` is a WebSocket handshake (``Upgrade: websocket``
    and the ``upgrade`` token in ``Connection``), which an ASGI server that
    speaks WebSocket never passes on as plain HTTP.  An ``Upgrade`` header
    alone is not one: any client may send it with a plain request (which
    told every page, until a restart, that the server had no WebSockets)."""
    tokens = {t.strip().lower() for t in request.headers.get("connection", "").split(",")}
    return request.headers.get("upgrade", "").strip().lower() == "websocket" and "upgrade" in tokens


async def _http_error(request: Request, exc: Exception) -> Response:
    """An unknown address or method (or a failure of the server's own, which
    is logged as well), answered as JSON like every refusal."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    headers = dict(exc.headers or {}) if isinstance(exc, HTTPException) else {}
    if status == 404 and _asks_upgrade(request):
        # a WebSocket's handshake come as plain HTTP: the ASGI server did not
        # open the socket (uvicorn without websockets or wsproto); GET
        # /api/health tells the page so from now on
        request.app.state.no_upgrade = True
        code, message = "no-websockets", _NO_WEBSOCKETS
        status = 501
    elif status == 404:
        code, message = "no-route", "there is nothing at this address: the API is in /openapi.json"
    elif status == 405:
        code, message = "bad-method", f"{request.method[:10]} is not taken here (see Allow)"
    elif status == 500:
        code, message = "server-error", "the server failed to answer this request"
    else:
        code, message = "bad-request", str(getattr(exc, "detail", "")) or "refused"
    return _json({"error": code, "message": message}, status, headers)


def _route(handler: Handler) -> Handler:
    """``handler`` answering a :class:`ServerError` as its JSON body; a store
    that failed (``503 database``: a full disk, a database gone) is logged
    too, in one line."""

    async def route(request: Request) -> Response:
        try:
            _check_table_id(request.path_params)
            return await handler(request)
        except ServerError as exc:
            if exc.code == "database":
                _log.warning("%s %s: %s", request.method, request.url.path[:120], exc.message)
            return _error(exc)

    route.__name__ = handler.__name__
    route.__doc__ = handler.__doc__
    return route


def create_app(
    store: Store,
    *,
    settings: ServerSettings | None = None,
    web: str | Path | None = None,
    **limits: Any,
) -> Starlette:
    """The server's ASGI application over ``store``.

    ``settings`` (or its fields as keywords: ``bot_delay=0``,
    ``move_rate=...``; see :class:`~backalley.server.ServerSettings`) set
    the limits.  ``web``, a folder written by ``backalley build-web``, is
    served at ``/web/`` and the table page loads the library from it
    (:mod:`backalley.server.web`).  The caller owns ``store`` and closes it.
    """
    library = web_folder(web) if web is not None else None
    if settings is None:
        try:
            settings = ServerSettings(**limits)
        except TypeError as exc:
            raise ba.SetupError(f"unknown server setting: {exc}") from None
    elif limits:
        raise ba.SetupError("give either settings or its fields as keywords, not both")
    service = TableService(
        store,
        max_tables=settings.max_tables,
        max_live=settings.max_live,
        deal_pause=settings.deal_pause,
        bot_budget=settings.bot_budget,
        max_client_tables=settings.max_client_tables,
        max_client_bot_tables=settings.max_client_bot_tables,
        finished_keep=settings.finished_keep,
        idle_keep=settings.idle_keep,
        lease_seconds=settings.lease_seconds,
        max_thrown_in=settings.max_thrown_in,
    )
    app = _App(service, settings)

    async def page(request: Request) -> Response:
        if library is None:
            return FileResponse(STATIC / "index.html", headers=_PAGE_HEADERS)
        html = page_with_library((STATIC / "index.html").read_text(encoding="utf-8"))
        headers = {**_PAGE_HEADERS, "Content-Security-Policy": WASM_PAGE_POLICY}
        return HTMLResponse(html, headers=headers)

    async def openapi(request: Request) -> Response:
        return _json(openapi_document())

    @_route
    async def variants(request: Request) -> Response:
        names = list(ba.variants.names())
        found = {name: ba.variants.get(name) for name in names}
        return _json(
            {
                "variants": names,
                "players": {name: rules.players for name, rules in found.items()},
                "descriptions": {name: ba.variants.description(name) for name in names},
                "seat_names": {name: list(seat_names(rules)) for name, rules in found.items()},
            }
        )

    @_route
    async def variant(request: Request) -> Response:
        name = request.path_params["name"]
        try:
            rules = ba.variants.get(name)
        except ba.UnknownVariantError as exc:
            raise ServerError(404, "unknown-variant", str(exc).strip("\"'")) from None
        return _json(json.loads(ba.to_json(rules)))

    @_route
    async def bots(request: Request) -> Response:
        return _json({"bots": list(bot_names())})

    @_route
    async def tables(request: Request) -> Response:
        limited = _limited(
            app.lists, _client(request), "the table list was asked for too often: wait a little"
        )
        if limited is not None:
            return limited
        found = await run_in_threadpool(service.listing, LISTED)
        return _json({"tables": found})

    @_route
    async def create(request: Request) -> Response:
        limited = _limited(
            app.creates, _client(request), "too many tables made from here: wait a little"
        )
        if limited is not None:
            return limited
        body = await app.body(request)
        unknown = sorted(set(body) - {"rules", "seats"})
        if unknown:
            raise ServerError(422, "bad-request", f"unknown field {unknown[0][:40]!r}")
        table = await run_in_threadpool(
            service.create, body.get("rules", "gamerules"), body.get("seats"), _client(request)
        )
        app.kick(table)
        return _json(await run_in_threadpool(service.summary, table), 201)

    @_route
    async def table(request: Request) -> Response:
        found = await run_in_threadpool(service.summary, request.path_params["table"])
        return _json(found)

    @_route
    async def join(request: Request) -> Response:
        table, seat = request.path_params["table"], request.path_params["seat"]
        token = await run_in_threadpool(service.join, table, seat)
        return _json({"table": table, "seat": int(seat), "token": token}, 201)

    @_route
    async def view(request: Request) -> Response:
        table, seat = request.path_params["table"], request.path_params["seat"]
        found = await run_in_threadpool(service.view, table, seat, _bearer(request))
        return _json(found)

    @_route
    async def move(request: Request) -> Response:
        table, seat = request.path_params["table"], request.path_params["seat"]
        token = _bearer(request)
        await run_in_threadpool(service.authorize, table, seat, token)
        limited = _limited(app.moves, token_hash(token or ""), "too many moves: wait a little")
        if limited is not None:
            return limited
        body = await app.body(request)
        unknown = sorted(set(body) - {"move", "client_move_id", "version"})
        if unknown:
            raise ServerError(422, "bad-request", f"unknown field {unknown[0][:40]!r}")
        _check_move_id(body.get("client_move_id"))
        done = await run_in_threadpool(
            lambda: service.submit(
                table,
                seat,
                token,
                body.get("move"),
                client_move_id=body.get("client_move_id"),
                expected_version=body.get("version"),
            )
        )
        if not done.repeated:
            await app.hub.push(table)
            app.kick(table)
        found = await run_in_threadpool(service.view_of, table, int(seat))
        return _json(
            {"number": done.number, "repeated": done.repeated, **found},
        )

    @_route
    async def continue_deal(request: Request) -> Response:
        table, seat = request.path_params["table"], request.path_params["seat"]
        token = _bearer(request)
        await run_in_threadpool(service.authorize, table, seat, token)
        limited = _limited(app.moves, token_hash(token or ""), "too many moves: wait a little")
        if limited is not None:
            return limited
        body = await app.body(request)
        unknown = sorted(set(body) - {"deal"})
        if unknown:
            raise ServerError(422, "bad-request", f"unknown field {unknown[0][:40]!r}")
        done = await run_in_threadpool(service.continue_deal, table, seat, token, body.get("deal"))
        await app.hub.push(table)
        app.kick(table)
        return _json(done)

    async def health(request: Request) -> Response:
        # no library, or a socket's request that came as plain HTTP: no WebSockets
        ok = _websocket_library() and not request.app.state.no_upgrade
        return _json(
            {
                "websockets": ok,
                "message": None if ok else _NO_WEBSOCKETS,
                # whether moves other processes store reach this one at once
                "listening": app.watch is not None and app.watch.listening,
                "bot_decisions": service.decisions,
            }
        )

    @_route
    async def public(request: Request) -> Response:
        return _json(await run_in_threadpool(service.public, request.path_params["table"]))

    @_route
    async def record(request: Request) -> Response:
        text = await run_in_threadpool(service.record, request.path_params["table"])
        return Response(text, media_type="application/json", headers=_HEADERS)

    async def seat_socket(socket: WebSocket) -> None:
        """A seat's socket: counted as waiting until its token is read, then
        as the seat's (never refused because of spectators)."""
        client = _client(socket)
        busy = app.sockets.add_waiting(client)
        if busy is not None:
            await _busy(socket, busy)
            return
        try:  # counted from here: whatever happens next (the accept too) uncounts it
            await socket.accept()
            await _seat_socket(socket)
        except _GONE:  # the client went away (or reset) at any step: nothing to say
            pass
        except Exception as exc:  # a store failing for a moment: 1011 and one log line
            await _failed(socket, exc)
        finally:
            app.sockets.remove_waiting(client)

    async def public_socket(socket: WebSocket) -> None:
        """A spectator's socket: the public facts after every move."""
        client = _client(socket)
        table = socket.path_params["table"]
        busy = app.sockets.add_spectator(table, client)
        if busy is not None:
            await _busy(socket, busy)
            return
        try:  # counted from here: whatever happens next (the accept too) uncounts it
            await socket.accept()
            await _public_socket(socket, table)
        except _GONE:
            pass
        except Exception as exc:  # a store failing for a moment: 1011 and one log line
            await _failed(socket, exc)
        finally:
            app.sockets.remove_spectator(table, client)

    async def _busy(socket: WebSocket, why: str) -> None:
        """Open ``socket`` (not counted) only to close it with 1013 ("try
        again later") and ``why``."""
        try:
            await socket.accept()
            await socket.close(code=1013, reason=why[:120])
        except _GONE:
            pass

    async def _failed(socket: WebSocket, exc: Exception) -> None:
        """Close ``socket`` with 1011 after a read of its table failed (a
        database locked for a moment, a cancelled statement): its client
        connects again and reads the table afresh.  Said in one line: a
        traceback ("Exception in ASGI application") for every such socket
        would bury the log."""
        table = socket.path_params.get("table", "?")[:40]
        text = " ".join(str(exc).split())[:200]
        _log.warning(
            "table %s: a socket was closed (1011): %s: %s", table, type(exc).__name__, text
        )
        with contextlib.suppress(Exception):
            await asyncio.wait_for(socket.close(code=1011), SEND_SECONDS)

    async def _refuse(socket: WebSocket, exc: ServerError) -> None:
        """Send the refusal and close with 4000 + its status."""
        await socket.send_json({"type": "error", **exc.to_data()})
        await socket.close(code=4000 + exc.status)

    async def _seat_socket(socket: WebSocket) -> None:
        table, seat = socket.path_params["table"], socket.path_params["seat"]
        try:
            _check_table_id(socket.path_params)
            first = await asyncio.wait_for(_text(socket), settings.auth_seconds)
            if first is None:
                raise ServerError(401, "bad-token", 'the first message is {"token": "..."} as text')
            if len(first) > settings.max_message:
                raise ServerError(
                    413, "too-large", f"a message is at most {settings.max_message} characters"
                )
            try:
                token = json.loads(first).get("token")
            except (ValueError, AttributeError, RecursionError):
                token = None
            if not isinstance(token, str):
                raise ServerError(401, "bad-token", 'the first message is {"token": "..."}')
            _, number = await run_in_threadpool(service.authorize, table, seat, token)
            doc = await run_in_threadpool(service.view_of, table, number)
        except ServerError as exc:
            await _refuse(socket, exc)
            return
        except (asyncio.TimeoutError, WebSocketDisconnect):
            with contextlib.suppress(Exception):
                await socket.close(code=4408)
            return
        busy = app.sockets.seat(table, number)
        if busy is not None:
            await socket.close(code=1013, reason=busy[:120])
            return
        try:
            await socket.send_json({"type": "view", **doc})
            await _listen(socket, table, number, doc["version"])
        finally:
            app.sockets.unseat(table, number)

    async def _public_socket(socket: WebSocket, table: str) -> None:
        try:
            _check_table_id(socket.path_params)
            doc = await run_in_threadpool(service.public, table)
        except ServerError as exc:
            await _refuse(socket, exc)
            return
        await socket.send_json({"type": "public", **doc})
        await _listen(socket, table, None, doc["version"])

    async def _listen(socket: WebSocket, table: str, seat: int | None, version: int) -> None:
        """Push to ``socket`` until its client goes; a spectator's is closed
        (4408) once ``spectator_idle`` seconds pass without a push."""
        app.hub.add(table, socket, seat, version)
        try:
            # moves made between the first document and joining the pushes
            if await run_in_threadpool(service.version, table) != version:
                await app.hub.push(table)
            while socket in app.hub.sent:  # else dropped by a push, which closes it
                if seat is None:
                    left = settings.spectator_idle - app.hub.idle(socket)
                    if left <= 0:
                        await socket.close(code=4408, reason="nothing happened: connect again")
                        return
                    try:
                        text = await asyncio.wait_for(_text(socket), left)
                    except asyncio.TimeoutError:
                        continue
                else:
                    text = await _text(socket)
                if text is None:  # a binary frame: this channel speaks text only
                    await socket.close(code=1003)
                    return
                if len(text) > settings.max_message:
                    await socket.close(code=1009)
                    return
        except (WebSocketDisconnect, RuntimeError, KeyError):
            pass
        finally:
            app.hub.remove(table, socket)

    async def table_list(request: Request) -> Response:
        # one route for both methods, so that a 405 answer's Allow names both
        return await (create if request.method == "POST" else tables)(request)

    routes = [
        Route("/", page),
        Route("/openapi.json", openapi),
        Route("/api/variants", variants),
        Route("/api/variants/{name}", variant),
        Route("/api/bots", bots),
        Route("/api/tables", table_list, methods=["GET", "POST"]),
        Route("/api/tables/{table}", table),
        Route("/api/tables/{table}/seats/{seat}/join", join, methods=["POST"]),
        Route("/api/tables/{table}/seats/{seat}/view", view),
        Route("/api/tables/{table}/seats/{seat}/moves", move, methods=["POST"]),
        Route("/api/tables/{table}/seats/{seat}/continue", continue_deal, methods=["POST"]),
        Route("/api/health", health),
        Route("/api/tables/{table}/public", public),
        Route("/api/tables/{table}/record", record),
        WebSocketRoute("/api/tables/{table}/seats/{seat}/socket", seat_socket),
        WebSocketRoute("/api/tables/{table}/socket", public_socket),
        Mount("/static", _Headers(StaticFiles(directory=STATIC)), name="static"),
    ]
    if library is not None:
        routes.append(Mount("/web", WebFiles(library), name="web"))
    server = Starlette(
        routes=routes,
        middleware=[Middleware(Edge, settings=settings, answer=_error)],
        lifespan=app.lifespan,
        exception_handlers={HTTPException: _http_error, Exception: _http_error},
    )
    server.state.service = service
    server.state.no_upgrade = False  # set when a WebSocket request came as plain HTTP
    server.state.settings = settings
    server.state.runs = app.runs  # the tables whose bots are moving now (for tests)
    return server
