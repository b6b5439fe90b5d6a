"""The embedded store: one SQLite file in write-ahead-log mode.

Every write is a transaction committed with ``synchronous=FULL`` before the
call returns, so a move acknowledged to a client survives the server
process being killed (and the machine losing power).  The table's version
check is the primary key of the moves, ``(table_id, number)``, together
with the rule that move ``n`` is stored only while the table holds ``n``
moves; the client move ids are a unique key per seat.

The embedded store serves one server process: it tells no other process
of a change (:meth:`SqliteStore.watch` answers ``None``), so a second
process sharing the file would only see moves as it polls for them.  Its
leases, counts and holds work as PostgreSQL's do all the same, so one
service's code serves both.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from backalley.errors import SetupError
from backalley.server.refusals import ServerError
from backalley.server.store import (
    ARCHIVED,
    CONFLICT,
    DUPLICATE,
    STORED,
    TABLE_COLUMNS,
    Appended,
    Caps,
    Created,
    DamageLog,
    MoveRow,
    TableRow,
    Watch,
)

__all__ = ["SCHEMA", "SqliteStore"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    seed TEXT NOT NULL,
    first_dealer INTEGER NOT NULL,
    seats TEXT NOT NULL,
    created REAL NOT NULL,
    owner TEXT,
    finished REAL,
    archived REAL,
    updated REAL,
    bots INTEGER,
    bot_next INTEGER,
    decider TEXT,
    lease_until REAL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    client_move_id TEXT,
    played REAL,
    PRIMARY KEY (table_id, number),
    UNIQUE (table_id, seat, client_move_id)
);
CREATE TABLE IF NOT EXISTS continues (
    table_id TEXT NOT NULL REFERENCES tables(id),
    deal INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    PRIMARY KEY (table_id, deal, seat)
);
CREATE INDEX IF NOT EXISTS tables_by_created ON tables (created);
"""

_ADDED = (
    ("owner", "TEXT"),
    ("finished", "REAL"),
    ("archived", "REAL"),
    ("updated", "REAL"),
    ("bots", "INTEGER"),
    ("bot_next", "INTEGER"),
    ("decider", "TEXT"),
    ("lease_until", "REAL"),
)
"""Columns of ``tables`` added after its first release: added to an older
database when it is opened."""
_ADDED_TO_MOVES = (("played", "REAL"),)
"""Columns of ``moves`` added after its first release."""
_MOVE_COLUMNS = "number, seat, move, client_move_id, played"


class SqliteStore:
    """Tables in the SQLite database at ``path`` (made when missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.damage_log = DamageLog()
        """The rows found damaged, each logged once (shared by its service)."""
        try:
            self._db = sqlite3.connect(
                str(self.path), check_same_thread=False, isolation_level=None, timeout=30
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            have = {str(r[1]) for r in self._db.execute("PRAGMA table_info(tables)")}
            for name, kind in _ADDED:
                if name not in have:
                    self._db.execute(f"ALTER TABLE tables ADD COLUMN {name} {kind}")
            if "updated" not in have:  # older tables: idle from now on, not since made
                self._db.execute("UPDATE tables SET updated = ?", (time.time(),))
            have = {str(r[1]) for r in self._db.execute("PRAGMA table_info(moves)")}
            for name, kind in _ADDED_TO_MOVES:
                if name not in have:
                    self._db.execute(f"ALTER TABLE moves ADD COLUMN {name} {kind}")
            self._fill_bots()
        except sqlite3.Error as exc:
            raise SetupError(f"cannot open the database {str(self.path)!r}: {exc}") from None
        self._lock = threading.Lock()

    def _fill_bots(self) -> None:
        """Say of each table an older server stored whether a bot plays it
        (the caps count those tables by this column)."""
        older = self._db.execute(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE bots IS NULL"
        ).fetchall()
        for row in self.damage_log.rows(older):
            self._db.execute("UPDATE tables SET bots = ? WHERE id = ?", (row.bots, row.id))

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """The store's lock, held for one call; the database failing under
        it (:class:`sqlite3.OperationalError`: "database or disk is full")
        is a :class:`~backalley.server.ServerError` ``503 database``."""
        with self._lock:
            try:
                yield
            except sqlite3.OperationalError as exc:
                raise ServerError(
                    503, "database", f"the database failed: {' '.join(str(exc).split())}"
                ) from None

    def create_table(
        self, row: TableRow, caps: Caps | None = None, *, bot_next: bool = False
    ) -> Created:
        with self._locked(), self._db:
            self._db.execute("BEGIN IMMEDIATE")
            refused = self._refused(row, caps)
            if refused is not None:
                return refused
            self._db.execute(
                "INSERT INTO tables"
                " (id, rules, seed, first_dealer, seats, created, owner, bots, bot_next)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*row.columns(), bot_next),
            )
        return "stored"

    def _refused(self, row: TableRow, caps: Caps | None) -> Created | None:
        """Which cap of ``caps`` refuses ``row`` (in the caller's transaction)."""
        if caps is None:
            return None
        (live,) = self._db.execute("SELECT COUNT(*) FROM tables WHERE archived IS NULL").fetchone()
        if live >= caps.tables:
            return "full"
        if row.owner is None:
            return None
        mine, with_bots = self._db.execute(
            "SELECT COUNT(*), COALESCE(SUM(bots), 0) FROM tables"
            " WHERE owner = ? AND archived IS NULL AND finished IS NULL",
            (row.owner,),
        ).fetchone()
        if caps.client_tables is not None and mine >= caps.client_tables:
            return "client-tables"
        if caps.client_bot_tables is not None and row.bots and with_bots >= caps.client_bot_tables:
            return "client-bot-tables"
        return None

    def table(self, table_id: str) -> TableRow | None:
        with self._locked():
            found = self._db.execute(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
        return None if found is None else TableRow.from_columns(found)

    def tables(self) -> Sequence[TableRow]:
        with self._locked():
            rows = self._db.execute(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE archived IS NULL ORDER BY created, id"
            ).fetchall()
        return self.damage_log.rows(rows)

    def ids(self, most: int | None = None) -> Sequence[str]:
        with self._locked():
            rows = self._db.execute(
                "SELECT id FROM tables WHERE archived IS NULL ORDER BY created DESC, id DESC"
                " LIMIT ?",
                (-1 if most is None else most,),
            ).fetchall()
        return [str(r[0]) for r in rows]

    def due(self, finished_before: float, idle_before: float) -> Sequence[str]:
        with self._locked():
            rows = self._db.execute(
                "SELECT id FROM tables WHERE archived IS NULL"
                " AND (finished < ? OR coalesce(updated, created) < ?) ORDER BY created, id",
                (finished_before, idle_before),
            ).fetchall()
        return [str(r[0]) for r in rows]

    def archive(
        self, table_id: str, when: float, finished_before: float, idle_before: float
    ) -> bool:
        with self._locked(), self._db:
            self._db.execute("BEGIN IMMEDIATE")
            done = self._db.execute(
                "UPDATE tables SET archived = ? WHERE id = ? AND archived IS NULL"
                " AND (finished < ? OR coalesce(updated, created) < ?)",
                (when, table_id, finished_before, idle_before),
            )
            return done.rowcount > 0

    def moves(self, table_id: str, start: int = 0) -> Sequence[MoveRow]:
        with self._locked():
            rows = self._db.execute(
                f"SELECT {_MOVE_COLUMNS} FROM moves"
                " WHERE table_id = ? AND number >= ? ORDER BY number",
                (table_id, start),
            ).fetchall()
        return [MoveRow(*r) for r in rows]

    def version(self, table_id: str) -> int:
        with self._locked():
            (count,) = self._db.execute(
                "SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)
            ).fetchone()
        return int(count)

    def append(
        self,
        table_id: str,
        row: MoveRow,
        *,
        when: float | None = None,
        over: bool = False,
        bot_next: bool = False,
    ) -> Appended:
        with self._locked():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                found = self._db.execute(
                    "SELECT archived FROM tables WHERE id = ?", (table_id,)
                ).fetchone()
                if found is not None and found[0] is not None:
                    self._db.execute("ROLLBACK")
                    return ARCHIVED
                if (
                    row.client_move_id is not None
                    and self._db.execute(
                        "SELECT 1 FROM moves WHERE table_id = ? AND seat = ? AND client_move_id = ?",
                        (table_id, row.seat, row.client_move_id),
                    ).fetchone()
                ):
                    self._db.execute("ROLLBACK")
                    return DUPLICATE
                (count,) = self._db.execute(
                    "SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)
                ).fetchone()
                if count != row.number:
                    self._db.execute("ROLLBACK")
                    return CONFLICT
                self._db.execute(
                    f"INSERT INTO moves (table_id, {_MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                    (table_id, row.number, row.seat, row.move, row.client_move_id, when),
                )
                self._db.execute(
                    "UPDATE tables SET updated = COALESCE(?, updated), bot_next = ?,"
                    " finished = CASE WHEN ? THEN ? ELSE finished END WHERE id = ?",
                    (when, bot_next, over, when, table_id),
                )
                self._db.execute("COMMIT")
            except sqlite3.IntegrityError:
                self._db.execute("ROLLBACK")
                return CONFLICT
            except BaseException:  # any failure: undo the transaction, then raise
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        return STORED

    def client_move(self, table_id: str, seat: int, client_move_id: str) -> MoveRow | None:
        with self._locked():
            found = self._db.execute(
                f"SELECT {_MOVE_COLUMNS} FROM moves"
                " WHERE table_id = ? AND seat = ? AND client_move_id = ?",
                (table_id, seat, client_move_id),
            ).fetchone()
        return None if found is None else MoveRow(*found)

    def claim_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        with self._locked():
            try:
                with self._db:
                    self._db.execute("BEGIN IMMEDIATE")
                    self._db.execute(
                        "INSERT INTO seats VALUES (?, ?, ?)", (table_id, seat, token_hash)
                    )
            except sqlite3.IntegrityError:
                return False
        return True

    def seat_hash(self, table_id: str, seat: int) -> str | None:
        with self._locked():
            found = self._db.execute(
                "SELECT token_hash FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat)
            ).fetchone()
        return None if found is None else str(found[0])

    def take_lease(self, table_id: str, owner: str, until: float, now: float) -> bool:
        with self._locked(), self._db:
            self._db.execute("BEGIN IMMEDIATE")
            done = self._db.execute(
                "UPDATE tables SET decider = ?, lease_until = ? WHERE id = ?"
                " AND (decider IS NULL OR decider = ? OR lease_until < ?)",
                (owner, until, table_id, owner, now),
            )
            return done.rowcount > 0

    def release_lease(self, table_id: str, owner: str) -> bool:
        with self._locked(), self._db:
            self._db.execute("BEGIN IMMEDIATE")
            done = self._db.execute(
                "UPDATE tables SET decider = NULL, lease_until = NULL WHERE id = ? AND decider = ?",
                (table_id, owner),
            )
            return done.rowcount > 0

    def orphans(self, now: float, most: int) -> Sequence[str]:
        with self._locked():
            rows = self._db.execute(
                "SELECT id FROM tables WHERE archived IS NULL AND finished IS NULL"
                " AND COALESCE(bot_next, 1) AND (decider IS NULL OR lease_until < ?)"
                " ORDER BY COALESCE(updated, created) DESC, id LIMIT ?",
                (now, most),
            ).fetchall()
        return [str(r[0]) for r in rows]

    def continue_deal(self, table_id: str, deal: int, seat: int) -> None:
        with self._locked(), self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT OR IGNORE INTO continues VALUES (?, ?, ?)", (table_id, deal, seat)
            )

    def continued(self, table_id: str, deal: int) -> frozenset[int]:
        with self._locked():
            rows = self._db.execute(
                "SELECT seat FROM continues WHERE table_id = ? AND deal = ?", (table_id, deal)
            ).fetchall()
        return frozenset(int(r[0]) for r in rows)

    def watch(self, heard: Callable[[str], None]) -> Watch | None:
        """``None``: this store tells no other process of its changes."""
        return None

    def close(self) -> None:
        with self._locked():
            self._db.close()
