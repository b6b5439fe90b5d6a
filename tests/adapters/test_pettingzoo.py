"""The PettingZoo environment (backalley.adapters.backalley_v0; its former name,
backalley.adapters.pettingzoo, warns): PettingZoo's API test on every variant,
without a warning (observations are NumPy arrays, in a bounded Box; the action
masks are in the infos), rewards per deal that add up to the scores, masks
that are the legal moves, the observation shared with the OpenSpiel game,
rendering, and a missing extra named."""

from __future__ import annotations

import os
import random
import runpy
import subprocess
import sys
import warnings
from pathlib import Path

import attrs
import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test")
np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

import backalley as ba  # noqa: E402
from backalley.adapters.backalley_v0 import BackAlleyEnv, env, raw_env, render_text  # noqa: E402
from backalley.adapters.encoding import Actions, observation_layout  # noqa: E402

from .. import ROOT  # noqa: E402

HAND_AT = 4 + 5 + 4 + 4 + 13  # seat, phase, to_act, dealer, hand_size (module docstring)
EXAMPLE = ROOT / "examples" / "pettingzoo_random.py"


def api_test_quietly(environment: object) -> None:
    """PettingZoo's API test, which must pass without a single warning (such
    as ``Observation is not a NumPy array``)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.api_test(environment, num_cycles=1000)
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("name", ba.variants.names())
def test_api_test_passes_for_every_variant(name: str) -> None:
    api_test_quietly(env(name))


def test_the_environment_has_its_versioned_name_as_pettingzoos_own() -> None:
    """``backalley_v0``, as ``pettingzoo.classic.tictactoe_v3``: the name in the
    metadata is the module's, and the module answers ``env`` and ``raw_env``."""
    import importlib

    module = importlib.import_module("backalley.adapters.backalley_v0")
    game = module.env("gamerules")
    assert game.metadata["name"] == "backalley_v0" == module.__name__.rsplit(".", 1)[1]
    assert isinstance(game.unwrapped, BackAlleyEnv)
    assert isinstance(module.raw_env("gamerules"), BackAlleyEnv)


@pytest.mark.parametrize("name", ["env", "raw_env", "BackAlleyEnv", "render_text"])
def test_the_former_module_name_still_answers_with_a_deprecation_warning(name: str) -> None:
    import backalley.adapters.backalley_v0 as current
    import backalley.adapters.pettingzoo as former

    with pytest.warns(DeprecationWarning, match="use backalley.adapters.backalley_v0") as caught:
        value = getattr(former, name)
    assert value is getattr(current, name)
    assert caught[0].filename == __file__, "the warning points at the caller"
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        former.no_such_name  # noqa: B018


def test_the_former_module_names_environment_passes_the_api_test() -> None:
    with pytest.warns(DeprecationWarning):
        from backalley.adapters.pettingzoo import env as former_env
    api_test_quietly(former_env("vietnam"))


def test_observations_are_numpy_arrays_in_a_bounded_box() -> None:
    game = raw_env("gamerules")
    game.reset(seed=1)
    space = game.observation_space("player_0")
    assert isinstance(space, gymnasium.spaces.Box) and space.dtype == np.float32
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    names = [name for name, size in observation_layout(4, 2, Actions()) for _ in range(size)]
    scores = [k for k, name in enumerate(names) if name == "scores"]
    assert scores and (space.high[scores] > 1e30).all() and (space.low[scores] < -1e30).all()
    others = [k for k, name in enumerate(names) if name != "scores"]
    assert (space.low[others] == 0).all() and (space.high[others] == 1).all()
    rng = random.Random(3)
    for _ in range(300):
        for agent in game.possible_agents:
            observation = game.observe(agent)
            assert type(observation) is np.ndarray and space.contains(observation)
        mask = game.infos[game.agent_selection]["action_mask"]
        game.step(rng.choice(list(np.flatnonzero(mask))))


def play(game: object, seed: int) -> dict[str, float]:
    """Random legal actions to the end; each agent's summed reward."""
    rng = random.Random(seed)
    totals: dict[str, float] = {}
    for agent in game.agent_iter():  # type: ignore[attr-defined]
        _observation, reward, termination, truncation, info = game.last()  # type: ignore[attr-defined]
        totals[agent] = totals.get(agent, 0.0) + reward
        if termination or truncation:
            game.step(None)  # type: ignore[attr-defined]
            continue
        mask = info["action_mask"]
        assert np.array_equal(mask, game.unwrapped.action_mask(agent))  # type: ignore[attr-defined]
        legal = [int(i) for i in np.flatnonzero(mask)]
        state = game.unwrapped.state  # type: ignore[attr-defined]
        seat = int(agent.split("_")[1])
        assert state.to_act == seat
        assert legal == sorted(Actions().id_of(m) for m in state.legal_moves())
        game.step(rng.choice(legal))  # type: ignore[attr-defined]
    return totals


@pytest.mark.parametrize("name", ["gamerules", "vietnam", "cutthroat-5"])
def test_rewards_per_deal_add_up_to_each_sides_score(name: str) -> None:
    game = env(name, deals=3 if name != "vietnam" else None)
    game.reset(seed=11)
    totals = play(game, seed=2)
    final = game.unwrapped.state
    assert final.is_over
    rules = final.rules
    for side, team in enumerate(rules.teams):
        for seat in team:
            assert totals[f"player_{seat}"] == final.scores[side]
    assert game.agents == []


def test_rewards_arrive_when_a_deal_is_scored() -> None:
    game = raw_env("vietnam")
    game.reset(seed=3)
    rng = random.Random(1)
    while game.state.deals_played == 0:
        assert all(r == 0 for r in game.rewards.values())
        mask = game.action_mask(game.agent_selection)
        game.step(rng.choice(list(np.flatnonzero(mask))))
    points = game.state.deal_results[0].points
    assert game.rewards == {f"player_{s}": points[s % 2] for s in range(4)}


def test_the_same_seed_gives_the_same_game() -> None:
    a, b = raw_env("gamerules"), raw_env("gamerules")
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.state == b.state
    b.reset(seed=6)
    assert a.state != b.state


def test_the_layout_is_the_documented_one() -> None:
    layout = observation_layout(4, 2, Actions())
    names = [name for name, _size in layout]
    assert sum(size for _name, size in layout[: names.index("hand")]) == HAND_AT
    assert sum(size for _name, size in layout) == 717


def test_masks_are_empty_for_seats_not_to_act_and_hands_stay_hidden() -> None:
    game = raw_env("gamerules")
    game.reset(seed=1)
    acting = game.agent_selection
    for agent in game.possible_agents:
        obs = game.observe(agent)
        mask = game.infos[agent]["action_mask"]
        assert obs.dtype == np.float32
        assert mask.dtype == np.int8 and np.array_equal(mask, game.action_mask(agent))
        assert mask.any() == (agent == acting)
        seat = int(agent.split("_")[1])
        hand = obs[HAND_AT : HAND_AT + 54]
        assert sorted(np.flatnonzero(hand)) == [c.index for c in game.state.hands[seat]]


def test_the_observation_is_the_openspiel_observation_tensor() -> None:
    pytest.importorskip("pyspiel")
    from backalley.adapters.openspiel import load_game

    ospiel = load_game("gamerules", deals=1, dealer=0)
    rng = random.Random(9)
    state = ospiel.state_of(rng.sample(range(54), 53))
    for _ in range(10):
        state.apply_action(rng.choice(state.legal_actions()))
    game = raw_env("gamerules", deals=1)
    game.reset(seed=0)
    game.state = state.engine_state
    for seat in range(4):
        ours = game.observe(f"player_{seat}")
        assert np.array_equal(ours, np.asarray(state.observation_tensor(seat)))
        mask = [int(i) for i in np.flatnonzero(game.action_mask(f"player_{seat}"))]
        assert mask == state.legal_actions(seat)


def test_ansi_render_shows_the_table() -> None:
    game = raw_env("gamerules", render_mode="ansi")
    game.reset(seed=4)
    text = game.render()
    assert text == render_text(game.state)
    assert "seat 3" in text and str(game.state.hands[0][0]) in text
    assert "scores: 0 0" in text
    quiet = raw_env("gamerules")
    quiet.reset(seed=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert quiet.render() is None


def test_bad_arguments_and_illegal_actions_are_refused() -> None:
    with pytest.raises(ba.UnknownVariantError):
        env("no-such-game")
    with pytest.raises(ba.SetupError):
        env("gamerules", render_mode="human")
    with pytest.raises(ba.SetupError):
        env("gamerules", deals=0)
    game = raw_env("gamerules")
    game.reset(seed=2)
    before = game.state
    with pytest.raises(ba.IllegalMoveError):
        game.step(0)  # a card during the bidding
    with pytest.raises(ba.NotationError):
        game.step(999)
    assert game.state == before


@pytest.mark.parametrize("make", [env, raw_env])
def test_negative_deals_are_refused(make: object) -> None:
    with pytest.raises(ba.SetupError, match=r"deals must be None .* 1\.\.25, not -1"):
        make("gamerules", deals=-1)  # type: ignore[operator]


@pytest.mark.parametrize("make", [env, raw_env])
def test_more_deals_than_the_schedule_holds_are_refused(make: object) -> None:
    with pytest.raises(ba.SetupError, match=r"1\.\.2, not 3"):
        make("vietnam", deals=3)  # type: ignore[operator]
    assert raw_env("vietnam", deals=2).rules.schedule.deals == 2


@pytest.mark.parametrize("deals", [0, 1.5, True, "3"])
def test_deals_that_are_not_a_count_of_deals_are_refused(deals: object) -> None:
    with pytest.raises(ba.SetupError, match="deals must be None"):
        env("gamerules", deals=deals)  # type: ignore[arg-type]


def test_the_deals_check_is_the_openspiel_games_check() -> None:
    pytest.importorskip("pyspiel")
    from backalley.adapters.openspiel import load_game

    for deals in (-1, 26, 2.0):
        with pytest.raises(ba.SetupError) as ours:
            env("gamerules", deals=deals)  # type: ignore[arg-type]
        with pytest.raises(ba.SetupError) as theirs:
            load_game("gamerules", deals=deals)  # type: ignore[arg-type]
        assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("mode", ["human", "rgb_array", "", 1])
def test_an_unknown_render_mode_is_refused_naming_the_modes(mode: object) -> None:
    with pytest.raises(ba.SetupError, match="render_mode must be None or 'ansi'"):
        env("gamerules", render_mode=mode)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", ["no-such-game", 7, None])
def test_a_variant_that_is_neither_a_name_nor_a_rule_set_is_refused(variant: object) -> None:
    with pytest.raises(ba.UnknownVariantError, match="known variants: gamerules"):
        raw_env(variant)  # type: ignore[arg-type]


def test_the_environment_refuses_rules_that_are_not_a_rule_set() -> None:
    with pytest.raises(ba.SetupError, match="rules must be a RuleSet, not str"):
        BackAlleyEnv("gamerules")  # type: ignore[arg-type]


def test_the_pettingzoo_example_plays_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    module = runpy.run_path(str(EXAMPLE))
    totals = module["play"]("vietnam", seed=7)
    assert set(totals) == {f"player_{s}" for s in range(4)}
    assert totals["player_0"] == totals["player_2"]
    assert "game over" in capsys.readouterr().out


def test_api_test_passes_with_direct_counters() -> None:
    """A rule set whose auction calls ``counter x2`` .. ``x4`` has an action
    (and an observation slot) for each of them."""
    auction = ba.variants.VIETNAM.bidding
    rules = ba.variants.VIETNAM.replace(
        bidding=attrs.evolve(auction, counter_style=ba.rules.CounterStyle.DIRECT), name=None
    )
    environment = env(rules, deals=1)
    api_test_quietly(environment)
    assert environment.unwrapped.action_space("player_0").n == 79


@pytest.mark.parametrize(
    ("example", "hidden", "extra"),
    [
        (EXAMPLE, "gymnasium", "pettingzoo"),
        (EXAMPLE, "pettingzoo", "pettingzoo"),
        (EXAMPLE.parent / "openspiel_mcts.py", "pyspiel", "openspiel"),
        (EXAMPLE.parent / "openspiel_mcts.py", "numpy", "openspiel"),
    ],
)
def test_an_example_without_its_extra_says_in_one_line_which_to_install(
    example: Path, hidden: str, extra: str
) -> None:
    """As if the module were not installed (``None`` in ``sys.modules``)."""
    program = (
        f"import sys, runpy; sys.modules[{hidden!r}] = None; "
        f"runpy.run_path({str(example)!r}, run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(EXAMPLE.parents[1])},
    )  # fmt: skip
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert f"pip install 'backalley[{extra}]'" in done.stderr
    assert f"({hidden}" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("module", ["backalley_v0", "pettingzoo"])
def test_the_adapter_without_its_extra_names_it(module: str) -> None:
    """Under its name and its former name."""
    program = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "try:\n"
        f"    import backalley.adapters.{module}\n"
        "except ModuleNotFoundError as exc:\n"
        "    print(exc.name, '|', exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(EXAMPLE.parents[1])},
    )  # fmt: skip
    assert done.stdout == (
        "gymnasium | the PettingZoo adapter needs its extra: "
        "pip install 'backalley[pettingzoo]' (gymnasium is missing)\n"
    ), done.stderr
