"""The ASGI application: the HTTP API, the sockets and the browser table.

:func:`create_app` builds a Starlette application around a
:class:`~backalley.server.TableService`.  Routes (all JSON; the
OpenAPI document at ``/openapi.json`` describes each):

- ``GET /`` the browser table; ``GET /static/...`` its script and style;
- with ``web`` (a folder written by ``backalley build-web``): ``GET /web/...``
  the library in the browser (the table that needs no server, backalley.js,
  the Pyodide runtime, the wheels), which the table page then loads too
  (:mod:`backalley.server.web`);
- ``GET /api/variants``, ``GET /api/variants/{name}``, ``GET /api/bots``;
- ``GET /api/tables``, ``POST /api/tables``, ``GET /api/tables/{table}``;
- ``POST /api/tables/{table}/seats/{seat}/join`` (answers the seat token);
- ``POST /api/tables/{table}/seats/{seat}/continue`` (the seat has seen the
  end of the last deal: the bots need not wait for it);
- ``GET /api/health`` (whether the server can open WebSockets);
- ``GET /api/tables/{table}/seats/{seat}/view`` and
  ``POST /api/tables/{table}/seats/{seat}/moves`` (``Authorization: Bearer
  <token>``);
- ``GET /api/tables/{table}/public``, ``GET /api/tables/{table}/record``;
- WebSocket ``/api/tables/{table}/seats/{seat}/socket`` (the first message
  is ``{"token": "..."}``; then the seat's view after every move) and
  ``/api/tables/{table}/socket`` (the public facts after every move).

No CORS headers are sent, and :class:`~backalley.server.edge.Edge` refuses
a host the server does not answer to, another site's ``Origin`` and a body
not sent as JSON: only pages served by the server itself can call it from a
browser.  A table's id is checked before any store reads it.

The application is assembled here from its parts, one module each: the HTTP
routes (:mod:`backalley.server.http_routes`) and the sockets
(:mod:`backalley.server.socket_routes`), how both answer
(:mod:`backalley.server.answers`), the pushes to the sockets
(:mod:`backalley.server.hub`) and the work between requests - the bots' runs,
the poll, the sweep, the archiving (:mod:`backalley.server.runtime`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

import backalley as ba
from backalley.server.answers import PageHeaders, client_key, error_answer, http_error, route
from backalley.server.edge import Edge
from backalley.server.http_routes import LISTED, STATIC, HttpRoutes
from backalley.server.hub import SEND_SECONDS, Hub
from backalley.server.runtime import Runtime
from backalley.server.settings import ServerSettings
from backalley.server.socket_routes import SocketRoutes
from backalley.server.store import Store
from backalley.server.table_service import TableService
from backalley.server.web import WebFiles, web_folder

__all__ = ["LISTED", "SEND_SECONDS", "STATIC", "Hub", "client_key", "create_app"]


def create_app(
    store: Store,
    *,
    settings: ServerSettings | None = None,
    web: str | Path | None = None,
    **limits: Any,
) -> Starlette:
    """The server's ASGI application over ``store``.

    ``settings`` (or its fields as keywords: ``bot_delay=0``,
    ``move_rate=...``; see :class:`~backalley.server.ServerSettings`) set
    the limits.  ``web``, a folder written by ``backalley build-web``, is
    served at ``/web/`` and the table page loads the library from it
    (:mod:`backalley.server.web`).  The caller owns ``store`` and closes it.
    """
    library = web_folder(web) if web is not None else None
    if settings is None:
        try:
            settings = ServerSettings(**limits)
        except TypeError as exc:
            raise ba.SetupError(f"unknown server setting: {exc}") from None
    elif limits:
        raise ba.SetupError("give either settings or its fields as keywords, not both")
    service = TableService(
        store,
        max_tables=settings.max_tables,
        max_live=settings.max_live,
        deal_pause=settings.deal_pause,
        bot_budget=settings.bot_budget,
        max_client_tables=settings.max_client_tables,
        max_client_bot_tables=settings.max_client_bot_tables,
        finished_keep=settings.finished_keep,
        idle_keep=settings.idle_keep,
        lease_seconds=settings.lease_seconds,
        max_thrown_in=settings.max_thrown_in,
    )
    app = Runtime(service, settings)
    http = HttpRoutes(app, library)
    sockets = SocketRoutes(app)

    routes = [
        Route("/", http.page),
        Route("/openapi.json", http.openapi),
        Route("/api/variants", route(http.variants)),
        Route("/api/variants/{name}", route(http.variant)),
        Route("/api/bots", route(http.bots)),
        Route("/api/tables", route(http.table_list), methods=["GET", "POST"]),
        Route("/api/tables/{table}", route(http.table)),
        Route("/api/tables/{table}/seats/{seat}/join", route(http.join), methods=["POST"]),
        Route("/api/tables/{table}/seats/{seat}/view", route(http.view)),
        Route("/api/tables/{table}/seats/{seat}/moves", route(http.move), methods=["POST"]),
        Route(
            "/api/tables/{table}/seats/{seat}/continue", route(http.continue_deal), methods=["POST"]
        ),
        Route("/api/health", http.health),
        Route("/api/tables/{table}/public", route(http.public)),
        Route("/api/tables/{table}/record", route(http.record)),
        WebSocketRoute("/api/tables/{table}/seats/{seat}/socket", sockets.seat_socket),
        WebSocketRoute("/api/tables/{table}/socket", sockets.public_socket),
        Mount("/static", PageHeaders(StaticFiles(directory=STATIC)), name="static"),
    ]
    if library is not None:
        routes.append(Mount("/web", WebFiles(library), name="web"))
    server = Starlette(
        routes=routes,
        middleware=[Middleware(Edge, settings=settings, answer=error_answer)],
        lifespan=app.lifespan,
        exception_handlers={HTTPException: http_error, Exception: http_error},
    )
    server.state.service = service
    server.state.no_upgrade = False  # set when a WebSocket request came as plain HTTP
    server.state.settings = settings
    server.state.runs = app.runs  # the tables whose bots are moving now (for tests)
    return server
