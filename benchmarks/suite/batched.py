"""The batch engine's figures (``backalley.batch``, NumPy): per variant, the
time ``batch.compile`` takes to build and check its tables, the decisions/s of
``batch.random_games`` over N games in lock-step, and the bytes of a batch's
arrays per game.  Measured only where the measured tree has
``backalley.batch`` and NumPy is importable; a variant whose rule set
``batch.compile`` refuses is skipped, with the refusal's first line.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import backalley as ba
from suite import common

WARMUP_SEEDS = (10_000, 10_001)
"""The seeds of the two warm-up batches (the rounds use seeds 0, 1, ...)."""


def load_batch() -> tuple[ModuleType | None, str | None]:
    """``backalley.batch``, or ``None`` and why it cannot be imported (no
    NumPy, or a tree without the batch engine)."""
    try:
        from backalley import batch
    except (ImportError, ba.SetupError) as exc:
        return None, f"{type(exc).__name__}: {_first_line(str(exc))}"
    return batch, None


def _first_line(text: str) -> str:
    return text.splitlines()[0] if text else ""


def array_bytes(games: Any) -> int:
    """The bytes of the NumPy arrays a ``BatchGames`` object holds as attributes."""
    import numpy as np

    return sum(v.nbytes for v in vars(games).values() if isinstance(v, np.ndarray))


class BatchSubject:
    """One variant's batch figures prepared before the rounds: the compile
    time, two warm-up batches, the memory of a batch.

    The compiled tables are cached per rule set (by equality, as long as the
    rule set lives), so the compile is timed on a fresh rule set equal to the
    variant's (``rules.replace``): nothing compiled it before in this process
    (``compile_cached`` says if an equal one was), and its own plan has
    answered nothing yet.  That rule set is kept and played by the warm-ups
    and every round, so that they share the tables and the per-deal answers
    their batches remember.
    """

    def __init__(self, batch: ModuleType, name: str, rules: Any, games: int) -> None:
        self.name = name
        self.games = games
        self.batch = batch
        fresh = rules.replace(name=rules.name)
        t0 = common.clock()
        tables = batch.compile(fresh)  # raises RuleSetError for a rule set it cannot compile
        self.compile_s = common.clock() - t0
        self.compile_cached = tables.rules is not fresh
        self.rules = fresh
        self.warmup = [self.play(seed) for seed in WARMUP_SEEDS]
        batch_games = batch.BatchGames(fresh, games, 0, records=False)
        self.bytes = array_bytes(batch_games)

    def play(self, seed: int) -> dict[str, Any]:
        """One timed batch: ``batch.random_games(rules, N, seed=seed, records=False)``."""
        t0 = common.clock()
        res = self.batch.random_games(self.rules, self.games, seed=seed, records=False)
        dt = common.clock() - t0
        return {
            "decisions_per_s": res.decisions / dt,
            "games_per_s": self.games / dt,
            "decisions": res.decisions,
            "seconds": dt,
        }

    def figures(self) -> dict[str, Any]:
        """What the report and the JSON give of the preparation."""
        return {
            "games": self.games,
            "compile_s": self.compile_s,
            "compile_cached": self.compile_cached,
            "warmup_decisions_per_s": [w["decisions_per_s"] for w in self.warmup],
            "array_bytes": self.bytes,
            "bytes_per_game": self.bytes / self.games,
        }


def prepare(
    names: list[str], rules_of: dict[str, Any], games: int, log: Callable[..., None]
) -> tuple[dict[str, BatchSubject], dict[str, Any]]:
    """The batch subjects of the variants ``batch.compile`` accepts, and the
    section of the output that says what was measured and what was skipped
    (``available``, ``skipped``: why not at all; ``refused``: each refused
    variant's first line of the refusal, ``refused_problems``: the first line
    of each problem the refusal lists)."""
    section: dict[str, Any] = {
        "available": False,
        "skipped": None,
        "games": games,
        "warmup_seeds": list(WARMUP_SEEDS),
        "variants": [],
        "refused": {},
        "refused_problems": {},
    }
    batch, why = load_batch()
    if batch is None:
        section["skipped"] = why
        log(f"batch figures skipped: {why}")
        return {}, section
    section["available"] = True
    subjects: dict[str, BatchSubject] = {}
    for name in names:
        log(f"batch: compiling {name} and two warm-up batches of {games:,} games ...")
        try:
            subjects[name] = BatchSubject(batch, name, rules_of[name], games)
        except ba.RuleSetError as exc:
            section["refused"][name] = _first_line(str(exc)) or repr(exc)
            section["refused_problems"][name] = [_first_line(p) for p in exc.problems]
            log(f"batch: {name} refused: {section['refused'][name]}")
    section["variants"] = list(subjects)
    return subjects, section
