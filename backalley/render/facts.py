"""The table's names and status line: what a table shows beside a view
document.

The view document holds every fact of the game a table shows (each seat's
call, the declarer, the contracts and tricks per side, whether trump is known
and broken, the seats of each side, the deals played and in all, the winner:
see the view document in the integration docs).  What it does not hold is how
the library's pictures *name* things (:func:`backalley.render.diagram.table_of`):
the seats' and sides' names, the rule set's title, the line of status and the
number of the deal being played.  The table server sends those with every view
as its ``facts`` block, and the library in the browser answers the same block
(``backalley.js``'s ``game.facts()``).  Only public facts are taken: no card of
any hand.
"""

from __future__ import annotations

from typing import Any

from backalley.engine.state import GameState
from backalley.engine.views import PlayerView
from backalley.render.diagram import table_of

__all__ = ["table_facts"]


def table_facts(view: PlayerView | GameState) -> dict[str, Any]:
    """The names and status of the table ``view`` sees, as JSON data:

    ``title`` (the rules' name, ``"custom rules"`` when they have none),
    ``status`` (``"Bidding: East to call"``, ``"Trick 3 of 10: North to
    play"``, ``"Game over: N-S win"``), ``deal`` (the number of the deal
    being played, from 1; the last deal's once the game is over),
    ``seat_names`` (North, East, ... or Seat 1, ...; one per seat) and
    ``side_names`` (one per side, in the order of the scores: the seats'
    initials joined by an en dash for compass partnerships, a seat's name
    where a side is one seat).
    """
    table = table_of(view)
    return {
        "title": table.title,
        "status": table.status,
        "deal": table.deal,
        "seat_names": [seat.name for seat in table.seats],
        "side_names": list(table.sides),
    }
