"""A deal alone as one line of text, for problems and tests (as FEN is for a
chess position): the dealer, the turn-up if there is one, and each seat's
hand::

    dealer South, turn-up 9C; North 2C 4C 5D 8D; East TC KC AC 3D; South 3C 5C 6C 9C; West 4C 7C QC 8D

Fields are separated by ``;``.  The first gives the dealer (a seat's label:
``North``, or ``Seat1`` in a game of numbered seats) and, after a comma, the
turn-up; each other field is a seat's label and then its cards, in any order
(a seat that holds no card is its label alone).  Every seat has one field;
no card is given twice, and each is in the rule set's deck.  Cards are
written as everywhere in the library (``QS``, ``TH``, ``BJ``).

:func:`deal_of` takes the deal of a state (the hands as they are held),
:func:`deal_to_line` writes a :class:`DealLayout`, :func:`deal_from_line` reads one
(a :class:`~backalley.io.notation.RecordNotationError`, line 1 and
the column at fault, for a line it cannot read).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import attrs

from backalley import variants
from backalley.cards import Card, parse_card
from backalley.engine.state import GameState
from backalley.errors import BackAlleyError, SetupError
from backalley.io.notation_lines import RecordNotationError, Word, seat_labels
from backalley.rules.ruleset import RuleSet

__all__ = ["DealLayout", "deal_from_line", "deal_of", "deal_to_line"]


def _cards(value: Iterable[Any]) -> tuple[Card, ...]:
    return tuple(parse_card(card) for card in value)


def _hands(value: Iterable[Iterable[Any]]) -> tuple[tuple[Card, ...], ...]:
    return tuple(_cards(hand) for hand in value)


def _card_or_none(value: Any) -> Card | None:
    return None if value is None else parse_card(value)


@attrs.frozen
class DealLayout:
    """A deal: its ``dealer`` (a seat), each seat's hand (cards, or card
    texts), and the ``turn-up`` (``None`` when no card is turned up)."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...] = attrs.field(converter=_hands)
    turn_up: Card | None = attrs.field(default=None, converter=_card_or_none)


def deal_of(state: GameState) -> DealLayout:
    """The deal ``state`` is in: its dealer, the hands as held now, the turn-up."""
    return DealLayout(state.dealer, state.hands, state.turn_up)


def _rules(rules: RuleSet | str) -> RuleSet:
    return variants.get(rules) if isinstance(rules, str) else rules


def deal_to_line(deal: DealLayout, rules: RuleSet | str) -> str:
    """The one line of ``deal`` in a game of ``rules`` (a rule set or a variant's name);
    :class:`~backalley.SetupError` for a deal that is not one of that game's seats."""
    labels = seat_labels(_rules(rules))
    if len(deal.hands) != len(labels) or not 0 <= deal.dealer < len(labels):
        raise SetupError(f"a deal of this game has {len(labels)} hands and a dealer among them")
    head = f"dealer {labels[deal.dealer]}"
    if deal.turn_up is not None:
        head += f", turn-up {deal.turn_up}"
    hands = [" ".join([label, *map(str, hand)]) for label, hand in zip(labels, deal.hands)]
    return "; ".join([head, *hands])


_FIELD = re.compile(r"[^;]+")
_WORD = re.compile(r"[^\s,]+")


def deal_from_line(text: str, rules: RuleSet | str) -> DealLayout:
    """The deal of the one line ``text`` in a game of ``rules`` (see the
    module's docstring).  Raises
    :class:`~backalley.io.notation.RecordNotationError` (line 1, the
    column of the word at fault)."""
    rules = _rules(rules)
    if not isinstance(text, str) or "\n" in text.strip():
        raise RecordNotationError("a deal is one line of text", 1, 1)
    labels = seat_labels(rules)
    fields = [
        [Word(w.group(), 1, w.start() + 1) for w in _WORD.finditer(text, f.start(), f.end())]
        for f in _FIELD.finditer(text)
    ]
    fields = [f for f in fields if f]
    if not fields or fields[0][0].text != "dealer" or len(fields[0]) < 2:
        raise RecordNotationError("a deal starts 'dealer SEAT'", 1, 1)
    head = fields[0]
    dealer = _seat(head[1], labels)
    seen: dict[Card, Word] = {}
    turn_up = None
    if len(head) > 2:
        if head[2].text != "turn-up" or len(head) != 4:
            raise head[2].fail("after the dealer comes ', turn-up CARD' and then ';'")
        turn_up = _card(head[3], rules, seen)
    hands: dict[int, tuple[Card, ...]] = {}
    for field in fields[1:]:
        seat = _seat(field[0], labels)
        if seat in hands:
            raise field[0].fail(f"a second hand for {labels[seat]}")
        hands[seat] = tuple(_card(word, rules, seen) for word in field[1:])
    missing = [label for seat, label in enumerate(labels) if seat not in hands]
    if missing:
        raise RecordNotationError(f"no hand for {', '.join(missing)}", 1, len(text.rstrip()) + 1)
    return DealLayout(dealer, tuple(hands[seat] for seat in range(len(labels))), turn_up)


def _seat(word: Word, labels: tuple[str, ...]) -> int:
    if word.text not in labels:
        raise word.fail(f"expected a seat ({', '.join(labels)}), not {word.text!r}")
    return labels.index(word.text)


def _card(word: Word, rules: RuleSet, seen: dict[Card, Word]) -> Card:
    try:
        card = parse_card(word.text)
    except BackAlleyError as exc:
        raise word.fail(str(exc)) from None
    if card not in rules.deck.cards:
        raise word.fail(f"{card} is not in this game's deck")
    if card in seen:
        raise word.fail(f"{card} is given twice (first at column {seen[card].column})")
    seen[card] = word
    return card
