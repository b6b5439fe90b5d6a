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

Beside what replays a table, a store keeps what every server process
sharing it must agree on:

- **who decides the table's bots** (:meth:`Store.take_lease`): a lease held
  by one process at a time, with an expiry, so that a bot's move is decided
  once however many processes watch the table, and taken over when its
  holder dies;
- **whether a bot is to move next** (``bot_next``, written with each move),
  so that a process finds the tables whose bots nobody decides
  (:meth:`Store.orphans`) without replaying every table;
- **the seats that continued after a deal's end** (:meth:`Store.continue_deal`)
  and each move's time (:attr:`MoveRow.played`), so that the hold at the
  end of a deal is the same on every process;
- **the caps on making tables** (:class:`Caps`), counted and taken in the
  transaction that stores the new table.

A store that can tell other processes of a change as it is committed
(PostgreSQL's ``NOTIFY``) answers :meth:`Store.watch` with a
:class:`Watch`; the others answer ``None`` and the server looks for changes
every ``poll_seconds``.

Two stores implement it: :class:`~backalley.server.sqlite_store.SqliteStore`
(the embedded default) and
:class:`~backalley.server.postgres_store.PostgresStore` (several server
processes sharing one database).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Literal, Protocol

import attrs

from backalley.server.refusals import ServerError

__all__ = [
    "ARCHIVED",
    "CONFLICT",
    "DUPLICATE",
    "HUMAN",
    "STORED",
    "TABLE_COLUMNS",
    "Appended",
    "Caps",
    "Created",
    "DamageLog",
    "MoveRow",
    "Store",
    "TableRow",
    "Watch",
    "change_text",
    "read_change",
]

HUMAN = "human"
"""What a seat played by a person is called in a table's seats."""

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


Created = Literal["stored", "full", "client-tables", "client-bot-tables"]
"""What :meth:`Store.create_table` did: stored the table, or refused it
because the store holds :attr:`Caps.tables` live tables (``"full"``), or
because its owner holds :attr:`Caps.client_tables` live unfinished tables
(``"client-tables"``), or that many with a bot (``"client-bot-tables"``)."""


@attrs.frozen
class Caps:
    """The most tables a store may hold as a new one is made, counted in the
    transaction that stores it (two processes making tables at once never
    both take the last place)."""

    tables: int
    """The most live tables of the store."""
    client_tables: int | None = None
    """The most live, unfinished tables one owner (client address) may have
    made; ``None``: no such cap."""
    client_bot_tables: int | None = None
    """The most of those with a bot at a seat; ``None``: no such cap."""


def change_text(table_id: str, what: int | str) -> str:
    """The text a store sends other processes when a table changes: its id
    and the table's version after a move, or a word (``"continue"``)."""
    return f"{table_id} {what}"


def read_change(text: str) -> tuple[str, int | None] | None:
    """:func:`change_text` read back: the table and its version (``None``:
    not a move), or ``None`` for a text no store sent."""
    table_id, _, what = text.partition(" ")
    if not table_id or not what:
        return None
    return table_id, int(what) if what.isascii() and what.isdigit() else None


class Watch(Protocol):
    """Changes committed by any process, heard as they are committed
    (:meth:`Store.watch`)."""

    @property
    def listening(self) -> bool:
        """Whether changes are being heard now (``False`` while the
        connection that hears them is lost: the server looks for changes
        itself meanwhile)."""
        ...

    def close(self) -> None:
        """Stop hearing changes (waits for the listening thread to end)."""
        ...


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

    @property
    def bots(self) -> bool:
        """Whether a bot plays one of its seats."""
        return any(kind != HUMAN for kind in self.seats)

    def columns(self) -> tuple[str, str, str, int, str, float, str | None, bool]:
        """The row as a store keeps it when it is made: id, rules, seed (as
        text: 63 bits), first dealer, seats (JSON text), created, owner,
        whether a bot plays a seat."""
        return (
            self.id,
            self.rules,
            str(self.seed),
            self.first_dealer,
            json.dumps(list(self.seats)),
            self.created,
            self.owner,
            self.bots,
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
    :class:`~backalley.server.TableService` shares (the rules it
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
    played: float | None = None
    """When it was stored (seconds since the epoch; ``None``: not known, a
    move stored by an older server)."""


class Store(Protocol):
    """The operations the server needs from a database.  Every method
    commits before it returns; a store is safe to call from several threads."""

    def create_table(
        self, row: TableRow, caps: Caps | None = None, *, bot_next: bool = False
    ) -> Created:
        """Store a new table (no moves, no seat joined) unless ``caps`` (counted
        in the same transaction) refuse it; ``bot_next``: a bot makes its
        first move."""
        ...

    def table(self, table_id: str) -> TableRow | None:
        """The table ``table_id``, or ``None``."""
        ...

    def tables(self) -> Sequence[TableRow]:
        """Every live table (not archived), oldest first; a row that cannot
        be read back is left out (and logged)."""
        ...

    def ids(self, most: int | None = None) -> Sequence[str]:
        """The ids of the live tables, newest first, at most ``most`` of them
        (``None``: all)."""
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
        self,
        table_id: str,
        row: MoveRow,
        *,
        when: float | None = None,
        over: bool = False,
        bot_next: bool = False,
    ) -> Appended:
        """Commit ``row`` as the table's move ``row.number``: :data:`STORED`,
        or :data:`CONFLICT` when the table does not hold exactly
        ``row.number`` moves, or :data:`DUPLICATE` when the seat already
        stored a move with ``row.client_move_id``, or :data:`ARCHIVED` when
        the table is archived (checked in the same transaction: a table
        another process archived takes no more moves).  ``when``: the time of the
        move (the table's last activity, and the move's :attr:`MoveRow.played`);
        ``over``: the move ended the game (the table is finished at ``when``);
        ``bot_next``: a bot is to move after it.  A store that can
        (:meth:`watch`) tells the other processes as the move is committed."""
        ...

    def take_lease(self, table_id: str, owner: str, until: float, now: float) -> bool:
        """Make ``owner`` the one process that decides the table's bots until
        ``until``, if no other process holds that lease after ``now`` (an
        owner may renew its own); answers whether ``owner`` holds it."""
        ...

    def release_lease(self, table_id: str, owner: str) -> bool:
        """Give up ``owner``'s lease of the table; answers whether it held it."""
        ...

    def orphans(self, now: float, most: int) -> Sequence[str]:
        """The live, unfinished tables (at most ``most``, the most recently
        moved first) whose next move is a bot's and whose bots no process
        decides after ``now`` (no lease, or one expired: its process died)."""
        ...

    def continue_deal(self, table_id: str, deal: int, seat: int) -> None:
        """Record that ``seat`` has seen the end of deal ``deal`` (once; again
        is nothing), and tell the other processes as :meth:`append` does."""
        ...

    def continued(self, table_id: str, deal: int) -> frozenset[int]:
        """The seats that continued after deal ``deal`` (:meth:`continue_deal`)."""
        ...

    def watch(self, heard: Callable[[str], None]) -> Watch | None:
        """Call ``heard`` (on a thread of the store's) with each change any
        process commits (:func:`change_text`), and with ``""`` each time
        hearing starts again after a lost connection (changes may have been
        missed: look at every table watched); ``None`` when this store
        cannot (the server polls instead)."""
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
