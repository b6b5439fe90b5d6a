"""The embedded store: one SQLite file in write-ahead-log mode.

Every write is a transaction committed with ``synchronous=FULL`` before the
call returns, so a move acknowledged to a client survives the server
process being killed (and the machine losing power).  The table's version
check is the primary key of the moves, ``(table_id, number)``, together
with the rule that move ``n`` is stored only while the table holds ``n``
moves; the client move ids are a unique key per seat.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from backalley.errors import SetupError
from backalley.server.errors import ServerError
from backalley.server.store import (
    ARCHIVED,
    CONFLICT,
    DUPLICATE,
    STORED,
    TABLE_COLUMNS,
    Appended,
    DamageLog,
    MoveRow,
    TableRow,
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
    updated REAL
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
    PRIMARY KEY (table_id, number),
    UNIQUE (table_id, seat, client_move_id)
);
"""

_ADDED = (("owner", "TEXT"), ("finished", "REAL"), ("archived", "REAL"), ("updated", "REAL"))
"""Columns of ``tables`` added after its first release: added to an older
database when it is opened."""


class SqliteStore:
    """Tables in the SQLite database at ``path`` (made when missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
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
        except sqlite3.Error as exc:
            raise SetupError(f"cannot open the database {str(self.path)!r}: {exc}") from None
        self._lock = threading.Lock()
        self.damage_log = DamageLog()
        """The rows found damaged, each logged once (shared by its service)."""

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

    def create_table(self, row: TableRow) -> None:
        with self._locked(), self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT INTO tables (id, rules, seed, first_dealer, seats, created, owner)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                row.columns(),
            )

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
                "SELECT number, seat, move, client_move_id FROM moves"
                " WHERE table_id = ? AND number >= ? ORDER BY number",
                (table_id, start),
            ).fetchall()
        return [MoveRow(n, s, m, c) for n, s, m, c in rows]

    def version(self, table_id: str) -> int:
        with self._locked():
            (count,) = self._db.execute(
                "SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)
            ).fetchone()
        return int(count)

    def append(
        self, table_id: str, row: MoveRow, *, when: float | None = None, over: bool = False
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
                    "INSERT INTO moves VALUES (?, ?, ?, ?, ?)",
                    (table_id, row.number, row.seat, row.move, row.client_move_id),
                )
                if when is not None:
                    self._db.execute(
                        "UPDATE tables SET updated = ?,"
                        " finished = CASE WHEN ? THEN ? ELSE finished END WHERE id = ?",
                        (when, over, when, table_id),
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
                "SELECT number, seat, move, client_move_id FROM moves"
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

    def close(self) -> None:
        with self._locked():
            self._db.close()
