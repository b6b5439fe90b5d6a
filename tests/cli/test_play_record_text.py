"""``backalley play --record FILE`` writes the record notation where FILE
ends ``.bar`` (JSON otherwise): the same game, read back by the library."""

from __future__ import annotations

import io
import json
from pathlib import Path

from backalley.cli import main
from backalley.io.notation import load_record


def test_play_writes_a_text_record_where_the_file_ends_bar(tmp_path: Path) -> None:
    text, data = tmp_path / "game.bar", tmp_path / "game.json"
    for path in (text, data):
        args = ["play", "--players", "heuristic", "--seed", "5", "--quiet", "--record", str(path)]
        assert main(args, io.StringIO()) == 0
    assert text.read_text().startswith('[Variant "gamerules"]\n[Seed "5"]\n')
    assert json.loads(data.read_text())["format"] == "backalley/record"
    from_text, from_json = load_record(text), load_record(data)
    assert from_text == from_json
    assert from_text.metadata == from_json.metadata == {"program": "backalley play"}
