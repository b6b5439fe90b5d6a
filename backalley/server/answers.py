"""How the server answers over HTTP: JSON with its headers, refusals as
JSON, the client's key, ids checked before a store reads them, rate limits,
the bearer token, a request's body, and the page's security headers.

Every route of :mod:`backalley.server.http_routes` answers through these, and
the sockets of :mod:`backalley.server.socket_routes` check ids and keys alike.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from backalley.server.refusals import ServerError
from backalley.server.settings import RateLimiter

__all__ = [
    "HEADERS",
    "NO_WEBSOCKETS",
    "PAGE_HEADERS",
    "Handler",
    "PageHeaders",
    "bearer",
    "check_move_id",
    "check_table_id",
    "client_key",
    "client_of",
    "error_answer",
    "http_error",
    "json_answer",
    "limited",
    "read_body",
    "route",
    "websocket_library",
]

HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
PAGE_HEADERS = {
    **HEADERS,
    "Content-Security-Policy": (
        "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "X-Frame-Options": "DENY",
}

Handler = Callable[[Request], Awaitable[Response]]

_log = logging.getLogger("backalley.server.app")


class PageHeaders:
    """An ASGI application that adds the page's security headers to ``app``'s
    answers (the static files: script, style, icon, and the page itself as
    ``/static/index.html``, which must not be framed either)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in PAGE_HEADERS.items():
                    if name != "Cache-Control":  # the files keep their own (ETag)
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _JSONResponse(JSONResponse):
    """JSON that is always sent: text a client gave (a key, an id) that
    holds a lone surrogate (JSON's ``"\\ud800"``) is written escaped, as
    JSON writes it, rather than failing to encode (which reset the
    connection)."""

    def render(self, content: Any) -> bytes:
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return text.encode("utf-8", "backslashreplace")


def json_answer(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> JSONResponse:
    return _JSONResponse(data, status_code=status, headers={**HEADERS, **(headers or {})})


def error_answer(exc: ServerError, headers: dict[str, str] | None = None) -> JSONResponse:
    return json_answer(exc.to_data(), exc.status, headers)


def client_of(request: HTTPConnection) -> str:
    """The client's address, the key of its rate limits, socket limits and
    table caps (behind a trusted proxy, the address it forwarded:
    :class:`Edge`): :func:`client_key` of it."""
    return client_key(request.client.host) if request.client else "?"


def client_key(host: str) -> str:
    """What a client address is counted as: an IPv4 address as itself, an
    IPv6 address as its /64 network (``2001:db8:1:2::/64``: one household or
    machine is given a whole /64, so counting each address alone gave one
    client 2**64 allowances); anything else as it is written."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if address.version == 6:
        mapped = address.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""What a table's id may be (the server makes 16 hexadecimal digits)."""


def check_move_id(move_id: object) -> None:
    """Refuse (422 ``bad-move-id``) a client move id holding a NUL, which a
    database may refuse to store, before any store sees it (the service
    checks its type and length)."""
    if isinstance(move_id, str) and "\x00" in move_id:
        raise ServerError(
            422, "bad-move-id", "a client move id is a text without NUL characters (\\u0000)"
        )


def check_table_id(params: dict[str, Any]) -> None:
    """Refuse (404 ``not-found``) a table id no table can have, before any
    store reads it: a NUL (``%00``), a lone surrogate or any other character
    a database may refuse never reaches one."""
    table = params.get("table")
    if table is not None and not (isinstance(table, str) and _TABLE_ID.fullmatch(table)):
        raise ServerError(404, "not-found", f"there is no table {str(table)[:40]!r}")


def limited(limiter: RateLimiter, key: str, message: str) -> JSONResponse | None:
    """The 429 answer (with ``Retry-After``) when ``key`` is past its rate
    limit, else ``None`` (the request counted)."""
    wait = limiter.allow(key)
    if not wait:
        return None
    return error_answer(ServerError(429, "too-many", message), {"Retry-After": str(int(wait) + 1)})


def bearer(request: Request) -> str | None:
    value = request.headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def read_body(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, read to at most ``limit`` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise ServerError(413, "too-large", f"a request body is at most {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise ServerError(413, "too-large", f"a request body is at most {limit} bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        # the client went away before its whole body came (or sent a
        # Content-Length larger than it): nobody reads the answer, and a
        # client gone is not the server's failure, so nothing is logged
        raise ServerError(
            400, "bad-json", "the request body ended before its Content-Length"
        ) from None
    try:
        data = json.loads(b"".join(chunks) or b"{}")
    except (ValueError, RecursionError):
        raise ServerError(400, "bad-json", "the request body is not JSON text") from None
    if not isinstance(data, dict):
        raise ServerError(400, "bad-json", "the request body is a JSON object")
    return data


NO_WEBSOCKETS = (
    "this server cannot open WebSockets, which the table needs for its live updates: "
    "the ASGI server has no WebSocket support installed "
    "(pip install 'backalley[server]' brings it: websockets)"
)


def websocket_library() -> bool:
    """Whether a WebSocket library uvicorn uses (websockets, wsproto) is installed."""
    return any(importlib.util.find_spec(name) is not None for name in ("websockets", "wsproto"))


def asks_upgrade(request: Request) -> bool:
    """Whether ``request`` is a WebSocket handshake (``Upgrade: websocket``
    and the ``upgrade`` token in ``Connection``), which an ASGI server that
    speaks WebSocket never passes on as plain HTTP.  An ``Upgrade`` header
    alone is not one: any client may send it with a plain request (which
    told every page, until a restart, that the server had no WebSockets)."""
    tokens = {t.strip().lower() for t in request.headers.get("connection", "").split(",")}
    return request.headers.get("upgrade", "").strip().lower() == "websocket" and "upgrade" in tokens


async def http_error(request: Request, exc: Exception) -> Response:
    """An unknown address or method (or a failure of the server's own, which
    is logged as well), answered as JSON like every refusal."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    headers = dict(exc.headers or {}) if isinstance(exc, HTTPException) else {}
    if status == 404 and asks_upgrade(request):
        # a WebSocket's handshake come as plain HTTP: the ASGI server did not
        # open the socket (uvicorn without websockets or wsproto); GET
        # /api/health tells the page so from now on
        request.app.state.no_upgrade = True
        code, message = "no-websockets", NO_WEBSOCKETS
        status = 501
    elif status == 404:
        code, message = "no-route", "there is nothing at this address: the API is in /openapi.json"
    elif status == 405:
        code, message = "bad-method", f"{request.method[:10]} is not taken here (see Allow)"
    elif status == 500:
        code, message = "server-error", "the server failed to answer this request"
    else:
        code, message = "bad-request", str(getattr(exc, "detail", "")) or "refused"
    return json_answer({"error": code, "message": message}, status, headers)


def route(handler: Handler) -> Handler:
    """``handler`` answering a :class:`ServerError` as its JSON body; a store
    that failed (``503 database``: a full disk, a database gone) is logged
    too, in one line."""

    async def route(request: Request) -> Response:
        try:
            check_table_id(request.path_params)
            return await handler(request)
        except ServerError as exc:
            if exc.code == "database":
                _log.warning("%s %s: %s", request.method, request.url.path[:120], exc.message)
            return error_answer(exc)

    route.__name__ = handler.__name__
    route.__doc__ = handler.__doc__
    return route
