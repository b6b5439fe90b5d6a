"""Chance: the shuffle of a seed's deal is fixed for ever (the same cards on
every machine and Python version), however it is computed."""

from __future__ import annotations

import hashlib
import struct

from backalley import chance

DECK = tuple(range(54))


def _reference(seed: int, deal_number: int, cards: tuple[int, ...]) -> tuple[int, ...]:
    """The shuffle as specified: a SHAKE-256 key per card, a stable sort by key."""
    text = f"backalley/{seed}/deal/{deal_number}".encode()
    keys = struct.unpack(f"<{len(cards)}Q", hashlib.shake_256(text).digest(8 * len(cards)))
    return tuple(cards[i] for i in sorted(range(len(cards)), key=lambda i: keys[i]))


def test_the_shuffle_is_the_specified_one() -> None:
    assert chance.shuffled(7, 0, DECK)[:10] == (7, 11, 48, 21, 47, 2, 32, 16, 13, 23)
    for seed in (-(2**63), -1, 0, 1, 12345, 2**64 - 1):
        for deal in range(3):
            for cards in (DECK, DECK[:52], DECK[10:30]):
                assert chance.shuffled(seed, deal, cards) == _reference(seed, deal, cards)


def test_equal_keys_keep_the_cards_order() -> None:
    assert chance.sorted_by((5, 3, 5, 1), (10, 11, 12, 13)) == (13, 11, 10, 12)
    assert chance.sorted_by((9, 3, 7), (10, 11, 12)) == (11, 12, 10)
