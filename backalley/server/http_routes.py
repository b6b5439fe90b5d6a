"""The HTTP routes: the page, the OpenAPI document, the variants and bots,
the tables (list, create, summary, join), a seat's view and moves, the
continue after a deal, the public facts, the record (JSON, or with
``?format=text`` the record notation) and the health check.

Each route reads its request, asks the table service in a worker thread and
answers JSON (:mod:`backalley.server.answers`); a move or a continue pushes
to the table's sockets and kicks its bots (:class:`~backalley.server.runtime.Runtime`).
"""

from __future__ import annotations

import json
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response

import backalley as ba
from backalley.bots import bot_names
from backalley.rules.seats import seat_names
from backalley.server.answers import (
    HEADERS,
    NO_WEBSOCKETS,
    PAGE_HEADERS,
    bearer,
    check_move_id,
    client_of,
    json_answer,
    limited,
    read_body,
    websocket_library,
)
from backalley.server.openapi import openapi_document
from backalley.server.refusals import ServerError
from backalley.server.runtime import Runtime
from backalley.server.tokens import token_hash
from backalley.server.web import WASM_PAGE_POLICY, page_with_library

__all__ = ["LISTED", "STATIC", "HttpRoutes"]

STATIC = Path(__file__).parent / "static"
"""The browser table's files."""

LISTED = 200
"""The most tables ``GET /api/tables`` lists (the newest first)."""


class HttpRoutes:
    """The HTTP routes of one application, over its :class:`Runtime`
    (``library``: the folder of the library in the browser, if served)."""

    def __init__(self, app: Runtime, library: Path | None) -> None:
        self.app = app
        self.service = app.service
        self.settings = app.settings
        self.library = library

    async def page(self, request: Request) -> Response:
        if self.library is None:
            return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)
        html = page_with_library((STATIC / "index.html").read_text(encoding="utf-8"))
        headers = {**PAGE_HEADERS, "Content-Security-Policy": WASM_PAGE_POLICY}
        return HTMLResponse(html, headers=headers)

    async def openapi(self, request: Request) -> Response:
        return json_answer(openapi_document())

    async def variants(self, request: Request) -> Response:
        names = list(ba.variants.names())
        found = {name: ba.variants.get(name) for name in names}
        return json_answer(
            {
                "variants": names,
                "players": {name: rules.players for name, rules in found.items()},
                "descriptions": {name: ba.variants.description(name) for name in names},
                "seat_names": {name: list(seat_names(rules)) for name, rules in found.items()},
            }
        )

    async def variant(self, request: Request) -> Response:
        name = request.path_params["name"]
        try:
            rules = ba.variants.get(name)
        except ba.UnknownVariantError as exc:
            raise ServerError(404, "unknown-variant", str(exc).strip("\"'")) from None
        return json_answer(json.loads(ba.to_json(rules)))

    async def bots(self, request: Request) -> Response:
        return json_answer({"bots": list(bot_names())})

    async def tables(self, request: Request) -> Response:
        refused = limited(
            self.app.lists,
            client_of(request),
            "the table list was asked for too often: wait a little",
        )
        if refused is not None:
            return refused
        found = await run_in_threadpool(self.service.listing, LISTED)
        return json_answer({"tables": found})

    async def create(self, request: Request) -> Response:
        refused = limited(
            self.app.creates, client_of(request), "too many tables made from here: wait a little"
        )
        if refused is not None:
            return refused
        body = await read_body(request, self.settings.max_body)
        unknown = sorted(set(body) - {"rules", "seats"})
        if unknown:
            raise ServerError(422, "bad-request", f"unknown field {unknown[0][:40]!r}")
        table = await run_in_threadpool(
            self.service.create,
            body.get("rules", "gamerules"),
            body.get("seats"),
            client_of(request),
        )
        self.app.kick(table)
        return json_answer(await run_in_threadpool(self.service.summary, table), 201)

    async def table(self, request: Request) -> Response:
        found = await run_in_threadpool(self.service.summary, request.path_params["table"])
        return json_answer(found)

    async def join(self, request: Request) -> Response:
        table, seat = request.path_params["table"], request.path_params["seat"]
        token = await run_in_threadpool(self.service.join, table, seat)
        return json_answer({"table": table, "seat": int(seat), "token": token}, 201)

    async def view(self, request: Request) -> Response:
        table, seat = request.path_params["table"], request.path_params["seat"]
        found = await run_in_threadpool(self.service.view, table, seat, bearer(request))
        return json_answer(found)

    async def move(self, request: Request) -> Response:
        table, seat = request.path_params["table"], request.path_params["seat"]
        token = bearer(request)
        await run_in_threadpool(self.service.authorize, table, seat, token)
        refused = limited(self.app.moves, token_hash(token or ""), "too many moves: wait a little")
        if refused is not None:
            return refused
        body = await read_body(request, self.settings.max_body)
        unknown = sorted(set(body) - {"move", "client_move_id", "version"})
        if unknown:
            raise ServerError(422, "bad-request", f"unknown field {unknown[0][:40]!r}")
        check_move_id(body.get("client_move_id"))
        done = await run_in_threadpool(
            lambda: self.service.submit(
                table,
                seat,
                token,
                body.get("move"),
                client_move_id=body.get("client_move_id"),
                expected_version=body.get("version"),
            )
        )
        if not done.repeated:
            await self.app.hub.push(table)
            self.app.kick(table)
        found = await run_in_threadpool(self.service.view_of, table, int(seat))
        return json_answer(
            {"number": done.number, "repeated": done.repeated, **found},
        )

    async def continue_deal(self, request: Request) -> Response:
        table, seat = request.path_params["table"], request.path_params["seat"]
        token = bearer(request)
        await run_in_threadpool(self.service.authorize, table, seat, token)
        refused = limited(self.app.moves, token_hash(token or ""), "too many moves: wait a little")
        if refused is not None:
            return refused
        body = await read_body(request, self.settings.max_body)
        unknown = sorted(set(body) - {"deal"})
        if unknown:
            raise ServerError(422, "bad-request", f"unknown field {unknown[0][:40]!r}")
        done = await run_in_threadpool(
            self.service.continue_deal, table, seat, token, body.get("deal")
        )
        await self.app.hub.push(table)
        self.app.kick(table)
        return json_answer(done)

    async def health(self, request: Request) -> Response:
        # no self.library, or a socket's request that came as plain HTTP: no WebSockets
        ok = websocket_library() and not request.app.state.no_upgrade
        return json_answer(
            {
                "websockets": ok,
                "message": None if ok else NO_WEBSOCKETS,
                # whether moves other processes store reach this one at once
                "listening": self.app.watch is not None and self.app.watch.listening,
                "bot_decisions": self.service.decisions,
            }
        )

    async def public(self, request: Request) -> Response:
        return json_answer(
            await run_in_threadpool(self.service.public, request.path_params["table"])
        )

    async def record(self, request: Request) -> Response:
        form = request.query_params.get("format", "json")
        if form not in ("json", "text"):
            raise ServerError(422, "bad-request", f"format is 'json' or 'text', not {form[:20]!r}")
        text = await run_in_threadpool(self.service.record, request.path_params["table"])
        if form == "text":  # the record notation (.bar)
            text = await run_in_threadpool(_record_text, text)
            return Response(text, media_type="text/plain; charset=utf-8", headers=HEADERS)
        return Response(text, media_type="application/json", headers=HEADERS)

    async def table_list(self, request: Request) -> Response:
        # one route for both methods, so that a 405 answer's Allow names both
        return await (self.create if request.method == "POST" else self.tables)(request)


def _record_text(document: str) -> str:
    """A record's JSON document in the record notation (``?format=text``)."""
    from backalley.io.notation import record_to_text

    return record_to_text(ba.from_json(document, ba.GameRecord))
