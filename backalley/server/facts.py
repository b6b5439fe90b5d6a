"""The table's public facts, named, beside each view the server sends.

A view document holds the game's facts in the library's terms: the calls in
the order they were made, the scores per side.  The browser table must not
work out from the rules who made which call or which seats form a side, so
the server sends, with every view and every spectator's document, the facts
as the library's pictures show them (:func:`backalley.render.diagram.table_of`):
the seats' and sides' names, each seat's call and tricks won, the contracts
and the line of status.  Only public facts are taken: no card of any hand.
"""

from __future__ import annotations

from typing import Any

import backalley as ba
from backalley.render.diagram import table_of

__all__ = ["table_facts"]


def table_facts(view: ba.PlayerView) -> dict[str, Any]:
    """The public facts of the table ``view`` sees, as JSON data:

    ``title`` (the rules' name), ``status`` (``"Bidding: East to call"``),
    ``deal`` and ``deals`` (this deal's number, of how many), ``seat_names``
    (North, East, ... or Seat 1 ..), ``sides`` (each side's ``name`` and
    ``seats``, in the order of the scores), ``calls`` (each seat's call this
    deal, ``None`` before it speaks), ``won`` (each seat's tricks this deal),
    ``dealer``, ``declarer``, ``contracts`` (each side's contract once the
    bidding is over, else ``None``), ``side_tricks``, ``trump_known`` and
    ``winner`` (the winning side once the game is over; ``None`` for a draw
    or while it goes on).
    """
    table = table_of(view)
    return {
        "title": table.title,
        "status": table.status,
        "deal": table.deal,
        "deals": table.deals,
        "seat_names": [seat.name for seat in table.seats],
        "sides": [
            {"name": name, "seats": list(seats)}
            for name, seats in zip(table.sides, table.side_seats)
        ],
        "calls": [None if seat.call is None else str(seat.call) for seat in table.seats],
        "won": [seat.won for seat in table.seats],
        "dealer": view.dealer,
        "declarer": view.declarer,
        "contracts": None if table.contracts is None else list(table.contracts),
        "side_tricks": list(table.side_tricks),
        "trump_known": table.trump_known,
        "winner": table.winner,
    }
