"""Self-play data from many Back Alley games at once (trains nothing).

A :class:`backalley.batch.gym.BatchEnv` plays ``--games`` games in lock-step
(the batch engine); a uniformly random legal action is chosen for the seat
to act in every game, and each step's observations, action masks, actions,
rewards and terminations are kept in arrays of shape ``(steps, games, ...)``
- the data a self-play learner would read.  A game that ends starts anew on
the next step (Gymnasium's next-step autoreset), so the arrays are full.

By default 1,000 games of the first deal of the gamerules schedule (13 cards
each: 56 decisions), 60 steps - so every game ends once and starts anew -
about 170 MB of observations.

Run: ``python examples/batch_selfplay.py [--games 1000] [--steps 60] [--variant gamerules] [--deals 1]``
"""

from __future__ import annotations

import argparse
from typing import Any

try:
    import numpy as np

    from backalley import SetupError
    from backalley.batch.gym import BatchEnv
except (ImportError, ValueError) as missing:  # one line: which extra to install
    raise SystemExit(f"batch_selfplay.py: {missing}") from None


def collect(
    games: int = 1000,
    steps: int = 32,
    variant: str = "gamerules",
    deals: int | None = 3,
    seed: int = 7,
) -> dict[str, np.ndarray[Any, Any]]:
    """``steps`` steps of ``games`` games of random legal self-play: the arrays of what was seen and done."""
    env = BatchEnv(variant, num_envs=games, seed=seed, deals=deals)
    rng = np.random.default_rng(seed)
    obs, info = env.reset()
    width = obs.shape[1]
    data: dict[str, np.ndarray[Any, Any]] = {
        "observations": np.zeros((steps, games, width), np.float32),
        "action_masks": np.zeros((steps, games, env.actions.size), bool),
        "seats": np.zeros((steps, games), np.int64),
        "actions": np.zeros((steps, games), np.int64),
        "rewards": np.zeros((steps, games), np.float32),
        "terminated": np.zeros((steps, games), bool),
    }
    for t in range(steps):
        mask = info["action_mask"]
        # a uniformly random legal action per game (any action for a game
        # just over: the step ignores it and starts the game anew)
        actions = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)
        data["observations"][t] = obs
        data["action_masks"][t] = mask
        data["seats"][t] = info["seat"]
        data["actions"][t] = actions
        obs, rewards, terminated, _truncated, info = env.step(actions)
        data["rewards"][t] = rewards
        data["terminated"][t] = terminated
    env.close()
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--variant", default="gamerules")
    parser.add_argument("--deals", type=int, default=1, help="the schedule's first deals (0: all)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    try:
        data = collect(args.games, args.steps, args.variant, args.deals or None, args.seed)
    except SetupError as exc:
        raise SystemExit(f"batch_selfplay.py: {exc}") from None
    for name, array in data.items():
        print(f"{name} {array.shape} {array.dtype}")
    print(f"games over: {int(data['terminated'].sum())}")


if __name__ == "__main__":
    main()
