"""The tables a server holds: each a game the library referees.

:class:`TableService` makes tables, seats players, answers each seat its
view and each spectator the public facts, checks and applies the moves
players send and plays the bots' moves.  It decides nothing about the game
itself: every answer comes from the library's public API
(:func:`~backalley.new_game`, :meth:`~backalley.GameState.check`,
:meth:`~backalley.GameState.view`, :class:`~backalley.GameRecord`), and a
table is rebuilt after a restart by replaying its stored moves.

It is assembled from one part per job, which share each table's live state
(:class:`~backalley.server.live_table.LiveTable`) and the store's
transactions:

- :mod:`~backalley.server.table_registry` - making, finding, replaying,
  keeping in memory and archiving the tables;
- :mod:`~backalley.server.table_seats` - joining a seat, its token;
- :mod:`~backalley.server.deal_ends` - the end of a deal held for the
  people at the table, the deals thrown in a row;
- :mod:`~backalley.server.table_views` - the seat's view, the public
  facts, the table list, the record;
- :mod:`~backalley.server.table_moves` - a seat's moves, committed before
  they are answered;
- :mod:`~backalley.server.bot_turns` - the bots' turns, one process
  deciding a table's bots at a time.

A table lives until it is archived (:meth:`TableService.retire`): a finished
game ``finished_keep`` seconds after its end, any table ``idle_keep``
seconds after its last move.  An archived table is no longer listed nor
counted, its bots no longer move and it takes no seat or move
(``410 archived``), but its summary, public facts and record are still
read from the store at their addresses.
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from backalley.server.bot_turns import BotTurns
from backalley.server.live_table import LiveTable
from backalley.server.store import DamageLog, Store
from backalley.server.table_views import TableViews

__all__ = ["TableService"]


class TableService(BotTurns, TableViews):
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
        self._live: OrderedDict[str, LiveTable] = OrderedDict()
        self._lock = threading.Lock()
