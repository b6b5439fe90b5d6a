"""A bot may play a seat of a server's table from anywhere: the example
client of ``examples/bots/remote_seat.py`` takes a seat with its token,
hears its view on the seat's socket and sends its moves over HTTP, to the
game's end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from .. import ROOT
from ..server_services import Served

EXAMPLE = ROOT / "examples" / "bots" / "remote_seat.py"


def test_the_remote_seat_example_plays_a_game_to_its_end(tmp_path: Path) -> None:
    with Served(tmp_path / "data") as served:
        done = subprocess.run(
            [sys.executable, str(EXAMPLE), served.url],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("game over: scores [")
