"""The table's sockets: a seat's (its view after every move, once its token
is read) and a spectator's (the public facts after every move).

Each socket is counted (:class:`~backalley.server.sockets.SocketCounts`)
from its handshake to its end, refused with 1013 when the counts are full,
and registered with the :class:`~backalley.server.hub.Hub`, which pushes to
it; a client that goes away ends its handler quietly, and a store that fails
for a moment closes it with 1011 and one log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

from backalley.server.answers import check_table_id, client_of
from backalley.server.hub import SEND_SECONDS
from backalley.server.refusals import ServerError
from backalley.server.runtime import Runtime

__all__ = ["GONE", "SocketRoutes", "receive_text"]

_log = logging.getLogger("backalley.server.app")

GONE = (WebSocketDisconnect, RuntimeError, OSError)
"""What a socket's client going away raises in a handler: a disconnect
read, a send on a closed socket (``RuntimeError``), a reset connection
(uvicorn's ``ClientDisconnected`` is an ``OSError``)."""


async def receive_text(socket: WebSocket) -> str | None:
    """The socket's next message: its text, ``None`` for a binary one
    (:class:`WebSocketDisconnect` when the client went away)."""
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None


class SocketRoutes:
    """The WebSocket routes of one application, over its :class:`Runtime`."""

    def __init__(self, app: Runtime) -> None:
        self.app = app
        self.service = app.service
        self.settings = app.settings

    async def seat_socket(self, socket: WebSocket) -> None:
        """A seat's socket: counted as waiting until its token is read, then
        as the seat's (never refused because of spectators)."""
        client = client_of(socket)
        busy = self.app.sockets.add_waiting(client)
        if busy is not None:
            await self._busy(socket, busy)
            return
        try:  # counted from here: whatever happens next (the accept too) uncounts it
            await socket.accept()
            await self._seat_socket(socket)
        except GONE:  # the client went away (or reset) at any step: nothing to say
            pass
        except Exception as exc:  # a store failing for a moment: 1011 and one log line
            await self._failed(socket, exc)
        finally:
            self.app.sockets.remove_waiting(client)

    async def public_socket(self, socket: WebSocket) -> None:
        """A spectator's socket: the public facts after every move."""
        client = client_of(socket)
        table = socket.path_params["table"]
        busy = self.app.sockets.add_spectator(table, client)
        if busy is not None:
            await self._busy(socket, busy)
            return
        try:  # counted from here: whatever happens next (the accept too) uncounts it
            await socket.accept()
            await self._public_socket(socket, table)
        except GONE:
            pass
        except Exception as exc:  # a store failing for a moment: 1011 and one log line
            await self._failed(socket, exc)
        finally:
            self.app.sockets.remove_spectator(table, client)

    async def _busy(self, socket: WebSocket, why: str) -> None:
        """Open ``socket`` (not counted) only to close it with 1013 ("try
        again later") and ``why``."""
        try:
            await socket.accept()
            await socket.close(code=1013, reason=why[:120])
        except GONE:
            pass

    async def _failed(self, socket: WebSocket, exc: Exception) -> None:
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

    async def _refuse(self, socket: WebSocket, exc: ServerError) -> None:
        """Send the refusal and close with 4000 + its status."""
        await socket.send_json({"type": "error", **exc.to_data()})
        await socket.close(code=4000 + exc.status)

    async def _seat_socket(self, socket: WebSocket) -> None:
        table, seat = socket.path_params["table"], socket.path_params["seat"]
        try:
            check_table_id(socket.path_params)
            first = await asyncio.wait_for(receive_text(socket), self.settings.auth_seconds)
            if first is None:
                raise ServerError(401, "bad-token", 'the first message is {"token": "..."} as text')
            if len(first) > self.settings.max_message:
                raise ServerError(
                    413, "too-large", f"a message is at most {self.settings.max_message} characters"
                )
            try:
                token = json.loads(first).get("token")
            except (ValueError, AttributeError, RecursionError):
                token = None
            if not isinstance(token, str):
                raise ServerError(401, "bad-token", 'the first message is {"token": "..."}')
            _, number = await run_in_threadpool(self.service.authorize, table, seat, token)
            doc = await run_in_threadpool(self.service.view_of, table, number)
        except ServerError as exc:
            await self._refuse(socket, exc)
            return
        except (asyncio.TimeoutError, WebSocketDisconnect):
            with contextlib.suppress(Exception):
                await socket.close(code=4408)
            return
        busy = self.app.sockets.seat(table, number)
        if busy is not None:
            await socket.close(code=1013, reason=busy[:120])
            return
        try:
            await socket.send_json({"type": "view", **doc})
            await self._listen(socket, table, number, doc["version"])
        finally:
            self.app.sockets.unseat(table, number)

    async def _public_socket(self, socket: WebSocket, table: str) -> None:
        try:
            check_table_id(socket.path_params)
            doc = await run_in_threadpool(self.service.public, table)
        except ServerError as exc:
            await self._refuse(socket, exc)
            return
        await socket.send_json({"type": "public", **doc})
        await self._listen(socket, table, None, doc["version"])

    async def _listen(self, socket: WebSocket, table: str, seat: int | None, version: int) -> None:
        """Push to ``socket`` until its client goes; a spectator's is closed
        (4408) once ``spectator_idle`` seconds pass without a push."""
        self.app.hub.add(table, socket, seat, version)
        try:
            # moves made between the first document and joining the pushes
            if await run_in_threadpool(self.service.version, table) != version:
                await self.app.hub.push(table)
            while socket in self.app.hub.sent:  # else dropped by a push, which closes it
                if seat is None:
                    left = self.settings.spectator_idle - self.app.hub.idle(socket)
                    if left <= 0:
                        await socket.close(code=4408, reason="nothing happened: connect again")
                        return
                    try:
                        text = await asyncio.wait_for(receive_text(socket), left)
                    except asyncio.TimeoutError:
                        continue
                else:
                    text = await receive_text(socket)
                if text is None:  # a binary frame: this channel speaks text only
                    await socket.close(code=1003)
                    return
                if len(text) > self.settings.max_message:
                    await socket.close(code=1009)
                    return
        except (WebSocketDisconnect, RuntimeError, KeyError):
            pass
        finally:
            self.app.hub.remove(table, socket)
