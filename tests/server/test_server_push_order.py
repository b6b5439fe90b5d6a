"""Pushes to one socket never go back in version, even when two pushes run
at once (a person's move and a bot's, say) and the first one reads the table
before the second but is held up reading a seat's view."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server's extra (starlette) is not installed")

from backalley.server.app import Hub


class Service:
    """A table whose version the test moves on; the first view of seat 1
    waits until the test lets it go."""

    def __init__(self) -> None:
        self.version = 1
        self.first = True
        self.reading = threading.Event()
        self.go_on = threading.Event()

    def public(self, table: str) -> dict[str, Any]:
        return {"version": self.version}

    def view_of(self, table: str, seat: int) -> dict[str, Any]:
        version = self.version
        if self.first:
            self.first = False
            self.reading.set()
            assert self.go_on.wait(10)
        return {"version": version}


class Socket:
    def __init__(self) -> None:
        self.got: list[int] = []

    async def send_json(self, message: dict[str, Any]) -> None:
        self.got.append(message["version"])


def test_a_push_held_up_behind_a_later_one_sends_no_older_version() -> None:
    async def run() -> tuple[list[int], list[int]]:
        service = Service()
        hub = Hub(service)  # type: ignore[arg-type]
        spectator, seat = Socket(), Socket()
        hub.add("t", spectator, None, 0)  # type: ignore[arg-type]
        hub.add("t", seat, 1, 0)  # type: ignore[arg-type]
        first = asyncio.ensure_future(hub.push("t"))  # reads version 1, then waits on seat 1
        await asyncio.to_thread(service.reading.wait, 10)
        service.version = 2
        await hub.push("t")  # version 2 to both
        service.go_on.set()
        await first
        return spectator.got, seat.got

    spectator, seat = asyncio.run(run())
    assert spectator == [2] and seat == [2], (spectator, seat)
