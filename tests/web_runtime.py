"""The library in the browser, as the tests get it: the npm package pyodide
pinned in web/package-lock.json, installed by ``npm ci`` into a cache folder
(once per lock, in bounded time), and the folder ``backalley build-web``
writes from it.

Where the runtime is looked for, in order: ``BACKALLEY_PYODIDE`` (a folder of
the npm package), ``web/node_modules/pyodide`` of the checkout when it is the
pinned version (``npm ci --prefix web``), the cache folder
(``BACKALLEY_TEST_CACHE``, default ``~/.cache/backalley-tests``), and last
``npm ci`` into the cache.  When none works the tests that need it are
skipped, saying why.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from . import ROOT

WEB = ROOT / "web"
LOCK = WEB / "package-lock.json"
NPM_SECONDS = 300
"""The longest ``npm ci`` may take before the tests give up and skip."""

NODE = shutil.which("node")
NPM = shutil.which("npm")


def pinned_version() -> str:
    return str(
        json.loads((WEB / "package.json").read_text(encoding="utf-8"))["dependencies"]["pyodide"]
    )


def _complete(folder: Path) -> bool:
    from backalley.web.build import PYODIDE_FILES

    try:
        version = json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        return False
    return version == pinned_version() and all((folder / n).is_file() for n in PYODIDE_FILES)


def _cache() -> Path:
    given = os.environ.get("BACKALLEY_TEST_CACHE")
    base = Path(given) if given else Path.home() / ".cache" / "backalley-tests"
    key = hashlib.sha256(LOCK.read_bytes()).hexdigest()[:12]
    return base / f"pyodide-{key}"


def pyodide_package() -> tuple[Path | None, str]:
    """The npm package's folder, or ``None`` and why it cannot be had."""
    given = os.environ.get("BACKALLEY_PYODIDE")
    if given:
        folder = Path(given)
        return (
            (folder, "")
            if _complete(folder)
            else (None, f"BACKALLEY_PYODIDE={given} is not pyodide {pinned_version()}")
        )
    for folder in (WEB / "node_modules" / "pyodide", _cache() / "node_modules" / "pyodide"):
        if _complete(folder):
            return folder, ""
    if NPM is None:
        return None, "npm is not on PATH, so the npm package pyodide cannot be installed"
    cache = _cache()
    cache.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="npm-", dir=cache.parent))
    try:
        shutil.copyfile(WEB / "package.json", work / "package.json")
        shutil.copyfile(LOCK, work / "package-lock.json")
        try:
            done = subprocess.run(
                [NPM, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
                cwd=work,
                capture_output=True,
                text=True,
                timeout=NPM_SECONDS,
            )
        except subprocess.TimeoutExpired:
            return None, f"npm ci of pyodide {pinned_version()} took more than {NPM_SECONDS} s"
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            return None, f"npm ci of pyodide {pinned_version()} failed: {last}"
        with contextlib.suppress(OSError):  # another run may have won: its folder is whole
            work.rename(cache)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    folder = cache / "node_modules" / "pyodide"
    return (
        (folder, "")
        if _complete(folder)
        else (None, f"npm ci did not install pyodide {pinned_version()}")
    )


def build_site(target: Path, pyodide: Path) -> Path:
    """The folder ``backalley build-web`` writes, at ``target``."""
    from backalley.web.build import build_web

    build_web(target, pyodide=pyodide)
    return target


class _Files(http.server.SimpleHTTPRequestHandler):
    """A plain static host: files only, the module and WebAssembly types."""

    extensions_map = {  # noqa: RUF012 - the handler class's own table
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
    }

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def static_host(folder: Path) -> Iterator[str]:
    """Serve ``folder`` as a static host on 127.0.0.1 and a free port; yields its origin."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), partial(_Files, directory=str(folder))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
