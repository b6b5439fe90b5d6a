"""How much a client may send: body and message sizes, and move rates."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import attrs

from backalley.errors import SetupError

__all__ = ["RateLimiter", "ServerSettings"]


def _positive(_: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise SetupError(f"{attribute.name} must be a number > 0, not {value!r}")


def _whole_not_negative(_: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SetupError(f"{attribute.name} must be a whole number >= 0, not {value!r}")


def _not_negative(_: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise SetupError(f"{attribute.name} must be a number >= 0, not {value!r}")


@attrs.frozen
class ServerSettings:
    """The server's limits and pace (every one a keyword of :func:`create_app`)."""

    max_body: int = attrs.field(default=65_536, validator=_positive)
    """The largest request body read, in bytes (a house-rules document fits)."""
    max_message: int = attrs.field(default=4_096, validator=_positive)
    """The largest WebSocket message read from a client, in characters."""
    move_rate: float = attrs.field(default=10.0, validator=_positive)
    """Moves per second one seat token may send, on average ..."""
    move_burst: float = attrs.field(default=20.0, validator=_positive)
    """... and at most this many at once."""
    create_rate: float = attrs.field(default=1.0, validator=_positive)
    """Tables per second one client address may make, on average ..."""
    create_burst: float = attrs.field(default=20.0, validator=_positive)
    """... and at most this many at once."""
    list_rate: float = attrs.field(default=2.0, validator=_positive)
    """Table lists per second one client address may ask for, on average ..."""
    list_burst: float = attrs.field(default=20.0, validator=_positive)
    """... and at most this many at once."""
    max_sockets: int = attrs.field(default=5_000, validator=_positive)
    """The most WebSockets open at once on this process (past it, a new one is
    closed with code 1013, "try again later")."""
    max_table_sockets: int = attrs.field(default=200, validator=_positive)
    """The most WebSockets open at once on one table (its seats' and its
    spectators')."""
    bot_delay: float = attrs.field(default=0.4, validator=_not_negative)
    """Seconds between two bot moves, so people can follow them."""
    deal_pause: float = attrs.field(default=60.0, validator=_not_negative)
    """The longest the bots wait at the end of a deal, in seconds, for the
    people at the table to continue (each seat a person had joined: its page's
    Continue, ``POST .../continue``, or a move of its own); 0: they do not
    wait."""
    poll_seconds: float = attrs.field(default=1.0, validator=_positive)
    """How often moves stored by other server processes are looked for, for
    the tables someone watches."""
    auth_seconds: float = attrs.field(default=10.0, validator=_positive)
    """How long a new socket has to send its token."""
    max_tables: int = attrs.field(default=10_000, validator=_positive)
    """The most tables the store may hold."""
    max_live: int = attrs.field(default=2_000, validator=_positive)
    """The most tables kept in memory; the others are replayed from the store
    when they are asked for."""
    # -- bots and the life of tables ------------------------------------------
    bot_workers: int = attrs.field(default=1, validator=_whole_not_negative)
    """Processes that make the bots' decisions, apart from the request
    threads (0: one thread of this process, which shares its interpreter with
    the requests - for tests and platforms without processes).  The tables
    waiting for a decision take turns, one decision each."""
    bot_budget: float = attrs.field(default=0.5, validator=_positive)
    """CPU seconds one bot decision may take: a bot that takes a ``budget``
    (``pimc``, ``montecarlo``) is given it; the quick bots never need it."""
    max_client_bot_tables: int = attrs.field(default=20, validator=_positive)
    """The most live tables with a bot that one client address may hold (the
    address that made them); a finished or archived table no longer counts."""
    finished_keep: float = attrs.field(default=3_600.0, validator=_not_negative)
    """Seconds a finished game stays live (listed, counted) before it is
    archived; its record stays at its address."""
    idle_keep: float = attrs.field(default=7 * 86_400.0, validator=_positive)
    """Seconds a table may go without a move before it is archived unfinished."""
    retire_seconds: float = attrs.field(default=60.0, validator=_positive)
    """How often the tables due to be archived are looked for."""


@attrs.define
class RateLimiter:
    """A token bucket per key (a seat token's hash, a client address):
    ``rate`` a second, at most ``burst`` at once.  Remembers at most
    ``max_keys`` keys (the oldest forgotten first)."""

    rate: float
    burst: float
    max_keys: int = 100_000
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, tuple[float, float]] = attrs.field(factory=dict, init=False)

    def allow(self, key: str) -> float:
        """0.0 when ``key`` may act now (and counts it), else the seconds to wait."""
        now = self.clock()
        tokens, then = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
        if len(self._buckets) >= self.max_keys:
            del self._buckets[next(iter(self._buckets))]
        self._buckets[key] = (tokens - 1.0, now)
        return 0.0
