"""The tables a server holds: each a game the library referees.

:class:`TableService` makes tables, seats players, answers each seat its
view and each spectator the public facts, checks and applies the moves
players send and plays the bots' moves.  It decides nothing about the game
itself: every answer comes from the library's public API
(:func:`~backalley.new_game`, :meth:`~backalley.GameState.check`,
:meth:`~backalley.GameState.view`, :class:`~backalley.GameRecord`), and a
table is rebuilt after a restart by replaying its stored moves.

Every accepted move is committed to the store before it is answered; a move
whose commit loses a race (another server process stored a move first) is
refused with ``conflict`` and nothing changes.

The end of a deal is held for the people at the table (:class:`DealEnd`):
the library scores a deal and deals the next one within the move that plays
the last card, so the service keeps that deal's last trick, and its bots make
no move until every seat a person had joined when the deal ended has said it
continues (:meth:`TableService.continue_deal`, or a move of its own) or
``deal_pause`` seconds have passed since that move was stored.  The
continues are kept in the store and the wait is timed from the stored
move, so every process sharing the store holds the same deal end alike.

A bot's move is decided by one process at a time, whichever processes
watch the table: the one that holds the table's lease in the store
(:meth:`~backalley.server.store.Store.take_lease`, renewed with every
decision, ``lease_seconds`` long), which another process takes over once it
has expired (its holder died).  People who throw in ``max_thrown_in`` deals
in a row (nobody contracts) stop their table: a game nobody plays would
otherwise grow its log for ever.

The bots are seeded secretly, like the deck: from the table's seed, which
stays on the server until the game's record is given, never from anything a
client sees.  A bot's decision is asked for in two steps, so that it can be
made apart from the requests (:mod:`backalley.server.bot_pool`):
:meth:`TableService.bot_turn` gives the bot and its view,
:meth:`TableService.bot_play` commits the move it chose.

A table lives until it is archived (:meth:`TableService.retire`): a finished
game ``finished_keep`` seconds after its end, any table ``idle_keep``
seconds after its last move.  An archived table is no longer listed nor
counted, its bots no longer move and it takes no seat or move
(``410 archived``), but its summary, public facts and record are still
read from the store at their addresses.  A table whose stored row or rules
cannot be read any more is refused on its own (``500 corrupt``) and left out
of the list (logged once); the other tables go on.

One module, one job: :class:`TableService` is one class because its methods
share each table's live state and the store's transactions; the deal's end, the
bots' turns and the archiving are steps in the one life of a table.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import attrs

import backalley as ba
from backalley.bots import Bot, bot_names, check_throw_ins
from backalley.engine import lowlevel
from backalley.io import houserules
from backalley.render.facts import deal_end as deal_end_facts
from backalley.render.facts import table_facts
from backalley.rules.seats import seat_names
from backalley.server.bot_pool import budgeted_bot
from backalley.server.errors import ServerError
from backalley.server.store import (
    ARCHIVED,
    DUPLICATE,
    HUMAN,
    STORED,
    Caps,
    DamageLog,
    MoveRow,
    Store,
    TableRow,
)
from backalley.server.tokens import new_token, token_hash, token_matches

__all__ = ["HUMAN", "PRIVATE_KEYS", "BotTurn", "DealEnd", "Submitted", "TableService"]

PRIVATE_KEYS = ("seat", "hand", "discards", "legal_moves", "cards", "call_answers")
"""The keys of a seat's view document that only that seat may read (its
hand, and its answers: what it may play and call); the public document is a
view document without them."""

MAX_MOVE_TEXT = 40
"""The longest move text read (``"play QS"`` is 7 characters)."""
MAX_CLIENT_MOVE_ID = 64
"""The longest client move id kept."""

_log = logging.getLogger(__name__)


@attrs.frozen
class Submitted:
    """A move the table accepted (or had accepted before, ``repeated``)."""

    number: int
    """The move's number in the game (the table's version before it)."""
    version: int
    """The table's version now."""
    repeated: bool = False
    """``True`` when this client move id was applied before: nothing new was applied."""


@attrs.frozen
class BotTurn:
    """A bot to act at a table: what its decision needs, and what the move it
    chooses is checked against (:meth:`TableService.bot_play`)."""

    table: str
    owner: str
    """The client address that made the table (``"?"``: not known)."""
    seat: int
    version: int
    """The table's version the decision is for."""
    bot: Bot
    view: ba.PlayerView
    state: ba.GameState


@attrs.define
class DealEnd:
    """The end of a table's last scored deal, kept beside its state (the
    library's state has dealt the next deal already): the deal's last trick,
    which sides made their contracts, and the people it waits for."""

    facts: dict[str, Any]
    """The deal's end as :func:`backalley.render.facts.deal_end` gives it:
    ``deal`` (its number), ``last_trick`` and ``made`` per side."""
    since: float
    """When the deal ended: when the move that ended it was stored (seconds
    since the epoch, the service's ``clock``)."""
    waiting: set[int] = attrs.field(factory=set)
    """The seats a person had joined when the deal ended and that have not
    continued yet (the seat's move, or :meth:`TableService.continue_deal`)."""
    over: bool = False
    """``True`` once a bot moved after the deal's end: the hold is over."""

    def to_data(self, held: float) -> dict[str, Any]:
        """As JSON data, with ``held``: the seconds the bots still wait (0: they
        do not)."""
        return {
            **self.facts,
            "waiting": sorted(self.waiting),
            "holding": held > 0,
            "seconds_left": round(held, 1) if held > 0 else None,
        }


@attrs.define
class _Live:
    """A table in memory: its start and the state its stored moves reach."""

    row: TableRow
    state: ba.GameState
    version: int
    bots: dict[int, Bot]
    lock: threading.Lock = attrs.field(factory=threading.Lock)
    hashes: dict[int, str] = attrs.field(factory=dict)
    stalled: str | None = None
    """Why the bots cannot go on (a bot that failed, a game between bots
    that keeps being thrown in)."""
    stopped: str | None = None
    """Why the table takes no more moves at all (``max_thrown_in`` deals in a
    row thrown in)."""
    thrown_in: int = 0
    """The deals thrown in since the last scored deal (or the start)."""
    deal_end: DealEnd | None = None
    """The end of the last scored deal (``None`` before the first)."""
    moved: float | None = None
    """When the last move was stored (``None`` before the first)."""


def _not_found(table_id: object) -> ServerError:
    return ServerError(404, "not-found", f"there is no table {str(table_id)[:40]!r}")


def _archived(table_id: str) -> ServerError:
    return ServerError(
        410,
        "archived",
        f"table {table_id} was archived: its summary, public facts and record can still be read",
    )


class TableService:
    """The tables of one server process, kept in ``store``.

    ``max_tables`` bounds the tables a store may hold; ``max_live`` the
    tables kept in memory (the least recently used one past it is let go and
    replayed from the store when it is asked for again); ``clock`` gives the
    creation times.  ``deal_pause``: the longest the bots wait, in seconds, at
    the end of a deal for the people at the table to continue (0, the
    default here: they do not wait; :func:`~backalley.server.create_app`
    passes :attr:`ServerSettings.deal_pause <backalley.server.ServerSettings.deal_pause>`);
    the wait is timed with ``clock`` from the stored move that ended the
    deal.  ``bot_budget``: the CPU seconds a bot
    decision may take (see :func:`~backalley.server.bot_pool.budgeted_bot`;
    ``None``: the bots' own).  ``max_client_tables`` and
    ``max_client_bot_tables``: the most live, unfinished tables one client
    address may have made, and of those the most with a bot (``None``: no
    cap).  ``finished_keep`` and ``idle_keep``: the seconds after which
    :meth:`retire` archives a finished game, and a table without a move.
    ``lease_seconds``: how long this process's claim to decide a table's
    bots lasts (renewed with each decision) before another process may take
    the table over.  ``max_thrown_in``: the most deals in a row a table may
    throw in before it stops.
    """

    def __init__(
        self,
        store: Store,
        *,
        max_tables: int = 10_000,
        max_live: int = 2_000,
        clock: Callable[[], float] = time.time,
        deal_pause: float = 0.0,
        bot_budget: float | None = None,
        max_client_tables: int | None = None,
        max_client_bot_tables: int | None = None,
        finished_keep: float = 3_600.0,
        idle_keep: float = 7 * 86_400.0,
        lease_seconds: float = 30.0,
        max_thrown_in: int = 20,
    ) -> None:
        self.store = store
        self.max_tables = max_tables
        self.max_live = max_live
        self.deal_pause = deal_pause
        self.bot_budget = bot_budget
        self.max_client_tables = max_client_tables
        self.max_client_bot_tables = max_client_bot_tables
        self.finished_keep = finished_keep
        self.idle_keep = idle_keep
        self.lease_seconds = lease_seconds
        self.max_thrown_in = max_thrown_in
        self.decider = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
        """This process's name as the holder of a table's lease (its host, its
        process id and a random part: never the same twice)."""
        self.decisions = 0
        """The bots' decisions this service has handed out (:meth:`bot_turn`)."""
        shared = getattr(store, "damage_log", None)  # said once with the store's rows
        self._damaged = shared if isinstance(shared, DamageLog) else DamageLog()
        self._clock = clock
        self._live: OrderedDict[str, _Live] = OrderedDict()
        self._lock = threading.Lock()

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

    def _keep(self, table_id: str, live: _Live) -> _Live:
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

    def listing(self, most: int) -> list[dict[str, Any]]:
        """The :meth:`summary` of the ``most`` newest live tables, newest
        first; a table that cannot be read back is left out (and logged once)."""
        found: list[dict[str, Any]] = []
        # the newest ids only: a list never reads every live row
        for table_id in self.store.ids(most):
            try:
                found.append(self.summary(table_id))
            except ServerError as exc:
                if exc.code != "corrupt":
                    raise
                self._damaged.note(table_id, exc.message)
        return found

    def _start(self, row: TableRow, state: ba.GameState, moves: Sequence[MoveRow]) -> _Live:
        live = _Live(row=row, state=state, version=0, bots={})
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

    def _replay(self, live: _Live, moves: Sequence[MoveRow]) -> None:
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

    def _table(self, table_id: object) -> _Live:
        """The table ``table_id`` as the store holds it now (moves stored by
        another server process are replayed first)."""
        if not isinstance(table_id, str) or len(table_id) > 40:
            raise _not_found(table_id)
        with self._lock:
            live = self._live.get(table_id)
            if live is not None:
                self._live.move_to_end(table_id)
        if live is None:
            row = self.store.table(table_id)
            if row is None:
                raise _not_found(table_id)
            live = self._keep(table_id, self._load(row))
        if self.store.version(table_id) != live.version:
            with live.lock:
                self._catch_up(live)
        return live

    def _load(self, row: TableRow) -> _Live:
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

    def _catch_up(self, live: _Live) -> None:
        """Replay the moves other processes stored (call with the table's lock)."""
        self._replay(live, self.store.moves(live.row.id, live.version))

    # -- seats ---------------------------------------------------------------

    def join(self, table_id: str, seat: object) -> str:
        """Seat a person at ``seat``: answers the seat's token, once."""
        live = self._table(table_id)
        number = _seat(seat, len(live.row.seats))
        if live.row.archived is not None:
            raise _archived(live.row.id)
        if live.row.seats[number] != HUMAN:
            raise ServerError(
                409, "bot-seat", f"seat {number} is played by the {live.row.seats[number]} bot"
            )
        token = new_token()
        if not self.store.claim_seat(live.row.id, number, token_hash(token)):
            raise ServerError(409, "seat-taken", f"seat {number} has been joined already")
        return token

    def authorize(self, table_id: str, seat: object, token: str | None) -> tuple[_Live, int]:
        """The table and seat number ``token`` acts for; refuses any other token."""
        live = self._table(table_id)
        number = _seat(seat, len(live.row.seats))
        stored = live.hashes.get(number)
        if stored is None:
            stored = self.store.seat_hash(live.row.id, number)
            if stored is not None:
                live.hashes[number] = stored
        if not token_matches(stored, token):
            raise ServerError(
                401, "bad-token", f"this token does not act for seat {number} of this table"
            )
        return live, number

    # -- what each one sees ----------------------------------------------------

    def view(self, table_id: str, seat: object, token: str | None) -> dict[str, Any]:
        """The seat's view document (its hand, the public facts, its legal
        moves and why each other card is refused) with the table's version."""
        live, number = self.authorize(table_id, seat, token)
        return self.view_of(live.row.id, number)

    def view_of(self, table_id: str, seat: int) -> dict[str, Any]:
        """:meth:`view` for a seat already authorized (the socket's pushes)."""
        live = self._table(table_id)
        with live.lock:  # the version and the state it names, together
            version, state = live.version, live.state
            end = self._deal_end_data(live)
        view = state.view(seat)
        return {
            "table": live.row.id,
            "version": version,
            "seat": seat,
            "seats": list(live.row.seats),
            "view": json.loads(ba.to_json(view)),
            "facts": table_facts(view),
            "deal_end": end,
        }

    def public(self, table_id: str) -> dict[str, Any]:
        """What a spectator may know: the view document without the keys of
        :data:`PRIVATE_KEYS` (no hand, no stock, no seed)."""
        live = self._table(table_id)
        with live.lock:  # the version and the state it names, together
            version, state = live.version, live.state
            end = self._deal_end_data(live)
        seen = state.view(0)
        data = json.loads(ba.to_json(seen))
        for key in (*PRIVATE_KEYS, "format", "version"):
            data.pop(key, None)
        return {
            "table": live.row.id,
            "version": version,
            "seats": list(live.row.seats),
            "stalled": live.stopped or live.stalled,
            "public": data,
            "facts": table_facts(seen),
            "deal_end": end,
        }

    def summary(self, table_id: str) -> dict[str, Any]:
        """A line of the table list: rules, seats (their names, who plays them,
        joined or not), phase, the seat to act, version, deals played and in
        all, when made and when last moved."""
        live = self._table(table_id)
        state = live.state
        names = seat_names(state.rules)
        return {
            "table": live.row.id,
            "rules": state.rules.name,
            "seats": [
                {
                    "seat": seat,
                    "name": names[seat],
                    "player": kind,
                    "open": kind == HUMAN and not self._joined(live, seat),
                }
                for seat, kind in enumerate(live.row.seats)
            ],
            "phase": state.phase.value,
            "to_act": state.to_act,
            "version": live.version,
            "over": state.is_over,
            "deals_played": state.deals_played,
            "deals": state.rules.schedule.deals,
            "created": live.row.created,
            "last_move": live.row.created if live.moved is None else live.moved,
            "archived": live.row.archived is not None,
        }

    def record(self, table_id: str) -> str:
        """The game's record (JSON text, seed included), once the game is over."""
        live = self._table(table_id)
        state = live.state
        if not state.is_over:
            raise ServerError(
                409, "not-over", "the record is given once the game is over; it is still going on"
            )
        return ba.to_json(ba.GameRecord.from_state(state, players=list(live.row.seats)))

    def version(self, table_id: str) -> int:
        """The table's version (moves applied)."""
        return self._table(table_id).version

    # -- moves -------------------------------------------------------------------

    def submit(
        self,
        table_id: str,
        seat: object,
        token: str | None,
        text: object,
        *,
        client_move_id: object = None,
        expected_version: object = None,
    ) -> Submitted:
        """Check and apply the move written ``text`` for the token's seat,
        committed before it is answered.  Refused (nothing changed) with
        ``not-a-move``, ``illegal-move`` (the library's reason and sentence),
        ``stale-version`` (``expected_version`` is not the table's version),
        ``conflict`` (another move was stored first) or ``move-id-reused``."""
        live, number = self.authorize(table_id, seat, token)
        if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
            raise ServerError(422, "not-a-move", "a move is a short text such as 'play QS'")
        if client_move_id is not None and (
            not isinstance(client_move_id, str)
            or not 0 < len(client_move_id) <= MAX_CLIENT_MOVE_ID
            or not _is_utf8(client_move_id)  # a lone surrogate ("\\ud800") cannot be stored
        ):
            raise ServerError(
                422,
                "bad-move-id",
                f"a client move id is a text of 1 to {MAX_CLIENT_MOVE_ID} characters"
                " (no lone surrogate such as \\ud800)",
            )
        if expected_version is not None and (
            type(expected_version) is not int or expected_version < 0
        ):
            raise ServerError(422, "bad-version", "version is the table's number of moves")
        try:
            move = ba.parse_move(text)
        except ba.NotationError as exc:
            raise ServerError(422, "not-a-move", str(exc)) from None
        with live.lock:
            self._catch_up(live)
            if live.row.archived is not None:
                raise _archived(live.row.id)
            if live.stopped is not None:
                raise ServerError(409, "stopped", live.stopped)
            if client_move_id is not None:
                done = self.store.client_move(live.row.id, number, client_move_id)
                if done is not None:
                    return self._repeated(live, done, move)
            if expected_version is not None and expected_version != live.version:
                raise ServerError(
                    409,
                    "stale-version",
                    f"the table is at version {live.version}, not {expected_version}: "
                    "read the view again",
                )
            state = live.state
            try:
                state.check(move, seat=number)
            except ba.IllegalMoveError as exc:
                raise ServerError(422, "illegal-move", str(exc), reason=exc.reason.name) from None
            after = state.apply(move)
            row = MoveRow(live.version, number, str(move), client_move_id)
            when = self._clock()
            stored = self._append(live, row, after, when)
            if stored == ARCHIVED:
                raise self._archived_elsewhere(live)
            if stored == DUPLICATE:
                done = self.store.client_move(live.row.id, number, str(client_move_id))
                self._catch_up(live)
                if done is not None:
                    return self._repeated(live, done, move)
            if stored != STORED:
                self._catch_up(live)
                raise ServerError(
                    409,
                    "conflict",
                    "another move was applied to this table first: read the view again",
                )
            self._moved(live, state, move, after, when)
            live.state = after
            live.version += 1
            return Submitted(row.number, live.version)

    def _append(self, live: _Live, row: MoveRow, after: ba.GameState, when: float) -> str:
        """Commit ``row`` (reaching ``after``) to the store: the table is
        finished when the game is over or the move stops the table, and the
        store is told whether a bot is to move next."""
        over = after.is_over or self._stops(live, live.state, after) is not None
        seat = after.to_act
        bot_next = not over and seat is not None and seat in live.bots
        return self.store.append(live.row.id, row, when=when, over=over, bot_next=bot_next)

    def _archived_elsewhere(self, live: _Live) -> ServerError:
        """``live`` was archived since it was read (by another process, or
        by :meth:`retire` meanwhile): marked archived and let go from memory
        (read again from the store when next asked for); answers the 410."""
        if live.row.archived is None:
            live.row = attrs.evolve(live.row, archived=self._clock())
        with self._lock:
            if self._live.get(live.row.id) is live:
                del self._live[live.row.id]
        return _archived(live.row.id)

    def _repeated(self, live: _Live, done: MoveRow, move: ba.Move) -> Submitted:
        if done.move != str(move):
            raise ServerError(
                409,
                "move-id-reused",
                f"client move id {done.client_move_id!r} was used for {done.move!r}",
            )
        return Submitted(done.number, live.version, repeated=True)

    def bot_to_act(self, table_id: str) -> bool:
        """Whether a bot is to move at the table (and may: not stalled)."""
        live = self._table(table_id)
        state = live.state
        seat = state.to_act
        return (
            seat is not None
            and seat in live.bots
            and live.stalled is None
            and live.stopped is None
            and live.row.archived is None
            and not self._held(live)
        )

    # -- the end of a deal -------------------------------------------------------

    def _moved(
        self,
        live: _Live,
        before: ba.GameState,
        move: ba.Move,
        after: ba.GameState,
        played: float,
    ) -> None:
        """Note what ``move`` (from ``before`` to ``after``, stored at
        ``played``) does to the hold at the end of a deal: a move that scores
        a deal starts one; a person's move ends that person's wait, a bot's
        (the hold was over) the hold's.  And to the deals thrown in a row:
        past ``max_thrown_in`` the table stops."""
        live.moved = played
        seat = before.to_act
        facts = deal_end_facts(before, move, after)
        if facts is not None:
            live.thrown_in = 0
            live.deal_end = self._deal_end(live, facts, played)
            return
        row = self._thrown_in_row(live, before, after)
        if row is not None:
            live.stopped = self._stops(live, before, after)
            live.thrown_in = row
        end = live.deal_end
        if end is None or seat is None:
            return
        if seat in live.bots:
            end.over = True
        end.waiting.discard(seat)

    @staticmethod
    def _thrown_in_row(live: _Live, before: ba.GameState, after: ba.GameState) -> int | None:
        """How many deals in a row are thrown in once the move from ``before``
        to ``after`` is made, when that move throws one in (``None``: it
        does not)."""
        if lowlevel.thrown_in(after) <= lowlevel.thrown_in(before):
            return None
        return live.thrown_in + 1

    def _stops(self, live: _Live, before: ba.GameState, after: ba.GameState) -> str | None:
        """Why the move from ``before`` to ``after`` stops the table: it throws
        in the ``max_thrown_in``-th deal in a row; ``None`` when it does not."""
        row = self._thrown_in_row(live, before, after)
        if row is None or row < self.max_thrown_in:
            return None
        return (
            f"this table stopped: {row} deals in a row were thrown in "
            "(nobody contracted), so the game would never end"
        )

    def _deal_end(self, live: _Live, facts: dict[str, Any], played: float) -> DealEnd:
        """The hold at the end of a deal (its move stored at ``played``): its
        ``facts``, and the seats a person has joined, which the bots wait for."""
        waiting = {
            seat
            for seat, kind in enumerate(live.row.seats)
            if kind == HUMAN and self._joined(live, seat)
        }
        return DealEnd(facts, played, waiting)

    def _joined(self, live: _Live, seat: int) -> bool:
        if seat not in live.hashes:
            found = self.store.seat_hash(live.row.id, seat)
            if found is None:
                return False
            live.hashes[seat] = found
        return True

    def _held(self, live: _Live) -> float:
        """The seconds the bots of ``live`` still wait at the end of a deal (0:
        they do not): the seats that continued through any process are read
        from the store while the wait lasts."""
        end = live.deal_end
        if end is None or end.over or not end.waiting or not self.deal_pause:
            return 0.0
        if live.state.is_over:
            return 0.0
        left = end.since + self.deal_pause - self._clock()
        if left <= 0:
            return 0.0
        end.waiting = end.waiting - self.store.continued(live.row.id, end.facts["deal"])
        return left if end.waiting else 0.0

    def held(self, table_id: str) -> float:
        """The seconds the bots of the table still wait for the people at the
        end of a deal (0: they do not wait)."""
        return self._held(self._table(table_id))

    def deal_end(self, table_id: str) -> dict[str, Any] | None:
        """The end of the table's last scored deal as JSON data (``None``
        before the first): ``deal`` (its number), ``last_trick`` (``leader``,
        ``cards`` in the order played, ``winner``), ``made`` (per side, or
        ``null`` without a contract), ``waiting`` (the seats that have not
        continued), ``holding`` and ``seconds_left`` (whether the bots wait,
        and how much longer at most)."""
        live = self._table(table_id)
        return self._deal_end_data(live)

    def _deal_end_data(self, live: _Live) -> dict[str, Any] | None:
        end = live.deal_end
        return None if end is None else end.to_data(self._held(live))

    def continue_deal(
        self, table_id: str, seat: object, token: str | None, deal: object = None
    ) -> dict[str, Any]:
        """The token's seat has seen the end of the last scored deal (``deal``,
        when given, must be its number): the bots no longer wait for it.
        Answers the table's :meth:`deal_end`.  Refused with ``no-deal-end``
        (no deal was scored yet), ``bad-deal`` or ``stale-deal`` (``deal`` is
        not the last scored deal's number)."""
        live, number = self.authorize(table_id, seat, token)
        if deal is not None and (type(deal) is not int or deal < 1):
            raise ServerError(422, "bad-deal", "deal is the number of a deal, from 1")
        with live.lock:
            self._catch_up(live)
            end = live.deal_end
            if end is None:
                raise ServerError(409, "no-deal-end", "no deal of this table has ended yet")
            if deal is not None and deal != end.facts["deal"]:
                raise ServerError(
                    409,
                    "stale-deal",
                    f"deal {deal} is not the last deal that ended (deal {end.facts['deal']})",
                )
            self.store.continue_deal(live.row.id, end.facts["deal"], number)
            end.waiting.discard(number)
            data = end.to_data(self._held(live))
        return {"table": live.row.id, "seat": number, "deal_end": data}

    def bot_turn(self, table_id: str) -> BotTurn | None:
        """The bot to act at the table and its view, or ``None`` when no bot
        is to act (a person is, the game is over, the bots wait at the end
        of a deal, the table is stalled, stopped or archived) or when another
        process decides this table's bots: the decision is this process's
        only while it holds the table's lease, taken (or renewed) here for
        ``lease_seconds`` (:meth:`release` gives it up)."""
        live = self._table(table_id)
        with live.lock:  # the version and the state it names, together
            version, state = live.version, live.state
        seat = state.to_act
        if seat is None or seat not in live.bots or live.stalled is not None:
            return None
        if live.stopped is not None or live.row.archived is not None or self._held(live):
            return None
        now = self._clock()
        if not self.store.take_lease(live.row.id, self.decider, now + self.lease_seconds, now):
            return None
        self.decisions += 1
        return BotTurn(
            table=live.row.id,
            owner=live.row.owner or "?",
            seat=seat,
            version=version,
            bot=live.bots[seat],
            view=state.view(seat),
            state=state,
        )

    def renew(self, table_id: str) -> bool:
        """Renew this process's lease of the table's bots for another
        ``lease_seconds`` (while a decision takes long); whether it holds it."""
        now = self._clock()
        return self.store.take_lease(table_id, self.decider, now + self.lease_seconds, now)

    def hold(self, table_id: str, seconds: float) -> bool:
        """Keep this process's lease of the table's bots through a wait at the
        end of a deal of ``seconds`` (and ``lease_seconds`` more), so that no
        other process takes the table meanwhile; whether it holds it (if not,
        another process holds the table and its wait)."""
        now = self._clock()
        return self.store.take_lease(
            table_id, self.decider, now + seconds + self.lease_seconds, now
        )

    def orphans(self, most: int) -> list[str]:
        """The tables (at most ``most``) whose next move is a bot's and whose
        bots no process decides now (:meth:`Store.orphans
        <backalley.server.store.Store.orphans>`)."""
        return list(self.store.orphans(self._clock(), most))

    def release(self, table_id: str) -> bool:
        """Give up this process's lease of the table's bots (taken by
        :meth:`bot_turn`); answers whether it held it - then a move stored
        meanwhile by another process, which could not take the lease, may
        have left a bot to act: the caller looks again."""
        if not isinstance(table_id, str):
            return False
        return self.store.release_lease(table_id, self.decider)

    def bot_failed(self, turn: BotTurn, detail: str) -> None:
        """The bot of ``turn`` failed while deciding: its table stops (the
        log keeps ``detail``, which may name the bot's cards; the table says
        only that the bot stopped)."""
        live = self._table(turn.table)
        name = live.row.seats[turn.seat]
        _log.error(
            "table %s: the %s bot at seat %d stopped:\n%s", live.row.id, name, turn.seat, detail
        )
        live.stalled = f"the {name} bot at seat {turn.seat} stopped (an error in the bot)"

    def bot_play(self, turn: BotTurn, move: ba.Move, bot: Bot | None = None) -> bool:
        """Apply ``move``, chosen by the bot of ``turn``, committed like a
        person's.  ``True`` when the table moved on (by this move, or by a
        move stored meanwhile, which is read instead); ``False`` when the
        table stopped (a move the rules refuse, a game that keeps being
        thrown in).

        The seat's bot for its next decision is made afresh, seeded from the
        table's secret seed and the move's number (``bot``, the bot as it was
        after deciding, is not kept): a bot carries nothing from one decision
        to the next, so the server's memory stays flat however long a table
        plays, and a decision sent to a worker process pickles small."""
        live = self._table(turn.table)
        name = live.row.seats[turn.seat]
        state = turn.state
        try:
            after = state.apply(move)
        except ba.BackAlleyError as exc:
            self.bot_failed(turn, f"its move {move} was refused: {exc}")
            return False
        try:
            check_throw_ins(after)
        except ba.SetupError as exc:  # public facts only: how many deals were thrown in
            live.stalled = f"the {name} bot at seat {turn.seat} stopped: {exc}"
            return False
        with live.lock:
            if live.row.archived is not None:
                return False
            if live.version != turn.version:
                return True  # someone moved meanwhile: the caller looks again
            row = MoveRow(turn.version, turn.seat, str(move))
            when = self._clock()
            stored = self._append(live, row, after, when)
            if stored == ARCHIVED:  # archived meanwhile (here or by another process)
                self._archived_elsewhere(live)
                return False
            if stored != STORED:
                self._catch_up(live)  # another process stored this move first
                return True
            self._moved(live, state, move, after, when)
            live.state = after
            live.version += 1
            live.bots[turn.seat] = self._bot(live.row, turn.seat, live.version)
        return True

    def bot_step(self, table_id: str) -> bool:
        """Play one move of the bot to act, decided on this thread
        (:meth:`bot_turn`, the bot's choice, :meth:`bot_play`).  ``True``
        when the table moved on; ``False`` when no bot is to act or its
        table stopped."""
        turn = self.bot_turn(table_id)
        if turn is None:
            return False
        try:
            move = turn.bot.choose(turn.view)
        except Exception:  # a bot that fails stops its table, not the server
            self.bot_failed(turn, traceback.format_exc(limit=20))
            return False
        return self.bot_play(turn, move)

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


def _is_utf8(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (JSON's ``\\ud800`` escapes
    read as lone surrogates, which no store keeps)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _seat(seat: object, players: int) -> int:
    # ASCII digits only: "²" is a digit to str.isdigit, but not to int()
    if isinstance(seat, str) and seat.isascii() and seat.isdigit() and len(seat) < 3:
        seat = int(seat)
    if type(seat) is not int or not 0 <= seat < players:
        raise ServerError(
            404, "no-seat", f"there is no seat {str(seat)[:10]!r}; seats are 0 to {players - 1}"
        )
    return seat
