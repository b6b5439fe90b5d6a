"""A table in memory: its stored start, the state its stored moves reach,
and what the service keeps beside the game - its bots, the seats joined,
why it stalled or stopped, the deals thrown in a row and the end of its last
scored deal (:class:`DealEnd`, held for the people at the table)."""

from __future__ import annotations

import threading
from typing import Any

import attrs

import backalley as ba
from backalley.bots import Bot
from backalley.server.store import TableRow

__all__ = ["DealEnd", "LiveTable"]


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
    continued yet (the seat's move, or
    :meth:`~backalley.server.TableService.continue_deal`)."""
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
class LiveTable:
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
