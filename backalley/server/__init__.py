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
"""

from __future__ import annotations

from backalley.server.app import create_app
from backalley.server.errors import ServerError
from backalley.server.limits import RateLimiter, ServerSettings
from backalley.server.sqlite_store import SqliteStore
from backalley.server.store import MoveRow, Store, TableRow
from backalley.server.tables import HUMAN, Submitted, TableService

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
