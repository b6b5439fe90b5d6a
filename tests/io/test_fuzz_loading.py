"""Fuzzing the inputs of loading: random text and bytes as house rules, rule
files and record files (what ``backalley rules FILE`` and ``backalley check
FILE`` read), deal results with forged facts in a view, and state documents
with changed moves.  Each either loads or raises the library's own errors,
never another exception.

CI runs a few examples of each; before a release run many more with
``BACKALLEY_FUZZ_SCALE=100 python -m pytest -q -k fuzz`` (the integration guide).
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import backalley as ba
from backalley import houserules
from backalley.io.serialize.record_file import check_record_file

from ..helpers import fuzz_examples

FUZZ = settings(
    max_examples=fuzz_examples(60),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

TOKENS = st.sampled_from(
    [
        "[",
        "]",
        "{",
        "}",
        "=",
        ",",
        '"',
        "'",
        "\n",
        " ",
        "name",
        "base",
        "type",
        "gamerules",
        "vietnam",
        "[trump]",
        "[schedule]",
        "hand_sizes",
        "suit",
        "S",
        "1",
        "-1",
        "9" * 30,
        "1e400",
        "true",
        "null",
        "\\ud800",
        "\x7f",
        "\u00e9",
        '"name":',
        '"trump":',
        "[[",
        "]]",
        "#",
    ]
)
TEXT = st.lists(TOKENS, max_size=30).map("".join) | st.text(max_size=40)
ENCODINGS = st.sampled_from(["utf-8", "utf-16", "utf-32", "latin-1", "utf-8-sig"])


def _encoded(text: str, encoding: str) -> bytes:
    return text.encode(encoding, errors="replace")


@FUZZ
@given(text=TEXT, encoding=ENCODINGS, fmt=st.sampled_from(["toml", "json"]), deep=st.integers(0, 3))
def test_fuzz_house_rules_text_and_bytes(text: str, encoding: str, fmt: str, deep: int) -> None:
    text = "[" * (10**deep) + text if deep > 1 else text
    for value in (text, _encoded(text, encoding)):
        try:
            rules = houserules.loads(value, format=fmt)
        except ba.BackAlleyError:
            continue
        assert houserules.loads(houserules.dumps_toml(rules)) == rules


@FUZZ
@given(text=TEXT, encoding=ENCODINGS, suffix=st.sampled_from([".toml", ".json", ".txt"]))
def test_fuzz_rule_files(tmp_path: Path, text: str, encoding: str, suffix: str) -> None:
    path = tmp_path / f"rules{suffix}"
    path.write_bytes(_encoded(text, encoding))
    with contextlib.suppress(ba.BackAlleyError):
        houserules.load(path)


def _record_text() -> str:
    start = ba.new_game(seed=9)
    rng = random.Random(9)
    state, moves = start, []
    while state.deals_played < 1:
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move)
    return ba.to_json(ba.GameRecord.from_game(start, moves, final=state))


RECORD = _record_text()


@FUZZ
@given(
    encoding=ENCODINGS,
    cut=st.integers(0, len(RECORD)),
    insert=TEXT,
    keep=st.booleans(),
)
def test_fuzz_record_files(
    tmp_path: Path, encoding: str, cut: int, insert: str, keep: bool
) -> None:
    text = RECORD if keep else RECORD[:cut] + insert + RECORD[cut:]
    path = tmp_path / "record.json"
    path.write_bytes(_encoded(text, encoding))
    try:
        status = check_record_file(path, io.StringIO())
    except ba.BackAlleyError:
        assert not keep or (encoding == "latin-1" and not RECORD.isascii())
        return
    assert status in (0, 1)


PLAYED: dict[str, Any] = {}


def _played() -> tuple[ba.GameState, dict[str, Any]]:
    if not PLAYED:
        rng = random.Random(4)
        state = ba.new_game(ba.variants.GAMERULES, seed=4)
        while state.deals_played < 4:
            state = state.apply(rng.choice(state.legal_moves()))
        PLAYED["state"] = state
        PLAYED["view"] = json.loads(ba.to_json(state.view(1)))
    return PLAYED["state"], PLAYED["view"]


NUMBERS = st.integers(-3, 30) | st.sampled_from([2**53, -(2**53), 10**20, True, 1.0, None])


@FUZZ
@given(data=st.data())
def test_fuzz_forged_deal_results_in_a_view(data: st.DataObject) -> None:
    """A fact of a past deal in a view changed (and the scores kept summing
    up): refused for a form that does not fit the rules, else loaded as
    written (past deals are public facts)."""
    state, doc = _played()
    d = json.loads(json.dumps(doc))
    k = data.draw(st.integers(0, len(d["deal_results"]) - 1), label="deal")
    result = d["deal_results"][k]
    field = data.draw(
        st.sampled_from(
            ["dealer", "points", "tricks", "contracts", "bids", "trump", "turn_up", "declarer"]
        ),
        label="field",
    )
    if field in ("points", "tricks"):
        side = data.draw(st.integers(0, len(result[field]) - 1))
        result[field][side] = data.draw(NUMBERS, label="value")
        if field == "points" and type(result[field][side]) is int:
            d["scores"] = [
                sum(r["points"][i] for r in d["deal_results"]) for i in range(len(d["scores"]))
            ]
    elif field == "contracts":
        side = data.draw(st.integers(0, len(result[field]) - 1))
        result[field][side] = {
            "tricks": data.draw(st.integers(0, 12)),
            "board": data.draw(st.booleans()),
        }
    elif field == "bids":
        seat = data.draw(st.integers(0, 3))
        result[field][seat] = data.draw(
            st.sampled_from(["pass", "bid 0", "bid 1", "bid 5", "board", "counter", "play QS"])
        )
    elif field == "trump":
        result[field] = data.draw(st.sampled_from(["C", "D", "H", "S", None, "X"]))
    elif field == "turn_up":
        result[field] = data.draw(st.sampled_from(["2C", "AS", "BJ", "LJ", None, "1X"]))
    else:
        result[field] = data.draw(NUMBERS, label="value")
    try:
        loaded = ba.from_json(json.dumps(d), ba.PlayerView)
    except ba.BackAlleyError as exc:
        assert isinstance(exc, ba.SerializationError)
        assert exc.path.startswith(("$.deal_results", "$.scores")), str(exc)
        return
    written = tuple(ba.from_json(json.dumps(r), ba.DealResult) for r in d["deal_results"])
    assert loaded.deal_results == written and list(loaded.scores) == d["scores"]
    assert loaded.hand == state.hand(1) and loaded.calls == state.calls


@FUZZ
@given(data=st.data())
def test_fuzz_changed_moves_of_a_state(data: st.DataObject) -> None:
    """A state document's moves changed, dropped, added or swapped: the
    replay loads the game they make, or refuses at a move with its position."""
    state, _view = _played()
    d = json.loads(ba.to_json(state))
    moves = d["moves"]
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        i = data.draw(st.integers(0, len(moves) - 1), label="index")
        op = data.draw(st.sampled_from(["replace", "drop", "add", "swap"]), label="op")
        word = data.draw(st.sampled_from(["pass", "bid 1", "board", "play QS", "play 2C", 3]))
        if op == "replace":
            moves[i] = word
        elif op == "drop":
            del moves[i]
        elif op == "add":
            moves.insert(i, word)
        else:
            j = data.draw(st.integers(0, len(moves) - 1), label="other")
            moves[i], moves[j] = moves[j], moves[i]
    try:
        loaded = ba.from_json(json.dumps(d), ba.GameState)
    except ba.SerializationError as exc:
        assert exc.path.startswith("$.moves["), str(exc)
        return
    assert [str(m) for m in loaded.moves] == moves
    assert ba.from_json(ba.to_json(loaded), ba.GameState) == loaded


@pytest.mark.parametrize("seed", range(3))
def test_fuzz_random_bytes_as_every_document(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(fuzz_examples(50)):
        blob = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        for cls in (ba.GameState, ba.PlayerView, ba.GameRecord, ba.RuleSet, ba.Move):
            with pytest.raises(ba.SerializationError):
                ba.from_json(blob + b"\x00", cls)
