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

Every committed move (and every seat's continue after a deal) is told to
the other processes through ``NOTIFY`` on the channel
:data:`CHANNEL`, with the table's id and version as its payload
(:func:`~backalley.server.store.change_text`); :meth:`PostgresStore.watch`
hears them on a connection of its own, so a spectator on another process
hears of a move as it is committed, not at the next poll.  A notification
is sent when the transaction commits and never for one rolled back.

A store keeps a few connections (one per thread using it at once, at most
``connections``); a connection the database dropped is opened again once
before a call gives up.

One module, one job: one store, its schema and the statements of each of its
methods.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

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
    change_text,
)

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg.conninfo import conninfo_to_dict
except ImportError:  # the extra is not installed: PostgresStore says so
    _HAVE_PSYCOPG = False
else:
    _HAVE_PSYCOPG = True

__all__ = ["CHANNEL", "SCHEMA", "PostgresStore", "redacted"]

CHANNEL = "backalley_changes"
"""The channel every committed change is notified on (``LISTEN backalley_changes``)."""

_log = logging.getLogger(__name__)

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
    "ALTER TABLE backalley_tables ADD COLUMN IF NOT EXISTS bots BOOLEAN",
    "ALTER TABLE backalley_tables ADD COLUMN IF NOT EXISTS bot_next BOOLEAN",
    "ALTER TABLE backalley_tables ADD COLUMN IF NOT EXISTS decider TEXT",
    "ALTER TABLE backalley_tables ADD COLUMN IF NOT EXISTS lease_until DOUBLE PRECISION",
    "CREATE INDEX IF NOT EXISTS backalley_tables_created ON backalley_tables (created)",
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
    "ALTER TABLE backalley_moves ADD COLUMN IF NOT EXISTS played DOUBLE PRECISION",
    """CREATE TABLE IF NOT EXISTS backalley_continues (
    table_id TEXT NOT NULL REFERENCES backalley_tables(id),
    deal INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    CONSTRAINT backalley_continues_seat PRIMARY KEY (table_id, deal, seat)
)""",
)
"""The statements that make the store's tables and columns (each ``IF NOT EXISTS``)."""

_SCHEMA_LOCK = 0x6261_636B_616C  # "backal": the advisory lock held while the schema is made
_CREATE_LOCK = 0x6261_636B_6E77  # "backnw": held while a new table is counted against the caps
_CLIENT_MOVE = "backalley_moves_client_move"
_NEW_COLUMNS = "id, rules, seed, first_dealer, seats, created, owner, bots, bot_next"
_MOVE_COLUMNS = "number, seat, move, client_move_id, played"

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
    number, seat, move, client_move_id, played = row
    return MoveRow(
        int(number),
        int(seat),
        str(move),
        None if client_move_id is None else str(client_move_id),
        None if played is None else float(played),
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
                # an older table: whether a bot plays it, read from its seats
                older = first.execute(
                    f"SELECT {TABLE_COLUMNS} FROM backalley_tables WHERE bots IS NULL"
                ).fetchall()
                for row in self.damage_log.rows(older):
                    first.execute(
                        "UPDATE backalley_tables SET bots = %s WHERE id = %s", (row.bots, row.id)
                    )
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

    def create_table(
        self, row: TableRow, caps: Caps | None = None, *, bot_next: bool = False
    ) -> Created:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> Created:
            with conn.transaction():
                if caps is not None:
                    # one new table at a time across the processes: a count and
                    # its insert are never split by another process's insert
                    conn.execute("SELECT pg_advisory_xact_lock(%s)", (_CREATE_LOCK,))
                    refused = _refused(conn, row, caps)
                    if refused is not None:
                        return refused
                conn.execute(
                    f"INSERT INTO backalley_tables ({_NEW_COLUMNS})"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    (*row.columns(), bot_next),
                )
            return "stored"

        return self._run(work)

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

    def ids(self, most: int | None = None) -> Sequence[str]:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
            return conn.execute(
                "SELECT id FROM backalley_tables WHERE archived IS NULL"
                " ORDER BY created DESC, id DESC LIMIT %s",
                (most,),
            ).fetchall()

        return [str(r[0]) for r in self._run(work)]

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
        self,
        table_id: str,
        row: MoveRow,
        *,
        when: float | None = None,
        over: bool = False,
        bot_next: bool = False,
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
                        " VALUES (%s, %s, %s, %s, %s, %s)",
                        (table_id, row.number, row.seat, row.move, row.client_move_id, when),
                    )
                    conn.execute(
                        "UPDATE backalley_tables SET updated = coalesce(%s, updated),"
                        " bot_next = %s,"
                        " finished = CASE WHEN %s THEN %s ELSE finished END WHERE id = %s",
                        (when, bot_next, over, when, table_id),
                    )
                    conn.execute(
                        "SELECT pg_notify(%s, %s)",
                        (CHANNEL, change_text(table_id, row.number + 1)),
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

    def take_lease(self, table_id: str, owner: str, until: float, now: float) -> bool:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> bool:
            done = conn.execute(
                "UPDATE backalley_tables SET decider = %s, lease_until = %s WHERE id = %s"
                " AND (decider IS NULL OR decider = %s OR lease_until < %s)",
                (owner, until, table_id, owner, now),
            )
            return done.rowcount > 0

        return self._run(work)

    def release_lease(self, table_id: str, owner: str) -> bool:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> bool:
            done = conn.execute(
                "UPDATE backalley_tables SET decider = NULL, lease_until = NULL"
                " WHERE id = %s AND decider = %s",
                (table_id, owner),
            )
            return done.rowcount > 0

        return self._run(work)

    def orphans(self, now: float, most: int) -> Sequence[str]:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
            return conn.execute(
                "SELECT id FROM backalley_tables WHERE archived IS NULL AND finished IS NULL"
                " AND coalesce(bot_next, TRUE) AND (decider IS NULL OR lease_until < %s)"
                " ORDER BY coalesce(updated, created) DESC, id LIMIT %s",
                (now, most),
            ).fetchall()

        return [str(r[0]) for r in self._run(work)]

    def continue_deal(self, table_id: str, deal: int, seat: int) -> None:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> None:
            with conn.transaction():
                done = conn.execute(
                    "INSERT INTO backalley_continues (table_id, deal, seat)"
                    " VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                    (table_id, deal, seat),
                )
                if done.rowcount:
                    conn.execute(
                        "SELECT pg_notify(%s, %s)", (CHANNEL, change_text(table_id, "continue"))
                    )

        self._run(work)

    def continued(self, table_id: str, deal: int) -> frozenset[int]:
        def work(conn: psycopg.Connection[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
            return conn.execute(
                "SELECT seat FROM backalley_continues WHERE table_id = %s AND deal = %s",
                (table_id, deal),
            ).fetchall()

        return frozenset(int(r[0]) for r in self._run(work))

    def watch(self, heard: Callable[[str], None]) -> Watch | None:
        """Hear every change committed to the database (:data:`CHANNEL`) on a
        connection and a thread of its own, connecting again (and saying
        ``""``) after a lost connection."""
        return _Listener(self, heard)

    def close(self) -> None:
        with self._lock:
            self._closed = True
        self._drop_idle()


def _refused(
    conn: psycopg.Connection[tuple[Any, ...]], row: TableRow, caps: Caps
) -> Created | None:
    """Which cap of ``caps`` refuses ``row`` (in the caller's transaction)."""
    found = conn.execute("SELECT count(*) FROM backalley_tables WHERE archived IS NULL").fetchone()
    if found is not None and int(found[0]) >= caps.tables:
        return "full"
    if row.owner is None:
        return None
    found = conn.execute(
        "SELECT count(*), count(*) FILTER (WHERE bots) FROM backalley_tables"
        " WHERE owner = %s AND archived IS NULL AND finished IS NULL",
        (row.owner,),
    ).fetchone()
    mine, with_bots = (0, 0) if found is None else (int(found[0]), int(found[1]))
    if caps.client_tables is not None and mine >= caps.client_tables:
        return "client-tables"
    if caps.client_bot_tables is not None and row.bots and with_bots >= caps.client_bot_tables:
        return "client-bot-tables"
    return None


class _Listener:
    """The changes of a :class:`PostgresStore` heard on a thread: ``LISTEN``
    on a connection of its own, opened again (after a pause that doubles up
    to :data:`_MOST_PAUSE` seconds) whenever it is lost."""

    def __init__(self, store: PostgresStore, heard: Callable[[str], None]) -> None:
        self._store = store
        self._heard = heard
        self._stop = threading.Event()
        self._listening = False
        self._thread = threading.Thread(target=self._run, name="backalley-listen", daemon=True)
        self._thread.start()

    @property
    def listening(self) -> bool:
        return self._listening

    def _run(self) -> None:
        pause = _FIRST_PAUSE
        while not self._stop.is_set():
            try:
                conn = self._store._connect()
            except psycopg.Error as exc:
                _log.warning(
                    "cannot hear the database's changes (the server polls meanwhile): %s",
                    _sentence(exc, self._store.url),
                )
                self._stop.wait(pause)
                pause = min(_MOST_PAUSE, pause * 2)
                continue
            try:
                conn.execute(f"LISTEN {CHANNEL}")
                self._listening = True
                pause = _FIRST_PAUSE
                self._tell("")  # changes made while nobody listened: look at every table
                while not self._stop.is_set():
                    for note in conn.notifies(timeout=_LISTEN_SECONDS):
                        self._tell(note.payload)
            except psycopg.Error as exc:
                if not self._stop.is_set():
                    _log.warning(
                        "lost the database's changes (the server polls until heard again): %s",
                        _sentence(exc, self._store.url),
                    )
            finally:
                self._listening = False
                conn.close()

    def _tell(self, payload: str) -> None:
        try:
            self._heard(payload)
        except Exception:  # the listener's caller failed: said, and the listening goes on
            _log.exception("a change heard from the database could not be passed on")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=_LISTEN_SECONDS + 5)


_LISTEN_SECONDS = 0.5
"""How long the listening thread waits for a notification before it looks
whether it is to stop."""
_FIRST_PAUSE = 0.5
_MOST_PAUSE = 5.0
