"""The server's edge: what every request and socket must show before a
route reads it.

:class:`Edge` wraps the application and refuses, as JSON, before anything
else runs:

- a ``Host`` that is not one of
  :attr:`ServerSettings.allowed_hosts <backalley.server.ServerSettings.allowed_hosts>`
  (421 ``bad-host``): a page whose own name was made to point at this
  server (DNS rebinding) reaches it under that name, never under one it
  serves;
- an ``Origin`` other than the server's own, on a WebSocket or on a request
  that changes something (403 ``bad-origin``): another site's page cannot
  make a table, join a seat, move or listen to a seat's socket, even though
  its browser can send the request;
- a request body that is not declared as JSON (415 ``bad-media-type``):
  the only bodies a page of another site can send without asking first are
  forms and ``text/plain``.

It also puts the real client's address in the request (``scope["client"]``),
believing ``X-Forwarded-For`` only from
:attr:`~backalley.server.ServerSettings.trusted_proxies`: the rate limits
and the socket limits count the client behind a proxy, not the proxy.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from backalley.server.refusals import ServerError
from backalley.server.settings import ServerSettings, split_host

__all__ = ["Edge", "client_address", "host_allowed", "same_origin"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing: no Origin or media type is asked of them."""
_DEFAULT_PORTS = {"http": "80", "ws": "80", "https": "443", "wss": "443"}
MAX_FORWARDED_HOPS = 16
"""The most ``X-Forwarded-For`` entries read (from the right)."""


def _header(scope: Scope, name: bytes) -> str | None:
    """The header ``name`` (lower case) of ``scope``, its several lines
    joined with commas; ``None`` when absent."""
    found = [value for key, value in scope.get("headers", ()) if key.lower() == name]
    if not found:
        return None
    return ",".join(v.decode("latin-1") for v in found)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address as ``X-Forwarded-For`` writes it (``1.2.3.4``, ``::1``,
    ``[::1]``, ``1.2.3.4:5678``, ``[::1]:5678``), or ``None``."""
    text = text.strip()
    if text.startswith("["):
        text = text[1 : text.find("]")] if "]" in text else ""
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _trusted(address: str, proxies: Iterable[Network]) -> bool:
    found = _address(address)
    mapped = found.ipv4_mapped if isinstance(found, ipaddress.IPv6Address) else None
    if mapped is not None and _trusted(str(mapped), proxies):
        return True  # a server listening on :: sees an IPv4 proxy as ::ffff:a.b.c.d
    return found is not None and any(found in network for network in proxies)


def client_address(peer: str, forwarded: str | None, proxies: tuple[Network, ...]) -> str:
    """The client's address: ``peer`` (the address the connection comes
    from), unless ``peer`` is a trusted proxy; then the rightmost address of
    ``forwarded`` (the ``X-Forwarded-For`` header) that is not a trusted
    proxy itself (each proxy appends the address it was called from, so the
    entries left of the first untrusted one may be made up by the client).
    An entry that is not an address stops the walk at the proxy that wrote it."""
    if not proxies or forwarded is None:
        return peer
    hops = [hop for hop in forwarded.split(",") if hop.strip()][-MAX_FORWARDED_HOPS:]
    current = peer
    while _trusted(current, proxies) and hops:
        found = _address(hops.pop())
        if found is None:
            break
        current = str(found)
    return current


def _port_of(host: str, scheme: str) -> tuple[str, str]:
    """``(name, port)`` of a ``Host`` value, the scheme's default port when
    none is written; a name's trailing dot dropped."""
    name, port = split_host(host.strip().lower())
    return name.rstrip(".") or name, port or _DEFAULT_PORTS.get(scheme, "")


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name[1:-1] if name.startswith("[") else name)
    except ValueError:
        return False
    return True


def host_allowed(host: str | None, scheme: str, allowed: Iterable[str]) -> bool:
    """Whether the ``Host`` value ``host`` of a request made with ``scheme``
    is one of ``allowed`` (see
    :attr:`ServerSettings.allowed_hosts <backalley.server.ServerSettings.allowed_hosts>`)."""
    entries = tuple(allowed)
    if "*" in entries:
        return True
    if not host:
        return False
    name, port = _port_of(host, scheme)
    for entry in entries:
        want, want_port = split_host(entry)
        if want_port is not None and want_port != port:
            continue
        want = want.rstrip(".") or want
        if want in ("0.0.0.0", "[::]"):
            if _is_address(name):
                return True
        elif want == name:
            return True
    return False


def same_origin(origin: str, host: str | None, scheme: str) -> bool:
    """Whether the ``Origin`` value ``origin`` names the server the request
    was sent to (its ``Host``): the same name, and the same port when the
    ``Host`` names one (a scheme's default port written or not).  A ``Host``
    without a port (as a proxy in front passes it on) matches the name on its
    scheme's default port, whichever the scheme: the proxy may speak HTTPS to
    the browser and HTTP to this server."""
    if not host:
        return False
    try:
        parts = urlsplit(origin.strip())
        netloc = parts.netloc
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not netloc or "@" in netloc:
        return False
    name, port = _port_of(netloc, parts.scheme)
    want, want_port = split_host(host.strip().lower())
    if name != (want.rstrip(".") or want):
        return False
    if want_port is None:
        return port == _DEFAULT_PORTS[parts.scheme]
    return port == want_port


def _is_json(media_type: str) -> bool:
    kind = media_type.partition(";")[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )


def _body_declared(scope: Scope) -> bool:
    """Whether a request says it carries a body (a length above 0, or chunks)."""
    length = _header(scope, b"content-length")
    if _header(scope, b"transfer-encoding") is not None:
        return True
    return length is not None and length.strip() not in ("", "0")


def refusal(scope: Scope, settings: ServerSettings) -> ServerError | None:
    """Why the edge refuses the request or socket ``scope``, or ``None``."""
    scheme = str(scope.get("scheme", "http"))
    host = _header(scope, b"host")
    if not host_allowed(host, scheme, settings.allowed_hosts):
        return ServerError(
            421,
            "bad-host",
            f"this server does not answer to the host {(host or '')[:60]!r}: "
            "it is started with the names it answers to (--allowed-host)",
        )
    method = str(scope.get("method", "GET")).upper()
    if scope["type"] == "websocket" or method not in _SAFE:
        origin = _header(scope, b"origin")
        if origin is not None and not same_origin(origin, host, scheme):
            return ServerError(
                403,
                "bad-origin",
                "a page of another site cannot call this server: "
                "only the server's own pages may change tables or open sockets",
            )
    if scope["type"] == "http" and method not in _SAFE:
        media = _header(scope, b"content-type")
        if (media is None and _body_declared(scope)) or (media is not None and not _is_json(media)):
            return ServerError(
                415,
                "bad-media-type",
                "a request body is JSON, sent with Content-Type: application/json",
            )
    return None


class Edge:
    """An ASGI application that checks each request's and socket's host,
    origin and media type (:func:`refusal`) and sets its real client address
    (:func:`client_address`) before ``app`` sees it.  ``answer`` makes the
    JSON response of a refusal."""

    def __init__(
        self,
        app: ASGIApp,
        settings: ServerSettings,
        answer: Callable[[ServerError], Response],
    ) -> None:
        self.app = app
        self.settings = settings
        self.answer = answer
        self.proxies = tuple(
            ipaddress.ip_network(p, strict=False) for p in settings.trusted_proxies
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        if self.proxies and client:
            real = client_address(str(client[0]), _header(scope, b"x-forwarded-for"), self.proxies)
            if real != client[0]:
                scope = {**scope, "client": (real, 0)}
        refused = refusal(scope, self.settings)
        if refused is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await self.answer(refused)(scope, receive, send)
        else:
            await self._refuse_socket(scope, receive, send, refused)

    async def _refuse_socket(
        self, scope: Scope, receive: Receive, send: Send, refused: ServerError
    ) -> None:
        """Refuse a WebSocket before it opens: its HTTP answer when the
        server can send one, else a close (the client sees a refused
        handshake, 403)."""
        await receive()  # websocket.connect
        if "websocket.http.response" in scope.get("extensions", {}):
            response: Any = self.answer(refused)
            await send(
                {
                    "type": "websocket.http.response.start",
                    "status": response.status_code,
                    "headers": response.raw_headers,
                }
            )
            await send({"type": "websocket.http.response.body", "body": response.body})
        else:
            await send({"type": "websocket.close", "code": 1008})
