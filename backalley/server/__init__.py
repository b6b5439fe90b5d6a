"""A table server: Back Alley played online under any house rules, the
library as the referee (the optional extra ``server``: Starlette, uvicorn,
and psycopg for PostgreSQL).

- :func:`create_app` - the ASGI application (HTTP API, a WebSocket per
  seat and for spectators, the browser table, the OpenAPI document);
- :class:`TableService` - the tables, their seats, views, moves and bots;
- :class:`SqliteStore` (embedded, the default) and
  :class:`~backalley.server.postgres_store.PostgresStore` (several
  processes sharing one database) behind the :class:`Store` interface;
- :class:`ServerSettings` - the limits (body and message sizes, move
  rates, sockets, the bots' pace) and the network edge (the hosts answered,
  the trusted proxies: :mod:`backalley.server.edge`).

Run it with ``backalley serve``; see the docs' "Serving games" page.

The former modules ``tables``, ``limits`` and ``errors`` still answer as
attributes of this package (``from backalley.server import tables``), with
a :class:`DeprecationWarning` naming where their names are now:
``limits`` is :mod:`~backalley.server.settings`, ``errors``
:mod:`~backalley.server.refusals`, and the names of ``tables`` are in
:mod:`~backalley.server.table_service` and the modules of its parts.
"""

from __future__ import annotations

import importlib
import types
import warnings

from backalley.server.app import create_app
from backalley.server.refusals import ServerError
from backalley.server.settings import RateLimiter, ServerSettings
from backalley.server.sqlite_store import SqliteStore
from backalley.server.store import HUMAN, MoveRow, Store, TableRow
from backalley.server.table_moves import Submitted
from backalley.server.table_service import TableService

__all__ = [
    "HUMAN",
    "MoveRow",
    "RateLimiter",
    "ServerError",
    "ServerSettings",
    "SqliteStore",
    "Store",
    "Submitted",
    "TableRow",
    "TableService",
    "create_app",
]

_RENAMED = {"limits": "settings", "errors": "refusals"}
"""Former modules of this package that were renamed: their names now."""

_SPLIT = {
    "tables": {
        "HUMAN": "store",
        "PRIVATE_KEYS": "table_views",
        "BotTurn": "bot_turns",
        "DealEnd": "live_table",
        "MAX_CLIENT_MOVE_ID": "table_moves",
        "MAX_MOVE_TEXT": "table_moves",
        "Submitted": "table_moves",
        "TableService": "table_service",
    },
}
"""Former modules of this package whose names went to several modules: per
name, the module that holds it now."""


def __getattr__(name: str) -> types.ModuleType:
    """A former module's name answers, with a warning naming where its
    names are now: a renamed module (:data:`_RENAMED`) the module itself, a
    split one (:data:`_SPLIT`) a module holding its public names (the same
    objects)."""
    if name in _RENAMED:
        new = f"{__name__}.{_RENAMED[name]}"
        warnings.warn(
            f"{__name__}.{name} is deprecated: use {new} (the same module)",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(new)
    if name in _SPLIT:
        moved = _SPLIT[name]
        places = ", ".join(sorted({f"{__name__}.{module}" for module in moved.values()}))
        warnings.warn(
            f"{__name__}.{name} is deprecated: its names are now in {places}",
            DeprecationWarning,
            stacklevel=2,
        )
        old = types.ModuleType(f"{__name__}.{name}", f"Deprecated: see {places}.")
        names = {
            attr: getattr(importlib.import_module(f"{__name__}.{module}"), attr)
            for attr, module in moved.items()
        }
        vars(old).update(names, __all__=sorted(names))
        return old
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
