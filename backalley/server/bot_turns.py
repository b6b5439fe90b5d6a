"""The bots' turns at a table: who decides them, and how a decision is
asked for and committed.

A bot's move is decided by one process at a time, whichever processes
watch the table: the one that holds the table's lease in the store
(:meth:`~backalley.server.store.Store.take_lease`, renewed with every
decision, ``lease_seconds`` long), which another process takes over once it
has expired (its holder died).

The bots are seeded secretly, like the deck: from the table's seed, which
stays on the server until the game's record is given, never from anything a
client sees.  A bot's decision is asked for in two steps, so that it can be
made apart from the requests (:mod:`backalley.server.bot_pool`):
:meth:`BotTurns.bot_turn` gives the bot and its view (a :class:`BotTurn`),
:meth:`BotTurns.bot_play` commits the move it chose.
"""

from __future__ import annotations

import logging
import traceback

import attrs

import backalley as ba
from backalley.bots import Bot, check_throw_ins
from backalley.server.store import ARCHIVED, STORED, MoveRow
from backalley.server.table_moves import TableMoves

__all__ = ["BotTurn", "BotTurns"]

_log = logging.getLogger("backalley.server.tables")  # the name operators configure


@attrs.frozen
class BotTurn:
    """A bot to act at a table: what its decision needs, and what the move it
    chooses is checked against (:meth:`~backalley.server.TableService.bot_play`)."""

    table: str
    owner: str
    """The client address that made the table (``"?"``: not known)."""
    seat: int
    version: int
    """The table's version the decision is for."""
    bot: Bot
    view: ba.PlayerView
    state: ba.GameState


class BotTurns(TableMoves):
    """The bots' turns at the tables (a part of
    :class:`~backalley.server.TableService`)."""

    lease_seconds: float
    decider: str
    decisions: int

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
