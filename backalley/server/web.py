"""The library in the browser, served beside the tables (``backalley serve
--web DIR``, DIR written by ``backalley build-web``).

- ``/web/`` serves the folder: the table that needs no server, the
  JavaScript API ``backalley.js``, the Pyodide runtime and the wheels, all
  from the server's own origin;
- the table page (``/``) then loads the library too (``/web/local.js``): it
  reads each view with the library in the page, explains a refused move
  without sending it, and links to the offline table.

Only the pages that load the runtime may compile WebAssembly: their
Content-Security-Policy adds ``'wasm-unsafe-eval'`` to ``script-src`` and
nothing else; every other answer keeps the strict policy.
"""

from __future__ import annotations

import json
from pathlib import Path

from starlette.datastructures import MutableHeaders
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from backalley.errors import SetupError

__all__ = ["WASM_PAGE_POLICY", "WebFiles", "page_with_library", "web_folder"]

WASM_PAGE_POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; "
    "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)
"""The policy of a page that loads the Pyodide runtime: the strict one, and
WebAssembly compiled from the server's own files."""

_TYPES = {
    ".mjs": "text/javascript; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".ts": "text/plain; charset=utf-8",
}
"""Media types a platform's table may lack (a module script must be served as
JavaScript, and WebAssembly compiles while it downloads only as application/wasm)."""


def web_folder(path: str | Path) -> Path:
    """``path`` when it is a folder written by ``backalley build-web``;
    :class:`~backalley.SetupError` otherwise."""
    folder = Path(path)
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        manifest = None
    if not isinstance(manifest, dict) or manifest.get("format") != "backalley/web":
        raise SetupError(
            f"--web {str(folder)!r} is not a folder written by 'backalley build-web DIR'"
        )
    return folder


def page_with_library(html: str) -> str:
    """The table page that also loads the library (``/web/local.js``)."""
    script = '<script type="module" src="/web/local.js"></script>\n'
    return html.replace("</head>", f"{script}</head>", 1)


class WebFiles:
    """The folder's files, with the security headers, the policy of a page
    that loads the runtime, the media types of its modules and WebAssembly,
    and ``Cache-Control: no-cache`` (a browser keeps the 12 MB runtime and
    asks only whether it changed)."""

    def __init__(self, folder: Path) -> None:
        self.app: ASGIApp = StaticFiles(directory=folder, html=True)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        suffix = Path(str(scope.get("path", ""))).suffix

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["X-Content-Type-Options"] = "nosniff"
                headers["Referrer-Policy"] = "no-referrer"
                headers["Content-Security-Policy"] = WASM_PAGE_POLICY
                headers["Cache-Control"] = "no-cache"
                if suffix in _TYPES and message.get("status", 200) < 300:
                    headers["Content-Type"] = _TYPES[suffix]
            await send(message)

        await self.app(scope, receive, send_with_headers)
