"""Bots in any language: a program speaking the bot protocol plays a seat
(:class:`backalley.bots.ExternalBot`).

Rules of the protocol the tests show:

- the program says hello (its name, author, options), is told the game (its
  seat, the rule set, its options and time) and answers each turn - the
  seat's view document, nothing more - with a move in the move text;
- a move that is not legal is refused with its reason and sentence, and
  after ``max_refusals`` the heuristic moves; no answer in time, a line that
  is not a move message, or an answer to an earlier turn: the heuristic
  moves; after ``max_failures`` failed decisions in a row, or at once when
  the program cannot go on (it will not start, never says hello, speaks
  another version, exits, writes a huge line), the heuristic plays the seat
  for the rest of the game;
- the game always finishes, and its record says what happened.
"""

from __future__ import annotations

import gc
import json
import shutil
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from backalley import GameRecord, PlayerView, from_json, new_game, variants
from backalley.bots import (
    ExternalBot,
    ExternalProgram,
    HeuristicBot,
    bot_notes,
    close_bots,
    tell_game_over,
)
from backalley.bots.match import one_deal
from backalley.errors import SerializationError, SetupError
from backalley.io.bot_protocol import read_bot_message
from backalley.io.protocol_shapes import MoveShape
from backalley.io.record import replay
from backalley.io.schema import schema
from backalley.io.serialize import from_data, to_data
from backalley.sim.simulate import SimulationPlan, play_game

BOT = Path(__file__).with_name("protocol_bot.py")
RULES = variants.get("gamerules")
FAST = {"move_time": 0.4, "handshake_time": 2.0}


def program(mode: str, *extra: str, **settings: object) -> ExternalProgram:
    return ExternalProgram([sys.executable, str(BOT), mode, *extra], **{**FAST, **settings})


def recorded_game(mode: str, **settings: object) -> GameRecord:
    """One gamerules game, the program on seat 0 against three heuristics, as recorded."""
    plan = SimulationPlan(
        RULES,
        ["ext", "heuristic", "heuristic", "heuristic"],
        games=1,
        seed=3,
        records=True,
        programs=[("ext", program(mode, **settings))],
    )
    outcome = play_game(plan, plan.tasks()[0])
    assert outcome.record is not None
    record = from_json(outcome.record, GameRecord)
    states = list(replay(record))  # the record replays: every move legal
    assert states[-1].is_over
    assert outcome.deals == RULES.schedule.deals
    return record


def note(record: GameRecord) -> str:
    return record.metadata.get("bot at seat 0", "")


def test_a_good_program_plays_a_whole_game_and_nothing_is_noted() -> None:
    record = recorded_game("good")
    assert note(record) == ""


def test_an_illegal_move_is_refused_then_the_heuristic_moves_then_takes_over() -> None:
    record = recorded_game("illegal")
    text = note(record)
    assert "turn 0: 3 illegal moves (the last play" in text
    assert "the heuristic moved" in text
    assert text.endswith(
        "3 failed decisions in a row: the heuristic plays the seat for the rest of the game"
    )


def test_the_refusal_tells_the_program_why(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    bot = ExternalBot(program("illegal", str(log), max_refusals=2), seed=1)
    state = new_game(RULES, seed=3, dealer=3)  # seat 0 speaks first
    with bot:
        bot.choose(state.view(0))
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    kinds = [m["type"] for m in messages]
    assert kinds == ["hello", "game", "turn", "refused", "refused", "quit"]
    first, second = messages[3:5]
    assert (first["id"], first["move"], first["refusals_left"]) == (0, "play 2C", 1)
    assert first["reason"] == "WRONG_PHASE"
    assert first["message"] == second["message"] != ""
    assert second["refusals_left"] == 0
    assert bot.notes == [
        f"turn 0: 2 illegal moves (the last play 2C: {second['message']}); the heuristic moved"
    ]


def test_a_program_that_never_answers_a_turn_times_out() -> None:
    text = note(recorded_game("timeout"))
    assert text.startswith("turn 0: no move within 0.4 s; the heuristic moved; turn 1:")
    assert "the rest of the game" in text


def test_an_answer_to_an_earlier_turn_is_set_aside() -> None:
    text = note(recorded_game("late"))
    assert "no move within 0.4 s" in text
    assert "illegal" not in text and "not a move message" not in text


def test_a_flood_of_lines_is_set_aside() -> None:
    assert note(recorded_game("flood", move_time=2.0)) == ""


def test_a_program_that_crashes_is_replaced_at_once() -> None:
    text = note(recorded_game("crash"))
    assert text == (
        "turn 2: the program exited (exit status 3); "
        "the heuristic plays the seat for the rest of the game"
    )


def test_garbage_is_a_failed_decision() -> None:
    text = note(recorded_game("garbage"))
    assert text.startswith("turn 0: an answer that is not a move message ($: not a JSON line")


def test_a_huge_line_stops_the_program() -> None:
    text = note(recorded_game("huge", max_line=100_000))
    assert text.startswith("turn 0: the program wrote a line longer than 100000 bytes")


def test_a_program_that_never_says_hello_is_replaced() -> None:
    text = note(recorded_game("silent", handshake_time=0.5))
    assert text.startswith("turn 0: no 'hello' answer within 0.5 s")


def test_a_program_of_another_version_is_replaced() -> None:
    text = note(recorded_game("wrong-version"))
    assert "this library speaks version 1 of the protocol, not 99" in text


def test_a_program_that_cannot_start_is_replaced() -> None:
    plan = SimulationPlan(
        RULES,
        ["ext", "heuristic"] * 2,
        games=1,
        seed=3,
        records=True,
        programs=[("ext", ExternalProgram(["/nonexistent/bot-program"]))],
    )
    outcome = play_game(plan, plan.tasks()[0])
    assert outcome.record is not None and outcome.deals == RULES.schedule.deals
    metadata = from_json(outcome.record, GameRecord).metadata
    for seat in (0, 2):
        assert metadata[f"bot at seat {seat}"].startswith(
            "turn 0: could not start /nonexistent/bot-program: "
        )
        assert metadata[f"bot at seat {seat}"].endswith("for the rest of the game")


def test_each_turn_is_the_seats_view_document_and_nothing_more(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    bot = ExternalBot(program("good", str(log)), seed=1)
    bots = [bot, HeuristicBot(1), HeuristicBot(2), HeuristicBot(3)]
    state = new_game(RULES, seed=8)
    views = []
    try:
        while state.deals_played < 2:
            seat = state.to_act
            assert seat is not None
            if seat == 0:
                views.append(to_data(state.view(0)))
            state = state.apply(bots[seat].choose(state.view(seat)))
    finally:
        bot.close()
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    turns = [m for m in messages if m["type"] == "turn"]
    assert [t["view"] for t in turns] == views
    assert [t["id"] for t in turns] == list(range(len(views)))
    for turn in turns:
        assert isinstance(from_data(turn["view"], PlayerView), PlayerView)
    library = Draft202012Validator(schema("library_message"))
    for message in messages:
        library.validate(message)
    bot_lines = Draft202012Validator(schema("bot_message"))
    for line in (
        {"type": "hello", "protocol": "backalley-bot", "version": 1, "name": "x", "options": {}},
        {"type": "ready"},
        {"type": "move", "id": 3, "move": "play TH"},
    ):
        bot_lines.validate(line)
    game = next(m for m in messages if m["type"] == "game")
    assert game["seat"] == 0 and game["variant"] == "gamerules"
    assert game["options"] == {"depth": 2} and game["move_ms"] == 400
    assert [m["type"] for m in messages].count("deal_end") == 1
    assert bot.name == "protocol test bot good"


def test_one_program_plays_game_after_game(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    bot = ExternalBot(program("good", str(log)), seed=1)
    rules = one_deal(RULES, 5)
    try:
        for seed in (1, 2):
            bots = [bot, HeuristicBot(1), HeuristicBot(2), HeuristicBot(3)]
            state = new_game(rules, seed=seed)
            while not state.is_over:
                seat = state.to_act
                assert seat is not None
                state = state.apply(bots[seat].choose(state.view(seat)))
            tell_game_over(bots, state)
        process = bot._process
        assert process is not None
    finally:
        close_bots([bot])
    assert process.popen.poll() == 0  # it quit when told to
    kinds = [json.loads(line)["type"] for line in log.read_text().splitlines()]
    assert kinds.count("hello") == 1 and kinds.count("game") == 2
    assert kinds.count("game_end") == 2 and kinds[-1] == "quit"


def test_a_bot_plays_one_seat_of_a_game() -> None:
    bot = ExternalBot(program("good"), seed=1)
    state = new_game(RULES, seed=3, dealer=3)
    with bot:
        state = state.apply(bot.choose(state.view(0)))
        with pytest.raises(SetupError, match="give each seat a bot of its own"):
            bot.choose(state.view(1))


def test_a_forgotten_bot_does_not_leave_its_program_running() -> None:
    bot = ExternalBot(program("good"), seed=1)
    state = new_game(RULES, seed=3, dealer=3)
    bot.choose(state.view(0))
    assert bot._process is not None
    popen = bot._process.popen
    del bot
    gc.collect()
    assert popen.wait(timeout=5) is not None


def test_the_notes_of_bots_go_by_seat() -> None:
    class Noted:
        def __init__(self) -> None:
            self.notes = ["turn 4: no move within 1 s; the heuristic moved"]

    assert bot_notes([HeuristicBot(1), Noted()]) == {
        "bot at seat 1": "turn 4: no move within 1 s; the heuristic moved"
    }


@pytest.mark.parametrize(
    ("line", "expected", "message"),
    [
        (b"{", "move", "$: not a JSON line"),
        (b"[1]", "move", "$: expected a JSON object, got list"),
        (b'{"type": "moves"}', "move", "$.type: expected a 'move' message, got 'moves' (a bot"),
        (b'{"type": "move"}', "move", "missing key 'move'"),
        (b'{"type": "move", "move": "play 1Z"}', "move", "$.move:"),
        (b'{"type": "move", "move": "pass", "extra": 1}', "move", "unknown key 'extra'"),
        (
            b'{"type": "hello", "protocol": "uci", "version": 1, "name": "x"}',
            "hello",
            "$.protocol: expected protocol 'backalley-bot'",
        ),
        (
            b'{"type": "hello", "protocol": "backalley-bot", "version": 1, "name": " "}',
            "hello",
            "$.name: a bot's name may not be empty",
        ),
        (
            b'{"type": "hello", "protocol": "backalley-bot", "version": 1, "name": "x", '
            b'"options": {"a": [1]}}',
            "hello",
            "$.options.a: an option's default is",
        ),
    ],
)
def test_what_a_bot_writes_is_read_strictly(line: bytes, expected: str, message: str) -> None:
    with pytest.raises(SerializationError) as caught:
        read_bot_message(line, expected)
    assert message in str(caught.value)


def test_a_move_message_reads_as_a_move() -> None:
    message = read_bot_message(b'{"type": "move", "id": 4, "move": "play QS"}', "move")
    assert isinstance(message, MoveShape)
    assert (str(message.move), message.id) == ("play QS", 4)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"command": ""}, "a bot command is a program and its arguments"),
        ({"command": "bot 'unclosed"}, "cannot split the bot command"),
        ({"command": "bot", "move_time": 0}, "move_time is a number of seconds"),
        ({"command": "bot", "max_refusals": 0}, "max_refusals is a whole number, at least 1"),
        ({"command": "bot", "options": {"a": [1]}}, "a bot option is a name and a flag"),
    ],
)
def test_a_program_is_checked_when_it_is_described(
    settings: dict[str, object], message: str
) -> None:
    with pytest.raises(SetupError, match=message):
        ExternalProgram(**settings)  # type: ignore[arg-type]


def test_a_program_is_a_plain_value_that_travels() -> None:
    import pickle

    described = program("good", options={"depth": 3})
    assert pickle.loads(pickle.dumps(described)) == described
    assert described.command[1:] == (str(BOT), "good")
    assert shutil.which(described.command[0]) or Path(described.command[0]).exists()
