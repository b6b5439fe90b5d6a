"""Text for people at a table: seat and side names, cards with suit symbols,
hands sorted by suit, and reading what a player types.

Seats are North, East, South and West in a game of two partnerships of four
players (North-South against East-West), else Seat 1 .. Seat n.  Cards show
their suit symbol (``Q♠``, ``10♥``) unless ASCII output is asked for (``QS``,
``TH``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from backalley import Card, Contract, Move, NameTrump, Play, RuleSet, Suit

__all__ = ["SUIT_SYMBOLS", "Table", "normalize_input"]

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
_COMPASS = ("North", "East", "South", "West")
_HAND_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


def normalize_input(text: str) -> str:
    """What a player typed, with suit symbols (filled or outline, ``♠`` ``♤``)
    read as their letters: ``Q♠`` -> ``QS``, ``10♡`` -> ``10H``."""
    text = text.replace("\ufe0f", "").replace("\ufe0e", "")
    return "".join(_INPUT_SUITS.get(ch, ch) for ch in text)


class Table:
    """How one game's seats, sides and cards are written."""

    def __init__(self, rules: RuleSet, *, ascii: bool = False) -> None:
        self.rules = rules
        self.ascii = ascii
        self.players = rules.players
        self.teams = rules.teams
        compass = self.players == 4 and tuple(map(tuple, self.teams)) == ((0, 2), (1, 3))
        self.seat_names: tuple[str, ...]
        if compass:
            self.seat_names = _COMPASS
        else:
            self.seat_names = tuple(f"Seat {s + 1}" for s in range(self.players))
        sides = []
        for team in self.teams:
            if len(team) == 1:
                sides.append(self.seat_names[team[0]])
            elif compass:
                sides.append("-".join(self.seat_names[s] for s in team))
            else:
                sides.append("Seats " + " & ".join(str(s + 1) for s in team))
        self.side_names = tuple(sides)
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

    def move(self, move: Move) -> str:
        """A move as a player says it: ``bid 3``, ``board``, ``trump ♥``, ``Q♠``."""
        if isinstance(move, Play):
            return self.card(move.card)
        if isinstance(move, NameTrump):
            return f"trump {self.suit(move.suit)}"
        return str(move)

    def contract(self, contract: Contract | None) -> str:
        return "no contract" if contract is None else str(contract)

    def hand(self, cards: Sequence[Card], trump: Suit | None = None) -> str:
        """A hand sorted by suit: jokers, trump, then the other suits, high to low."""
        jokers = sorted((c for c in cards if c.suit is None), reverse=True)
        order = [trump] if trump is not None else []
        order += [s for s in _HAND_ORDER if s != trump]
        groups = [" ".join(str(c) for c in jokers)] if jokers else []
        for suit in order:
            ranks = sorted((c for c in cards if c.suit is suit), reverse=True)
            if not ranks:
                continue
            letters = " ".join(
                "10" if c.rank.letter == "T" and not self.ascii else c.rank.letter for c in ranks
            )
            groups.append(f"{self.suit(suit)} {letters}")
        return "   ".join(groups) if groups else "(no cards)"

    def scores(self, scores: Sequence[int]) -> str:
        return ", ".join(f"{self.side(t)} {p}" for t, p in enumerate(scores))
