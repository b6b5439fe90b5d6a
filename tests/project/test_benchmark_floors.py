"""The floor the performance notes measure against (``benchmarks/floor.py``)
plays whole, checked games: a floor that skipped work would make the library
look slower than it is."""

from __future__ import annotations

import random
import sys
from functools import partial
from types import ModuleType
from typing import Any

import pytest

from .. import ROOT

BENCHMARKS = ROOT / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import floor  # noqa: E402


def _an_illegal_play(shape: ModuleType, legal: Any) -> Any:
    """For a floor module's ``choose``: the last legal call when a call is
    asked for; else a card that is not among the legal plays."""
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


def test_the_checked_floor_refuses_a_card_that_may_not_be_played() -> None:
    state = floor._deal(0, random.Random(4))
    for _ in range(5):  # four bids and the lead: the second seat must follow suit
        state = state.apply(state.legal_moves()[0])
    with pytest.raises(ValueError, match="may not be played"):
        state.apply(_an_illegal_play(floor, state.legal_moves()))


@pytest.mark.slow
def test_the_split_and_the_bytecode_count_run(capsys: pytest.CaptureFixture[str]) -> None:
    floor.split(2)
    floor.bytecodes(1)
    out = capsys.readouterr().out
    assert "call 4" in out
    assert "play ending a deal" in out
    assert "library, checked" in out
    assert "floor, playout" in out
