"""The example bots of ``examples/bots/`` - the same small bot in Python
(standard library only) and in JavaScript (Node, no packages) - each play a
25-deal gamerules game against the heuristic through ``backalley simulate
--external``, and ``--external`` is checked like every other option."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

import pytest

from backalley import GameRecord, from_json
from backalley.cli import main
from backalley.io.record import replay

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "bots"
COMMANDS = {
    "python": f"{sys.executable} {EXAMPLES / 'first_legal.py'}",
    "node": f"node {EXAMPLES / 'first_legal.js'}",
}


@pytest.mark.parametrize("language", ["python", "node"])
def test_an_example_bot_plays_a_gamerules_game_against_the_heuristic(
    language: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if language == "node" and shutil.which("node") is None:
        pytest.skip("Node is not installed (Debian's package nodejs)")
    records = tmp_path / "games.jsonl"
    out = io.StringIO()
    status = main(
        [
            "simulate",
            "--external",
            f"example={COMMANDS[language]}",
            "--players",
            "example,heuristic",
            "--games",
            "1",
            "--records",
            str(records),
        ],
        out,
    )
    assert status == 0, capsys.readouterr().err
    assert "example + example" in out.getvalue()
    (line,) = records.read_text().splitlines()
    record = from_json(line, GameRecord)
    assert record.players == ("example", "heuristic", "example", "heuristic")
    assert "bot at seat 0" not in record.metadata  # the program made every decision
    final = list(replay(record))[-1]
    assert final.is_over and final.deals_played == 25


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("first", "--external expects NAME=COMMAND, not 'first'"),
        ("first=", "--external expects NAME=COMMAND, not 'first='"),
        ("heuristic=python3 bot.py", "--external heuristic: a bot named 'heuristic' exists"),
        ("first=no-such-program-here --flag", "--external first: no program "),
        ("first=bot 'open", "--external first: cannot split the bot command"),
    ],
)
def test_a_bad_external_option_is_one_line_and_status_2(
    option: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["simulate", "--external", option, "--games", "1"], io.StringIO())
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and message in err


def test_external_goes_before_or_after_the_command(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    command = COMMANDS["python"]
    status = main(
        ["--external", f"first={command}", "play", "--players", "first,heuristic",
         "--quiet", "--seed", "4", "--record", str(record)],
        io.StringIO(),
    )  # fmt: skip
    assert status == 0
    data = json.loads(record.read_text())
    assert data["players"] == ["first", "heuristic"] * 2
    assert not any(key.startswith("bot at seat") for key in data["metadata"])
