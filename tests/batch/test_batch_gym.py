"""The Gymnasium environments of ``backalley.batch.gym``.

- :func:`observe` reads, from the batch's arrays, exactly the observation
  tensor that ``encode(table_of_view(view))`` gives in the one-game engine:
  a :class:`BatchEnv` and one :class:`SelfPlayEnv` per game, started from the
  same game seeds and driven by the same random legal actions, show equal
  observations, masks, rewards, points, seats and terminations at every
  step - whole games (a thrown-in deal among them), the naming of trump,
  the game over and the games started in their place; for a seat other
  than the one to act too;
- :class:`BatchEnv` follows Gymnasium's vector conventions (spaces,
  next-step autoreset with the environment's next game seeds, float32
  rewards), refuses an illegal action with ``SetupError`` changing nothing,
  and replays its games from a seed;
- :class:`SeatEnv` (and :class:`SelfPlayEnv` replacing illegal actions)
  pass Gymnasium's environment checker; a seat's rewards add up to its
  side's final score;
- without Gymnasium the module says which extra to install;
- ``examples/batch_selfplay.py`` runs and prints its arrays' shapes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
env_checker = pytest.importorskip("gymnasium.utils.env_checker")

import backalley as ba  # noqa: E402
from backalley.adapters.encoding import (  # noqa: E402
    Actions,
    encode,
    observation_layout,
    table_of_view,
)
from backalley.batch import gym as batch_gym  # noqa: E402
from backalley.batch.engine import BatchGames, game_seed  # noqa: E402
from backalley.batch.gym import BatchEnv, SeatEnv, SelfPlayEnv, observe  # noqa: E402
from backalley.engine import lowlevel  # noqa: E402

from .. import ROOT  # noqa: E402

EXAMPLE = ROOT / "examples" / "batch_selfplay.py"


def random_legal(rng: Any, mask: Any) -> Any:
    """One legal action per row of ``mask`` (0 for a row with none: a game just over)."""
    scores = np.where(mask, rng.random(mask.shape), -1.0)
    return scores.argmax(axis=1)


def piece_names(env: BatchEnv) -> list[str]:
    """The name of the layout's piece of each entry of the observation."""
    layout = observation_layout(env.tables.players, env.tables.sides, env.actions)
    return [name for name, size in layout for _ in range(size)]


def lockstep(rules: str, n: int, steps: int, seed: int) -> dict[str, int]:
    """A BatchEnv of ``n`` games and ``n`` SelfPlayEnvs of the same game
    seeds, stepped ``steps`` times by the same random legal actions; every
    observation, mask, reward, termination, seat and points must agree.
    Returns what the run met (phases, games over, thrown-in deals)."""
    env = BatchEnv(rules, n, seed=seed)
    obs, info = env.reset()
    ones = [SelfPlayEnv(rules) for _ in range(n)]
    seeds = env.game_seeds.tolist()
    assert seeds == [game_seed(seed, i) for i in range(n)]
    shown = [one.reset(options={"game_seed": s}) for one, s in zip(ones, seeds)]
    names = piece_names(env)
    met = {"over": 0, "thrown_in": 0, "naming": 0, "restarted": 0}
    rng = np.random.default_rng(seed)
    started = n

    def agree(step: int, i: int, observation: Any, one_info: dict[str, Any]) -> None:
        differ = np.flatnonzero(obs[i] != observation)
        where = f"{rules} step {step} game {i} ({ones[i].state.phase.name})"
        assert not len(differ), (
            f"{where}: observations differ in {sorted({names[k] for k in differ})}"
        )
        assert np.array_equal(info["action_mask"][i], one_info["action_mask"]), where
        assert info["seat"][i] == one_info["seat"], where
        assert np.array_equal(info["points"][i], one_info["points"]), where

    for i, (observation, one_info) in enumerate(shown):
        agree(0, i, observation, one_info)
    for step in range(1, steps + 1):
        actions = random_legal(rng, info["action_mask"])
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert obs.dtype == np.float32 and rewards.dtype == np.float32
        assert not truncated.any()
        for i, one in enumerate(ones):
            if one.state.is_over:  # the batch started a new game here: the next seed
                met["thrown_in"] += lowlevel.thrown_in(one.state)
                assert env.game_seeds[i] == game_seed(seed, started)
                started += 1
                met["restarted"] += 1
                observation, one_info = one.reset(
                    options={"game_seed": game_seed(seed, started - 1)}
                )
                assert rewards[i] == 0 and not terminated[i]
            else:
                observation, reward, over, cut, one_info = one.step(int(actions[i]))
                assert (reward, over, cut) == (rewards[i], terminated[i], False), (
                    f"{rules} step {step} game {i}"
                )
                met["over"] += over
                met["naming"] += one.state.phase is ba.Phase.NAMING_TRUMP
            agree(step, i, observation, one_info)
    return met


# ------------------------------------------------------- observation equality


@pytest.mark.slow
def test_batch_and_one_game_agree_over_whole_gamerules_games() -> None:
    """Two whole games of 25 deals (a thrown-in deal among them) and the start of the next."""
    met = lockstep("gamerules", 2, 900, seed=15)
    assert met["over"] == 2 and met["restarted"] == 2
    assert met["thrown_in"] >= 1


def test_batch_and_one_game_agree_naming_trump_and_restarting() -> None:
    """Vietnam: the declarer names trump; games end and start anew many times."""
    met = lockstep("vietnam", 4, 400, seed=3)
    assert met["naming"] > 0 and met["over"] >= 8 and met["restarted"] >= 8


@pytest.mark.parametrize(
    ("rules", "steps", "games_over"), [("vietnam-cutthroat", 250, 3), ("cutthroat-3", 150, 0)]
)
def test_batch_and_one_game_agree_in_cutthroat_games(
    rules: str, steps: int, games_over: int
) -> None:
    """Sides of one player each; four seats, and three (several deals of cutthroat-3)."""
    met = lockstep(rules, 3, steps, seed=5)
    assert met["over"] >= games_over


def test_observe_gives_any_seats_view_as_the_one_game_encoding() -> None:
    """The observation of a seat that is not to act (another hand, no mask)
    equals the one-game engine's encoding of that seat's view, replayed from
    the batch's records; in every phase and once the games are over."""
    rules = ba.variants.VIETNAM
    games = BatchGames(rules, 6, seed=2)
    actions = games.actions
    rng = np.random.default_rng(2)
    players = rules.players
    size = sum(s for _name, s in observation_layout(players, len(rules.teams), actions))
    checked = 0
    phases = set()
    for step in range(200):
        if step % 23 == 0 or games.over.all():
            seats = (np.arange(games.n) + step) % players
            batch_obs = observe(games, seats)
            for g, record in enumerate(games.records()):
                state = record.start()
                for move in record.moves:
                    state = state.apply(move)
                phases.add(state.phase)
                expected = np.zeros(size, np.float32)
                encode(table_of_view(state.view(int(seats[g]))), actions, expected)
                assert np.array_equal(batch_obs[g], expected), f"step {step} game {g}"
                checked += 1
        if games.over.all():
            break
        live = np.flatnonzero(~games.over)
        games.step_unchecked(live, random_legal(rng, games.legal()[live]))
    assert checked and ba.Phase.GAME_OVER in phases and ba.Phase.PLAYING in phases


def test_observe_refuses_a_game_over_without_seats() -> None:
    games = BatchGames(ba.variants.VIETNAM, 2, seed=1)
    ba_batch = pytest.importorskip("backalley.batch")
    ba_batch.run(games)
    with pytest.raises(ba.SetupError, match="over"):
        observe(games)
    assert observe(games, [0, 1]).shape[0] == 2
    with pytest.raises(ba.SetupError, match="seats"):
        observe(games, [0, 9])


def test_deals_beyond_the_decks_given_up_front_are_dealt_as_the_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no deck order given up front, each deal is dealt from the batch's
    deck order as it opens: still the batch's games."""
    monkeypatch.setattr(batch_gym, "DECKS_AHEAD", 0)
    met = lockstep("vietnam", 2, 150, seed=8)
    assert met["over"] >= 1


# ------------------------------------------------------------------- BatchEnv


def test_batch_env_follows_the_gymnasium_vector_conventions() -> None:
    env = BatchEnv("vietnam", num_envs=5, seed=1)
    size = env.actions.size
    assert env.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.NEXT_STEP
    assert env.single_action_space == gymnasium.spaces.Discrete(size)
    assert isinstance(env.action_space, gymnasium.spaces.MultiDiscrete)
    assert env.action_space.shape == (5,)
    names = piece_names(env)
    width = len(names)
    assert env.single_observation_space.shape == (width,)
    assert env.observation_space.shape == (5, width)
    obs, info = env.reset()
    assert obs.shape == (5, width) and obs.dtype == np.float32
    assert obs in env.observation_space
    assert info["action_mask"].shape == (5, size) and info["action_mask"].dtype == bool
    assert info["action_mask"].any(axis=1).all()
    obs, rewards, terminated, truncated, info = env.step(
        env.action_space.sample(tuple(info["action_mask"].astype(np.int8)))
    )
    assert rewards.shape == terminated.shape == truncated.shape == (5,)
    assert obs in env.observation_space
    env.close()


def test_a_finished_game_restarts_on_the_next_step_with_the_next_game_seed() -> None:
    env = BatchEnv("vietnam", num_envs=3, seed=4)
    _obs, info = env.reset()
    rng = np.random.default_rng(0)
    terminated = np.zeros(3, dtype=bool)
    while not terminated.any():
        _obs, _rewards, terminated, _cut, info = env.step(random_legal(rng, info["action_mask"]))
    done = np.flatnonzero(terminated)
    assert not info["action_mask"][done].any()  # a game over has no legal action
    finals = env.games.scores[done].copy()
    # the step after: the action of a finished game is ignored (even one out of range)
    actions = random_legal(rng, info["action_mask"])
    actions[done] = -1
    _obs, rewards, terminated, _cut, info = env.step(actions)
    assert not terminated[done].any() and (rewards[done] == 0).all()
    assert info["action_mask"][done].any(axis=1).all()
    assert (env.games.scores[done] == 0).all() and finals.any()
    assert env.game_seeds[done].tolist() == [game_seed(4, 3 + k) for k in range(len(done))]
    assert (env.games.deal[done] == 0).all()


def test_an_illegal_action_raises_setup_error_and_changes_nothing() -> None:
    env = BatchEnv("vietnam", num_envs=2, seed=9)
    obs, info = env.reset()
    illegal = int(np.flatnonzero(~info["action_mask"][1])[0])
    actions = random_legal(np.random.default_rng(1), info["action_mask"])
    actions[1] = illegal
    before = env.games.to_act.copy(), env.games.calls.copy()
    with pytest.raises(ba.SetupError, match="illegal action"):
        env.step(actions)
    assert np.array_equal(env.games.to_act, before[0])
    assert np.array_equal(env.games.calls, before[1])
    with pytest.raises(ba.SetupError, match="one whole-number action per game"):
        env.step(np.array([0.5, 1.0]))
    assert np.array_equal(observe(env.games), obs)


def test_reset_with_a_seed_replays_the_same_games() -> None:
    def run(env: BatchEnv, seed: int | None) -> list[Any]:
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        out = [obs]
        for _ in range(60):
            obs, rewards, _term, _cut, info = env.step(random_legal(rng, info["action_mask"]))
            out += [obs, rewards]
        return out

    env = BatchEnv("vietnam", num_envs=3)
    first = run(env, 21)
    run(env, None)  # the next games, from other seeds
    again = run(env, 21)
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert all(
        np.array_equal(a, b) for a, b in zip(first, run(BatchEnv("vietnam", 3, seed=21), None))
    )


def test_a_step_before_reset_and_bad_arguments_are_refused() -> None:
    env = BatchEnv("vietnam", num_envs=2)
    with pytest.raises(ba.SetupError, match="reset"):
        env.step(np.zeros(2, dtype=int))
    bad: Any
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ba.SetupError, match="num_envs"):
            BatchEnv("vietnam", num_envs=bad)
    with pytest.raises(ba.SetupError, match="seed"):
        BatchEnv("vietnam", num_envs=1, seed=-3)
    with pytest.raises(ba.UnknownVariantError):
        BatchEnv("no-such-game")
    with pytest.raises(ba.SetupError, match="deals"):
        BatchEnv("vietnam", deals=3)
    assert BatchEnv("vietnam", 2, deals=1).tables.deals == 1


# ------------------------------------------------------- one-game environments


def quiet_check_env(env: Any) -> None:
    """Gymnasium's environment checker, which must pass without a warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env_checker.check_env(env, skip_render_check=True)
    assert [str(w.message) for w in caught] == []


def test_seat_env_passes_the_gymnasium_env_checker() -> None:
    quiet_check_env(SeatEnv("vietnam"))
    quiet_check_env(SeatEnv("gamerules", seat=2, bots="random", deals=1))


def test_self_play_env_replacing_illegal_actions_passes_the_env_checker() -> None:
    quiet_check_env(SelfPlayEnv("vietnam", illegal="replace"))


@pytest.mark.parametrize("seat", [0, 3])
def test_seat_env_rewards_add_up_to_the_agent_sides_final_score(seat: int) -> None:
    env = SeatEnv("vietnam", seat=seat, bots=["heuristic", "random", "heuristic"], seed=seat)
    obs, info = env.reset()
    side = env.rules.seat_teams[seat]
    rng = np.random.default_rng(seat)
    total, steps = 0.0, 0
    over = False
    while not over:
        assert obs[seat] == 1 and obs[:4].sum() == 1  # the agent's own observation
        assert env.state.to_act == seat and info["action_mask"].any()
        action = int(random_legal(rng, info["action_mask"][None, :])[0])
        obs, reward, over, cut, info = env.step(action)
        assert not cut and not info["illegal"]
        total += float(reward)
        steps += 1
    assert env.state.is_over and not info["action_mask"].any()
    assert total == env.state.scores[side] and steps >= 26
    with pytest.raises(ba.SetupError, match="over"):
        env.step(0)


def test_seat_env_replaces_or_refuses_an_illegal_action() -> None:
    env = SeatEnv("vietnam", seed=1)
    _obs, info = env.reset()
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    lowest = int(np.flatnonzero(info["action_mask"])[0])
    replaced = SeatEnv("vietnam", seed=1)
    replaced.reset()
    _o, _r, _t, _c, info = replaced.step(illegal)
    assert info["illegal"]
    played = SeatEnv("vietnam", seed=1)
    played.reset()
    played.step(lowest)
    assert replaced.state == played.state
    strict = SeatEnv("vietnam", seed=1, illegal="raise")
    strict.reset()
    before = strict.state
    with pytest.raises(ba.SetupError, match="not a legal action"):
        strict.step(illegal)
    assert strict.state is before
    with pytest.raises(ba.SetupError, match="not a legal action"):
        env.step("bid 3")  # type: ignore[arg-type]


def test_seat_env_refuses_bad_arguments() -> None:
    with pytest.raises(ba.SetupError, match="seat"):
        SeatEnv("vietnam", seat=4)
    with pytest.raises(ba.SetupError, match="unknown bot"):
        SeatEnv("vietnam", bots="nobody")
    with pytest.raises(ba.SetupError, match="one per other seat"):
        SeatEnv("vietnam", bots=["random"])
    with pytest.raises(ba.SetupError, match="illegal"):
        SeatEnv("vietnam", illegal="ignore")
    with pytest.raises(ba.SetupError, match="game_seed"):
        SeatEnv("vietnam").reset(options={"seed": 1})


def test_self_play_env_plays_the_game_of_its_seed() -> None:
    """``reset(seed=S)`` plays the games of seeds game_seed(S, 0), game_seed(S, 1), ..."""
    env = SelfPlayEnv("vietnam")
    env.reset(seed=6)
    assert env.game_seed == game_seed(6, 0)
    env.reset()
    assert env.game_seed == game_seed(6, 1)
    env.reset(options={"game_seed": 99})
    assert env.game_seed == 99
    games = BatchGames(ba.variants.VIETNAM, 1, seeds=[99])
    assert env.state.dealer == games.dealer[0]
    dealt = [sum(1 << c.index for c in hand) for hand in env.state.hands]
    assert dealt == games.hands[0].tolist()


# --------------------------------------------------------- missing extra, example


def test_the_module_without_gymnasium_names_the_extra() -> None:
    program = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "import backalley\n"
        "try:\n"
        "    import backalley.batch.gym\n"
        "except backalley.SetupError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "pip install 'backalley[gym]'" in done.stdout and "gymnasium" in done.stdout


def test_the_batch_selfplay_example_prints_its_arrays_shapes() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--games", "16", "--steps", "40"],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    width = sum(s for _name, s in observation_layout(4, 2, Actions()))
    assert f"observations (40, 16, {width}) float32" in done.stdout
    assert "action_masks (40, 16, 76) bool" in done.stdout
    assert "actions (40, 16) int64" in done.stdout
    assert "rewards (40, 16) float32" in done.stdout
