"""Cards and their notation (see :ref:`rules-notation`).

A card is written rank + suit: ``2C`` … ``TC JC QC KC AC`` (``10C`` is
accepted as input too), suits ``C D H S``; the two jokers are ``BJ`` (the Big
Blooper) and ``LJ`` (the Little Blooper).

Every card also has a small integer *index* (0..53) used by the engine:
clubs 0..12, diamonds 13..25, hearts 26..38, spades 39..51 (each from 2 up to
the ace), then ``LJ`` = 52 and ``BJ`` = 53.  Card values are interned: there is
one object per card, so the engine can move between the two forms for free.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Iterator
from typing import Any

import attrs

from backalley.errors import NotationError

__all__ = [
    "BIG_JOKER",
    "CARDS",
    "Card",
    "LITTLE_JOKER",
    "Rank",
    "Suit",
    "Trump",
    "card_from_index",
    "cards_of_mask",
    "mask_of",
    "parse_card",
]


class Suit(enum.Enum):
    """The four suits, in the engine's order (clubs lowest index)."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    # members are singletons compared by identity: hash them as such (in C,
    # not through Enum's Python-level hash of the name), for the tables keyed by suit
    __hash__ = object.__hash__

    @property
    def letter(self) -> str:
        """The one-letter notation: ``C``, ``D``, ``H`` or ``S``."""
        return self.value

    @property
    def index(self) -> int:
        """0 for clubs, 1 diamonds, 2 hearts, 3 spades."""
        return _SUIT_INDEX[self]

    @property
    def plural(self) -> str:
        """The suit's name as a player says it: ``"hearts"``."""
        return self.name.lower()

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its letter, symbol or name (``"H"``, ``"♥"``, ``"hearts"``), any case."""
        if not isinstance(text, str):
            raise NotationError(f"a suit must be given as text, not {type(text).__name__}")
        key = ascii_notation(text).strip().upper()
        for suit in cls:
            if key in (suit.value, suit.name, suit.name[:-1]):
                return suit
        raise NotationError(f"{text!r} is not a suit; use one of C, D, H, S")


SUITS: tuple[Suit, ...] = tuple(Suit)
Trump = Suit | None
"""A deal's trump as the rules see it: a suit, or ``None`` for no trump suit."""
_SUIT_LETTERS = frozenset(suit.value for suit in SUITS)
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


class Rank(enum.IntEnum):
    """Card ranks; the jokers are ranks of their own, above the ace."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    LITTLE_JOKER = 15
    BIG_JOKER = 16

    @property
    def letter(self) -> str:
        """The rank's notation: ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``, ``LJ``, ``BJ``."""
        return _RANK_TEXT[self]

    @property
    def is_joker(self) -> bool:
        return self >= Rank.LITTLE_JOKER

    def __str__(self) -> str:
        return _RANK_TEXT[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """A plain rank from its notation (``"Q"``, ``"10"``, ``"T"``), any case."""
        if not isinstance(text, str):
            raise NotationError(f"a rank must be given as text like 'Q', not {type(text).__name__}")
        key = ascii_notation(text).strip().upper()
        rank = _RANK_PARSE.get(key)
        if rank is None or rank.is_joker:
            raise NotationError(f"{text!r} is not a rank; use 2-9, T (or 10), J, Q, K or A")
        return rank


PLAIN_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if not r.is_joker)
_RANK_TEXT = {r: str(r.value) for r in PLAIN_RANKS if r.value < 10}
_RANK_TEXT.update(
    {
        Rank.TEN: "T",
        Rank.JACK: "J",
        Rank.QUEEN: "Q",
        Rank.KING: "K",
        Rank.ACE: "A",
        Rank.LITTLE_JOKER: "LJ",
        Rank.BIG_JOKER: "BJ",
    }
)
_RANK_PARSE = {text: rank for rank, text in _RANK_TEXT.items()}
_RANK_PARSE["10"] = Rank.TEN


def _check_suit(instance: Card, attribute: Any, value: object) -> None:
    if not isinstance(instance.rank, Rank):
        raise NotationError(f"a card's rank must be a Rank, not {instance.rank!r}")
    if instance.rank.is_joker:
        if value is not None:
            raise NotationError(f"a joker has no suit, got {value!r}")
    elif not isinstance(value, Suit):
        raise NotationError(f"a {instance.rank.name.lower()} needs a Suit, got {value!r}")


def _index_of(rank: Rank, suit: Suit | None) -> int:
    """A card's index: 13 per suit (C D H S, 2 up to the ace), then LJ 52, BJ 53."""
    if suit is None:
        return 52 if rank is Rank.LITTLE_JOKER else 53
    if suit not in _SUIT_INDEX or not isinstance(rank, Rank):
        return -1  # not a card: the validators refuse it
    return 13 * _SUIT_INDEX[suit] + rank.value - 2


@functools.total_ordering
@attrs.frozen(slots=True, repr=False, order=False, cache_hash=True)
class Card:
    """One playing card: a plain card (rank and suit) or a joker (rank only).

    ``Card(Rank.QUEEN, Suit.SPADES)`` is the queen of spades; the jokers are
    ``Card(Rank.BIG_JOKER)`` and ``Card(Rank.LITTLE_JOKER)``.  ``str(card)`` is
    the canonical notation and :func:`parse_card` reads it back.
    """

    rank: Rank
    suit: Suit | None = attrs.field(default=None, validator=_check_suit)
    index: int = attrs.field(
        init=False,
        eq=False,
        hash=False,
        repr=False,
        default=attrs.Factory(lambda card: _index_of(card.rank, card.suit), takes_self=True),
    )
    """The engine's small-integer form of the card (0..53)."""
    is_joker: bool = attrs.field(
        init=False,
        eq=False,
        hash=False,
        repr=False,
        default=attrs.Factory(
            lambda card: card.rank is Rank.LITTLE_JOKER or card.rank is Rank.BIG_JOKER,
            takes_self=True,
        ),
    )
    """Whether the card is one of the two jokers (the Bloopers)."""

    def __str__(self) -> str:
        if self.suit is None:
            return self.rank.letter
        return self.rank.letter + self.suit.value

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        """Pickled as its index: unpickling gives the shared card."""
        return (card_from_index, (self.index,))


def _build() -> tuple[Card, ...]:
    cards = [Card(rank, suit) for suit in SUITS for rank in PLAIN_RANKS]
    cards.append(Card(Rank.LITTLE_JOKER))
    cards.append(Card(Rank.BIG_JOKER))
    return tuple(cards)


CARDS: tuple[Card, ...] = _build()
"""All 54 cards, in index order."""
_BY_TEXT: dict[str, Card] = {str(card): card for card in CARDS}
LITTLE_JOKER: Card = CARDS[52]
BIG_JOKER: Card = CARDS[53]
LJ_INDEX = 52
BJ_INDEX = 53
JOKERS_MASK = (1 << LJ_INDEX) | (1 << BJ_INDEX)


def card_from_index(index: int) -> Card:
    """The card with the engine index ``index`` (0..53)."""
    return CARDS[index]


_SYMBOLS = str.maketrans("♣♦♥♠♧♢♡♤", "CDHSCDHS")
"""The suit symbols (solid and outline) read as their letters."""


def ascii_notation(text: str) -> str:
    """``text`` with the suit symbols (``♣♦♥♠`` and ``♧♢♡♤``) written as their
    letters; any other character outside ASCII raises
    :class:`~backalley.NotationError` (so that, say, a long s or a Kelvin sign
    cannot pass for a letter once upper- or lower-cased)."""
    key = text.translate(_SYMBOLS)
    if not key.isascii():
        odd = next(ch for ch in key if not ch.isascii())
        raise NotationError(
            f"{text!r} has the character U+{ord(odd):04X}; notation is written in "
            "ASCII letters and digits (suits as C D H S, or the symbols ♣ ♦ ♥ ♠)"
        )
    return key


def parse_card(text: str | Card) -> Card:
    """Read a card from its notation: ``"QS"``, ``"10H"`` (= ``"TH"``), ``"BJ"``, ``"LJ"``;
    the suit may also be a symbol (``"Q♠"``, ``"10♡"``).

    Case and surrounding spaces are ignored.  Anything else raises
    :class:`~backalley.NotationError` (a :class:`ValueError`).
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise NotationError(f"a card must be given as text like 'QS', not {type(text).__name__}")
    key = ascii_notation(text).strip().upper()
    card = _BY_TEXT.get(key)
    if card is not None:
        return card
    if key.startswith("10") and len(key) == 3:
        card = _BY_TEXT.get("T" + key[2])
        if card is not None:
            return card
    raise NotationError(f"{text!r} is not a card; {_card_problem(key)}")


def _card_problem(key: str) -> str:
    """What is wrong with the card text ``key`` (upper case, ASCII): its rank,
    its suit, or its shape."""
    shape = "write rank then suit like 'QS', 'TH' or '10H', or 'BJ'/'LJ'"
    if not 2 <= len(key) <= 3:
        return shape
    rank_text, suit_text = key[:-1], key[-1]
    rank = _RANK_PARSE.get(rank_text)
    rank_ok = rank is not None and not rank.is_joker
    suit_ok = suit_text in _SUIT_LETTERS
    if rank_ok and not suit_ok:
        return f"{suit_text} is not a suit (C, D, H, S or ♣ ♦ ♥ ♠)"
    if suit_ok and not rank_ok:
        return f"{rank_text} is not a rank (2-9, T or 10, J, Q, K, A)"
    return shape


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Several cards: ``"AH 3C BJ"`` or an iterable of card texts."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(parse_card(item) for item in items)


def mask_of(cards: Iterable[Card]) -> int:
    """The bit set (an int) of some cards, bit ``card.index`` per card."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def indices_of_mask(mask: int) -> Iterator[int]:
    """The card indices in a bit set, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a bit set, in index order."""
    return tuple(CARDS[i] for i in indices_of_mask(mask))
