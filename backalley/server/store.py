"""Where the server keeps its tables: the small interface every store has.

A table is stored as what replays it - its rule set (as a rules document),
its seed, its first dealer, what sits at each seat (``"human"`` or a bot's
name) - and its moves, numbered from 0 in the order they were applied.  A
move's number is the table's *version* before it: committing move ``n``
succeeds only while the table holds exactly ``n`` moves, so of two moves
racing for one table exactly one is stored (the other store call answers
:data:`CONFLICT`).  A move may carry the client's own id; a second move of
the same seat with the same id is never stored (:data:`DUPLICATE`).

Two stores implement it: :class:`~backalley.server.sqlite_store.SqliteStore`
(the embedded default) and
:class:`~backalley.server.postgres_store.PostgresStore` (several server
processes sharing one database).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Literal, Protocol

import attrs

__all__ = ["CONFLICT", "DUPLICATE", "STORED", "Appended", "MoveRow", "Store", "TableRow"]

Appended = Literal["stored", "conflict", "duplicate"]
STORED: Appended = "stored"
"""The move was committed."""
CONFLICT: Appended = "conflict"
"""Another move was committed at that number first: nothing was stored."""
DUPLICATE: Appended = "duplicate"
"""The seat's client move id was used before: nothing was stored."""


@attrs.frozen
class TableRow:
    """What starts a table: everything but its moves."""

    id: str
    rules: str
    """The rule set, as a rules document (JSON text)."""
    seed: int
    first_dealer: int
    seats: tuple[str, ...]
    """Per seat: ``"human"`` or the name of the bot that plays it."""
    created: float
    """When the table was made (seconds since the epoch)."""

    def columns(self) -> tuple[str, str, str, int, str, float]:
        """The row as a store keeps it: id, rules, seed (as text: 63 bits),
        first dealer, seats (JSON text), created."""
        return (
            self.id,
            self.rules,
            str(self.seed),
            self.first_dealer,
            json.dumps(list(self.seats)),
            self.created,
        )

    @classmethod
    def from_columns(cls, row: Sequence[object]) -> TableRow:
        """The row a store read back, in the order of :meth:`columns`."""
        id_, rules, seed, dealer, seats, created = row
        return cls(
            id=str(id_),
            rules=str(rules),
            seed=int(str(seed)),
            first_dealer=int(str(dealer)),
            seats=tuple(json.loads(str(seats))),
            created=float(str(created)),
        )


@attrs.frozen
class MoveRow:
    """One stored move."""

    number: int
    """The move's place in the game, from 0 (the table's version before it)."""
    seat: int
    move: str
    """The move's canonical text (``"play QS"``)."""
    client_move_id: str | None = None


class Store(Protocol):
    """The operations the server needs from a database.  Every method
    commits before it returns; a store is safe to call from several threads."""

    def create_table(self, row: TableRow) -> None:
        """Store a new table (no moves, no seat joined)."""
        ...

    def table(self, table_id: str) -> TableRow | None:
        """The table ``table_id``, or ``None``."""
        ...

    def tables(self) -> Sequence[TableRow]:
        """Every table, oldest first."""
        ...

    def moves(self, table_id: str, start: int = 0) -> Sequence[MoveRow]:
        """The table's moves numbered ``start`` and on, in order."""
        ...

    def version(self, table_id: str) -> int:
        """How many moves the table holds."""
        ...

    def append(self, table_id: str, row: MoveRow) -> Appended:
        """Commit ``row`` as the table's move ``row.number``: :data:`STORED`,
        or :data:`CONFLICT` when the table does not hold exactly
        ``row.number`` moves, or :data:`DUPLICATE` when the seat already
        stored a move with ``row.client_move_id``."""
        ...

    def client_move(self, table_id: str, seat: int, client_move_id: str) -> MoveRow | None:
        """The seat's stored move with that client move id, or ``None``."""
        ...

    def claim_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        """Record the hash of the token that plays ``seat``; ``False`` when
        the seat was joined before (nothing changes)."""
        ...

    def seat_hash(self, table_id: str, seat: int) -> str | None:
        """The stored token hash of ``seat``, or ``None`` while it is free."""
        ...

    def close(self) -> None:
        """Release the database."""
        ...
