"""Moves and their text form.

Canonical text: ``pass``, ``bid N``, ``board``, ``counter``
(``double``, ``triple`` and ``quadruple`` read as it too), ``counter xK`` (a
direct counter to the multiplier ``K``), ``trump X`` (``X`` one
of ``C D H S``, or ``NT`` where the rules allow no trump), ``play QS`` (a bare
card ``QS`` reads as a play).  Suits may be written as symbols in input
(``play Q♠``, ``trump ♥``); the canonical text stays ASCII.  ``parse_move(str(m)) == m`` for every move.
"""

from __future__ import annotations

from typing import Any, ClassVar, Union

import attrs

from backalley.cards import CARDS, Card, Suit, ascii_notation, parse_card
from backalley.errors import NotationError
from backalley.reprs import fields_repr

__all__ = [
    "Bid",
    "BoardBid",
    "Counter",
    "Move",
    "NameTrump",
    "Pass",
    "Play",
    "parse_move",
]


@attrs.frozen(slots=True, cache_hash=True, repr=False)
class Pass:
    """Decline to bid: once around the table it counts as a bid of 0 tricks;
    in an auction it lets the call go by (see :ref:`rules-bidding`)."""

    __repr__ = fields_repr

    kind: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"

    def __reduce__(self) -> Any:
        return (_word, ("pass",))


def _check_bid(instance: Bid, attribute: Any, value: Any) -> None:
    if type(value) is not int:
        raise NotationError(f"a bid is a whole number of tricks, not {value!r}")
    if value < 0:
        raise NotationError(f"a bid cannot be negative, got {value}")
    if value > MAX_BID:
        raise NotationError(f"a bid of more than {MAX_BID} tricks is far more than any hand holds")


MAX_BID = 999
"""The highest bid a :class:`Bid` may hold (its text has at most three digits)."""


@attrs.frozen(slots=True, cache_hash=True, repr=False)
class Bid:
    """Bid a number of tricks; in an auction, more than any number announced
    so far (see :ref:`rules-bidding`)."""

    __repr__ = fields_repr

    tricks: int = attrs.field(validator=_check_bid)
    kind: ClassVar[str] = "bid"

    def __str__(self) -> str:
        return f"bid {self.tricks}"

    def __reduce__(self) -> Any:
        return (bid, (self.tricks,))


@attrs.frozen(slots=True, cache_hash=True, repr=False)
class BoardBid:
    """Claim that one's side will take every trick of the deal (see :ref:`rules-board`)."""

    __repr__ = fields_repr

    kind: ClassVar[str] = "board"

    def __str__(self) -> str:
        return "board"

    def __reduce__(self) -> Any:
        return (_word, ("board",))


def _check_multiplier(instance: Counter, attribute: Any, value: Any) -> None:
    if value is not None and (type(value) is not int or not 2 <= value <= 99):
        raise NotationError(f"a counter's multiplier is a whole number 2..99, not {value!r}")


@attrs.frozen(slots=True, cache_hash=True, repr=False)
class Counter:
    """Take over the other side's contract at the next multiplier: double,
    then triple, then quadruple (see :ref:`rules-counters`).

    ``Counter(k)`` (text ``counter xK``) names the multiplier directly, for
    auctions whose counter is one call of double, triple or quadruple
    (``counter_style = direct``, see :ref:`rules-literal-auction`)."""

    __repr__ = fields_repr

    multiplier: int | None = attrs.field(default=None, validator=_check_multiplier)
    kind: ClassVar[str] = "counter"

    def __str__(self) -> str:
        return "counter" if self.multiplier is None else f"counter x{self.multiplier}"

    def __reduce__(self) -> Any:
        if self.multiplier is None:
            return (_word, ("counter",))  # the shared step counter
        return (Counter, (self.multiplier,))


def _check_suit(instance: NameTrump, attribute: Any, value: Any) -> None:
    if value is not None and not isinstance(value, Suit):
        raise NotationError(f"trump is named with a Suit (or None for no trump), not {value!r}")


@attrs.frozen(slots=True, cache_hash=True, repr=False)
class NameTrump:
    """The declarer of an auction names the trump suit; ``None`` is no trump
    (see :ref:`rules-trump`)."""

    __repr__ = fields_repr

    suit: Suit | None = attrs.field(validator=_check_suit)
    kind: ClassVar[str] = "trump"

    def __str__(self) -> str:
        return f"trump {self.suit.value if self.suit is not None else 'NT'}"


def _check_card(instance: Play, attribute: Any, value: Any) -> None:
    if not isinstance(value, Card):
        raise NotationError(f"a play needs a Card (see parse_card), not {value!r}")


@attrs.frozen(slots=True, cache_hash=True, repr=False)
class Play:
    """Play a card to the current trick (see :ref:`rules-follow`)."""

    __repr__ = fields_repr

    card: Card = attrs.field(validator=_check_card)
    kind: ClassVar[str] = "play"

    def __str__(self) -> str:
        return f"play {self.card}"

    def __reduce__(self) -> Any:
        return (_play, (self.card.index,))


Move = Union[Pass, Bid, BoardBid, Counter, NameTrump, Play]  # noqa: UP007 - a runtime alias on 3.10
"""Any move a player can make."""

MOVE_TYPES: tuple[type, ...] = (Pass, Bid, BoardBid, Counter, NameTrump, Play)

PASS = Pass()
BOARD = BoardBid()
COUNTER = Counter()
PLAYS: tuple[Play, ...] = tuple(Play(card) for card in CARDS)
"""The play of each card, by card index (shared values for the engine)."""
_BIDS: tuple[Bid, ...] = tuple(Bid(n) for n in range(64))


def _word(word: str) -> Move:
    """The shared move of a word (how a pickle refers to one)."""
    return _WORDS[word]


def _play(index: int) -> Play:
    """The shared play of card ``index`` (how a pickle refers to one)."""
    return PLAYS[index]


def bid(tricks: int) -> Bid:
    """A (shared) ``Bid(tricks)``."""
    return _BIDS[tricks] if 0 <= tricks < 64 else Bid(tricks)


_WORDS: dict[str, Move] = {
    "pass": PASS,
    "board": BOARD,
    "counter": COUNTER,
    "double": COUNTER,
    "triple": COUNTER,
    "quadruple": COUNTER,
}


def _looks_like_a_card(word: str) -> bool:
    """Whether a word that is no move was meant as a card: two or three
    characters, with a rank or a suit letter where a card has one."""
    if not 2 <= len(word) <= 3:
        return False
    return word[-1] in "cdhs" or word[:-1] in _RANK_WORDS


_RANK_WORDS = frozenset({"2", "3", "4", "5", "6", "7", "8", "9", "10", "t", "j", "q", "k", "a"})


def parse_move(text: str) -> Move:
    """Read a move from its text (see the module docstring).

    Case and extra spaces are ignored.  Raises
    :class:`~backalley.NotationError` for anything that is not a move.
    """
    if isinstance(text, MOVE_TYPES):
        return text  # type: ignore[return-value]
    if not isinstance(text, str):
        raise NotationError(f"a move must be given as text like 'bid 3', not {type(text).__name__}")
    given = ascii_notation(text).strip().split()
    words = [word.lower() for word in given]
    if not words:
        raise NotationError("an empty text is not a move")
    head, rest = words[0], words[1:]
    if head in _WORDS and not rest:
        return _WORDS[head]
    if head == "counter" and len(rest) == 1 and rest[0][:1] == "x":
        k = rest[0][1:]
        if k.isascii() and k.isdigit() and len(k) <= 2 and int(k) >= 2:
            return Counter(int(k))
        raise NotationError(f"{text!r}: a direct counter is 'counter x2' .. 'counter x99'")
    if head == "bid" and len(rest) == 1:
        if rest[0].isascii() and rest[0].isdigit():
            if len(rest[0]) > 3:
                raise NotationError(f"{text!r}: {rest[0]} tricks is far more than any hand holds")
            return bid(int(rest[0]))
        raise NotationError(f"{text!r}: a bid needs a number of tricks, like 'bid 3'")
    if head == "trump" and len(rest) == 1:
        if rest[0] in ("nt", "none", "notrump"):
            return NameTrump(None)
        return NameTrump(Suit.parse(rest[0]))
    if head == "play" and len(rest) == 1:
        return PLAYS[parse_card(given[1]).index]
    if len(words) == 1:
        try:
            return PLAYS[parse_card(given[0]).index]
        except NotationError as exc:
            if _looks_like_a_card(head):
                raise NotationError(f"{text!r} is not a move: {exc}") from None
    raise NotationError(
        f"{text!r} is not a move; write 'pass', 'bid N', 'board', 'counter', 'trump S' or 'play QS'"
    )
