"""Reading and writing plain data: the shared helpers of every document
(paths in error messages, numbers, lists, objects, cards, moves, suits)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from backalley.cards import CARDS, Card, Suit, parse_card
from backalley.chance import check_seed
from backalley.errors import NotationError, RuleSetError, SerializationError
from backalley.moves import Move, parse_move
from backalley.values import Phase

FORMAT_VERSION = 1
"""The version of every document format written by this library."""


MAX_NUMBER = 2**53 - 1
"""The largest size of a number in a document (besides a seed): every JSON
reader keeps whole numbers up to this exactly."""

MAX_DOCUMENT_SIZE = 16_000_000
"""The largest JSON text :func:`~backalley.from_json` reads, in characters or bytes."""


class RulesDocumentError(SerializationError, RuleSetError):
    """A rule set in a document whose parts do not fit together: both a
    :class:`~backalley.SerializationError` (with the path of the rule set) and
    a :class:`~backalley.RuleSetError` (with the problems)."""

    def __init__(self, problems: Any, path: str = "$") -> None:
        self.problems = tuple(problems)
        self.path = path
        self.message = "; ".join(self.problems)
        Exception.__init__(self, f"{path}: {self.message}" if path else self.message)

    def __reduce__(self) -> Any:
        return (type(self), (self.problems, self.path))


Pending = list[tuple[dict[Any, Any], int, Any, Any]]
"""Cache entries waiting for their document to load: (cache, size limit, key, value)."""

CACHE_KEY_LIMIT = 4096
"""The longest input (as its ``repr``) a cache keeps: valid parts are far shorter."""


def _remember(pending: Pending) -> None:
    """Put a loaded document's parts in their caches (only once it has loaded)."""
    for cache, limit, key, value in pending:
        if len(cache) >= limit:
            cache.clear()
        cache[key] = value


def _fail(path: str, message: str) -> SerializationError:
    return SerializationError(message, path)


def _expect(value: Any, kind: type | tuple[type, ...], path: str, what: str) -> Any:
    if isinstance(value, bool) and kind is not bool and (kind is int or kind == (int,)):
        raise _fail(path, f"expected {what}, got {json.dumps(value)}")
    if not isinstance(value, kind):
        raise _fail(path, f"expected {what}, got {_show(value)}")
    return value


def _show(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def _int(value: Any, path: str, low: int | None = None, high: int | None = None) -> int:
    """A whole number in ``low..high`` (each bound at most :data:`MAX_NUMBER` in size)."""
    if type(value) is not int:
        raise _fail(path, f"expected a whole number, got {_show(value)}")
    lo = -MAX_NUMBER if low is None else low
    hi = MAX_NUMBER if high is None else high
    if not lo <= value <= hi:
        shown = value if -MAX_NUMBER <= value <= MAX_NUMBER else "the number"
        raise _fail(path, f"{shown} is out of range {lo}..{hi}")
    return value


def _seed(value: Any, path: str) -> int:
    """A game's seed: a whole number smaller than 2**64 in size."""
    if type(value) is not int:
        raise _fail(path, f"expected a whole number, got {_show(value)}")
    why = check_seed(value)
    if why is not None:
        raise _fail(path, why)
    return value


def _list(value: Any, path: str, what: str = "a list") -> list[Any]:
    if not isinstance(value, list):
        raise _fail(path, f"expected {what}, got {_show(value)}")
    return value


def _object(value: Any, path: str, keys: Mapping[str, bool], what: str) -> dict[str, Any]:
    """A JSON object with the given keys (``True``: required); unknown keys are refused."""
    if not isinstance(value, dict):
        raise _fail(path, f"expected {what} (an object), got {_show(value)}")
    for key in value:
        if key not in keys:
            known = ", ".join(keys)
            raise _fail(f"{path}.{key}", f"unknown key {key!r} in {what}; known keys: {known}")
    for key, required in keys.items():
        if required and key not in value:
            raise _fail(f"{path}.{key}", f"missing key {key!r} in {what}")
    return value


CARD_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)
"""Each card's canonical text, by card index."""
_CARD_OF_TEXT: dict[str, Card] = {str(c): c for c in CARDS}
_INDEX_OF_TEXT: dict[str, int] = {str(c): c.index for c in CARDS}
_MOVE_OF_TEXT: dict[str, Move] = {}
"""Moves already read, by their canonical text (moves are immutable values)."""
_MOVE_LIMIT = 4096


def _card(value: Any, path: str) -> Card:
    card = _CARD_OF_TEXT.get(value) if type(value) is str else None
    if card is not None:
        return card
    if not isinstance(value, str):
        raise _fail(path, f'expected a card like "QS", got {_show(value)}')
    try:
        return parse_card(value)
    except NotationError as exc:
        raise _fail(path, str(exc)) from None


def _cards(value: Any, path: str) -> tuple[Card, ...]:
    return tuple(map(CARDS.__getitem__, _card_indices(value, path)))


def _card_indices(value: Any, path: str) -> tuple[int, ...]:
    """The card indices of a list of cards (canonical texts: one lookup each)."""
    items = _list(value, path)
    try:
        indices = tuple(map(_INDEX_OF_TEXT.get, items))
    except TypeError:  # an unhashable item: read one by one for the error
        indices = (None,)
    if None in indices:  # (ints compared with None: no Python-level __eq__)
        return tuple(_card(v, f"{path}[{i}]").index for i, v in enumerate(items))
    return indices  # type: ignore[return-value]


def _index_bits(indices: tuple[int, ...], path: str) -> int:
    """The bit set of card indices; a card given twice is refused."""
    mask = 0
    for i in indices:
        mask |= 1 << i
    if mask.bit_count() != len(indices):
        return _bits(tuple(CARDS[i] for i in indices), path)  # raises, naming the card
    return mask


_BIT: tuple[int, ...] = tuple(1 << i for i in range(len(CARDS)))
"""Each card index's bit."""
_BIT_OF_TEXT: dict[str, int] = {str(c): 1 << c.index for c in CARDS}
"""Each card's bit, by its canonical text."""


def _fast_card_bits(value: Any) -> int | None:
    """The bit set of a list of distinct cards in canonical text (``None``
    for anything else, as :func:`_fast_cards`)."""
    if type(value) is not list:
        return None
    try:
        bits: int = sum(map(_BIT_OF_TEXT.__getitem__, value))
    except (KeyError, TypeError):
        return None
    # a sum of distinct bits has one bit per card; any card twice carries
    return bits if bits.bit_count() == len(value) else None


def _fast_cards(value: Any) -> tuple[tuple[int, ...], int] | None:
    """The card indices and bit set of a list of distinct cards in canonical
    text, or ``None`` for anything else (the caller then reads it item by item,
    for the error): a fast path with no per-card Python code."""
    if type(value) is not list:
        return None
    try:
        indices = tuple(map(_INDEX_OF_TEXT.__getitem__, value))
    except (KeyError, TypeError):
        return None
    # a sum of distinct bits has one bit per card; any card twice carries
    bits: int = sum(map(_BIT.__getitem__, indices))
    if bits.bit_count() != len(indices):
        return None
    return indices, bits


_QUOTED_CARD: tuple[str, ...] = tuple(f'"{t}"' for t in CARD_TEXT)
"""Each card's canonical text as a JSON string, by card index."""
_QUOTED_BYTES: tuple[tuple[str, ...], ...] = tuple(
    tuple(
        ", ".join(
            _QUOTED_CARD[8 * k + j] for j in range(8) if b >> j & 1 and 8 * k + j < len(CARDS)
        )
        for b in range(256)
    )
    for k in range((len(CARDS) + 7) // 8)
)
"""The JSON text of the cards of each byte of a bit set: by byte position, then byte value."""
_SET_BYTES = len(_QUOTED_BYTES)


def _quoted_cards(mask: int) -> str:
    """A bit set as the JSON list of its cards' texts, lowest first (as
    ``json.dumps(_texts(mask))`` writes it), eight cards per table lookup."""
    if not mask:
        return "[]"
    parts = [t[b] for t, b in zip(_QUOTED_BYTES, mask.to_bytes(_SET_BYTES, "little")) if b]
    return "[" + ", ".join(parts) + "]"


def _card_or_none(value: Any, path: str) -> Card | None:
    return None if value is None else _card(value, path)


def _move(value: Any, path: str) -> Move:
    move = _MOVE_OF_TEXT.get(value) if type(value) is str else None
    if move is not None:
        return move
    if not isinstance(value, str):
        raise _fail(path, f'expected a move like "bid 3", got {_show(value)}')
    try:
        move = parse_move(value)
    except NotationError as exc:
        raise _fail(path, str(exc)) from None
    if str(move) == value:  # only canonical texts are kept
        if len(_MOVE_OF_TEXT) >= _MOVE_LIMIT:
            _MOVE_OF_TEXT.clear()
        _MOVE_OF_TEXT[value] = move
    return move


def _suit(value: Any, path: str) -> Suit | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _fail(path, f"expected a suit letter C, D, H or S, got {_show(value)}")
    try:
        return Suit.parse(value)
    except NotationError as exc:
        raise _fail(path, str(exc)) from None


_PHASES = {p.value: p for p in Phase}


def _phase(value: Any, path: str) -> Phase:
    if not isinstance(value, str) or value not in _PHASES:
        raise _fail(path, f"expected one of {', '.join(_PHASES)}; got {_show(value)}")
    return _PHASES[value]


def _bits(cards: tuple[Card, ...], path: str) -> int:
    mask = 0
    for i, card in enumerate(cards):
        bit = 1 << card.index
        if mask & bit:
            raise _fail(f"{path}[{i}]", f"{card} appears twice")
        mask |= bit
    return mask


def _texts(mask: int) -> list[str]:
    """The canonical texts of the cards in a bit set, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARD_TEXT[low.bit_length() - 1])
        mask ^= low
    return out
