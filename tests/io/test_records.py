"""Game records, replay and the command line that checks them (backalley/io/record.py,
backalley/cli.py, backalley/io/vectors.py).

- the golden records ``tests/data/records/<variant>.json`` (one whole game of
  every registered variant, written by ``tests/make_records.py``) replay to
  their recorded results;
- a tampered move fails at its index with the rule that refuses it; altered
  results fail; ``backalley check`` exits 0 / 1 / 2;
- ``backalley play --record`` writes a record that checks;
- ``backalley vectors`` lines parse, and each position's "legal" is what the
  library computes from the view read back from the line.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

import backalley as ba
from backalley.cli import main

from ..helpers import swapped_tricks_points
from ..make_records import RECORDS, make_record, path_of, record_text

NAMES = ba.variants.names()


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out=out)
    return status, out.getvalue()


def load(name: str) -> ba.GameRecord:
    return ba.from_json(path_of(name).read_text(encoding="utf-8"), ba.GameRecord)


def final_state(record: ba.GameRecord) -> ba.GameState:
    *_, last = ba.replay(record)
    return last


# ------------------------------------------------------------- golden records


def test_there_is_a_golden_record_for_every_variant() -> None:
    files = {p.stem for p in RECORDS.glob("*.json")}
    missing = set(NAMES) - files
    command = f"python -m tests.make_records {' '.join(sorted(missing))}"
    assert not missing, f"no record for {sorted(missing)}: run {command}"
    assert not files - set(NAMES), f"records of unknown variants: {sorted(files - set(NAMES))}"


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_replays_to_its_results(name: str) -> None:
    text = path_of(name).read_text(encoding="utf-8")
    record = ba.from_json(text, ba.GameRecord)
    # compared as values, not bytes: a new option with a default rewrites no file
    assert ba.from_json(record_text(record), ba.GameRecord) == record
    assert record.rules == ba.variants.get(name), (
        f"the rules of {name!r} changed since its record was made: "
        f"python -m tests.make_records {name}"
    )
    assert record.rules.name == name and record.metadata["variant"] == name
    assert record.results is not None and record.players is not None
    states = list(ba.replay(record))
    assert len(states) == len(record.moves) + 1
    final = states[-1]
    assert final.is_over and final.to_act is None
    assert final.deal_results == record.results
    assert len(record.results) == record.rules.schedule.deals
    totals = [sum(r.points[i] for r in record.results) for i in range(len(record.rules.teams))]
    assert list(final.scores) == totals
    status, output = run("check", str(path_of(name)))
    assert status == 0, output
    assert "OK" in output and f"{len(record.moves)} moves" in output and "game over" in output


@pytest.mark.parametrize("name", ["vietnam", "bab-online"])
def test_the_generator_gives_the_same_games(name: str) -> None:
    """Same seed, same game: regenerating a record reproduces the file's record
    (as a value: the moves, the results, the rules, the players)."""
    stored = ba.from_json(path_of(name).read_text(encoding="utf-8"), ba.GameRecord)
    made = make_record(name)
    assert made == stored
    assert dict(made.metadata) == dict(stored.metadata)


# --------------------------------------------------------------- tampering


def _tamper(record: ba.GameRecord, index: int, move: str) -> ba.GameRecord:
    moves = list(record.moves)
    moves[index] = ba.parse_move(move)
    return ba.GameRecord(
        rules=record.rules,
        first_dealer=record.first_dealer,
        seed=record.seed,
        decks=record.decks,
        moves=tuple(moves),
        results=record.results,
    )


def _replay_error(record: ba.GameRecord) -> ba.ReplayError:
    with pytest.raises(ba.ReplayError) as info:
        for _ in ba.replay(record):
            pass
    error = info.value
    assert isinstance(error, ba.IllegalMoveError) and isinstance(error, ValueError)
    return error


def _first_play_of_deal(record: ba.GameRecord, deal: int) -> tuple[int, ba.GameState]:
    """The index of the first card played in deal ``deal`` (0-based), and the state before it."""
    for index, (state, move) in enumerate(zip(ba.replay(record), record.moves, strict=False)):
        if state.deals_played == deal and isinstance(move, ba.Play):
            return index, state
    raise AssertionError("no such deal")


@pytest.mark.parametrize("name", ["gamerules", "vietnam", "cutthroat-3"])
def test_a_card_not_in_hand_fails_at_its_index(name: str) -> None:
    record = load(name)
    index, before = _first_play_of_deal(record, 1)
    seat = before.to_act
    other = next(c for s, hand in enumerate(before.hands) if s != seat for c in hand)
    error = _replay_error(_tamper(record, index, f"play {other}"))
    assert error.index == index
    assert error.reason is ba.Reason.NOT_IN_HAND
    assert error.move == ba.Play(other)
    assert error.state == before, "the error carries the last good state"
    assert f"move {index}" in str(error)


def test_a_card_that_does_not_follow_suit_fails_with_must_follow_suit() -> None:
    record = load("gamerules")
    for index, (state, move) in enumerate(zip(ba.replay(record), record.moves, strict=False)):
        if not isinstance(move, ba.Play) or not state.trick:
            continue
        refused = [
            ba.Play(c) for c in state.hand(state.to_act) if ba.Play(c) not in state.legal_moves()
        ]
        for play in refused:
            try:
                state.check(play)
            except ba.IllegalMoveError as exc:
                if exc.reason is ba.Reason.MUST_FOLLOW_SUIT:
                    error = _replay_error(_tamper(record, index, str(play)))
                    assert (error.index, error.reason) == (index, ba.Reason.MUST_FOLLOW_SUIT)
                    return
    raise AssertionError("no position where a card must follow suit")


@pytest.mark.parametrize(
    "index, move, reason",
    [
        (0, "play QS", ba.Reason.WRONG_PHASE),
        (0, "trump H", ba.Reason.WRONG_PHASE),
        (1, "bid 14", ba.Reason.BID_TOO_HIGH),
        (2, "counter", ba.Reason.COUNTER_NOT_ALLOWED),
    ],
)
def test_a_tampered_call_fails_at_its_index(index: int, move: str, reason: ba.Reason) -> None:
    error = _replay_error(_tamper(load("gamerules"), index, move))
    assert (error.index, error.reason) == (index, reason)


def test_an_extra_move_at_the_end_is_refused_as_game_over() -> None:
    record = load("vietnam-42")
    longer = ba.GameRecord(
        rules=record.rules,
        first_dealer=record.first_dealer,
        seed=record.seed,
        moves=(*record.moves, ba.Pass()),
    )
    error = _replay_error(longer)
    assert (error.index, error.reason) == (len(record.moves), ba.Reason.GAME_OVER)


def test_altered_results_fail() -> None:
    record = load("vietnam")
    assert record.results is not None
    first = record.results[0]
    changed = ba.DealResult(
        number=first.number,
        dealer=first.dealer,
        hand_size=first.hand_size,
        turn_up=first.turn_up,
        trump=first.trump,
        bids=first.bids,
        contracts=first.contracts,
        declarer=first.declarer,
        tricks=first.tricks,
        points=(first.points[0] + 10, first.points[1]),
    )
    altered = ba.GameRecord(
        rules=record.rules,
        first_dealer=record.first_dealer,
        seed=record.seed,
        moves=record.moves,
        results=(changed, *record.results[1:]),
    )
    error = _replay_error(altered)
    assert error.index is None and error.move is None
    assert error.reason is ba.Reason.RESULTS_DIFFER
    assert "deal 1" in str(error)
    assert error.state.is_over


def test_a_record_cut_short_does_not_reach_its_results() -> None:
    record = load("vietnam-spades")
    cut = ba.GameRecord(
        rules=record.rules,
        first_dealer=record.first_dealer,
        seed=record.seed,
        moves=record.moves[:60],
        results=record.results,
    )
    error = _replay_error(cut)
    assert error.index is None
    assert "deal" in str(error)
    # without results, a partial record replays cleanly
    partial = ba.GameRecord(
        rules=record.rules,
        first_dealer=record.first_dealer,
        seed=record.seed,
        moves=record.moves[:60],
    )
    assert not final_state(partial).is_over


# ------------------------------------------------------------ backalley check


def _write(tmp_path: Path, document: Any, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def _document(name: str) -> dict[str, Any]:
    return copy.deepcopy(json.loads(path_of(name).read_text(encoding="utf-8")))


def test_check_reports_a_tampered_move_and_exits_1(tmp_path: Path) -> None:
    document = _document("bab-online")
    index, before = _first_play_of_deal(load("bab-online"), 2)
    other = next(c for s, hand in enumerate(before.hands) if s != before.to_act for c in hand)
    document["moves"][index] = f"play {other}"
    status, output = run("check", _write(tmp_path, document))
    assert status == 1
    seat = ba.seat_name(before.rules, before.to_act)
    where = f"move {index + 1} (deal {before.deals_played + 1}, {seat}: play {other})"
    assert f"ILLEGAL at {where}: NOT_IN_HAND: {seat} does not hold {other}" in output
    assert output.count(f"play {other}") == 1, "the move is named once"


def test_check_reports_altered_results_and_exits_1(tmp_path: Path) -> None:
    document = _document("hook")
    record = load("hook")
    k = next(k for k, r in enumerate(record.results) if swapped_tricks_points(record.rules, r))
    swapped = swapped_tricks_points(record.rules, record.results[k])
    assert swapped is not None
    document["results"][k]["tricks"], document["results"][k]["points"] = swapped
    status, output = run("check", _write(tmp_path, document))
    assert status == 1
    assert "RESULTS DIFFER" in output and f"deal {k + 1}" in output
    assert "NOT_A_MOVE" not in output


def test_check_exits_2_for_a_file_that_is_not_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = ba.new_game(seed=3)
    for document in ({"moves": []}, json.loads(ba.to_json(state)), [1, 2]):
        status, _output = run("check", _write(tmp_path, document))
        assert status == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert run("check", str(bad))[0] == 2
    assert run("check", str(tmp_path / "missing.json"))[0] == 2
    assert "backalley:" in capsys.readouterr().err


def test_check_of_a_partial_record(tmp_path: Path) -> None:
    document = _document("vietnam-42")
    document["moves"] = document["moves"][:50]
    del document["results"]
    status, output = run("check", _write(tmp_path, document))
    assert status == 0
    assert "OK, 50 moves, deal 2 playing, 1 deal scored, scores N-S " in output


# ------------------------------------------------------------- backalley play


@pytest.mark.parametrize(
    "variant, seed", [("gamerules", 11), ("vietnam-cutthroat", 12), ("cutthroat-5", 13)]
)
def test_play_writes_a_record_that_checks(tmp_path: Path, variant: str, seed: int) -> None:
    path = tmp_path / f"{variant}.json"
    status, output = run(
        "play", "--variant", variant, "--seed", str(seed), "--record", str(path), "--quiet"
    )
    assert status == 0
    assert f"Record written to {path}" in output
    record = ba.from_json(path.read_text(encoding="utf-8"), ba.GameRecord)
    assert record.seed == seed and record.rules == ba.variants.get(variant)
    final = final_state(record)
    assert final.is_over and final.deal_results == record.results
    scores = ", ".join(f"{ba.side_name(final.rules, s)} {p}" for s, p in enumerate(final.scores))
    assert f"Final score: {scores}." in output
    status, output = run("check", str(path))
    assert (status, "OK" in output) == (0, True)
    again = tmp_path / "again.json"
    assert run("play", "--variant", variant, "--seed", str(seed), "--record", str(again))[0] == 0
    assert again.read_text(encoding="utf-8") == path.read_text(encoding="utf-8"), (
        "the same seed, the same game"
    )


# ---------------------------------------------------------- backalley vectors


def _vectors(tmp_path: Path, *args: str) -> list[dict[str, Any]]:
    path = tmp_path / "vectors.jsonl"
    status, output = run("vectors", "--games", "1", "--output", str(path), *args)
    assert status == 0 and "lines written" in output
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


SHORT_CUTTHROAT = {
    "format": "backalley/rules",
    "name": "short five",
    "base": "cutthroat-5",
    "schedule": {"hand_sizes": [3, 1]},
}


@pytest.mark.parametrize("variant", [None, "vietnam-spades", "short-cutthroat.json"])
def test_vectors_legal_moves_are_what_the_view_gives(tmp_path: Path, variant: str | None) -> None:
    """Every position of a game: "legal" is the legal moves of the view read back
    from the line, "illegal" the refusals it gives, and the view is the state's."""
    if variant == "short-cutthroat.json":  # a house-rules file: a short game for five
        variant = _write(tmp_path, SHORT_CUTTHROAT, variant)
        rules = ba.houserules.load(variant)
    else:
        rules = ba.variants.get(variant or "gamerules")
    lines = _vectors(tmp_path, *(["--variant", variant] if variant else []))
    header, positions, result = lines[0], lines[1:-1], lines[-1]
    assert header["type"] == "header" and header["format"] == "backalley/vectors"
    assert header["version"] == 2 and header["variant"] == rules.name and header["games"] == 1
    assert ba.from_json(json.dumps(header["rules"]), ba.RuleSet) == rules
    assert result["type"] == "result" and len(result["moves"]) == len(positions)
    assert all(line["type"] == "position" for line in positions)
    state = ba.new_game(rules, seed=result["seed"])
    for ply, line in enumerate(positions):
        assert (line["game"], line["ply"]) == (0, ply)
        assert "rules" not in line["view"]  # the header states them once
        view = ba.from_json(json.dumps({**line["view"], "rules": header["rules"]}), ba.PlayerView)
        assert view.seat == line["seat"] == view.to_act
        assert [str(m) for m in view.legal_moves()] == line["legal"]
        for refused in line["illegal"]:
            with pytest.raises(ba.IllegalMoveError) as info:
                view.check(ba.parse_move(refused["move"]))
            assert info.value.reason.name == refused["reason"]
        assert view == state.view(line["seat"])
        state = state.apply(ba.parse_move(result["moves"][ply]))
    assert state.is_over
    assert list(state.scores) == result["scores"] and state.winner == result["winner"]
    # the result line writes each deal result in full (the long form)
    assert result["deal_results"] == [
        {k: v for k, v in json.loads(ba.to_json(r)).items() if k not in ("format", "version")}
        for r in state.deal_results
    ]


def test_vectors_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, output = run("vectors", "--variant", "vietnam-42", "--games", "2", "--seed", "5")
    assert status == 0 and output == ""
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["type"] for line in lines].count("result") == 2
    assert [line["seed"] for line in lines if line["type"] == "result"] == [5, 6]
