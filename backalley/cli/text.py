"""Text for people at a table: seat and side names, cards with suit symbols,
hands sorted by suit, calls in calling order, and reading what a player types.

Seats and sides are named by the library's one naming
(:mod:`backalley.rules.seats`): North, East, South and West playing as N-S
against E-W in a game of two partnerships of four players, else Seat 1 ..
Seat n.  Cards show their suit symbol (``Q♠``, ``10♥``) unless ASCII output
is asked for (``QS``, ``TH``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from backalley import Card, Contract, Move, NameTrump, Play, RuleSet, Suit, parse_card
from backalley.rules.seats import seat_names, side_names

__all__ = ["SUIT_SYMBOLS", "TextTable", "normalize_input"]

SUIT_SYMBOLS: dict[Suit, str] = {
    Suit.CLUBS: "\u2663",
    Suit.DIAMONDS: "\u2666",
    Suit.HEARTS: "\u2665",
    Suit.SPADES: "\u2660",
}
"""The suit symbols ♣ ♦ ♥ ♠."""

_INPUT_SUITS = {
    "\u2663": "C",
    "\u2667": "C",
    "\u2666": "D",
    "\u2662": "D",
    "\u2665": "H",
    "\u2661": "H",
    "\u2660": "S",
    "\u2664": "S",
}
_CARD_WORD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|10[CDHS])\b")
"""A plain card as the library's sentences name it (``QS``, ``TH``)."""

_HAND_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


def normalize_input(text: str) -> str:
    """What a player typed, with suit symbols (filled or outline, ``♠`` ``♤``)
    read as their letters: ``Q♠`` -> ``QS``, ``10♡`` -> ``10H``."""
    text = text.replace("\ufe0f", "").replace("\ufe0e", "")
    return "".join(_INPUT_SUITS.get(ch, ch) for ch in text)


class TextTable:
    """How one game's seats, sides and cards are written."""

    def __init__(self, rules: RuleSet, *, ascii: bool = False) -> None:
        self.rules = rules
        self.ascii = ascii
        self.players = rules.players
        self.teams = rules.teams
        self.seat_names: tuple[str, ...] = seat_names(rules)
        self.side_names: tuple[str, ...] = side_names(rules)
        self.side_of = {seat: t for t, team in enumerate(self.teams) for seat in team}

    @property
    def partnerships(self) -> bool:
        """Whether the sides are partnerships (else every player is alone)."""
        return any(len(team) > 1 for team in self.teams)

    def seat(self, seat: int) -> str:
        return self.seat_names[seat]

    def side(self, side: int) -> str:
        return self.side_names[side]

    def suit(self, suit: Suit | None) -> str:
        """A suit's symbol (or letter); ``None`` is "no trump"."""
        if suit is None:
            return "no trump"
        return suit.letter if self.ascii else SUIT_SYMBOLS[suit]

    def card(self, card: Card) -> str:
        if self.ascii or card.suit is None:
            return str(card)
        rank = "10" if card.rank.letter == "T" else card.rank.letter
        return rank + SUIT_SYMBOLS[card.suit]

    def cards(self, cards: Iterable[Card]) -> str:
        return " ".join(self.card(c) for c in cards)

    def sentence(self, text: str) -> str:
        """A sentence of the library (a refusal's reason) with each card it
        names written as this table writes cards (``not Q♠``, not ``not QS``),
        so that a line never mixes two notations."""
        if self.ascii:
            return text
        return _CARD_WORD.sub(lambda found: self.card(parse_card(found.group())), text)

    def move(self, move: Move) -> str:
        """A move as a player says it: ``bid 3``, ``board``, ``trump ♥``, ``Q♠``."""
        if isinstance(move, Play):
            return self.card(move.card)
        if isinstance(move, NameTrump):
            return f"trump {self.suit(move.suit)}"
        return str(move)

    def contract(self, contract: Contract | None) -> str:
        return "no contract" if contract is None else str(contract)

    def in_hand_order(self, cards: Iterable[Card], trump: Suit | None = None) -> list[Card]:
        """``cards`` in the order a hand is shown: jokers, trump, then the
        other suits (spades, hearts, clubs, diamonds), each high to low."""
        order = [trump] if trump is not None else []
        order += [s for s in _HAND_ORDER if s != trump]
        place: dict[Suit | None, int] = {suit: i + 1 for i, suit in enumerate(order)}
        return sorted(cards, key=lambda c: (place.get(c.suit, 0), -int(c.rank)))

    def hand(self, cards: Sequence[Card], trump: Suit | None = None) -> str:
        """A hand sorted by suit (see :meth:`in_hand_order`): ``BJ   ♠ K 7   ♥ 3``."""
        groups: list[list[Card]] = []
        for card in self.in_hand_order(cards, trump):
            if groups and groups[-1][0].suit is card.suit:
                groups[-1].append(card)
            else:
                groups.append([card])
        shown = []
        for group in groups:
            suit = group[0].suit
            if suit is None:
                shown.append(" ".join(str(c) for c in group))
                continue
            letters = " ".join(
                "10" if c.rank.letter == "T" and not self.ascii else c.rank.letter for c in group
            )
            shown.append(f"{self.suit(suit)} {letters}")
        return "   ".join(shown) if shown else "(no cards)"

    def plays(self, plays: Iterable[tuple[int, Card]]) -> str:
        """Cards with their players, in the order played: ``North 7♠, East K♠``."""
        return ", ".join(f"{self.seat(s)} {self.card(c)}" for s, c in plays)

    def calls(self, first: int, calls: Sequence[Move]) -> str:
        """Calls in calling order, each with its seat (call ``i`` is made by
        the seat ``i`` places clockwise from ``first``): ``West bid 3, North pass``."""
        return ", ".join(
            f"{self.seat((first + i) % self.players)} {self.move(c)}" for i, c in enumerate(calls)
        )

    def scores(self, scores: Sequence[int]) -> str:
        return ", ".join(f"{self.side(t)} {p}" for t, p in enumerate(scores))
