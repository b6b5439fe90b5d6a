"""Findings of an outside security review of the table server, each kept
fixed by a test: the table page reached through ``/static/`` without its
Content-Security-Policy, a request body cut short that logged a traceback,
a full disk under SQLite answered 500 with a traceback, and an OpenAPI
document that took a table without seats."""

from __future__ import annotations

import logging
import socket
import struct
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import httpx

import backalley as ba
from backalley.server import SqliteStore
from backalley.server.openapi import openapi_document

from ..server_services import Served
from .test_server_api import HUMANS, _auth, _client, _join, _refused, _table

WAIT = 15.0


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


def _cut_short(url: str, path: str, *, reset: bool) -> None:
    """POST to ``path`` a JSON body shorter than its ``Content-Length``, then
    close the connection (``reset``: with a RST) before the rest arrives."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=WAIT) as raw:
        raw.sendall(
            (
                f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                "Content-Type: application/json\r\nContent-Length: 400\r\n\r\n"
                '{"seats": ["human", "hu'
            ).encode()
        )
        time.sleep(0.02)  # the server is reading the body
        if reset:
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def test_a_request_body_cut_short_logs_no_traceback(tmp_path: Path) -> None:
    """A client that goes away in the middle of its request's body (or sent a
    ``Content-Length`` larger than its body) is a client gone: at most one
    line is logged for it, no traceback, and the server goes on serving.
    ("Exception in ASGI application" with a traceback of some 20 lines was
    logged for each.)"""
    pytest.importorskip("uvicorn")
    with Served(tmp_path) as served, httpx.Client(timeout=WAIT) as http:
        table = http.post(f"{served.url}/api/tables", json={"seats": HUMANS}).json()["table"]
        token = http.post(f"{served.url}/api/tables/{table}/seats/0/join").json()["token"]
        sent = 0
        for reset in (False, True):
            for _ in range(5):
                _cut_short(served.url, "/api/tables", reset=reset)
                _cut_short(served.url, f"/api/tables/{table}/seats/0/continue", reset=reset)
                sent += 2
        assert http.get(f"{served.url}/api/tables/{table}").status_code == 200
        answer = http.post(
            f"{served.url}/api/tables/{table}/seats/0/continue", json={}, headers=_auth(token)
        )
        assert answer.status_code == 409, answer.text  # no deal has ended: the server answers
        assert http.post(f"{served.url}/api/tables", json={"seats": HUMANS}).status_code == 201
        time.sleep(0.5)  # the server's handlers see the closes
    log = served.errors.read_text("utf-8", "replace")
    assert "Traceback" not in log and "Exception" not in log, log[-3000:]
    assert len(log.splitlines()) <= sent + 2, log[-3000:]  # its start and stop, a line each


def test_a_full_disk_under_sqlite_answers_503_with_one_log_line(
    client: TestClient, store: SqliteStore, caplog: pytest.LogCaptureFixture
) -> None:
    """SQLite's "database or disk is full" answers 503 ``database`` (try
    again later), as a PostgreSQL database that cannot be reached does, and
    logs one line without a traceback per request; it answered 500 with
    "Exception in ASGI application" and a traceback.  What was stored is
    still read."""
    table = _table(client)
    token = _join(client, table, 0)
    (pages,) = store._db.execute("PRAGMA page_count").fetchone()
    store._db.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        made = 0  # tables that still fit in the pages the file has
        while client.post("/api/tables", json={"seats": HUMANS}).status_code == 201:
            made += 1
            assert made < 20
        caplog.clear()
        answers = [client.post("/api/tables", json={"seats": HUMANS}) for _ in range(3)]
    for answer in answers:
        _refused(answer, 503, "database", "full")
    logged = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(logged) == len(answers), [r.getMessage() for r in logged]
    for record in logged:
        assert record.exc_info is None and "full" in record.getMessage()
    assert client.get(f"/api/tables/{table}/seats/0/view", headers=_auth(token)).status_code == 200


def test_the_openapi_document_takes_no_table_without_seats(client: TestClient) -> None:
    """The document says how many seats a new table has, as the server
    checks them (as many as the rules' players, which the library's seatings
    put at 2 to 8): it took ``"seats": []`` (and one seat, and nine), which
    the server refuses (schemathesis: ST202, a request that fits the
    document refused)."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = openapi_document()["components"]["schemas"]["NewTable"]
    fits = jsonschema.Draft202012Validator(schema).is_valid
    for count in (0, 1, 9):
        assert not fits({"seats": ["human"] * count}), count
        _refused(client.post("/api/tables", json={"seats": ["human"] * count}), 422, "bad-seats")
        with pytest.raises(ba.RuleSetError):
            ba.rules.Cutthroat(players=count)
    for count in range(2, 9):
        assert fits({"seats": ["human"] * count}), count
        assert ba.rules.Cutthroat(players=count).players == count
    assert ba.rules.Partnerships().players == 4
    assert fits({"seats": ["human"] * 3}) and _table(client, ["human"] * 3, "cutthroat-3")
