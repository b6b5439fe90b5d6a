"""The tools over rule sets drawn from the registry, not only the registered
variants: the bots (a whole game between heuristic bots, montecarlo choices
in a later deal), the solver against its plain search, and the research
adapters through their frameworks' own checks.  Each of these once failed on
a combination no variant has (a direct counter, rotating trump in a later
deal, scoring that makes every call worthless)."""

from __future__ import annotations

import random
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import backalley as ba
from backalley.bots import HeuristicBot, MonteCarloBot, check_throw_ins
from backalley.solver import analyse, solve

from ..helpers import bot_move, examples
from ..strategies import registry_rule_sets
from .test_solver import _plain_solve

TOOLS = settings(
    max_examples=examples(25),
    deadline=None,
    database=None,
    derandomize=True,  # the same drawn rule sets on every run: CI stays reproducible
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def small(rules: ba.RuleSet, size: int = 3) -> ba.RuleSet:
    """``rules`` with two deals of ``size`` cards first (their own schedule
    after, when the rule set needs it)."""
    for sizes in ((size, size), (size, size, *rules.schedule.hand_sizes)):
        try:
            return rules.replace(schedule=ba.rules.Schedule(sizes))
        except ba.RuleSetError:
            continue
    return rules


@TOOLS
@given(rules=registry_rule_sets(), seed=st.integers(0, 2**16))
def test_heuristic_bots_play_a_drawn_rule_set_to_the_end(rules: ba.RuleSet, seed: int) -> None:
    rules = small(rules)
    bots = [HeuristicBot((seed, s)) for s in range(rules.players)]
    state = ba.new_game(rules, seed=seed)
    while not state.is_over:
        state = bot_move(state, bots)
        try:
            check_throw_ins(state)
        except ba.SetupError:
            return  # rules in which these players never contract: stopped, not hung


@TOOLS
@given(rules=registry_rule_sets(), seed=st.integers(0, 2**16))
def test_montecarlo_moves_in_a_later_deal_are_legal(rules: ba.RuleSet, seed: int) -> None:
    """In the second deal, where a rule may read the deal's number."""
    rules = small(rules)
    rng = random.Random(seed)
    state = ba.new_game(rules, seed=seed)
    checked = 0
    while not state.is_over and checked < 3:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        if state.deals_played and len(view.legal_moves()) > 1:
            move = MonteCarloBot(seed=seed, samples=2, budget=None).choose(view)
            assert move in view.legal_moves()
            checked += 1
        state = state.apply(rng.choice(state.legal_moves()))
        if state._core.match.deal_number > 50:  # thrown in again and again
            return


@TOOLS
@given(rules=registry_rule_sets(), seed=st.integers(0, 2**16), plays=st.integers(0, 6))
def test_the_solver_agrees_with_its_plain_search(rules: ba.RuleSet, seed: int, plays: int) -> None:
    rules = small(rules, 4)
    rng = random.Random(seed)
    state = ba.new_game(rules, seed=seed)
    for _ in range(200):
        if state.phase is ba.Phase.PLAYING or state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))
    for _ in range(plays):
        if state.phase is not ba.Phase.PLAYING:
            break
        after = state.apply(rng.choice(state.legal_moves()))
        if after.phase is not ba.Phase.PLAYING or after.deals_played != state.deals_played:
            break
        state = after
    if state.phase is not ba.Phase.PLAYING:
        return
    best = solve(state)
    assert max(analyse(state).values()) == best
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _plain_solve(state, monkeypatch) == best


@TOOLS
@given(rules=registry_rule_sets())
def test_the_adapters_pass_their_frameworks_checks(rules: ba.RuleSet) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    pettingzoo_test = pytest.importorskip("pettingzoo.test")
    from backalley.adapters.backalley_v0 import env
    from backalley.adapters.openspiel import load_game

    rules = small(rules)
    deals = next(k for k in range(1, rules.schedule.deals + 1) if fits(rules, k))
    if rules.plan.shuffles_per_deal == 1:  # OpenSpiel's chance nodes deal one order per deal
        game = load_game(rules, deals=deals)
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    else:
        with pytest.raises(ba.SetupError, match="shuffle of its own"):
            load_game(rules, deals=deals)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        pettingzoo_test.api_test(env(rules, deals=deals), num_cycles=200)


def fits(rules: ba.RuleSet, deals: int) -> bool:
    """Whether the first ``deals`` deals of the schedule make a rule set (a
    rainbow bonus needs its deal)."""
    try:
        rules.replace(schedule=ba.rules.Schedule(rules.schedule.hand_sizes[:deals]))
    except ba.RuleSetError:
        return False
    return True
