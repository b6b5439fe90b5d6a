"""A seat's moves: checked by the library, committed to the store before
they are answered, applied once.

A move whose commit loses a race (another server process stored a move
first) is refused with ``conflict`` and nothing changes; a move sent again
with the same client move id is answered as before (:class:`Submitted`,
``repeated``), never applied twice.
"""

from __future__ import annotations

import attrs

import backalley as ba
from backalley.server.deal_ends import DealEnds
from backalley.server.live_table import LiveTable
from backalley.server.refusals import ServerError, table_archived
from backalley.server.store import ARCHIVED, DUPLICATE, STORED, MoveRow

__all__ = ["MAX_CLIENT_MOVE_ID", "MAX_MOVE_TEXT", "Submitted", "TableMoves"]

MAX_MOVE_TEXT = 40
"""The longest move text read (``"play QS"`` is 7 characters)."""
MAX_CLIENT_MOVE_ID = 64
"""The longest client move id kept."""


@attrs.frozen
class Submitted:
    """A move the table accepted (or had accepted before, ``repeated``)."""

    number: int
    """The move's number in the game (the table's version before it)."""
    version: int
    """The table's version now."""
    repeated: bool = False
    """``True`` when this client move id was applied before: nothing new was applied."""


class TableMoves(DealEnds):
    """The moves the tables' seats send (a part of
    :class:`~backalley.server.TableService`)."""

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
                raise table_archived(live.row.id)
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

    def _append(self, live: LiveTable, row: MoveRow, after: ba.GameState, when: float) -> str:
        """Commit ``row`` (reaching ``after``) to the store: the table is
        finished when the game is over or the move stops the table, and the
        store is told whether a bot is to move next."""
        over = after.is_over or self._stops(live, live.state, after) is not None
        seat = after.to_act
        bot_next = not over and seat is not None and seat in live.bots
        return self.store.append(live.row.id, row, when=when, over=over, bot_next=bot_next)

    def _repeated(self, live: LiveTable, done: MoveRow, move: ba.Move) -> Submitted:
        if done.move != str(move):
            raise ServerError(
                409,
                "move-id-reused",
                f"client move id {done.client_move_id!r} was used for {done.move!r}",
            )
        return Submitted(done.number, live.version, repeated=True)


def _is_utf8(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (JSON's ``\\ud800`` escapes
    read as lone surrogates, which no store keeps)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
