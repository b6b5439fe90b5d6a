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
from backalley.moves import Move, Play
from backalley.render.diagram import table_of

__all__ = ["deal_end", "table_facts"]


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


def deal_end(before: GameState, move: Move, after: GameState) -> dict[str, Any] | None:
    """The end of the deal that ``move`` (made in ``before``, reaching
    ``after``) scored, as JSON data - what a table shows while it holds the
    deal's end: ``deal`` (its number), ``last_trick`` (``leader``, ``cards`` in
    the order played, ``winner``; ``null`` when the deal did not end on a
    card) and ``made`` (per side, in the order of the scores: whether its
    contract was made, ``null`` for a side without one).  ``None`` when
    ``move`` scored no deal.

    The state after the last card has dealt the next deal, so the last
    trick's winner is asked of the rules' plan (the ranking part's
    ``trick_winner``, checked), as the library's own trick ends ask it."""
    if len(after.deal_results) <= len(before.deal_results):
        return None
    result = after.deal_results[-1]
    trick = None
    if isinstance(move, Play) and before.to_act is not None:
        cards = (*(card for _, card in before.trick), move.card)
        leader = before.trick[0][0] if before.trick else before.to_act
        plan = before.rules.plan
        ctx = plan.deal_context(
            before.deals_played, before.dealer, before.hand_size, trump=before.trump
        )
        position = plan.trick_position(ctx, tuple(card.index for card in cards))
        trick = {
            "leader": leader,
            "cards": [str(card) for card in cards],
            "winner": (leader + position) % before.rules.players,
        }
    made = [
        None if contract is None else taken >= contract.tricks
        for contract, taken in zip(result.contracts, result.tricks)
    ]
    return {"deal": result.number, "last_trick": trick, "made": made}
