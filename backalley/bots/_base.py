"""The bot protocol and the random bot."""

from __future__ import annotations

import random
from typing import Protocol

from backalley.errors import SetupError
from backalley.moves import Move
from backalley.views import PlayerView

__all__ = ["Bot", "RandomBot", "rng_from_seed"]


class Bot(Protocol):
    """Anything that chooses a move from a view.

    A bot sees only a :class:`~backalley.PlayerView` - its own hand and the
    public history - and returns one of ``view.legal_moves()``.
    """

    def choose(self, view: PlayerView) -> Move: ...


def rng_from_seed(seed: object) -> random.Random:
    """A random generator reproducible from any seed value (``None``: fresh)."""
    return random.Random(repr(seed) if seed is not None else None)


class RandomBot:
    """Plays a uniformly random legal move (reproducible from its seed)."""

    def __init__(self, seed: object = None) -> None:
        self._rng = rng_from_seed(seed)

    def choose(self, view: PlayerView) -> Move:
        moves = view.legal_moves()
        if not moves:
            raise SetupError(f"seat {view.seat} has no legal move now")
        return moves[self._rng.randrange(len(moves))]
