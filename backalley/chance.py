"""Chance: every shuffle and random draw comes from the game's seed.

The random bits are SHAKE-256 output of a text naming the seed and the
purpose (``"backalley/<seed>/deal/<n>"``), so the same seed gives the same
game on every machine and every Python version, and each deal's shuffle can
be made on its own, without carrying a generator's state in the game state.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence

__all__ = [
    "SEED_LIMIT",
    "check_seed",
    "draw",
    "random_seed",
    "secure_seed",
    "shuffled",
    "sorted_by",
]

SEED_LIMIT = 2**64
"""Seeds are whole numbers with ``-SEED_LIMIT < seed < SEED_LIMIT``."""


def _bits(seed: int, what: str, words: int) -> tuple[int, ...]:
    """``words`` uniform 64-bit numbers for ``what`` in the game of ``seed``."""
    import hashlib  # on first use: loading OpenSSL's hashes is ~3 ms of ``import backalley``

    digest = hashlib.shake_256(f"backalley/{seed}/{what}".encode()).digest(8 * words)
    return struct.unpack(f"<{words}Q", digest)


def shuffled(seed: int, deal_number: int, cards: Sequence[int]) -> tuple[int, ...]:
    """The deck order of the ``deal_number``-th deal (thrown-in deals count).

    Each card gets a random 64-bit key and the deck is sorted by key (a tie,
    of probability about 1e-16, keeps the deck's order): a uniform shuffle.
    """
    import hashlib  # on first use (see _bits)

    n = len(cards)
    digest = hashlib.shake_256(f"backalley/{seed}/deal/{deal_number}".encode()).digest(8 * n)
    keys = struct.unpack(f"<{n}Q", digest)
    return sorted_by(keys, cards)


def sorted_by(keys: Sequence[int], cards: Sequence[int]) -> tuple[int, ...]:
    """``cards`` in the order of their ``keys`` (equal keys keep the cards' order)."""
    n = len(cards)
    order = sorted(range(n), key=keys.__getitem__)  # a stable sort of the positions
    if cards == tuple(range(n)):  # the cards are 0..n-1 (a full deck): the positions are the cards
        return tuple(order)
    return tuple(map(cards.__getitem__, order))


def draw(seed: int, what: str, n: int) -> int:
    """A uniform choice in ``range(n)`` named ``what`` (e.g. the first dealer)."""
    limit = (1 << 64) - (1 << 64) % n  # reject the top remainder: no bias
    for word in _bits(seed, what, 16):
        if word < limit:
            return word % n
    return _bits(seed, what, 1)[0] % n  # pragma: no cover - probability < 2**-900


def check_seed(seed: object) -> str | None:
    """Why ``seed`` is not a seed (``None`` when it is one)."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        return f"a seed is a whole number, not {type(seed).__name__}"
    if not -SEED_LIMIT < seed < SEED_LIMIT:
        return "a seed must be smaller than 2**64 in size"
    return None


def secure_seed() -> int:
    """A seed of 63 random bits from the operating system's generator.

    A game's seed decides every hand: a player who can guess it sees every
    card.  Small or predictable seeds (a counter, a time, 7) are found from
    one's own hand in well under a second, so a server dealing real games
    should draw each game's seed with this function (``new_game()`` without
    a seed does), and keep it secret until the game is over.
    """
    return random.SystemRandom().getrandbits(63)


def random_seed() -> int:
    """A fresh seed for a game started without one (:func:`secure_seed`)."""
    return secure_seed()
