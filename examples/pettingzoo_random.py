"""Random agents play a Back Alley game in the PettingZoo environment.

Each agent samples a legal action from its action mask (in its info); the
rewards come per deal (the points its side scored), so their sum over the
game is the side's final score.

Run: ``python examples/pettingzoo_random.py``
"""

from __future__ import annotations

try:
    from backalley.adapters.backalley_v0 import env
except ModuleNotFoundError as missing:  # one line: which extra to install
    raise SystemExit(f"pettingzoo_random.py: {missing}") from None


def play(variant: str = "vietnam", seed: int = 7) -> dict[str, float]:
    """Play one game; returns each agent's total reward."""
    game = env(variant, render_mode="ansi")
    game.reset(seed=seed)
    game.action_space("player_0").seed(seed)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        _observation, reward, termination, truncation, info = game.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            action = game.action_space(agent).sample(info["action_mask"])
        game.step(action)
    print(game.unwrapped.render())
    print("total rewards:", totals)
    return totals


if __name__ == "__main__":
    play()
