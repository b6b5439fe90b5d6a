"""A server's bot seat may be a bot program (``serve --external NAME=COMMAND``,
an operator's choice): its decisions are made in the same pool as the
server's own bots, each bounded by the server's budget, and the program's
process ends with each decision."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from backalley.bots import ExternalBot, ExternalProgram, register_bot
from backalley.server import SqliteStore
from backalley.server.bot_pool import budgeted_bot

from .test_server_api import _client

BOT = Path(__file__).resolve().parents[1] / "bots" / "protocol_bot.py"
SHORT = {
    "format": "backalley/rules",
    "name": "short",
    "base": "gamerules",
    "schedule": {"hand_sizes": [3, 2, 1]},
}
NAME = "protocol-test-program"


@pytest.fixture(autouse=True)
def program() -> Iterator[None]:
    register_bot(NAME, ExternalProgram([sys.executable, str(BOT), "good"]), replace=True)
    yield


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    found = SqliteStore(tmp_path / "tables.db")
    yield found
    found.close()


def _until_over(over: Callable[[], bool]) -> None:
    """Wait, a minute at most, for the game to end."""
    deadline = time.monotonic() + 60
    while not over():
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.05)


@pytest.mark.parametrize("workers", [0, 1])
def test_a_bot_program_plays_its_seats_to_the_games_end(store: SqliteStore, workers: int) -> None:
    with _client(store, bot_workers=workers) as client:
        assert NAME in client.get("/api/bots").json()["bots"]
        made = client.post(
            "/api/tables", json={"rules": SHORT, "seats": [NAME, "random", NAME, "heuristic"]}
        )
        assert made.status_code == 201, made.text
        table = made.json()["table"]
        _until_over(lambda: bool(client.get(f"/api/tables/{table}").json()["over"]))
        assert client.get(f"/api/tables/{table}/record").status_code == 200


def test_the_servers_budget_bounds_a_programs_decision() -> None:
    bot = budgeted_bot(NAME, seed=1, budget=0.25)
    assert isinstance(bot, ExternalBot)
    assert bot.program.move_time == 0.25
    assert bot.program.handshake_time == 2.0
    assert budgeted_bot(NAME, seed=1, budget=None).program.move_time == 5.0  # type: ignore[attr-defined]


def test_serve_external_offers_the_program_at_its_tables(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    import httpx

    from ..server_services import Served

    command = f"ext={sys.executable} {BOT} good"
    with Served(tmp_path / "data", extra=["--external", command]) as served:
        api = f"{served.url}/api"
        assert "ext" in httpx.get(f"{api}/bots").json()["bots"]
        made = httpx.post(f"{api}/tables", json={"rules": SHORT, "seats": ["ext", "random"] * 2})
        assert made.status_code == 201, made.text
        table = made.json()["table"]
        _until_over(lambda: bool(httpx.get(f"{api}/tables/{table}").json()["over"]))
