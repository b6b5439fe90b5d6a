"""``backalley check``'s messages: an illegal move is told with its number
(from 1), its deal (from 1) and its seat by name, its refusal told of that
seat; the OK line and RESULTS DIFFER name the sides."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import backalley as ba
from backalley.cli import main
from backalley.io.serialize.record_file import third_person

from ..make_records import path_of


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


def document(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path_of(name).read_text(encoding="utf-8"))
    return data


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def first_refused_follow(record: ba.GameRecord) -> tuple[int, ba.GameState, ba.Play]:
    """The first move of the record at which the seat to act holds a card it may not play."""
    for index, (state, move) in enumerate(zip(ba.replay(record), record.moves)):
        if isinstance(move, ba.Play) and state.trick:
            legal = state.legal_moves()
            refused = [ba.Play(c) for c in state.hand(state.to_act) if ba.Play(c) not in legal]
            if refused:
                return index, state, refused[0]
    raise AssertionError("no refusable play")


def test_an_illegal_play_names_its_number_deal_and_seat(tmp_path: Path) -> None:
    data = document("gamerules")
    record = ba.from_json(json.dumps(data), ba.GameRecord)
    index, before, play = first_refused_follow(record)
    data["moves"][index] = str(play)
    status, output = run("check", str(write(tmp_path, data)))
    seat = ba.seat_name(before.rules, before.to_act)
    assert status == 1
    assert output.startswith(
        f"{tmp_path / 'game.json'}: ILLEGAL at move {index + 1} "
        f"(deal {before.deals_played + 1}, {seat}: {play}): "
    )
    why = output.split(": ", 3)[3]
    assert "you" not in why.lower() and seat in why


def test_the_ok_line_gives_the_scores_by_side(tmp_path: Path) -> None:
    status, output = run("check", str(write(tmp_path, document("gamerules"))))
    record = ba.from_json(path_of("gamerules").read_text(encoding="utf-8"), ba.GameRecord)
    *_, last = ba.replay(record)
    north_south, east_west = last.scores
    assert status == 0
    assert output.endswith(f"game over, scores N-S {north_south}, E-W {east_west}\n")


def test_a_cutthroat_record_names_each_players_seat(tmp_path: Path) -> None:
    status, output = run("check", str(write(tmp_path, document("cutthroat-3"))))
    assert status == 0 and "scores Seat 1 " in output and ", Seat 3 " in output


def test_results_that_differ_name_the_deal_and_the_sides(tmp_path: Path) -> None:
    data = document("gamerules")
    points = data["results"][1]["points"]
    data["results"][1]["points"] = [points[0] + 10, points[1]]
    status, output = run("check", str(write(tmp_path, data)))
    assert status == 1
    assert (
        f"RESULTS DIFFER: deal 2: the record has points N-S {points[0] + 10}, E-W {points[1]}; "
        f"the moves give points N-S {points[0]}, E-W {points[1]}"
    ) in output


@pytest.mark.parametrize(
    ("said", "told"),
    [
        ("you do not hold 6S", "East does not hold 6S"),
        ("you hold a diamond, so you must follow diamonds", "East holds a diamond, so East must follow diamonds"),
        ("the Big Blooper was led, so you must play your highest trump, AS",
         "the Big Blooper was led, so East must play East's highest trump, AS"),
        ("you are the last to bid, so 3 is not allowed", "East is the last to bid, so 3 is not allowed"),
        ("a lead of trump (unless you bid board)", "a lead of trump (unless East bids board)"),
        ("2C is not in this game's deck", "2C is not in this game's deck"),
    ],
)  # fmt: skip
def test_a_refusal_to_the_player_is_told_of_the_seat(said: str, told: str) -> None:
    assert third_person(said, "East") == told
