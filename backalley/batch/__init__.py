"""Thousands of games at once, from a rule set compiled to tables.

Needs the ``batch`` extra (NumPy): ``pip install 'backalley[batch]'``.

- :func:`compile` (``batch.compile(rules)``): the rule set's tables and mask
  expressions (:class:`~backalley.batch.tables.Tables`), or
  :class:`~backalley.RuleSetError` naming each part that declares no finite
  form;
- :class:`BatchGames`: ``n`` games in lock-step, one action per game a step;
- :func:`random_games`: ``n`` games of uniformly random legal moves, their
  final scores, the number of decisions played and (``records=True``) every
  game as a :class:`~backalley.GameRecord`; :func:`run`: a batch played by a
  vectorised policy;
- :func:`observe`: the research adapters' observation tensor of one seat of
  every game, from the batch's arrays;
- :mod:`backalley.batch.gym` (the ``gym`` extra): Gymnasium environments.

The batch engine holds no rule of its own: it evaluates the tables and the
expressions the parts returned, and asks the rule set's plan once per deal
for what a deal's context gives (see :doc:`/architecture`).
"""

from __future__ import annotations

try:
    import numpy  # noqa: F401
except ImportError as exc:  # pragma: no cover - the extra is missing
    from backalley.errors import SetupError

    raise SetupError(
        "backalley.batch needs NumPy: pip install 'backalley[batch]' (or pip install numpy)"
    ) from exc

from backalley.batch.engine import BIDDING, NAMING, OVER, PLAYING, BatchGames
from backalley.batch.observe import observe
from backalley.batch.play import BatchResult, compile, random_games, run
from backalley.batch.tables import Tables

__all__ = [
    "BIDDING",
    "NAMING",
    "OVER",
    "PLAYING",
    "BatchGames",
    "BatchResult",
    "Tables",
    "compile",
    "observe",
    "random_games",
    "run",
]
