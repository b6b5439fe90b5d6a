"""The floors the performance notes measure against (``benchmarks/floor.py``
and ``benchmarks/rules_floor.py``) play whole, checked games: a floor that
skipped work would make the library look slower than it is."""

from __future__ import annotations

import random
import sys
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import backalley as ba

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


def _kind(move: object) -> tuple[object, ...]:
    """A move of the library or of the rules floor, in one form."""
    if isinstance(move, (ba.Play, rules_floor.Play)):
        card = move.card
        return ("play", card if isinstance(card, int) else card.index)
    if isinstance(move, rules_floor.Call):
        if move.board:
            return ("board",)
        return ("bid", move.tricks) if move.tricks else ("pass",)
    if isinstance(move, ba.BoardBid):
        return ("board",)
    if isinstance(move, ba.Bid):
        return ("bid", move.tricks)
    return ("pass",)


def test_the_rules_floor_plays_the_librarys_gamerules_move_for_move() -> None:
    """Driven by the same choices from the same seed (and first dealer), the
    rules floor offers exactly the library's legal moves at every decision
    and scores every deal as the library does: it does the game's work."""
    for seed in range(12):
        rng = random.Random(seed)
        lib = ba.new_game(ba.variants.GAMERULES, seed=seed, dealer=seed % 4)
        floor_state = rules_floor.new_game(seed)
        while not lib.is_over:
            legal = sorted(map(_kind, lib.legal_moves()))
            floor_legal = {_kind(m): m for m in floor_state.legal_moves()}
            assert sorted(floor_legal) == legal
            kind = rng.choice(legal)
            lib = lib.apply(next(m for m in lib.legal_moves() if _kind(m) == kind))
            floor_state = floor_state.apply(floor_legal[kind])
        assert floor_state.is_over
        results = floor_state._raw[1][3]
        assert [r[8] for r in results] == [r.points for r in lib.deal_results]
        assert floor_state._raw[1][2] == lib.scores


def test_the_playout_rules_floor_plays_the_checked_floors_games() -> None:
    """The same choices give the same game in both of the rules floor's shapes."""
    for seed in range(10):
        recorder = _Recorder(seed)
        match = rules_floor._playout_game(seed, recorder)
        choices = recorder.choices
        state = rules_floor.new_game(seed)
        for k in choices:
            state = state.apply(state.legal_moves()[k])
        assert state.is_over
        assert state._raw[1] == match
        with pytest.raises(ValueError, match="may not be played"):
            rules_floor._playout_game(seed, partial(_an_illegal_play, rules_floor))


class _Recorder:
    """A random ``choose`` that remembers the position of each choice."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.choices: list[int] = []

    def __call__(self, legal: Any) -> Any:
        k = self.rng.randrange(len(legal))
        self.choices.append(k)
        return legal[k]


def _an_illegal_play(shape: ModuleType, legal: Any) -> Any:
    """For a floor module's ``choose``: the last legal call when a call is
    asked for (never four passes); else a card that is not among the legal plays."""
    if not isinstance(legal[0], shape.Play):
        return legal[-1]
    held = {p.card for p in legal}
    return next(p for p in shape.PLAYS if p.card not in held)


def test_the_floors_of_the_two_shapes_play_whole_games() -> None:
    choice = random.Random(1).choice
    state = floor._deal(0, random.Random(4))
    decisions = 0
    while not state.is_over:
        state = state.apply(choice(state.legal_moves()))
        decisions += 1
    assert decisions == floor.DECISIONS
    floor._playout_game(random.Random(4), choice)
    with pytest.raises(ValueError, match="may not be played"):
        floor._playout_game(random.Random(4), partial(_an_illegal_play, floor))


def test_the_split_and_the_bytecode_count_run(capsys: pytest.CaptureFixture[str]) -> None:
    floor.split(2)
    floor.bytecodes(1)
    out = capsys.readouterr().out
    assert "call 4" in out
    assert "play ending a deal" in out
    assert "library, checked" in out
    assert "floor, playout" in out
