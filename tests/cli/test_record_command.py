"""``backalley record convert IN OUT``: a record from JSON to the record
notation and back, the same game; and ``backalley show`` reading the text."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import backalley as ba
from backalley.cli import main
from backalley.io.notation import record_from_text

from .. import ROOT

RECORDS = ROOT / "tests" / "data" / "records"
CLUB = ROOT / "tests" / "data" / "notation" / "club-night.bar"


def run(*argv: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out=out, inp=io.StringIO(stdin))
    return status, out.getvalue()


def _record(path: Path) -> ba.GameRecord:
    return ba.from_json(path.read_text(encoding="utf-8"), ba.GameRecord)


def test_json_to_text_and_back_is_the_same_game(tmp_path: Path) -> None:
    source = RECORDS / "cutthroat-5.json"
    assert run("record", "convert", str(source), str(tmp_path / "game.bar")) == (0, "")
    text = (tmp_path / "game.bar").read_text(encoding="utf-8")
    assert text.startswith('[Variant "cutthroat-5"]\n')
    assert run("record", "convert", str(tmp_path / "game.bar"), str(tmp_path / "again.json")) == (
        0, ""
    )  # fmt: skip
    again = _record(tmp_path / "again.json")
    assert again == _record(source)
    assert dict(again.metadata) == dict(_record(source).metadata)


def test_standard_input_and_output_with_to(tmp_path: Path) -> None:
    club = CLUB.read_text(encoding="utf-8")
    status, out = run("record", "convert", "-", "-", "--to", "json", stdin=club)
    assert status == 0
    assert json.loads(out)["format"] == "backalley/record"
    status, back = run("record", "convert", "-", "-", "--to", "text", stdin=out)
    assert (status, back) == (0, club)
    status, whole = run(
        "record", "convert", "-", "-", "--to", "text", "--rules-document", stdin=out
    )
    assert status == 0 and whole.startswith('[Rules {"name":"gamerules",')
    assert record_from_text(whole) == record_from_text(club)
    # --to wins over the suffix
    assert run("record", "convert", str(CLUB), str(tmp_path / "x.json"), "--to", "text")[0] == 0
    assert record_from_text((tmp_path / "x.json").read_text()) == record_from_text(club)


def test_many_games_go_to_text_but_not_to_one_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    two = tmp_path / "two.bar"
    two.write_text(CLUB.read_text() + "\n" + CLUB.read_text())
    assert run("record", "convert", str(two), str(tmp_path / "copy.bar")) == (0, "")
    assert (tmp_path / "copy.bar").read_text() == two.read_text()
    assert run("record", "convert", str(two), str(tmp_path / "two.json"))[0] == 2
    assert "holds 2 games; a JSON record holds one" in capsys.readouterr().err
    assert not (tmp_path / "two.json").exists()


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["{club}", "-"], "say which form to write with --to text or --to json"),
        (["{club}", "{tmp}/game.txt"], "say which form to write"),
        (["{tmp}/missing.bar", "{tmp}/out.json"], "missing.bar: cannot read the file"),
        (["{tmp}/bad.bar", "{tmp}/out.json"], "bad.bar: line 18, column 25: play 4H is refused"),
        (["-", "-", "--to", "json"], "standard input: line 1, column 1: a game starts with"),
    ],
)
def test_what_cannot_be_converted_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    bad = CLUB.read_text().replace("North leads 3H", "North leads 4H")
    (tmp_path / "bad.bar").write_text(bad)
    given = [a.format(club=CLUB, tmp=tmp_path) for a in argv]
    status, out = run("record", "convert", *given, stdin="not a record\n")
    assert (status, out) == (2, "")
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and says in err[0], err
    assert not (tmp_path / "out.json").exists()


def test_a_record_that_does_not_replay_is_not_written_as_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads((RECORDS / "gamerules.json").read_text())
    doc["moves"][4], doc["moves"][5] = doc["moves"][5], doc["moves"][4]
    (tmp_path / "edited.json").write_text(json.dumps(doc))
    assert run("record", "convert", str(tmp_path / "edited.json"), "-", "--to", "text") == (2, "")
    assert "the record does not replay: move 4 (play 2H)" in capsys.readouterr().err


def test_show_draws_a_text_record(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    game.write_text(ba.to_json(record_from_text(CLUB.read_text())))
    for name in (str(CLUB), str(game)):
        status, out = run("show", name, "--deal", "1", "--move", "4", "--text")
        assert status == 0
        assert "Ann" in out
    assert run("show", str(CLUB), "--text")[1] == run("show", str(game), "--text")[1]
