"""The bidding as an automaton: the rule set's bidding tree in arrays.

Each point of a bidding is a state, numbered; a state holds the seat to
speak, the legal calls (as action ids) and the state after each call.  A
complete bidding is an *outcome* (the bidding part's
:class:`~backalley.values.BiddingOutcome`), numbered apart, with what the
batch engine reads of it in arrays: whether the deal is thrown in, the board
bidders, the declarer.

Every answer comes from the rule set's plan - its bidding tree asks the
bidding part and checks the answers - so the automaton holds no rule of its
own.  Two points of a bidding are one state when the bidding part declares
that the rest of the bidding reads the same of them (its ``state_key``,
:class:`~backalley.rules.protocols.KeyedBiddingStates`, trusted only from the
class that decides); without it each sequence of calls is a state of its
own.  :meth:`CallAutomaton.fill` meets every state up front (the compile
step) within a budget; beyond it, a call not met yet asks the plan when a
game first makes it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

from backalley.adapters.encoding import Actions
from backalley.errors import RuleSetError
from backalley.moves import Move
from backalley.rules import declared
from backalley.rules.context import BiddingContext
from backalley.rules.plan import CHECK_KEYS, Plan
from backalley.values import BiddingOutcome

__all__ = ["UNKNOWN", "CallAutomaton", "outcome_of"]

UNKNOWN = -1
"""The state after a call not met yet."""

_tuple = tuple.__new__


def outcome_of(state: np.ndarray[Any, np.dtype[np.intp]]) -> np.ndarray[Any, np.dtype[np.intp]]:
    """The outcome numbers of closed states (state numbers below -1)."""
    out: np.ndarray[Any, np.dtype[np.intp]] = -state - 2
    return out


class CallAutomaton:
    """The bidding tree of one rule set in arrays (see the module's description).

    - :attr:`after` ``(states, actions)``: the open state after a call
      (``>= 0``), ``-2 - outcome`` once the call ends the bidding,
      :data:`UNKNOWN` if not met yet;
    - :attr:`legal` ``(states, actions)``; :attr:`speaker` ``(states,)``;
    - per outcome: :attr:`thrown_in`, :attr:`board` ``(outcomes, players)``,
      :attr:`declarer` (-1: none), and :attr:`outcomes` themselves.
    """

    def __init__(self, plan: Plan, actions: Actions) -> None:
        self._plan = plan
        self._tree = plan.call_tree
        self._actions = actions
        self._key: Callable[[BiddingContext], Hashable] | None = declared.state_key(plan.rules)
        self._contexts: list[BiddingContext] = []
        self._states: dict[Hashable, int] = {}
        self._roots: dict[tuple[int, int], int] = {}
        self.outcomes: list[BiddingOutcome] = []
        self._outcome_ids: dict[BiddingOutcome, int] = {}
        size = actions.size
        players = plan.players
        self.after = np.full((64, size), UNKNOWN, np.int32)
        self.legal = np.zeros((64, size), dtype=bool)
        self.speaker = np.zeros(64, dtype=np.intp)
        self.thrown_in = np.zeros(16, dtype=bool)
        self.board = np.zeros((16, players), dtype=bool)
        self.declarer = np.full(16, -1, dtype=np.intp)
        self._moves: list[dict[int, Move]] = []

    @property
    def states(self) -> int:
        """How many open states have been met."""
        return len(self._contexts)

    def context(self, state: int) -> BiddingContext:
        """The calls of the first bidding met at an open state."""
        return self._contexts[state]

    def root(self, hand_size: int, first: int) -> int:
        """The state before any call of a deal of ``hand_size`` cards, seat
        ``first`` to speak first."""
        found = self._roots.get((hand_size, first))
        if found is None:
            plan = self._plan
            ctx = BiddingContext(hand_size, plan.players, first, (), plan.teams, plan.seat_teams)
            found = self._roots[(hand_size, first)] = self._meet(ctx)
        return found

    def fill(self, budget: int) -> bool:
        """Meet every state and outcome reachable from the roots met so far,
        asking the plan at most ``budget`` times; whether every one was met."""
        queue = deque(range(self.states))
        asked = 0
        while queue:
            state = queue.popleft()
            for action in self._moves[state]:
                if self.after[state, action] != UNKNOWN:
                    continue
                if asked >= budget:
                    return False
                before = self.states
                self._expand(state, action)
                asked += 1
                queue.extend(range(before, self.states))
        return True

    def step(
        self,
        states: np.ndarray[Any, np.dtype[np.intp]],
        actions: np.ndarray[Any, np.dtype[np.intp]],
    ) -> np.ndarray[Any, np.dtype[np.int32]]:
        """The state after each game's call (each legal in its state)."""
        out: np.ndarray[Any, np.dtype[np.int32]] = self.after[states, actions]
        missing = np.flatnonzero(out == UNKNOWN)
        for i in missing.tolist():
            state, action = int(states[i]), int(actions[i])
            known = int(self.after[state, action])
            out[i] = known if known != UNKNOWN else self._expand(state, action)
        return out

    # ------------------------------------------------------------- growing

    def _expand(self, state: int, action: int) -> int:
        hand_size, players, first, calls, teams, seat_teams = self._contexts[state]
        move = self._moves[state][action]
        ctx = _tuple(BiddingContext, (hand_size, players, first, (*calls, move), teams, seat_teams))
        found = self._meet(ctx)
        self.after[state, action] = found
        return found

    def _meet(self, ctx: BiddingContext) -> int:
        """The state (or closed state) of the bidding ``ctx``."""
        key: Hashable = ctx if self._key is None else (ctx.hand_size, ctx.first, self._key(ctx))
        found = self._states.get(key)
        if found is not None:
            if CHECK_KEYS and self._key is not None:
                self._check(found, ctx)
            return found
        answers = self._tree.answers_at(ctx)
        if answers.open:
            found = self._add(ctx, answers.legal)
        else:
            found = -2 - self._outcome(self._tree.outcome(ctx))
        self._states[key] = found
        return found

    def _check(self, found: int, ctx: BiddingContext) -> None:
        """In the checking mode: the bidding ``ctx`` answers as the state its key names."""
        answers = self._tree.answers_at(ctx)
        if found >= 0:
            same = answers.open and set(answers.legal) == set(self._moves[found].values())
        else:
            same = not answers.open and self._tree.outcome(ctx) == self.outcomes[-found - 2]
        if not same:
            name = declared.part_class_name(self._plan.rules, "bidding")
            raise RuleSetError(
                [
                    f"bidding: {name}.state_key gives the bidding after "
                    f"{', '.join(map(str, ctx.calls)) or 'no call'} the key of another one, "
                    f"but {name} answers it differently"
                ]
            )

    def _add(self, ctx: BiddingContext, legal: tuple[Move, ...]) -> int:
        state = len(self._contexts)
        if state >= len(self.speaker):
            grow = len(self.speaker)
            self.after = np.concatenate(
                [self.after, np.full((grow, self.after.shape[1]), UNKNOWN, np.int32)]
            )
            self.legal = np.concatenate([self.legal, np.zeros((grow, self.legal.shape[1]), bool)])
            self.speaker = np.concatenate([self.speaker, np.zeros(grow, np.intp)])
        self._contexts.append(ctx)
        self.speaker[state] = ctx.seat
        id_of = self._actions.id_of
        moves = {}
        for move in legal:
            action = id_of(move)
            self.legal[state, action] = True
            moves[action] = move
        self._moves.append(moves)
        return state

    def _outcome(self, outcome: BiddingOutcome) -> int:
        number = self._outcome_ids.get(outcome)
        if number is not None:
            return number
        number = self._outcome_ids[outcome] = len(self.outcomes)
        self.outcomes.append(outcome)
        if number >= len(self.declarer):
            grow = len(self.declarer)
            self.thrown_in = np.concatenate([self.thrown_in, np.zeros(grow, bool)])
            self.board = np.concatenate([self.board, np.zeros((grow, self.board.shape[1]), bool)])
            self.declarer = np.concatenate([self.declarer, np.full(grow, -1, np.intp)])
        self.thrown_in[number] = outcome.thrown_in
        for seat in outcome.board_bidders:
            self.board[number, seat] = True
        self.declarer[number] = -1 if outcome.declarer is None else outcome.declarer
        return number
