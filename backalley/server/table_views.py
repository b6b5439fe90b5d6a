"""What each one sees of a table: a seat its view document (its hand, the
public facts, its legal moves and why each other card is refused), a
spectator the public facts (:data:`PRIVATE_KEYS` left out), the table list
its summaries, and everyone the game's record once it is over."""

from __future__ import annotations

import json
from typing import Any

import backalley as ba
from backalley.render.facts import table_facts
from backalley.rules.seats import seat_names
from backalley.server.deal_ends import DealEnds
from backalley.server.refusals import ServerError
from backalley.server.store import HUMAN

__all__ = ["PRIVATE_KEYS", "TableViews"]

PRIVATE_KEYS = ("seat", "hand", "discards", "legal_moves", "cards", "call_answers")
"""The keys of a seat's view document that only that seat may read (its
hand, and its answers: what it may play and call); the public document is a
view document without them."""


class TableViews(DealEnds):
    """The documents the tables answer (a part of
    :class:`~backalley.server.TableService`)."""

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
