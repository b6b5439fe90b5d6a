"""Chance: every shuffle and random draw comes from the game's seed.

The generator is seeded from a text (``"backalley/<seed>/<what>"``, hashed by
:class:`random.Random` with SHA-512) and only ``getrandbits`` is used, with our
own Fisher-Yates shuffle, so the same seed gives the same game on every
machine and Python version.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

__all__ = ["draw", "random_seed", "shuffled"]


def _rng(seed: int, what: str) -> random.Random:
    return random.Random(f"backalley/{seed}/{what}")


def _below(rng: random.Random, n: int) -> int:
    """A uniform integer in ``range(n)`` (rejection sampling on getrandbits)."""
    k = n.bit_length()
    while True:
        r = rng.getrandbits(k)
        if r < n:
            return r


def shuffled(seed: int, deal_number: int, cards: Sequence[int]) -> tuple[int, ...]:
    """The deck order of the ``deal_number``-th deal (thrown-in deals count)."""
    rng = _rng(seed, f"deal/{deal_number}")
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        j = _below(rng, i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def draw(seed: int, what: str, n: int) -> int:
    """A random choice in ``range(n)`` named ``what`` (e.g. the first dealer)."""
    return _below(_rng(seed, what), n)


def random_seed() -> int:
    """A fresh seed for a game started without one."""
    return random.SystemRandom().getrandbits(63)
