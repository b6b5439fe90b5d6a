"""The shared store: tables in a PostgreSQL database, for several server
processes at once.

The same interface as the embedded
:class:`~backalley.server.sqlite_store.SqliteStore`, over psycopg 3 (the
optional extra ``server``).  Its three tables are named ``backalley_tables``,
``backalley_seats`` and ``backalley_moves`` so that they can live in a
database that holds other things; they are made when missing.

Every write is one transaction committed before the call returns.  Storing
move ``n`` first locks the table's row (so the moves of one table are
stored one at a time, whichever server process sends them), then checks
that the table holds exactly ``n`` moves; the moves' primary key
``(table_id, number)`` and the unique ``(table_id, seat, client_move_id)``
hold even against a database set up with other isolation levels: a unique
violation or a serialization failure answers
:data:`~backalley.server.store.CONFLICT` (or
:data:`~backalley.server.store.DUPLICATE` for the client move id).

A store keeps a few connections (one per thread using it at once, at most
``connections``); a connection the database dropped is opened again once
before a call gives up.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

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

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg.conninfo import conninfo_to_dict
except ImportError:  # the extra is not installed: PostgresStore says so
    _HAVE_PSYCOPG = False
else:
    _HAVE_PSYCOPG = True

__all__ = ["SCHEMA", "PostgresStore", "redacted"]

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS backalley_tables (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    seed TEXT NOT NULL,
    first_dealer INTEGER NOT NULL,
    seats TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    owner TEXT,
    finished DOUBLE PRECISION,
    archived DOUBLE PRECISION,
    updated DOUBLE PRECISION
)""",
    # the columns added after the first release, for an older database
    "ALTER TABLE backalley_tables ADD COLUMN IF NOT EXISTS owner TEXT",
    "ALTER TABLE backalley_tables ADD COLUMN IF NOT EXISTS finished DOUBLE PRECISION",
    "ALTER TABLE backalley_tables ADD COLUMN IF NOT EXISTS archived DOUBLE PRECISION",
    # (an older table counts as idle from the upgrade on, not since it was made)
    "ALTER TABLE backalley_tables ADD COLUMN IF NOT EXISTS updated DOUBLE PRECISION"
    " DEFAULT extract(epoch from now())",
    "ALTER TABLE backalley_tables ALTER COLUMN updated DROP DEFAULT",
    """CREATE TABLE IF NOT EXISTS backalley_seats (
    table_id TEXT NOT NULL REFERENCES backalley_tables(id),
    seat INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    CONSTRAINT backalley_seats_seat PRIMARY KEY (table_id, seat)
)""",
    """CREATE TABLE IF NOT EXISTS backalley_moves (
    table_id TEXT NOT NULL REFERENCES backalley_tables(id),
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    client_move_id TEXT,
    CONSTRAINT backalley_moves_number PRIMARY KEY (table_id, number),
    CONSTRAINT backalley_moves_client_move UNIQUE (table_id, seat, client_move_id)
)""",
)
"""The statements that make the store's tables and columns (each ``IF NOT EXISTS``)."""

_SCHEMA_LOCK = 0x6261_636B_616C  # "backal": the advisory lock held while the schema is made
_CLIENT_MOVE = "backalley_moves_client_move"
_NEW_COLUMNS = "id, rules, seed, first_dealer, seats, created, owner"
_MOVE_COLUMNS = "number, seat, move, client_move_id"

_T = TypeVar("_T")


def redacted(url: str) -> str:
    """``url`` (a ``postgresql://`` address or ``key=value`` words) with its
    password written ``***``: what messages show of a database address."""
    shown = re.sub(r"^([A-Za-z][A-Za-z0-9+.-]*://[^:@/?]*):[^@]*@", r"\1:***@", url)
    shown = re.sub(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|[^&\s]*)", r"\1***", shown)
    return _without_password(shown, url)


def _without_password(text: str, url: str) -> str:
    """``text`` with the password of the address ``url`` written ``***``."""
    if _HAVE_PSYCOPG:
        try:
            secret = conninfo_to_dict(url).get("password")
        except psycopg.Error:
            secret = None
        if secret:
            text = text.replace(str(secret), "***")
    return text


def _sentence(exc: BaseException, url: str) -> str:
    """The driver's message on one line, never with the password."""
    return _without_password(" ".join(str(exc).split()) or type(exc).__name__, url)


def _move(row: Sequence[Any]) -> MoveRow:
    number, seat, move, client_move_id = row
    return MoveRow(
        int(number), int(seat), str(move), None if client_move_id is None else str(client_move_id)
    )


class PostgresStore:
    """Tables in the PostgreSQL database at ``url`` (``postgresql://user@host:port/name``
    or libpq's ``key=value`` words), its tables made when missing.

    Raises :class:`~backalley.SetupError` when psycopg is not installed or
    the database cannot be reached (the message names the address, never
    the password).  Later, a database that cannot be reached any more is a
    :class:`~backalley.server.ServerError` ``503 database``.
    """

    def __init__(self, url: str, *, connections: int = 4, connect_timeout: float = 10.0) -> None:
        if not _HAVE_PSYCOPG:
            raise SetupError(
                "the PostgreSQL store needs psycopg 3: pip install 'backalley[server]'"
            )
        if not isinstance(url, str) or not url.strip():
            raise SetupError("a PostgreSQL address is postgresql://user@host:port/name")
        if isinstance(connections, bool) or not isinstance(connections, int) or connections < 1:
            raise SetupError(f"connections must be a whole number >= 1, not {connections!r}")
        self.url = url
        self.address = redacted(url)
        """The database's address as messages show it (no password)."""
        self._timeout = max(1, round(connect_timeout))
        self._idle: list[psycopg.Connection[tuple[Any, ...]]] = []
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(connections)
        self._closed = False
        self.damage_log = DamageLog()
        """The rows found damaged, each logged once (shared by its service)."""
        try:
            first = self._connect()
        except psycopg.Error as exc:
            raise SetupError(
                f"cannot reach the database {self.address}: {_sentence(exc, url)}"
            ) from None
        try:
            with first.transaction():
                first.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                for statement in SCHEMA:
                    first.execute(statement)
        except psycopg.Error as exc:
            first.close()
            raise SetupError(
                f"cannot make the tables in the database {self.address}: {_sentence(exc, url)}"
            ) from None
        self._idle.append(first)

    # -- connections ---------------------------------------------------------------

    def _connect(self) -> psycopg.Connection[tuple[Any, ...]]:
        return psycopg.connect(self.url, autocommit=True, connect_timeout=self._timeout)

    def _take(self) -> psycopg.Connection[tuple[Any, ...]]:
        with self._lock:
            if self._closed:
                raise ServerError(503, "database", "the store is closed")
            if self._idle:
                return self._idle.pop()
        try:
            return self._connect()
        except psycopg.Error as exc:
            raise ServerError(
                503,
                "database",
                f"cannot reach the database {self.address}: {_sentence(exc, self.url)}",
            ) from None

    def _give(self, conn: psycopg.Connection[tuple[Any, ...]]) -> None:
        if conn.closed or conn.broken:
            conn.close()
            return
        with self._lock:
            if not self._closed:
                self._idle.append(conn)
                return
        conn.close()

    def _drop_idle(self) -> None:
        """Forget the idle connections (after one was found dropped: the
        database probably restarted, and they are gone too)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

    def _run(self, work: Callable[[psycopg.Connection[tuple[Any, ...]]], _T]) -> _T:
        """``work`` on a connection of its own; once more on a new connection
        when the database dropped the first one."""
        with self._slots:
            for attempt in (1, 2):
                conn = self._take()
                try:
                    result = work(conn)
                except psycopg.OperationalError as exc:
                    if not (conn.closed or conn.broken):
                        self._give(conn)
                        raise
                    conn.close()
                    self._drop_idle()
                    if attempt == 2:
                        raise ServerError(
                            503,
                            "database",
                            f"lost the database {self.address}: {_sentence(exc, self.url)}",
                        ) from None
                    continue
                except BaseException:  # any other failure: the connection goes back, then raise
                    self._give(conn)
                    raise
                self._give(conn)
                return result
        raise AssertionError("unreachable")  # pragma: no cover

    # -- the Store interface -------------------------------------------------------------

    def create_table(self, row: TableRow) -> None:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> None:
            conn.execute(
                f"INSERT INTO backalley_tables ({_NEW_COLUMNS})"
                " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                row.columns(),
            )

        self._run(work)

    def table(self, table_id: str) -> TableRow | None:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> tuple[Any, ...] | None:
            return conn.execute(
                f"SELECT {TABLE_COLUMNS} FROM backalley_tables WHERE id = %s", (table_id,)
            ).fetchone()

        found = self._run(work)
        return None if found is None else TableRow.from_columns(found)

    def tables(self) -> Sequence[TableRow]:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
            return conn.execute(
                f"SELECT {TABLE_COLUMNS} FROM backalley_tables"
                " WHERE archived IS NULL ORDER BY created, id"
            ).fetchall()

        return self.damage_log.rows(self._run(work))

    def due(self, finished_before: float, idle_before: float) -> Sequence[str]:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
            return conn.execute(
                "SELECT id FROM backalley_tables WHERE archived IS NULL"
                " AND (finished < %s OR coalesce(updated, created) < %s) ORDER BY created, id",
                (finished_before, idle_before),
            ).fetchall()

        return [str(r[0]) for r in self._run(work)]

    def archive(
        self, table_id: str, when: float, finished_before: float, idle_before: float
    ) -> bool:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> bool:
            done = conn.execute(
                "UPDATE backalley_tables SET archived = %s WHERE id = %s AND archived IS NULL"
                " AND (finished < %s OR coalesce(updated, created) < %s)",
                (when, table_id, finished_before, idle_before),
            )
            return done.rowcount > 0

        return self._run(work)

    def moves(self, table_id: str, start: int = 0) -> Sequence[MoveRow]:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
            return conn.execute(
                f"SELECT {_MOVE_COLUMNS} FROM backalley_moves"
                " WHERE table_id = %s AND number >= %s ORDER BY number",
                (table_id, start),
            ).fetchall()

        return [_move(r) for r in self._run(work)]

    def version(self, table_id: str) -> int:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> int:
            found = conn.execute(
                "SELECT count(*) FROM backalley_moves WHERE table_id = %s", (table_id,)
            ).fetchone()
            return 0 if found is None else int(found[0])

        return self._run(work)

    def append(
        self, table_id: str, row: MoveRow, *, when: float | None = None, over: bool = False
    ) -> Appended:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> Appended:
            try:
                with conn.transaction():
                    table = conn.execute(
                        "SELECT archived FROM backalley_tables WHERE id = %s FOR NO KEY UPDATE",
                        (table_id,),
                    ).fetchone()
                    if table is None:
                        return CONFLICT
                    if table[0] is not None:
                        return ARCHIVED
                    if (
                        row.client_move_id is not None
                        and conn.execute(
                            "SELECT 1 FROM backalley_moves"
                            " WHERE table_id = %s AND seat = %s AND client_move_id = %s",
                            (table_id, row.seat, row.client_move_id),
                        ).fetchone()
                        is not None
                    ):
                        return DUPLICATE
                    found = conn.execute(
                        "SELECT count(*) FROM backalley_moves WHERE table_id = %s", (table_id,)
                    ).fetchone()
                    if found is None or int(found[0]) != row.number:
                        return CONFLICT
                    conn.execute(
                        f"INSERT INTO backalley_moves (table_id, {_MOVE_COLUMNS})"
                        " VALUES (%s, %s, %s, %s, %s)",
                        (table_id, row.number, row.seat, row.move, row.client_move_id),
                    )
                    if when is not None:
                        conn.execute(
                            "UPDATE backalley_tables SET updated = %s,"
                            " finished = CASE WHEN %s THEN %s ELSE finished END WHERE id = %s",
                            (when, over, when, table_id),
                        )
            except pg_errors.UniqueViolation as exc:
                return DUPLICATE if exc.diag.constraint_name == _CLIENT_MOVE else CONFLICT
            except (
                pg_errors.SerializationFailure,
                pg_errors.DeadlockDetected,
                pg_errors.ForeignKeyViolation,
            ):
                return CONFLICT
            return STORED

        return self._run(work)

    def client_move(self, table_id: str, seat: int, client_move_id: str) -> MoveRow | None:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> tuple[Any, ...] | None:
            return conn.execute(
                f"SELECT {_MOVE_COLUMNS} FROM backalley_moves"
                " WHERE table_id = %s AND seat = %s AND client_move_id = %s",
                (table_id, seat, client_move_id),
            ).fetchone()

        found = self._run(work)
        return None if found is None else _move(found)

    def claim_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> bool:
            try:
                done = conn.execute(
                    "INSERT INTO backalley_seats (table_id, seat, token_hash)"
                    " VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                    (table_id, seat, token_hash),
                )
            except pg_errors.ForeignKeyViolation:  # no such table
                return False
            return done.rowcount == 1

        return self._run(work)

    def seat_hash(self, table_id: str, seat: int) -> str | None:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> tuple[Any, ...] | None:
            return conn.execute(
                "SELECT token_hash FROM backalley_seats WHERE table_id = %s AND seat = %s",
                (table_id, seat),
            ).fetchone()

        found = self._run(work)
        return None if found is None else str(found[0])

    def close(self) -> None:
        with self._lock:
            self._closed = True
        self._drop_idle()
