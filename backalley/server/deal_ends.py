"""The end of each deal at a table, and the deals thrown in a row.

The end of a deal is held for the people at the table
(:class:`~backalley.server.live_table.DealEnd`): the library scores a deal
and deals the next one within the move that plays the last card, so the
service keeps that deal's last trick, and its bots make no move until every
seat a person had joined when the deal ended has said it continues
(:meth:`DealEnds.continue_deal`, or a move of its own) or ``deal_pause``
seconds have passed since that move was stored.  The continues are kept in
the store and the wait is timed from the stored move, so every process
sharing the store holds the same deal end alike.

People who throw in ``max_thrown_in`` deals in a row (nobody contracts)
stop their table: a game nobody plays would otherwise grow its log for
ever.
"""

from __future__ import annotations

from typing import Any

import backalley as ba
from backalley.engine import lowlevel
from backalley.render.facts import deal_end as deal_end_facts
from backalley.server.live_table import DealEnd, LiveTable
from backalley.server.refusals import ServerError
from backalley.server.store import HUMAN
from backalley.server.table_seats import TableSeats

__all__ = ["DealEnds"]


class DealEnds(TableSeats):
    """What each stored move does at a table beyond the game: the hold at
    the end of a deal, the deals thrown in a row (a part of
    :class:`~backalley.server.TableService`)."""

    deal_pause: float
    max_thrown_in: int

    def _moved(
        self,
        live: LiveTable,
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
    def _thrown_in_row(live: LiveTable, before: ba.GameState, after: ba.GameState) -> int | None:
        """How many deals in a row are thrown in once the move from ``before``
        to ``after`` is made, when that move throws one in (``None``: it
        does not)."""
        if lowlevel.thrown_in(after) <= lowlevel.thrown_in(before):
            return None
        return live.thrown_in + 1

    def _stops(self, live: LiveTable, before: ba.GameState, after: ba.GameState) -> str | None:
        """Why the move from ``before`` to ``after`` stops the table: it throws
        in the ``max_thrown_in``-th deal in a row; ``None`` when it does not."""
        row = self._thrown_in_row(live, before, after)
        if row is None or row < self.max_thrown_in:
            return None
        return (
            f"this table stopped: {row} deals in a row were thrown in "
            "(nobody contracted), so the game would never end"
        )

    def _deal_end(self, live: LiveTable, facts: dict[str, Any], played: float) -> DealEnd:
        """The hold at the end of a deal (its move stored at ``played``): its
        ``facts``, and the seats a person has joined, which the bots wait for."""
        waiting = {
            seat
            for seat, kind in enumerate(live.row.seats)
            if kind == HUMAN and self._joined(live, seat)
        }
        return DealEnd(facts, played, waiting)

    def _held(self, live: LiveTable) -> float:
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

    def _deal_end_data(self, live: LiveTable) -> dict[str, Any] | None:
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
