"""Pickling states: built-in rule sets by name, the deal's context from the
rules, deal results and bidding outcomes as plain facts shared on loading."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import HealthCheck, given, settings

import backalley as ba
from backalley.rules import Schedule

from .helpers import check_conservation
from .randomgames import NAMES, games, walk


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
    assert len(data) < 1000 and b"gamerules" in data and b"JokersHigh" not in data


def test_loaded_states_share_their_deal_results() -> None:
    state = next(s for s, _m in walk(ba.variants.GAMERULES, 2, 2) if s.deals_played == 2)
    a, b = pickle.loads(pickle.dumps(state)), pickle.loads(pickle.dumps(state))
    assert a.deal_results == state.deal_results
    assert all(x is y for x, y in zip(a.deal_results, b.deal_results))


def test_a_state_of_a_rule_set_of_ones_own_pickles_with_its_parts() -> None:
    rules = ba.RuleSet(schedule=Schedule((2, 1)), name="gamerules")  # not the built-in one
    state = next(s for s, _m in walk(rules, 5, 5) if s.deals_played == 1)
    back = pickle.loads(pickle.dumps(state))
    assert back == state and back.rules == rules and back.rules is not ba.variants.GAMERULES


def test_a_pickle_loads_in_a_process_that_has_seen_none_of_its_results() -> None:
    from backalley import game

    rules = ba.variants.get("vietnam")  # an auction: declarers, counters, named trump
    state = next(s for s, _m in walk(rules, 4, 4) if s.deals_played == 2)
    data = pickle.dumps(state)
    game._RESULTS_SEEN.clear()
    game._OUTCOMES.clear()
    back = pickle.loads(data)
    assert back.deal_results == state.deal_results and back._core == state._core
