"""The floors the performance notes measure against (``benchmarks/floor.py``
and ``benchmarks/rules_floor.py``) play whole, checked games: a floor that
skipped work would make the library look slower than it is."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import floor  # noqa: E402
import rules_floor  # noqa: E402


def test_the_rules_floor_plays_every_deal_of_the_schedule_and_scores_it() -> None:
    choice = random.Random(3).choice
    for seed in range(20):
        state = rules_floor.new_game(seed)
        decisions = 0
        while not state.is_over:
            state = state.apply(choice(state.legal_moves()))
            decisions += 1
        _seed, dealt, scores, results = state._raw[1]
        assert len(results) == len(rules_floor.SCHEDULE) == 25
        assert [r[2] for r in results] == list(rules_floor.SCHEDULE)
        assert dealt >= 25  # a deal of four passes is dealt again
        assert decisions == sum(4 * r[2] for r in results) + 4 * dealt
        assert scores == tuple(sum(r[8][side] for r in results) for side in (0, 1))
        for result in results:
            assert sum(result[7]) == result[2]  # every trick won by a side


def test_the_rules_floor_checks_every_move() -> None:
    state = rules_floor.new_game(1)
    calls = state.legal_moves()
    with pytest.raises(ValueError, match="not a legal call"):
        state.apply(rules_floor.BIDS[13])  # no bid of every trick (board is the claim)
    for _ in range(4):
        state = state.apply(calls[1])  # four bids of one: the play starts
    legal = state.legal_moves()
    held = state._raw[3][state._raw[4]]
    refused = next(p for p in rules_floor.PLAYS if held >> p.card & 1 and p not in legal)
    with pytest.raises(ValueError, match="may not be played"):
        state.apply(refused)  # a trump led before trump is broken
    with pytest.raises(ValueError, match="not a play"):
        state.apply(calls[0])


def test_the_rules_floor_keeps_trump_until_it_is_broken() -> None:
    state = rules_floor.new_game(2)
    for _ in range(4):
        state = state.apply(rules_floor.BIDS[1])
    _phase, _match, deal, hands, leader, _trick, _history, broken = state._raw
    trumps = rules_floor.TRUMPS[deal[2]]
    mask = 0
    for play in state.legal_moves():
        mask |= 1 << play.card
    assert not broken
    assert mask == (hands[leader] & ~trumps or hands[leader])


def test_the_playout_rules_floor_plays_the_same_deals() -> None:
    """Its games take every deal of the schedule, score it and record it."""
    choice = random.Random(5).choice
    for seed in range(10):
        scores, results = rules_floor._playout_game(seed, choice)
        assert [r[2] for r in results] == list(rules_floor.SCHEDULE)
        assert scores == tuple(sum(r[8][side] for r in results) for side in (0, 1))


def test_the_floors_of_the_two_shapes_play_whole_games() -> None:
    choice = random.Random(1).choice
    state = floor._deal(0, random.Random(4))
    decisions = 0
    while not state.is_over:
        state = state.apply(choice(state.legal_moves()))
        decisions += 1
    assert decisions == floor.DECISIONS
    floor._playout_game(random.Random(4), choice)  # raises on an unchecked move


def test_the_split_and_the_bytecode_count_run(capsys: pytest.CaptureFixture[str]) -> None:
    floor.split(2)
    floor.bytecodes(1)
    out = capsys.readouterr().out
    assert "call 4" in out
    assert "play ending a deal" in out
    assert "library, checked" in out
    assert "floor, playout" in out
