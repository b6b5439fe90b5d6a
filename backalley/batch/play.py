"""Whole batches played by a policy: :func:`run` and :func:`random_games`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from backalley.batch import compiled_tables as _tables
from backalley.batch.compiled_tables import Tables
from backalley.batch.engine import OVER, BatchGames
from backalley.batch.verify import verify
from backalley.errors import SetupError
from backalley.io.record import GameRecord
from backalley.rules.ruleset import RuleSet

__all__ = ["BatchResult", "Policy", "compile", "random_games", "run"]


def compile(rules: RuleSet | str, *, complete: bool = False) -> Tables:
    """The batch engine's tables of ``rules``: built once per rule set and
    kept, and checked on a sample of games replayed by the one-game engine
    (:mod:`backalley.batch.verify`); :class:`~backalley.RuleSetError` naming
    each part that declares no finite form, or whose declared form is not its
    rule.

    The bidding automaton is met up front within a budget
    (:data:`~backalley.batch.compiled_tables.CALL_BUDGET` calls asked of the plan), the
    rest as games reach it; ``complete=True`` meets all of it now (seconds
    for a once-around bidding over the 13..1..13 schedule), so that batches
    never wait on the plan for a call."""
    found = _tables.compile(rules)
    if complete and not found.complete:
        found.complete = found.calls.fill(1 << 62)
    if not found.verified:
        verify(found, BatchGames)
    return found


Policy = Callable[[BatchGames, np.ndarray[Any, Any], np.ndarray[Any, Any]], np.ndarray[Any, Any]]
"""A vectorised policy: given the batch, the games to act (indices) and their
legal actions ``(len(games), actions)``, one action per game."""


@attrs.frozen(slots=True, eq=False)
class BatchResult:
    """What a played batch gives: the final ``scores`` ``(n, sides)``, the
    number of ``decisions`` played, and the games as records (``None`` when
    not kept)."""

    scores: np.ndarray[Any, Any]
    decisions: int
    records: tuple[GameRecord, ...] | None = None


def uniform(games: BatchGames) -> Policy:
    """The policy that plays each legal action with equal probability (from the batch's generator)."""
    rng = games.rng

    def choose(
        batch: BatchGames, live: np.ndarray[Any, Any], legal: np.ndarray[Any, Any]
    ) -> np.ndarray[Any, Any]:
        # the k-th legal action of each game, k uniform below its number of legal actions
        width = int(np.flatnonzero(legal.any(axis=0))[-1]) + 1
        legal = legal[:, :width]
        count = np.count_nonzero(legal, axis=1)
        pick = (rng.random(len(count)) * count).astype(np.intp)
        running = np.cumsum(legal, axis=1, dtype=np.int16 if width > 120 else np.int8)
        out: np.ndarray[Any, Any] = (running > pick[:, None]).argmax(axis=1)
        return out

    return choose


def run(games: BatchGames, policy: Policy | None = None) -> BatchResult:
    """Play ``games`` to their end: each step, ``policy`` (uniformly random
    legal moves by default) chooses one action for every game not over."""
    if policy is None:
        every = np.arange(games.n)
        while True:
            over = games.phase == OVER
            live = every if not over.any() else np.flatnonzero(~over)
            if not len(live):
                break
            games.step_unchecked(live, games.random_actions(live))
        records = games.records() if games.keep_records else None
        return BatchResult(games.scores.copy(), games.decisions, records)
    choose = policy
    while True:
        live = np.flatnonzero(games.phase != OVER)
        if not len(live):
            break
        legal = games.legal()[live]
        actions = np.asarray(choose(games, live, legal), dtype=np.intp)
        if actions.shape != live.shape:
            raise SetupError(
                f"the policy must answer one action for each of the {len(live)} games to act, "
                f"not an array of shape {actions.shape}"
            )
        if not legal[np.arange(len(live)), np.clip(actions, 0, legal.shape[1] - 1)].all() or (
            (actions < 0).any() or (actions >= legal.shape[1]).any()
        ):
            raise SetupError("the policy answered an action that is not legal in its game")
        games.step_unchecked(live, actions)
    records = games.records() if games.keep_records else None
    return BatchResult(games.scores.copy(), games.decisions, records)


def random_games(
    rules: RuleSet | str, n: int, seed: int = 0, *, records: bool = True
) -> BatchResult:
    """``n`` games of ``rules`` played with uniformly random legal moves, in
    lock-step (``seed`` gives every shuffle and every move): the final scores
    ``(n, sides)``, the number of decisions, and with ``records`` every game
    as a :class:`~backalley.GameRecord`."""
    return run(BatchGames(rules, n, seed, records=records))
