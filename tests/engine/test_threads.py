"""States, rule sets and their plans are values safe to share between
threads: eight threads playing and replaying games on the same rule sets and
starting states reach exactly what one thread does."""

from __future__ import annotations

import contextlib
import random
import threading
from concurrent.futures import ThreadPoolExecutor

import backalley as ba
from backalley import lowlevel

VARIANTS = ("gamerules", "vietnam", "hook", "cutthroat-3")


def _play(
    rules: ba.RuleSet, start: ba.GameState, seed: int
) -> tuple[ba.GameState, tuple[ba.Move, ...]]:
    """A random game from ``start`` by ``apply``, then its moves replayed from a new game."""
    rng = random.Random(seed)
    state = start
    for _ in range(400):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))
        state.view(state.to_act or 0).legal_moves()
    again = ba.new_game(rules, seed=start.seed, dealer=start.first_dealer)
    for move in state.moves:
        again = again.apply(move)
    assert again == state
    out = lowlevel.playout(start, random.Random(seed).choice, decisions=400)
    return out, state.moves


def test_eight_threads_sharing_rule_sets_and_states_agree_with_one() -> None:
    jobs = [(name, seed) for name in VARIANTS for seed in range(6)]
    starts = {name: ba.new_game(ba.variants.get(name), seed=11) for name in VARIANTS}
    alone = [_play(ba.variants.get(name), starts[name], seed) for name, seed in jobs]
    barrier = threading.Barrier(8)

    def run(job: tuple[str, int]) -> tuple[ba.GameState, tuple[ba.Move, ...]]:
        name, seed = job
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(timeout=1)
        return _play(ba.variants.get(name), starts[name], seed)

    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(run, jobs))
    assert together == alone
