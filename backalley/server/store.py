"""Where the server keeps its tables: the small interface every store has.

A table is stored as what replays it - its rule set (as a rules document),
its seed, its first dealer, what sits at each seat (``"human"`` or a bot's
name) - and its moves, numbered from 0 in the order they were applied.  A
move's number is the table's *version* before it: committing move ``n``
succeeds only while the table holds exactly ``n`` moves, so of two moves
racing for one table exactly one is stored (the other store call answers
:data:`CONFLICT`).  A move may carry the client's own id; a second move of
the same seat with the same id is never stored (:data:`DUPLICATE`).

A table is *live* until it is archived (:meth:`Store.archive`): a finished
game some time after its end, or a table nobody moved at for long.  An
archived table keeps its row and its moves (its record can still be read),
but it is no longer listed by :meth:`Store.tables`, nor counted against the
server's caps.  A row the store cannot read back (a column that is not what
was written, such as ``seats`` that is not JSON) is a
:class:`~backalley.server.ServerError` ``500 corrupt`` for that table alone:
:meth:`Store.tables` leaves it out and logs it once.

Two stores implement it: :class:`~backalley.server.sqlite_store.SqliteStore`
(the embedded default) and
:class:`~backalley.server.postgres_store.PostgresStore` (several server
processes sharing one database).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterable, Sequence
from typing import Literal, Protocol

import attrs

from backalley.server.errors import ServerError

__all__ = [
    "ARCHIVED",
    "CONFLICT",
    "DUPLICATE",
    "STORED",
    "TABLE_COLUMNS",
    "Appended",
    "DamageLog",
    "MoveRow",
    "Store",
    "TableRow",
]

TABLE_COLUMNS = "id, rules, seed, first_dealer, seats, created, owner, finished, archived"
"""The columns a table's row is read from, in the order of :meth:`TableRow.from_columns`."""

_log = logging.getLogger(__name__)

Appended = Literal["stored", "conflict", "duplicate", "archived"]
STORED: Appended = "stored"
"""The move was committed."""
CONFLICT: Appended = "conflict"
"""Another move was committed at that number first: nothing was stored."""
DUPLICATE: Appended = "duplicate"
"""The seat's client move id was used before: nothing was stored."""
ARCHIVED: Appended = "archived"
"""The table was archived (by this process or another): nothing was stored."""


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
    owner: str | None = None
    """The client address that made it (its tables with bots count against
    that address's limit); ``None`` when not known."""
    finished: float | None = None
    """When its game ended (``None``: it goes on)."""
    archived: float | None = None
    """When it was archived (``None``: it is live)."""

    def columns(self) -> tuple[str, str, str, int, str, float, str | None]:
        """The row as a store keeps it when it is made: id, rules, seed (as
        text: 63 bits), first dealer, seats (JSON text), created, owner."""
        return (
            self.id,
            self.rules,
            str(self.seed),
            self.first_dealer,
            json.dumps(list(self.seats)),
            self.created,
            self.owner,
        )

    @classmethod
    def from_columns(cls, row: Sequence[object]) -> TableRow:
        """The row a store read back, in the order of :data:`TABLE_COLUMNS`;
        :class:`~backalley.server.ServerError` ``500 corrupt`` when a column
        is not what a store writes (``seats`` not a JSON list of names, a
        seed that is not a number)."""
        id_, rules, seed, dealer, seats, created, owner, finished, archived = row
        try:
            kinds = json.loads(str(seats))
            if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
                raise ValueError("seats is not a list of names")
            return cls(
                id=str(id_),
                rules=str(rules),
                seed=int(str(seed)),
                first_dealer=int(str(dealer)),
                seats=tuple(kinds),
                created=float(str(created)),
                owner=None if owner is None else str(owner),
                finished=None if finished is None else float(str(finished)),
                archived=None if archived is None else float(str(archived)),
            )
        except (ValueError, TypeError, RecursionError) as exc:
            raise ServerError(
                500, "corrupt", f"table {str(id_)[:40]}: its stored row cannot be read ({exc})"
            ) from None


class DamageLog:
    """The tables found damaged, each logged once (a list asked for every
    second does not fill the log).  A store keeps one as ``damage_log``
    (the rows it cannot read), which its
    :class:`~backalley.server.tables.TableService` shares (the rules it
    cannot load, met by the list, a bots' run, the poll or the restart):
    each damaged table is said once between them."""

    def __init__(self) -> None:
        self._seen: set[str] = set()
        self._lock = threading.Lock()

    def note(self, table_id: str, why: str) -> None:
        """Log ``why`` the first time ``table_id`` is found damaged."""
        with self._lock:
            if table_id in self._seen or len(self._seen) > 100_000:
                return
            self._seen.add(table_id)
        _log.error("table %s is damaged and left out: %s", table_id[:40], why)

    def rows(self, found: Iterable[Sequence[object]]) -> list[TableRow]:
        """The rows of ``found`` that read back, the others logged and left out."""
        rows = []
        for columns in found:
            try:
                rows.append(TableRow.from_columns(columns))
            except ServerError as exc:
                self.note(str(columns[0]), exc.message)
        return rows


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
        """Every live table (not archived), oldest first; a row that cannot
        be read back is left out (and logged)."""
        ...

    def due(self, finished_before: float, idle_before: float) -> Sequence[str]:
        """The live tables to archive: finished before ``finished_before``, or
        whose last move (or making, without moves) is before ``idle_before``."""
        ...

    def archive(
        self, table_id: str, when: float, finished_before: float, idle_before: float
    ) -> bool:
        """Archive the table at time ``when`` (its row and moves are kept) if
        it is still due as :meth:`due` says, checked as it is archived (a move
        stored since :meth:`due` read it keeps it live); answers whether it
        was archived."""
        ...

    def moves(self, table_id: str, start: int = 0) -> Sequence[MoveRow]:
        """The table's moves numbered ``start`` and on, in order."""
        ...

    def version(self, table_id: str) -> int:
        """How many moves the table holds."""
        ...

    def append(
        self, table_id: str, row: MoveRow, *, when: float | None = None, over: bool = False
    ) -> Appended:
        """Commit ``row`` as the table's move ``row.number``: :data:`STORED`,
        or :data:`CONFLICT` when the table does not hold exactly
        ``row.number`` moves, or :data:`DUPLICATE` when the seat already
        stored a move with ``row.client_move_id``, or :data:`ARCHIVED` when
        the table is archived (checked in the same transaction: a table
        another process archived takes no more moves).  ``when``: the time of the
        move (the table's last activity); ``over``: the move ended the game
        (the table is finished at ``when``)."""
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
