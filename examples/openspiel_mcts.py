"""OpenSpiel's MCTS bot plays Back Alley through ``backalley.adapters.openspiel``.

Seat 0 is an MCTS bot with random rollouts; seats 1-3 play uniformly at
random.  The game is one 3-card deal of the gamerules game (a custom rule
set) so that the search is quick.  Note that OpenSpiel's MCTS searches the
true state: it sees every hand, so it shows the API, not fair play.

Run: ``python examples/openspiel_mcts.py``
"""

from __future__ import annotations

import backalley as ba

try:
    import numpy as np
    from open_spiel.python.algorithms import mcts

    from backalley.adapters.openspiel import load_game
except ModuleNotFoundError as missing:  # one line: which extra to install
    raise SystemExit(
        f"openspiel_mcts.py: needs the extra: pip install 'backalley[openspiel]' "
        f"({missing.name} is missing)"
    ) from None


def play(seed: int = 1, simulations: int = 60) -> object:
    """Play one game; returns the final OpenSpiel state."""
    rules = ba.variants.GAMERULES.replace(schedule=ba.rules.Schedule((3,)))
    game = load_game(rules, dealer=0)
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=simulations,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        random_state=rng,
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        elif state.current_player() == 0:
            action = bot.step(state)
            print(f"seat 0 (MCTS): {state.action_to_string(0, action)}")
            state.apply_action(action)
        else:
            player = state.current_player()
            action = int(rng.choice(state.legal_actions()))
            print(f"seat {player}: {state.action_to_string(player, action)}")
            state.apply_action(action)
    print("returns per seat:", state.returns())
    return state


if __name__ == "__main__":
    play()
