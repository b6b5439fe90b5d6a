"""Back Alley as a PettingZoo AEC environment (the ``backalley[pettingzoo]`` extra).

The environment is named ``backalley_v0`` (its ``metadata["name"]``), as
PettingZoo names its own (``tictactoe_v3``): this module, like
``pettingzoo.classic.tictactoe_v3``, answers :func:`env` and :func:`raw_env`.
The version goes up when a change makes results not comparable (the
observations, actions or rewards).  :mod:`backalley.adapters.pettingzoo`, the
former name, still answers the same names, with a :class:`DeprecationWarning`.

``env("gamerules")`` returns an agent-environment-cycle environment with one
agent per seat (``player_0`` .. ``player_3``)::

    from backalley.adapters.backalley_v0 import env
    game = env("vietnam", render_mode="ansi")
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            action = None
        else:
            action = game.action_space(agent).sample(info["action_mask"])
        game.step(action)

- **Observations** are NumPy arrays: the seat's observation tensor (float32,
  laid out as :mod:`backalley.adapters.encoding` describes), in a ``Box``
  observation space whose bounds are each entry's (0 to 1; the scores, in
  hundreds of points, any float32).
- **Action masks** are in each agent's info (``info["action_mask"]``, as
  PettingZoo has it for array observations; also :meth:`BackAlleyEnv.action_mask`):
  int8, one entry per action id, 1 for the legal moves of the agent to act,
  all zero for the others.
- **Actions** are the ids of :class:`backalley.adapters.encoding.Actions`, the same as
  the OpenSpiel game's: cards 0..53 by index, then pass, bid 0..13, board,
  counter, trump C/D/H/S/NT.
- **Rewards** come per deal: when a deal is scored, every agent receives the
  points its side (its team, or itself in a cutthroat game) scored in it.
  A thrown-in deal scores nothing.  The episode ends with the game.
- **Chance** comes from the game's seed: ``reset(seed=s)`` replays the same
  game for the same actions.
- ``render_mode="ansi"``: :meth:`~BackAlleyEnv.render` returns a text table
  of the position.
- **Without the extra** (``pettingzoo``, ``gymnasium``, ``numpy``), importing
  this module raises :class:`ModuleNotFoundError` saying which extra to install.
- **Arguments** are checked as the OpenSpiel game checks its parameters
  (:mod:`backalley.adapters.checks`): ``deals`` is ``None`` or 1 up to the
  schedule's number of deals, ``render_mode`` ``None`` or ``"ansi"``; others
  raise :class:`~backalley.SetupError`, an unknown variant
  :class:`~backalley.UnknownVariantError`.
"""

from __future__ import annotations

from backalley.adapters._pettingzoo import BackAlleyEnv, env, raw_env, render_text

__all__ = ["BackAlleyEnv", "env", "raw_env", "render_text"]
