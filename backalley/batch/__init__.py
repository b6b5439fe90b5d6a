"""Thousands of games at once, from a rule set compiled to tables.

Needs the ``batch`` extra (NumPy): ``pip install 'backalley[batch]'``.

- :func:`compile` (``batch.compile(rules)``): the rule set's tables and mask
  expressions (:class:`~backalley.batch.compiled_tables.Tables`), or
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

Two modules have new names: ``backalley.batch.tables`` is
:mod:`backalley.batch.compiled_tables` and ``backalley.batch.chance`` is
:mod:`backalley.batch.seeds`.  The old names still answer as attributes of
this package (``from backalley.batch import chance``), with a
:class:`DeprecationWarning`.
"""

from __future__ import annotations

from types import ModuleType

try:
    import numpy  # noqa: F401
except ImportError as exc:  # pragma: no cover - the extra is missing
    from backalley.errors import SetupError

    raise SetupError(
        "backalley.batch needs NumPy: pip install 'backalley[batch]' (or pip install numpy)"
    ) from exc

from backalley.batch.compiled_tables import Tables
from backalley.batch.engine import BIDDING, NAMING, OVER, PLAYING, BatchGames
from backalley.batch.observe import observe
from backalley.batch.play import BatchResult, compile, random_games, run

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

_MOVED = {"tables": "compiled_tables", "chance": "seeds"}
"""The former names of modules of this package, and their names now."""


def __getattr__(name: str) -> ModuleType:
    """A module's former name (:data:`_MOVED`) answers the module under its
    new name, with a warning."""
    if name in _MOVED:
        import importlib
        import warnings

        new = f"{__name__}.{_MOVED[name]}"
        warnings.warn(
            f"{__name__}.{name} is deprecated: use {new} (the same module)",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(new)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
