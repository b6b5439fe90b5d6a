"""Each batch game's chance, from a seed of its own.

A game of a batch has a seed (:func:`game_seed` of the batch's seed and the
game's place, or given); its first dealer (:func:`first_dealer`) and each of
its shuffles (:func:`deck_order`) come from that seed alone, through a 64-bit
mixing function, so a game deals the same in any batch and in the one-game
engine given the same deck orders (``new_game(decks=...)``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["deck_order", "first_dealer", "game_seed"]

U64 = np.ndarray[Any, np.dtype[np.uint64]]
Ints = np.ndarray[Any, np.dtype[np.intp]]
_MASK64 = (1 << 64) - 1


def _mix(x: U64) -> U64:
    """A 64-bit mixing of each number (SplitMix64's finaliser)."""
    x = x ^ (x >> np.uint64(30))
    x = x * np.uint64(0xBF58476D1CE4E5B9)
    x = x ^ (x >> np.uint64(27))
    x = x * np.uint64(0x94D049BB133111EB)
    out: U64 = x ^ (x >> np.uint64(31))
    return out


def game_seed(seed: int, game: int) -> int:
    """The seed of game number ``game`` of a batch with ``seed``."""
    return int(_mix(np.array([(seed * 0x9E3779B97F4A7C15 + game) & _MASK64], np.uint64))[0])


def first_dealer(seeds: U64, players: int) -> Ints:
    """Each game's first dealer, from its seed."""
    out: Ints = (_mix(seeds ^ np.uint64(0xD1B54A32D192ED03)) % np.uint64(players)).astype(np.intp)
    return out


def deck_order(seeds: U64, shuffles: Ints, deck: Ints) -> Ints:
    """``(games, cards)``: the deck order (card indices, top first) of
    shuffle number ``shuffles[i]`` (from 0, thrown-in deals counted) of the
    game with seed ``seeds[i]``, over the deck's cards ``deck``."""
    base = _mix(seeds * np.uint64(0x9E3779B97F4A7C15) + shuffles.astype(np.uint64))
    keys = _mix(base[:, None] + np.arange(1, len(deck) + 1, dtype=np.uint64)[None, :])
    out: Ints = deck[np.argsort(keys, axis=1)]  # 64-bit keys: no two alike in practice
    return out
