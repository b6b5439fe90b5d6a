"""Findings of an outside security review of the table server, each kept
fixed by a test: the table page reached through ``/static/`` without its
Content-Security-Policy, a request body cut short that logged a traceback,
a full disk under SQLite answered 500 with a traceback, and an OpenAPI
document that took a table without seats."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from backalley.server import SqliteStore

from .test_server_api import _client


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    found = SqliteStore(tmp_path / "tables.db")
    yield found
    found.close()


@pytest.fixture
def client(store: SqliteStore) -> Iterator[TestClient]:
    with _client(store) as found:
        yield found


SECURITY = (
    "content-security-policy",
    "x-frame-options",
    "x-content-type-options",
    "referrer-policy",
)
"""The headers that keep the page from being framed, sniffed or told where it was."""


def test_the_page_sends_the_same_security_headers_however_it_is_reached(
    client: TestClient,
) -> None:
    """``/static/index.html`` is the table page too: it is sent with the
    Content-Security-Policy (``frame-ancestors 'none'``) and
    ``X-Frame-Options`` of ``/``; it was sent without them, so another
    site could frame it."""
    page = client.get("/")
    assert page.status_code == 200
    for path in ["/static/index.html", "/static/table.js", "/static/table.css"]:
        answer = client.get(path)
        assert answer.status_code == 200, path
        for name in SECURITY:
            assert answer.headers.get(name) == page.headers[name], (path, name)
    assert "frame-ancestors 'none'" in client.get("/static/index.html").headers[SECURITY[0]]
