"""How much a client may send and hold, and whom the server answers: body
and message sizes, move rates, sockets (within the process's open-file
limit: :func:`socket_limit`), the hosts answered and the trusted proxies."""

from __future__ import annotations

import ipaddress
import re
import time
from collections.abc import Callable
from typing import Any

import attrs

from backalley.errors import SetupError

__all__ = ["LOOPBACK_HOSTS", "RateLimiter", "ServerSettings", "socket_limit"]


LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")
"""This machine's loopback names: the hosts a server allows unless told otherwise."""


def _hosts(value: Any) -> tuple[str, ...]:
    """A text or a list of texts as a tuple of lower-case texts (anything
    else is left for the validator to refuse)."""
    if isinstance(value, str):
        value = (value,)
    try:
        items = tuple(value)
    except TypeError:
        return value  # type: ignore[no-any-return]
    return tuple(v.strip().lower() if isinstance(v, str) else v for v in items)


def _host_entries(_: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    for entry in value if isinstance(value, tuple) else (value,):
        if not isinstance(entry, str) or not host_pattern_ok(entry):
            raise SetupError(
                f"{attribute.name}: {entry!r} is not a host (a name or an address, "
                "with :port or not, such as localhost:8000, [::1] or tables.example.org; "
                "0.0.0.0 for any address, * for any host)"
            )


def _networks(_: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    for entry in value if isinstance(value, tuple) else (value,):
        try:
            ipaddress.ip_network(entry, strict=False)
        except (TypeError, ValueError):
            raise SetupError(
                f"{attribute.name}: {entry!r} is not an address or a network "
                "(such as 127.0.0.1, ::1 or 10.0.0.0/8)"
            ) from None


def host_pattern_ok(entry: str) -> bool:
    """Whether ``entry`` is a host an allowed-hosts list may hold."""
    if entry == "*":
        return True
    host, port = split_host(entry)
    if port is not None and not (port.isascii() and port.isdigit() and int(port) <= 65535):
        return False
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return False
        return host.endswith("]")
    return bool(_NAME.fullmatch(host))


_NAME = re.compile(r"(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*\.?")


def split_host(text: str) -> tuple[str, str | None]:
    """``host:port`` as ``(host, port)`` (``port`` ``None`` when not given;
    an IPv6 address in brackets keeps them)."""
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            return text, None
        rest = text[end + 1 :]
        return text[: end + 1], rest[1:] if rest.startswith(":") else (rest or None)
    host, colon, port = text.rpartition(":")
    if not colon:
        return text, None
    return host, port


SOCKET_FILE_SHARE = 2
"""The part of the process's open-file limit the sockets may take (one
half): the rest stays for HTTP requests, the database and the server's own
files."""
RESERVED_FILES = 64
"""Open files never given to sockets (the listening socket, the database, logs)."""


def socket_limit(configured: int, files: int | None = None) -> int:
    """The most WebSockets this process keeps open: ``configured``, but at
    most half of what the open-file limit leaves after :data:`RESERVED_FILES`
    (``files``: the limit, by default the process's soft ``RLIMIT_NOFILE``),
    so that HTTP is still answered when every socket is taken; at least 1."""
    if files is None:
        files = _open_file_limit()
    if files is None:
        return configured
    return max(1, min(configured, (files - RESERVED_FILES) // SOCKET_FILE_SHARE))


def _open_file_limit() -> int | None:
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows: no such limit to read
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return None
    return int(soft)


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
    closed with code 1013, "try again later"), and never more than the
    process's limit of open files leaves room for: see :func:`socket_limit`.
    A quarter of them are kept for the seats' sockets: spectators (and
    sockets still to send their token) never take those."""
    max_table_sockets: int = attrs.field(default=200, validator=_positive)
    """The most spectators' WebSockets open at once on one table (a seat's
    sockets are counted apart: see ``max_seat_sockets``)."""
    bot_delay: float = attrs.field(default=0.4, validator=_not_negative)
    """Seconds between two bot moves, so people can follow them."""
    deal_pause: float = attrs.field(default=60.0, validator=_not_negative)
    """The longest the bots wait at the end of a deal, in seconds, for the
    people at the table to continue (each seat a person had joined: its page's
    Continue, ``POST .../continue``, or a move of its own); 0: they do not
    wait."""
    poll_seconds: float = attrs.field(default=1.0, validator=_positive)
    """How often moves stored by other server processes are looked for, for
    the tables someone watches, while the store does not tell of them as
    they are committed (SQLite; PostgreSQL while its listening connection
    is lost)."""
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
    max_client_tables: int = attrs.field(default=40, validator=_positive)
    """The most live, unfinished tables one client address may hold (the
    address that made them, an IPv6 address by its /64 network), with bots
    or not; a finished or archived table no longer counts.  Counted in the
    store as a table is made: it holds across every process."""
    max_client_bot_tables: int = attrs.field(default=20, validator=_positive)
    """Of those, the most with a bot at a seat (counted likewise)."""
    lease_seconds: float = attrs.field(default=5.0, validator=_positive)
    """How long a process's claim to decide a table's bots lasts without
    being renewed (it is renewed while the process decides); past it,
    another process sharing the store takes the table's bots over."""
    max_thrown_in: int = attrs.field(default=20, validator=_positive)
    """The most deals in a row a table may throw in (nobody contracted):
    the move that throws in the last one stops the table, which takes no
    more moves (a game nobody plays would grow its log for ever)."""
    finished_keep: float = attrs.field(default=3_600.0, validator=_not_negative)
    """Seconds a finished game stays live (listed, counted) before it is
    archived; its record stays at its address."""
    idle_keep: float = attrs.field(default=7 * 86_400.0, validator=_positive)
    """Seconds a table may go without a move before it is archived unfinished."""
    retire_seconds: float = attrs.field(default=60.0, validator=_positive)
    """How often the tables due to be archived are looked for."""
    # -- the network edge: who may call, from where, and how many sockets ------
    allowed_hosts: tuple[str, ...] = attrs.field(
        default=LOOPBACK_HOSTS, converter=_hosts, validator=_host_entries
    )
    """The ``Host`` names a request may carry (any other is answered 421
    ``bad-host``: a page whose name was made to point at this server - DNS
    rebinding - cannot read or join its tables).  Each is a name or an
    address, with ``:port`` to allow that port only (``localhost:8000``,
    ``[::1]``, ``tables.example.org``); ``0.0.0.0`` allows any IP address
    written as such (never a name), ``*`` any host at all.  The default
    allows this machine's loopback names on any port; ``backalley serve``
    allows the address it listens on (see its ``--allowed-host``)."""
    trusted_proxies: tuple[str, ...] = attrs.field(
        default=(), converter=_hosts, validator=_networks
    )
    """Addresses (or networks: ``10.0.0.0/8``) of reverse proxies whose
    ``X-Forwarded-For`` header is believed: a request from one of them is
    counted (rate limits, sockets) against the client the header names.
    None by default: the header is ignored."""
    max_seat_sockets: int = attrs.field(default=8, validator=_positive)
    """The most WebSockets open at once for one seat of a table (a person's
    tabs and devices), each with the seat's token."""
    max_client_sockets: int = attrs.field(default=64, validator=_positive)
    """The most WebSockets one client address may hold open at once as a
    spectator, and apart from those, as a seat's (its token sent or not):
    spectators never keep a seat's socket from the same address out."""
    spectator_idle: float = attrs.field(default=600.0, validator=_positive)
    """Seconds a spectator's socket stays open without a push (a table where
    nothing happens); then it is closed with code 4408 and the page connects
    again."""


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
