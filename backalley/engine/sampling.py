"""Deprecated: drawing the hidden cards moved into the tools' one door,
:mod:`backalley.engine.lowlevel` (``lowlevel.sample_hands``,
``lowlevel.deck_for``, ``lowlevel.Draws``).  The names still answer here,
with a :class:`DeprecationWarning`."""

from __future__ import annotations

import warnings

from backalley.engine import lowlevel as _lowlevel

__all__: list[str] = []

_MOVED = frozenset({"Draws", "deck_for", "sample_hands"})


def __getattr__(name: str) -> object:
    if name in _MOVED:
        warnings.warn(
            f"backalley.engine.sampling.{name} is deprecated: use backalley.engine.lowlevel.{name}",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(_lowlevel, name)
    raise AttributeError(f"module 'backalley.engine.sampling' has no attribute {name!r}")
