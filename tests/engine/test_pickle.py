"""Pickling states: built-in rule sets by name, the deal's context from the
rules, deal results and bidding outcomes as plain values."""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings

import backalley as ba
from backalley.rules import Schedule

from .. import ROOT
from ..helpers import check_conservation
from ..randomgames import NAMES, games, walk


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_a_state_pickles_to_an_equal_state_that_plays_on(game: tuple) -> None:
    _start, state, _moves = game
    back = pickle.loads(pickle.dumps(state))
    assert back == state and back._core == state._core and back.rules is state.rules
    assert back.legal_moves() == state.legal_moves()
    assert back.deal_results == state.deal_results and back.scores == state.scores
    check_conservation(back)
    if not state.is_over:
        move = state.legal_moves()[-1]
        assert back.apply(move) == state.apply(move)


@pytest.mark.parametrize("name", NAMES[:6])
def test_every_state_of_a_game_pickles(name: str) -> None:
    rules = ba.variants.get(name)
    for k, (state, _move) in enumerate(walk(rules, 11, 3)):
        if k % 7 == 0 or state.is_over:
            assert pickle.loads(pickle.dumps(state))._core == state._core


def test_a_pickle_is_small_and_names_a_built_in_rule_set() -> None:
    state = next(s for s, _m in walk(ba.variants.GAMERULES, 2, 2) if s.deals_played == 3)
    data = pickle.dumps(state)
    # the moves so far (a few bytes each) and each deal result's plain values
    assert len(data) < 200 * state.deals_played + 6 * len(state.moves) + 600, len(data)
    assert b"gamerules" in data and b"ContractScoring" not in data


def test_states_pickled_together_share_their_deal_results() -> None:
    states = [s for s, _m in walk(ba.variants.GAMERULES, 2, 2) if s.deals_played == 2][:3]
    a, b, c = pickle.loads(pickle.dumps(states))
    assert a.deal_results == states[0].deal_results
    assert all(x is y is z for x, y, z in zip(a.deal_results, b.deal_results, c.deal_results))


def test_a_state_of_a_rule_set_of_ones_own_pickles_with_its_parts() -> None:
    rules = ba.RuleSet(schedule=Schedule((2, 1)), name="gamerules")  # not the built-in one
    state = next(s for s, _m in walk(rules, 5, 5) if s.deals_played == 1)
    back = pickle.loads(pickle.dumps(state))
    assert back == state and back.rules == rules and back.rules is not ba.variants.GAMERULES


def test_a_pickle_loads_in_a_process_that_has_seen_none_of_its_results() -> None:
    rules = ba.variants.get("vietnam")  # an auction: declarers, counters, named trump
    state = next(s for s, _m in walk(rules, 4, 4) if s.deals_played == 2)
    script = (
        "import pickle, sys; state = pickle.loads(sys.stdin.buffer.read()); "
        "print(repr(state.deal_results), state.legal_moves())"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        input=pickle.dumps(state),
        capture_output=True,
        check=True,
        cwd=ROOT,
    )
    assert out.stdout.decode().strip() == f"{state.deal_results!r} {state.legal_moves()}"
