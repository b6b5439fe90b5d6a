"""The card order of a rule set under one trump, read off the ranking part's answers.

The tools (the bots, the samplers) plan with a card order: which cards are
trumps, which cards form a suit as far as winning a trick goes, which card of
a suit is higher, which cards would win a trick.  Nothing here knows an
order: :func:`learn` asks the ranking part's ``trick_winner`` (through the
rule set's plan, which checks each answer) and the rule set's plan remembers
the result per trump (:meth:`Plan.card_order <backalley.rules.plan.Plan.card_order>`).

- Every pair of cards of the deck is played as a two-card trick, in both
  orders.  Card ``a`` *beats* ``b`` when ``a`` wins whether led or played
  second.  Two cards are *ordered* when one beats the other; the *suits*
  (as far as winning goes) are the classes of cards ordered with each other
  and with the same other cards; within a suit the cards must be in a strict
  total order (a card's *strength* is how many cards of its suit it beats).
  The *trumps* are the suit whose every card beats every card outside it
  (none in a deal without trumps and without jokers); between two other
  suits the card led must win.
- The order then says who wins any trick: its strongest trump, else the
  strongest card of the suit led.  That claim is checked against the ranking
  part on longer tricks, up to the full trick of every seat: each pair of
  cards with the other seats' cards discarded from other suits, the second
  card played second or last, and seeded random tricks of every length.
- When every answer fits (:attr:`CardOrder.standard`), the tools use the
  order.  When one does not - a ranking whose full tricks are won otherwise
  than its two-card tricks say, or no total order at all - the order falls
  back to the ranking part's own answers: the trumps and suits its
  ``trumps`` and ``suit_cards`` give, the cards above a card those that win
  the two-card trick it leads, and the cards that would win a trick
  (:meth:`CardOrder.beaters`) asked of ``trick_winner`` card by card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from backalley.cards import CARDS, Suit

if TYPE_CHECKING:
    from backalley.rules.protocols import Ranking

__all__ = ["BEATERS_LIMIT", "RANDOM_PROBES", "CardOrder", "learn"]

BEATERS_LIMIT = 4_096
"""The most answers of :meth:`CardOrder.beaters` a fallback order keeps (it starts afresh beyond)."""

RANDOM_PROBES = 400
"""The seeded random tricks of each length (3 cards up to the full trick) the order is checked on."""

Winner = Callable[[tuple[int, ...]], int]
"""The ranking part's answer (checked by the plan): the position in a trick
(card indices, the lead first) of the card that wins it."""


class CardOrder:
    """The order of the cards under one trump (see the module's description).

    Cards are engine indices (0..53) and sets of cards bit sets; only the
    deck's cards are in any set.  The tables are per card index (0 for a card
    not in the deck)."""

    __slots__ = (
        "_beaters",
        "_deck",
        "_players",
        "_win",
        "above",
        "plain",
        "standard",
        "strength",
        "suit",
        "trump",
        "trumps",
    )

    def __init__(
        self,
        trump: Suit | None,
        win: Winner,
        players: int,
        deck: tuple[int, ...],
        standard: bool,
        trumps: int,
        suit: Sequence[int],
        above: Sequence[int],
    ) -> None:
        self.trump = trump
        """The trump this order is for (a suit, or ``None``: no trump suit)."""
        self.standard = standard
        """Whether the ranking part's answers fit the order (see the module's description)."""
        self.trumps = trumps
        """The cards that are trumps."""
        self.suit: tuple[int, ...] = tuple(suit)
        """Per card, the cards of its suit (the trumps for a trump)."""
        self.above: tuple[int, ...] = tuple(above)
        """Per card, the cards of its suit above it."""
        self.strength: tuple[int, ...] = tuple(
            (s & ~a).bit_count() - 1 if s else 0 for s, a in zip(self.suit, self.above)
        )
        """Per card, how many cards of its suit are not above it (0: the lowest)."""
        self.plain: tuple[int, ...] = tuple(
            sorted({s for s in self.suit if s and not s & trumps}, key=lambda s: s & -s)
        )
        """The suits other than the trumps, the suit of the lowest card first."""
        self._win = win
        self._players = players
        self._deck = deck
        self._beaters: dict[tuple[int, ...], int] = {}

    def winner(self, trick: tuple[int, ...]) -> int:
        """The position (0 = the lead) of the card that wins ``trick`` so far:
        the ranking part's answer."""
        return self._win(trick)

    def beaters(self, trick: tuple[int, ...]) -> int:
        """The cards that would win ``trick`` (non-empty) if played next
        (none once every seat has played): for a standard order, the trumps
        above the trick's best card when it is a trump, else every trump and
        the cards of the suit led above it; otherwise the ranking part's
        answer for each card, remembered."""
        if len(trick) >= self._players:
            return 0
        if self.standard:
            best = trick[self._win(trick)]
            if self.trumps >> best & 1:
                return self.above[best]
            return self.trumps | self.above[best]
        found = self._beaters.get(trick)
        if found is None:
            found = 0
            win = self._win
            at = len(trick)
            played = set(trick)
            for card in self._deck:
                if card not in played and win((*trick, card)) == at:
                    found |= 1 << card
            if len(self._beaters) >= BEATERS_LIMIT:
                self._beaters = {}
            self._beaters[trick] = found
        return found


def learn(
    trump: Suit | None, win: Winner, players: int, deck: tuple[int, ...], ranking: Ranking
) -> CardOrder:
    """The card order under ``trump`` of a ranking part whose answers ``win``
    gives, for a deck of ``deck`` (card indices) and tricks of ``players``
    cards; ``ranking`` gives the trumps and suits of a fallback order."""
    groups = _groups(win, deck)
    if groups is not None:
        trumps = _trump_group(win, groups)
        if trumps is not None and _longer_tricks_agree(win, players, deck, groups, trumps):
            suit = [0] * 54
            above = [0] * 54
            for members in groups:
                mask = sum(1 << c for c in members)
                higher = mask
                for card in members:  # weakest first
                    higher &= ~(1 << card)
                    suit[card] = mask
                    above[card] = higher
            return CardOrder(trump, win, players, deck, True, trumps, suit, above)
    return _fallback(trump, win, players, deck, ranking)


def _fallback(
    trump: Suit | None, win: Winner, players: int, deck: tuple[int, ...], ranking: Ranking
) -> CardOrder:
    """The order of a ranking whose answers fit no card order: its own trumps
    and suits, and above each card the cards of its suit that win the
    two-card trick it leads."""
    in_deck = sum(1 << c for c in deck)
    trumps = int(ranking.trumps(trump)) & in_deck
    suit = [0] * 54
    above = [0] * 54
    for card in deck:
        mine = (int(ranking.suit_cards(CARDS[card], trump)) & in_deck) | 1 << card
        suit[card] = mine
        above[card] = sum(
            1 << other
            for other in deck
            if other != card and mine >> other & 1 and win((card, other)) == 1
        )
    return CardOrder(trump, win, players, deck, False, trumps, suit, above)


def _groups(win: Winner, deck: tuple[int, ...]) -> list[list[int]] | None:
    """The suits, each weakest first, or ``None`` when the two-card answers
    are no order of suits (see the module's description)."""
    n = len(deck)
    beats = [[False] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            a, b = deck[i], deck[j]
            first = win((a, b))
            second = win((b, a))
            if first == 0 and second == 1:
                beats[i][j] = True
            elif first == 1 and second == 0:
                beats[j][i] = True
            elif not (first == 0 and second == 0):
                return None  # the second card wins whatever: no order
    ordered = [[beats[i][j] or beats[j][i] for j in range(n)] for i in range(n)]
    assigned = [-1] * n
    classes: list[list[int]] = []
    for i in range(n):
        if assigned[i] >= 0:
            continue
        members = [i]
        assigned[i] = len(classes)
        for j in range(i + 1, n):
            if assigned[j] < 0 and ordered[i][j] and _same_others(ordered, i, j):
                members.append(j)
                assigned[j] = len(classes)
        classes.append(members)
    out: list[list[int]] = []
    for members in classes:
        wins = {x: sum(beats[x][y] for y in members) for x in members}
        ranked = sorted(members, key=wins.__getitem__)
        for r, x in enumerate(ranked):
            if wins[x] != r or not all(beats[y][x] for y in ranked[r + 1 :]):
                return None  # not a strict total order
        out.append([deck[x] for x in ranked])
    # between two suits: one suit's cards all beat the other's, or the card led wins
    for g, gm in enumerate(classes):
        for hm in classes[g + 1 :]:
            if len({(beats[x][y], beats[y][x]) for x in gm for y in hm}) != 1:
                return None
    return out


def _same_others(ordered: list[list[bool]], i: int, j: int) -> bool:
    """Whether cards ``i`` and ``j`` are ordered with the same third cards."""
    row_i, row_j = ordered[i], ordered[j]
    return all(row_i[k] == row_j[k] for k in range(len(row_i)) if k != i and k != j)


def _trump_group(win: Winner, groups: list[list[int]]) -> int | None:
    """The trumps: the suit whose cards beat every other card (0 for none);
    ``None`` when a suit beats another without being the trumps (the order
    would need more than trumps and plain suits)."""
    over = [
        [h != g and win((groups[h][0], groups[g][0])) == 1 for h in range(len(groups))]
        for g in range(len(groups))
    ]  # over[g][h]: suit g's card beats suit h's card led (the suits are uniform)
    top = [g for g in range(len(groups)) if all(over[g][h] for h in range(len(groups)) if h != g)]
    if len(groups) > 1 and len(top) > 1:
        return None
    trump = top[0] if top and len(groups) > 1 else -1
    for g in range(len(groups)):
        for h in range(len(groups)):
            if over[g][h] and g != trump:
                return None
    return 0 if trump < 0 else sum(1 << c for c in groups[trump])


def _predict(
    trick: tuple[int, ...], suit: dict[int, int], rank: dict[int, int], trumps: int
) -> int:
    """The position of the strongest trump, else of the strongest card of the suit led."""
    best = 0
    best_trump = bool(trumps >> trick[0] & 1)
    led = suit[trick[0]]
    for pos in range(1, len(trick)):
        card = trick[pos]
        if trumps >> card & 1:
            if not best_trump or rank[card] > rank[trick[best]]:
                best, best_trump = pos, True
        elif not best_trump and suit[card] == led and rank[card] > rank[trick[best]]:
            best = pos
    return best


def _longer_tricks_agree(
    win: Winner, players: int, deck: tuple[int, ...], groups: list[list[int]], trumps: int
) -> bool:
    """Whether the ranking part wins the longer tricks as the order says:
    every pair of cards, the first led and the second played second or last
    to a full trick whose other cards are discarded from other suits, and
    seeded random tricks of each length from 3 cards to the full trick."""
    if players <= 2:
        return True
    suit: dict[int, int] = {}
    rank: dict[int, int] = {}
    for g, members in enumerate(groups):
        for r, card in enumerate(members):
            suit[card] = g
            rank[card] = r
    plain = [members for members in groups if not trumps >> members[0] & 1]
    others: dict[tuple[int, int], list[int]] = {}  # discards from suits other than two
    for a in deck:
        for b in deck:
            if a == b:
                continue
            key = (suit[a], suit[b])
            fillers = others.get(key)
            if fillers is None:
                fillers = others[key] = [
                    c for members in plain if suit[members[0]] not in key for c in members
                ][: players - 2]
            if len(fillers) < players - 2:
                continue  # not enough cards of other suits to fill the trick
            for place in (1, players - 1):  # b second, or last (random tricks try the rest)
                trick = (a, *fillers[: place - 1], b, *fillers[place - 1 :])
                if win(trick) != _predict(trick, suit, rank, trumps):
                    return False
    rng = random.Random(players * 1000 + len(deck))
    for length in range(3, players + 1):
        for _ in range(RANDOM_PROBES):
            trick = tuple(rng.sample(deck, length))
            if win(trick) != _predict(trick, suit, rank, trumps):
                return False
    return True
