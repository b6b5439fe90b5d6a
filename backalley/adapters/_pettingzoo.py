"""Back Alley as a PettingZoo AEC environment: the implementation of
:mod:`backalley.adapters.backalley_v0`, the environment's public (versioned)
module, whose docstring describes it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as exc:  # the extra is not installed: say which to install
    raise ModuleNotFoundError(
        "the PettingZoo adapter needs its extra: pip install 'backalley[pettingzoo]' "
        f"({exc.name} is missing)",
        name=exc.name,
    ) from None

from backalley.adapters.checks import first_deals
from backalley.adapters.encoding import (
    Actions,
    cards_text,
    encode,
    observation_layout,
    table_of_view,
)
from backalley.engine.setup import new_game
from backalley.engine.state import GameState
from backalley.errors import SetupError
from backalley.rules import RuleSet, Schedule
from backalley.variants import get as get_variant

__all__ = ["BackAlleyEnv", "env", "raw_env", "render_text"]


def env(
    variant: str | RuleSet = "gamerules",
    render_mode: str | None = None,
    *,
    deals: int | None = None,
) -> Any:
    """The environment of ``variant`` (a registered name or a :class:`~backalley.RuleSet`),
    wrapped in PettingZoo's order-enforcing wrapper.

    ``deals`` plays only the first ``deals`` deals of the schedule (the
    whole game by default).  Bad arguments are refused as :func:`raw_env` says.
    """
    return wrappers.OrderEnforcingWrapper(raw_env(variant, render_mode, deals=deals))


def raw_env(
    variant: str | RuleSet = "gamerules",
    render_mode: str | None = None,
    *,
    deals: int | None = None,
) -> BackAlleyEnv:
    """The environment without PettingZoo's wrappers.

    Raises :class:`~backalley.UnknownVariantError` for a ``variant`` that is
    neither a registered name nor a rule set, and :class:`~backalley.SetupError`
    for ``deals`` other than ``None`` or 1 up to the schedule's number of deals
    (the check the OpenSpiel game makes) or a ``render_mode`` other than
    ``None`` or ``"ansi"``.
    """
    rules = variant if isinstance(variant, RuleSet) else get_variant(variant)
    count = first_deals(deals, rules)
    if count is not None:
        sizes = rules.schedule.hand_sizes
        rules = rules.replace(schedule=Schedule(sizes[:count]), name=rules.name)
    return BackAlleyEnv(rules, render_mode)


def _bounds(
    layout: Sequence[tuple[str, int]],
) -> tuple[np.ndarray[Any, np.dtype[np.float32]], np.ndarray[Any, np.dtype[np.float32]]]:
    """The least and greatest value of each entry of the observation tensor:
    0 and 1 (one-hot entries, counts and fractions), and for the scores (in
    hundreds of points, unbounded by the rules) the float32 range."""
    biggest = float(np.finfo(np.float32).max)
    low: list[float] = []
    high: list[float] = []
    for name, size in layout:
        low += [-biggest if name == "scores" else 0.0] * size
        high += [biggest if name == "scores" else 1.0] * size
    return np.array(low, np.float32), np.array(high, np.float32)


def render_text(state: GameState) -> str:
    """A short text table of a position: every hand, the calls, the trick, the scores."""
    lines = [repr(state)]
    if not state.is_over:
        trump = "none" if state.trump is None else state.trump.plural
        turn = "-" if state.turn_up is None else str(state.turn_up)
        lines.append(f"dealer {state.dealer}   turn-up {turn}   trump {trump}")
        won = state.tricks_won
        for seat, hand in enumerate(state.hands):
            call = state.bids[seat]
            marks = ("*" if state.to_act == seat else " ") + ("D" if state.dealer == seat else " ")
            lines.append(
                f"{marks} seat {seat}: {cards_text(hand):<40} "
                f"call {'-' if call is None else call!s:<8} tricks {won[seat]}"
            )
        trick = " ".join(f"{seat}:{card}" for seat, card in state.trick)
        lines.append(f"trick: {trick or '-'}")
    lines.append(f"scores: {' '.join(map(str, state.scores))}")
    return "\n".join(lines)


class BackAlleyEnv(AECEnv):  # type: ignore[misc]
    """Back Alley for PettingZoo (see :mod:`backalley.adapters.backalley_v0`)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "backalley_v0",
        "is_parallelizable": False,
    }

    def __init__(self, rules: RuleSet, render_mode: str | None = None) -> None:
        """The environment of ``rules``; raises :class:`~backalley.SetupError`
        for ``rules`` that are not a rule set or an unknown ``render_mode``."""
        super().__init__()
        if not isinstance(rules, RuleSet):
            raise SetupError(f"rules must be a RuleSet, not {type(rules).__name__}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SetupError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.rules = rules
        self.render_mode = render_mode
        self.actions = Actions.for_rules(rules)
        n = rules.players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self.agents = self.possible_agents[:]
        size = sum(s for _name, s in observation_layout(n, len(rules.teams), self.actions))
        self._size = size
        self.action_spaces = {
            agent: gymnasium.spaces.Discrete(self.actions.size) for agent in self.possible_agents
        }
        low, high = _bounds(observation_layout(n, len(rules.teams), self.actions))
        self.observation_spaces = {
            agent: gymnasium.spaces.Box(low, high, (size,), np.float32)
            for agent in self.possible_agents
        }
        self._side = {seat: k for k, team in enumerate(rules.teams) for seat in team}
        self._rng = random.Random()
        self.state: GameState = new_game(rules, seed=self._rng.getrandbits(63))

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def _agent(self, seat: int) -> str:
        return self.possible_agents[seat]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (from ``seed``, or the environment's own generator)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = new_game(self.rules, seed=self._rng.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        seat = self.state.to_act
        assert seat is not None
        self.agent_selection = self._agent(seat)
        self._tell_masks()

    def observe(self, agent: str) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The observation tensor of ``agent``'s seat (float32)."""
        view = self.state.view(self._seat(agent))
        observation = np.zeros(self._size, np.float32)
        encode(table_of_view(view), self.actions, observation)
        return observation

    def action_mask(self, agent: str) -> np.ndarray[Any, np.dtype[np.int8]]:
        """1 for each action id ``agent`` may take now, else 0 (int8): all zero
        for an agent that is not to act."""
        mask = np.zeros(self.actions.size, np.int8)
        seat = self._seat(agent)
        if self.state.to_act == seat:  # no other seat has a legal move
            for move in self.state.view(seat).legal_moves():
                mask[self.actions.id_of(move)] = 1
        return mask

    def _tell_masks(self) -> None:
        """Each agent's info holds its action mask (see :meth:`action_mask`)."""
        for agent in self.agents:
            self.infos[agent] = {"action_mask": self.action_mask(agent)}

    def step(self, action: Any) -> None:
        """Play ``action`` (an action id) for the agent to act.

        Raises :class:`~backalley.IllegalMoveError` for a move the rules refuse
        (the environment is left as it was).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self.actions.move_of(action)
        before = self.state
        after = before.apply(move)
        self.state = after
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        if after.deals_played > before.deals_played:
            points = after.deal_results[-1].points
            for a in self.agents:
                self.rewards[a] = points[self._side[self._seat(a)]]
        if after.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            seat = after.to_act
            assert seat is not None
            self.agent_selection = self._agent(seat)
        self._tell_masks()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The position as text (``render_mode="ansi"``); ``None`` without a render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        return render_text(self.state)

    def close(self) -> None:
        """Nothing to release."""
