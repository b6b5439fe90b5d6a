"""Players for simulations and the command line.

A bot sees only a :class:`~backalley.PlayerView` and returns one of its legal
moves.  ``make_bot(name)`` builds a registered bot by name, so that the
command line (``--players``) and other programs can pick bots by text.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from backalley.errors import SetupError
from backalley.moves import Move
from backalley.views import PlayerView

__all__ = ["Bot", "RandomBot", "bot_names", "make_bot"]


class Bot(Protocol):
    """Anything that chooses a move from a view."""

    def choose(self, view: PlayerView) -> Move: ...


class RandomBot:
    """Plays a uniformly random legal move (reproducible from its seed)."""

    def __init__(self, seed: object = None) -> None:
        self._rng = random.Random(repr(seed) if seed is not None else None)

    def choose(self, view: PlayerView) -> Move:
        moves = view.legal_moves()
        if not moves:
            raise SetupError(f"seat {view.seat} has no legal move now")
        return moves[self._rng.randrange(len(moves))]


_BOTS: dict[str, Callable[[object], Bot]] = {"random": RandomBot}


def bot_names() -> tuple[str, ...]:
    return tuple(_BOTS)


def make_bot(name: str, seed: object = None) -> Bot:
    """A bot by name (see :func:`bot_names`)."""
    try:
        factory = _BOTS[name.strip().lower()]
    except KeyError:
        raise SetupError(f"unknown bot {name!r}; known bots: {', '.join(_BOTS)}") from None
    return factory(seed)
