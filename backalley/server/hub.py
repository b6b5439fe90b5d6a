"""The sockets open on each table, and the pushes after every move.

A push reads each socket's document (a seat's view, or the public facts) and
sends them all at once; a client that does not read is dropped and closed in
the background after :data:`SEND_SECONDS`, so that no push, move or bot waits
on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket

from backalley.server.table_service import TableService

__all__ = ["SEND_SECONDS", "Hub"]

SEND_SECONDS = 5.0
"""How long a push may wait for a socket's client to take it; past that the
socket is dropped and closed in the background, as long at most (its client
reconnects and reads the view afresh)."""


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
