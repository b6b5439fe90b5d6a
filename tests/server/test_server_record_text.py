"""The record download in the record notation: ``GET
/api/tables/{table}/record?format=text`` gives the game as text people read
(:mod:`backalley.io.notation`), the same game as the JSON record, which stays
the default."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import backalley as ba
from backalley.io.notation import record_from_text
from backalley.server import SqliteStore

from .test_server_api import SHORT, WAIT, _client, _table


def test_the_record_downloads_as_text_the_same_game_as_json(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "tables.db")
    try:
        with _client(store) as client:
            table = _table(client, ["random", "random", "random", "random"], SHORT)
            deadline = time.monotonic() + WAIT
            while not client.get(f"/api/tables/{table}").json()["over"]:
                assert time.monotonic() < deadline, "the bots did not end the game in time"
                time.sleep(0.01)
            as_json = client.get(f"/api/tables/{table}/record")
            as_text = client.get(f"/api/tables/{table}/record?format=text")
            as_json_too = client.get(f"/api/tables/{table}/record?format=json")
            refused = client.get(f"/api/tables/{table}/record?format=pbn")
    finally:
        store.close()
    assert as_json.headers["content-type"].startswith("application/json")
    assert as_text.status_code == 200
    assert as_text.headers["content-type"] == "text/plain; charset=utf-8"
    assert as_text.headers["cache-control"] == "no-store"
    record = ba.from_json(as_json.text, ba.GameRecord)
    assert as_text.text.startswith("[Rules {")  # a short game of its own, not a variant
    assert '\n[North "random"]\n' in as_text.text
    assert "\ndeal 2  " in as_text.text
    assert record_from_text(as_text.text) == record
    assert as_json_too.text == as_json.text
    assert refused.status_code == 422
    assert refused.json() == {
        "error": "bad-request",
        "message": "format is 'json' or 'text', not 'pbn'",
    }
