"""A table's seats: a person joins a seat once and gets its token; every
later request for the seat is authorized by that token (only its hash is
stored); a seat's number is read as a client sends it."""

from __future__ import annotations

from backalley.server.live_table import LiveTable
from backalley.server.refusals import ServerError, table_archived
from backalley.server.store import HUMAN
from backalley.server.table_registry import TableRegistry
from backalley.server.tokens import new_token, token_hash, token_matches

__all__ = ["TableSeats"]


class TableSeats(TableRegistry):
    """The seats of the registry's tables (a part of
    :class:`~backalley.server.TableService`)."""

    def join(self, table_id: str, seat: object) -> str:
        """Seat a person at ``seat``: answers the seat's token, once."""
        live = self._table(table_id)
        number = _seat(seat, len(live.row.seats))
        if live.row.archived is not None:
            raise table_archived(live.row.id)
        if live.row.seats[number] != HUMAN:
            raise ServerError(
                409, "bot-seat", f"seat {number} is played by the {live.row.seats[number]} bot"
            )
        token = new_token()
        if not self.store.claim_seat(live.row.id, number, token_hash(token)):
            raise ServerError(409, "seat-taken", f"seat {number} has been joined already")
        return token

    def authorize(self, table_id: str, seat: object, token: str | None) -> tuple[LiveTable, int]:
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

    def _joined(self, live: LiveTable, seat: int) -> bool:
        if seat not in live.hashes:
            found = self.store.seat_hash(live.row.id, seat)
            if found is None:
                return False
            live.hashes[seat] = found
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
