"""The helpers the documents share: the leaves they read (a card, a move, a
suit, a phase, a seed by their text), cards written as text, distinct
cards, the format version, the largest document, reading a file within a
limit, and the error of a rule set whose parts do not fit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from backalley.cards import CARDS, SUITS, Card, Suit, parse_card
from backalley.chance import check_seed
from backalley.errors import NotationError, RuleSetError, SerializationError
from backalley.io.shapes import FORMAT_VERSION as FORMAT_VERSION
from backalley.moves import BOARD, COUNTER, PASS, PLAYS, Move, NameTrump, bid, parse_move
from backalley.plain import fail, read_list, read_object, show
from backalley.rules.option_types import SuitOption
from backalley.values import Phase

MAX_DOCUMENT_SIZE = 16_000_000
"""The largest JSON text :func:`~backalley.from_json` reads, in characters or bytes."""


def known_once_imported(what: str = "rule") -> str:
    """The hint after a name that is not registered (a rule type, a variant,
    a bot): ``(a rule of your own is known once its module is imported:
    backalley --import MODULE)``, since a plug-in's names are registered
    only when its module is imported."""
    return f"(a {what} of your own is known once its module is imported: backalley --import MODULE)"


def read_at_most(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of the file at ``path``, never reading more than ``limit + 1``.

    A file longer than ``limit`` bytes (``/dev/zero`` among them) is refused as
    too large for ``what`` (``"a JSON document"``); a file that cannot be read
    (missing, a directory, not permitted) is refused with the system's reason.
    Both raise :class:`~backalley.SerializationError` whose path is the file's,
    so that its message names the file once: ``game.json: cannot read the
    file: No such file or directory``.
    """
    try:
        with Path(path).open("rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise SerializationError(f"cannot read the file: {reason}", str(path)) from None
    if len(data) > limit:
        raise SerializationError(
            f"the file is too large for {what}: more than {limit} bytes", str(path)
        )
    return data


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


_fail = fail
_show = show
_list = read_list
_object = read_object


def _seed(value: Any, path: str) -> int:
    """A game's seed: a whole number smaller than 2**64 in size."""
    if type(value) is not int:
        raise _fail(path, f"expected a whole number, got {_show(value)}")
    why = check_seed(value)
    if why is not None:
        raise _fail(path, why)
    return value


CARD_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)
"""Each card's canonical text, by card index."""
CARD_OF_TEXT: dict[str, Card] = {str(c): c for c in CARDS}
SHARED_MOVES: tuple[Move, ...] = (
    PASS,
    BOARD,
    COUNTER,
    *(bid(n) for n in range(64)),
    *(NameTrump(s) for s in (*SUITS, None)),
    *PLAYS,
)
"""The moves the library shares (and keeps as long as it runs)."""
MOVE_OF_TEXT: dict[str, Move] = {str(m): m for m in SHARED_MOVES}
"""The shared moves, by their canonical text (a table only read)."""


def _card(value: Any, path: str) -> Card:
    card = CARD_OF_TEXT.get(value) if type(value) is str else None
    if card is not None:
        return card
    if not isinstance(value, str):
        raise _fail(path, f'expected a card like "QS", got {_show(value)}')
    try:
        return parse_card(value)
    except NotationError as exc:
        raise _fail(path, str(exc)) from None


def distinct(cards: tuple[Card, ...], path: str) -> None:
    """Refuse a card that appears twice in ``cards`` (read from the list at ``path``)."""
    if len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for i, card in enumerate(cards):
            if card in seen:
                raise _fail(f"{path}[{i}]", f"{card} appears twice")
            seen.add(card)


def _move(value: Any, path: str) -> Move:
    move = MOVE_OF_TEXT.get(value) if type(value) is str else None
    if move is not None:
        return move
    if not isinstance(value, str):
        raise _fail(path, f'expected a move like "bid 3", got {_show(value)}')
    try:
        return parse_move(value)
    except NotationError as exc:
        raise _fail(path, str(exc)) from None


def _suit(value: Any, path: str) -> Suit | None:
    """A suit by its letter, or none (``null``): read as a suit option is."""
    return None if value is None else SuitOption().read(value, path)


_PHASES = {p.value: p for p in Phase}


def _phase(value: Any, path: str) -> Phase:
    if not isinstance(value, str) or value not in _PHASES:
        raise _fail(path, f"expected one of {', '.join(_PHASES)}; got {_show(value)}")
    return _PHASES[value]


def _texts(mask: int) -> list[str]:
    """The canonical texts of the cards in a bit set, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARD_TEXT[low.bit_length() - 1])
        mask ^= low
    return out
