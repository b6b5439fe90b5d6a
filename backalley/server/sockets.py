"""How many WebSockets are open, and whether one more may be.

Three kinds of socket are counted apart, so that nobody without a seat's
token can keep a seated person out:

- a **spectator's** socket (``/api/tables/{table}/socket``, no token): at
  most :attr:`~backalley.server.ServerSettings.max_table_sockets` on one
  table, and all spectators together leave a quarter of the process's
  sockets free;
- a **seat's** socket before its token is read (**waiting**): counted
  against the process's limit only, for at most
  :attr:`~backalley.server.ServerSettings.auth_seconds`;
- a **seat's** socket whose token was accepted: at most
  :attr:`~backalley.server.ServerSettings.max_seat_sockets` for one seat,
  never refused because of spectators.

Every socket also counts against its client address
(:attr:`~backalley.server.ServerSettings.max_client_sockets`), spectators'
and seats' apart: a person's seat on the same address (one machine, one
network behind one router) as a crowd of spectators is never refused
because of them.  The
process's limit is :func:`~backalley.server.settings.socket_limit` of
:attr:`~backalley.server.ServerSettings.max_sockets`: never more than the
open-file limit leaves room for, so HTTP is answered whatever the sockets.
A refusal is a sentence; the socket is then closed with code 1013 ("try
again later").
"""

from __future__ import annotations

from collections import Counter
from typing import TypeVar

import attrs

__all__ = ["SocketCounts"]

K = TypeVar("K")


@attrs.define
class SocketCounts:
    """The sockets open now, by kind, table, seat and client (one event loop
    changes them: no lock)."""

    limit: int
    """The most sockets of the process."""
    table_spectators: int
    """The most spectators' sockets of one table."""
    seat_sockets: int
    """The most sockets of one seat of a table, each with the seat's token."""
    client_sockets: int
    """The most sockets of one client address."""
    total: int = 0
    spectators: int = 0
    by_table: Counter[str] = attrs.field(factory=Counter)
    by_seat: Counter[tuple[str, int]] = attrs.field(factory=Counter)
    by_client: Counter[str] = attrs.field(factory=Counter)
    """Spectators' sockets by client address."""
    seats_by_client: Counter[str] = attrs.field(factory=Counter)
    """Seats' sockets (waiting for their token or not) by client address."""

    @property
    def spectator_limit(self) -> int:
        """The most spectators' sockets of the process: a quarter of
        :attr:`limit` (at least one socket) stays for the seats."""
        return max(0, self.limit - max(1, self.limit // 4))

    def _common(self, client: str, by_client: Counter[str]) -> str | None:
        if self.total >= self.limit:
            return f"at most {self.limit} sockets are open at once: try again later"
        if by_client[client] >= self.client_sockets:
            return (
                f"at most {self.client_sockets} sockets are open from one address at once: "
                "close some, or try again later"
            )
        return None

    def add_spectator(self, table: str, client: str) -> str | None:
        """Count a spectator's socket of ``table`` from ``client``, or say why not."""
        why = self._common(client, self.by_client)
        if why is not None:
            return why
        if self.spectators >= self.spectator_limit:
            return (
                f"at most {self.spectator_limit} spectators' sockets are open at once: "
                "try again later"
            )
        if self.by_table[table] >= self.table_spectators:
            return (
                f"at most {self.table_spectators} spectators' sockets are open on one table "
                "at once: try again later"
            )
        self.total += 1
        self.spectators += 1
        self.by_table[table] += 1
        self.by_client[client] += 1
        return None

    def remove_spectator(self, table: str, client: str) -> None:
        self.total -= 1
        self.spectators -= 1
        _drop(self.by_table, table)
        _drop(self.by_client, client)

    def add_waiting(self, client: str) -> str | None:
        """Count a seat's socket from ``client`` that has not sent its token
        yet, or say why not."""
        why = self._common(client, self.seats_by_client)
        if why is not None:
            return why
        self.total += 1
        self.seats_by_client[client] += 1
        return None

    def remove_waiting(self, client: str) -> None:
        self.total -= 1
        _drop(self.seats_by_client, client)

    def seat(self, table: str, seat: int) -> str | None:
        """Count a waiting socket whose token acts for ``seat`` of ``table``
        as that seat's, or say why not (it stays counted as waiting)."""
        if self.by_seat[table, seat] >= self.seat_sockets:
            return (
                f"at most {self.seat_sockets} sockets are open for one seat at once: "
                "close another tab, or try again later"
            )
        self.by_seat[table, seat] += 1
        return None

    def unseat(self, table: str, seat: int) -> None:
        _drop(self.by_seat, (table, seat))


def _drop(counts: Counter[K], key: K) -> None:
    """One fewer of ``key`` (forgotten at none, so the counters do not grow)."""
    left = counts[key] - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)
