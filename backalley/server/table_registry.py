"""The tables of one server process: made, found, replayed from the store,
kept in memory and archived.

:class:`TableRegistry` is the base of :class:`~backalley.server.TableService`:
it makes a table (the rules and seats asked for, a secret seed, the store's
caps), finds one by its id (in memory, or replayed from its stored moves -
moves stored meanwhile by another process are replayed first), keeps at most
``max_live`` tables in memory (the least recently used let go), and archives
the tables due (:meth:`TableRegistry.retire`).  A table whose stored row or
rules cannot be read any more is refused on its own (``500 corrupt``) and
logged once; the other tables go on.  What a stored move does beyond the
game (the end of a deal, the deals thrown in a row) is the service's
:meth:`TableRegistry._moved`, from :mod:`backalley.server.deal_ends`.
"""

from __future__ import annotations

import abc
import json
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import attrs

import backalley as ba
from backalley.bots import Bot, bot_names
from backalley.io import houserules
from backalley.server.bot_pool import budgeted_bot
from backalley.server.live_table import LiveTable
from backalley.server.refusals import ServerError, table_archived, table_not_found
from backalley.server.store import HUMAN, Caps, DamageLog, MoveRow, Store, TableRow

__all__ = ["TableRegistry"]

_log = logging.getLogger("backalley.server.tables")  # the name operators configure


class TableRegistry(abc.ABC):
    """The tables of one server process, kept in ``store`` (the settings
    are :class:`~backalley.server.TableService`'s)."""

    store: Store
    max_tables: int
    max_live: int
    bot_budget: float | None
    max_client_tables: int | None
    max_client_bot_tables: int | None
    finished_keep: float
    idle_keep: float
    _damaged: DamageLog
    _clock: Callable[[], float]
    _live: OrderedDict[str, LiveTable]
    _lock: threading.Lock

    @abc.abstractmethod
    def _moved(
        self,
        live: LiveTable,
        before: ba.GameState,
        move: ba.Move,
        after: ba.GameState,
        played: float,
    ) -> None:
        """Note what ``move`` (from ``before`` to ``after``, stored at
        ``played``) does to ``live`` beyond the game."""

    # -- making and finding tables ------------------------------------------

    def create(self, rules: object, seats: object, owner: str | None = None) -> str:
        """A new table under ``rules`` (a registered variant's name, or a rules
        or house-rules document as parsed JSON) with ``seats`` (per seat
        ``"human"`` or a bot's name), made by the client address ``owner``;
        answers the table's id.  The seed is 63 random bits from the
        operating system and stays on the server.  Refused with ``full``
        when the store holds ``max_tables`` live tables, with
        ``too-many-tables`` when ``owner`` has ``max_client_tables`` live
        games going on, and with ``too-many-bot-tables`` when it has
        ``max_client_bot_tables`` such games with a bot: counted and taken in
        the store's transaction, so that processes making tables at once
        never pass a cap together."""
        rule_set = _rule_set(rules)
        kinds = _seats(seats, rule_set.players)
        seed = ba.secure_seed()
        state = ba.new_game(rule_set, seed=seed)
        row = TableRow(
            id=secrets.token_hex(8),
            rules=ba.to_json(rule_set),
            seed=seed,
            first_dealer=state.first_dealer,
            seats=kinds,
            created=self._clock(),
            owner=owner,
        )
        caps = Caps(self.max_tables, self.max_client_tables, self.max_client_bot_tables)
        made = self.store.create_table(row, caps, bot_next=kinds[state.to_act or 0] != HUMAN)
        if made == "full":
            raise ServerError(503, "full", f"this server holds its most tables ({self.max_tables})")
        if made == "client-tables":
            raise ServerError(
                429,
                "too-many-tables",
                f"this address has {self.max_client_tables} games going on (at most): "
                "finish one, or wait until one is archived",
            )
        if made == "client-bot-tables":
            raise ServerError(
                429,
                "too-many-bot-tables",
                f"this address has {self.max_client_bot_tables} games with bots going on "
                "(at most): finish one, or wait until one is archived",
            )
        self._keep(row.id, self._start(row, state, []))
        return row.id

    def _keep(self, table_id: str, live: LiveTable) -> LiveTable:
        """Keep ``live`` in memory (or the one another thread kept first),
        letting the least recently used tables go past ``max_live``."""
        with self._lock:
            kept = self._live.setdefault(table_id, live)
            self._live.move_to_end(table_id)
            while len(self._live) > self.max_live:
                self._live.popitem(last=False)
        return kept

    def in_memory(self) -> int:
        """How many tables are kept in memory now."""
        return len(self._live)

    def ids(self) -> list[str]:
        """Every live table's id, oldest first."""
        return list(reversed(self.store.ids()))

    def note_damaged(self, table_id: str, exc: ServerError) -> bool:
        """Whether ``exc`` says that ``table_id`` cannot be read back (``500
        corrupt``); if so it is logged, the first time only: the list, the
        bots' runs, the poll and the restart may each meet it again and
        again.  Any other refusal is the caller's to say."""
        if exc.code != "corrupt":
            return False
        self._damaged.note(table_id, exc.message)
        return True

    def _start(self, row: TableRow, state: ba.GameState, moves: Sequence[MoveRow]) -> LiveTable:
        live = LiveTable(row=row, state=state, version=0, bots={})
        self._replay(live, moves)
        # seeded from the table's secret seed (and the move they start at, so
        # that a table replayed after a restart does not repeat its bots' draws)
        live.bots = {
            seat: self._bot(row, seat, live.version)
            for seat, kind in enumerate(row.seats)
            if kind != HUMAN
        }
        return live

    def _bot(self, row: TableRow, seat: int, version: int) -> Bot:
        """The bot of ``seat`` for its decisions from ``version`` on, seeded
        from the table's secret seed (never its public id)."""
        return budgeted_bot(row.seats[seat], ("bot", row.seed, seat, version), self.bot_budget)

    def _replay(self, live: LiveTable, moves: Sequence[MoveRow]) -> None:
        state = live.state
        for stored in moves:
            if stored.number != live.version:
                raise ServerError(
                    500, "corrupt", f"table {live.row.id}: move {stored.number} is out of order"
                )
            try:
                move = ba.parse_move(stored.move)
                before, state = state, state.apply(move)
            except ba.BackAlleyError as exc:
                raise ServerError(
                    500, "corrupt", f"table {live.row.id}: stored move {stored.number}: {exc}"
                ) from None
            played = self._clock() if stored.played is None else stored.played
            self._moved(live, before, move, state, played)
            live.state = state
            live.version += 1

    def _table(self, table_id: object) -> LiveTable:
        """The table ``table_id`` as the store holds it now (moves stored by
        another server process are replayed first)."""
        if not isinstance(table_id, str) or len(table_id) > 40:
            raise table_not_found(table_id)
        with self._lock:
            live = self._live.get(table_id)
            if live is not None:
                self._live.move_to_end(table_id)
        if live is None:
            row = self.store.table(table_id)
            if row is None:
                raise table_not_found(table_id)
            live = self._keep(table_id, self._load(row))
        if self.store.version(table_id) != live.version:
            with live.lock:
                self._catch_up(live)
        return live

    def _load(self, row: TableRow) -> LiveTable:
        """The table ``row`` replayed from the store; ``500 corrupt`` when its
        rules, seats or moves cannot be read back (that table alone)."""
        try:
            rule_set = ba.from_json(row.rules, ba.RuleSet)
            if len(row.seats) != rule_set.players:
                # a seat past the rules' players made every list fail (its name)
                raise ValueError(
                    f"{len(row.seats)} seats stored for a game of {rule_set.players} players"
                )
            state = ba.new_game(rule_set, seed=row.seed, dealer=row.first_dealer)
            return self._start(row, state, self.store.moves(row.id))
        except ServerError:
            raise
        except (ba.BackAlleyError, ValueError, TypeError, KeyError, RecursionError) as exc:
            # rules written by an older library, a bot no longer registered
            raise ServerError(
                500,
                "corrupt",
                f"table {row.id}: its stored rules or seats cannot be read any more"
                f" ({type(exc).__name__}: {str(exc)[:200]})",
            ) from None

    def _catch_up(self, live: LiveTable) -> None:
        """Replay the moves other processes stored (call with the table's lock)."""
        self._replay(live, self.store.moves(live.row.id, live.version))

    def _archived_elsewhere(self, live: LiveTable) -> ServerError:
        """``live`` was archived since it was read (by another process, or
        by :meth:`retire` meanwhile): marked archived and let go from memory
        (read again from the store when next asked for); answers the 410."""
        if live.row.archived is None:
            live.row = attrs.evolve(live.row, archived=self._clock())
        with self._lock:
            if self._live.get(live.row.id) is live:
                del self._live[live.row.id]
        return table_archived(live.row.id)

    # -- the life of tables --------------------------------------------------------

    def retire(self, now: float | None = None) -> list[str]:
        """Archive the tables due (finished ``finished_keep`` seconds ago, or
        without a move for ``idle_keep`` seconds) and let them go from
        memory, with the tables another process archived; answers the ids
        archived here."""
        now = self._clock() if now is None else now
        finished_before, idle_before = now - self.finished_keep, now - self.idle_keep
        due = [
            table_id
            for table_id in self.store.due(finished_before, idle_before)
            # still due as it is archived: a move since due() read it keeps it live
            if self.store.archive(table_id, now, finished_before, idle_before)
        ]
        live_ids = set(self.store.ids())
        with self._lock:
            for table_id in [t for t in self._live if t not in live_ids]:
                del self._live[table_id]
        if due:
            _log.info("archived %d tables", len(due))
        return due


def _rule_set(rules: object) -> ba.RuleSet:
    if isinstance(rules, str):
        try:
            return ba.variants.get(rules)
        except ba.UnknownVariantError as exc:
            raise ServerError(422, "unknown-variant", str(exc).strip("\"'")) from None
    if isinstance(rules, dict):
        try:
            return houserules.loads(json.dumps(rules), format="json")
        except houserules.HouseRulesError as exc:
            raise ServerError(422, "bad-rules", str(exc)) from None
    raise ServerError(
        422,
        "bad-rules",
        "rules is a variant's name (such as 'gamerules') or a rules document (an object)",
    )


def _seats(seats: object, players: int) -> tuple[str, ...]:
    known = bot_names()
    if (
        not isinstance(seats, list)
        or len(seats) != players
        or not all(isinstance(s, str) and (s == HUMAN or s in known) for s in seats)
    ):
        raise ServerError(
            422,
            "bad-seats",
            f"seats is a list of {players} entries, each 'human' or a bot: {', '.join(known)}",
        )
    return tuple(seats)
