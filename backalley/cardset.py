"""Sets of cards: :class:`CardSet`, an immutable value a rule part reads and answers.

A hand, the cards a rule allows, the trumps of a deal: each is a
:class:`CardSet`.  It behaves as a set of :class:`~backalley.Card` (``in``,
iteration in card order, ``len``, ``&``, ``|``, ``^``, ``-``, ``~``,
:meth:`~CardSet.issubset` and :meth:`~CardSet.isdisjoint`; ``<`` and ``<=``
compare the backing integers, not subsets) and is backed by one integer, as python-chess's ``SquareSet`` is by
a bitboard: bit *i* holds the card whose index is *i* (see
:mod:`backalley.cards`), which is how the engine keeps hands.  A rule written
against :class:`CardSet` never needs to know that.

    >>> from backalley import CardSet, parse_card
    >>> hand = CardSet.of("QS 2H AH BJ".split())
    >>> parse_card("AH") in hand, len(hand)
    (True, 4)
    >>> str(hand & CardSet.suit_of(parse_card("2H").suit))
    '2H AH'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from backalley.cards import CARDS, Card, Suit, parse_card
from backalley.cards import Trump as Trump  # its home is backalley.cards; found here too
from backalley.errors import NotationError

__all__ = ["ALL_CARDS", "CardSet"]

_UNIVERSE = (1 << 54) - 1
_int_new = int.__new__


class CardSet(int):
    """An immutable set of cards (see the module's description).

    ``CardSet()`` is empty; ``CardSet.of(cards)`` holds the given cards (Card
    values or their text); ``CardSet(bits)`` is the set of an engine bit set.
    """

    __slots__ = ()

    def __new__(cls, bits: int = 0) -> CardSet:
        if not isinstance(bits, int) or isinstance(bits, bool):
            raise NotationError(
                f"a CardSet is built from an int bit set, not {bits!r} (use CardSet.of)"
            )
        if not 0 <= bits <= _UNIVERSE:
            raise NotationError(f"{bits!r} is not a set of the 54 card indices")
        return _int_new(cls, bits)

    @classmethod
    def of(cls, cards: Iterable[Card | str]) -> CardSet:
        """The set of ``cards`` (Card values, or card texts such as ``"QS"``)."""
        bits = 0
        for card in cards:
            bits |= 1 << (card if isinstance(card, Card) else parse_card(card)).index
        return _int_new(cls, bits)

    @classmethod
    def suit_of(cls, suit: Suit) -> CardSet:
        """The thirteen plain cards of ``suit``."""
        return _int_new(cls, 0x1FFF << (13 * suit.index))

    # set behaviour ------------------------------------------------------

    def __contains__(self, card: object) -> bool:
        if isinstance(card, Card):
            return bool(self >> card.index & 1)
        if isinstance(card, str):
            try:
                return bool(self >> parse_card(card).index & 1)
            except NotationError:
                return False
        return False

    def __iter__(self) -> Iterator[Card]:
        bits = int(self)
        while bits:
            low = bits & -bits
            yield CARDS[low.bit_length() - 1]
            bits ^= low

    def __len__(self) -> int:
        return self.bit_count()

    def __and__(self, other: int) -> CardSet:
        bits = int.__and__(self, other)
        return bits if bits is NotImplemented else _int_new(CardSet, bits)

    __rand__ = __and__

    def __or__(self, other: int) -> CardSet:
        bits = int.__or__(self, other)
        return bits if bits is NotImplemented else _int_new(CardSet, bits)

    __ror__ = __or__

    def __xor__(self, other: int) -> CardSet:
        bits = int.__xor__(self, other)
        return bits if bits is NotImplemented else _int_new(CardSet, bits)

    __rxor__ = __xor__

    def __sub__(self, other: int) -> CardSet:
        """The cards of this set that are not in ``other``."""
        if not isinstance(other, int):
            return NotImplemented
        return _int_new(CardSet, int.__and__(self, ~int(other)))

    def __rsub__(self, other: int) -> CardSet:
        if not isinstance(other, int):
            return NotImplemented
        return _int_new(CardSet, int(other) & ~int(self))

    def __invert__(self) -> CardSet:
        """Every card of the 54 not in this set."""
        return _int_new(CardSet, _UNIVERSE ^ int(self))

    def issubset(self, other: int) -> bool:
        return not int(self) & ~int(other)

    def isdisjoint(self, other: int) -> bool:
        return not int(self) & int(other)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, in card order (suits C D H S, 2 up to A, then LJ, BJ)."""
        return tuple(self)

    @property
    def bits(self) -> int:
        """The engine's bit set of these cards (bit *i*: the card of index *i*)."""
        return int(self)

    def __repr__(self) -> str:
        return f"CardSet.of({' '.join(map(str, self)).split()!r})"

    def __str__(self) -> str:
        return " ".join(map(str, self))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __reduce__(self) -> tuple[Any, ...]:
        return (CardSet, (int(self),))


ALL_CARDS = CardSet(_UNIVERSE)
"""All 54 cards."""
