"""Chance: every shuffle and random draw comes from the game's seed.

The generator is seeded from a text (``"backalley/<seed>/<what>"``, hashed by
:class:`random.Random` with SHA-512) and only ``getrandbits`` is used, with our
own Fisher-Yates shuffle, so the same seed gives the same game on every
machine and Python version.
"""

from __future__ import annotations

import random
import struct
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
    """The deck order of the ``deal_number``-th deal (thrown-in deals count).

    Each card gets a random 64-bit key (one ``getrandbits`` call for the whole
    deck) and the deck is sorted by key, ties (probability about 1e-16) broken by
    the card's index: a uniform shuffle, the same everywhere.
    """
    rng = _rng(seed, f"deal/{deal_number}")
    n = len(cards)
    keys = rng.getrandbits(64 * n).to_bytes(8 * n, "little")
    ranked = sorted(zip(struct.unpack(f"<{n}Q", keys), cards))
    return tuple(card for _key, card in ranked)


def draw(seed: int, what: str, n: int) -> int:
    """A random choice in ``range(n)`` named ``what`` (e.g. the first dealer)."""
    return _below(_rng(seed, what), n)


def random_seed() -> int:
    """A fresh seed for a game started without one."""
    return random.SystemRandom().getrandbits(63)
