"""The ranking part (RULES.md 1.1, 1.3, 1.6): the order of the cards and who
wins a trick.

Where the jokers rank is a rule: :class:`JokersHigh` (every source) puts the
Big Blooper above the Little Blooper above the ace of trumps.  A house rule
that ranks them elsewhere is one subclass of :class:`OrderedRanking` giving
its own :meth:`~OrderedRanking.key` (see the docs, "Writing your own rule").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from backalley.cards import CARDS, JOKERS_MASK, LJ_INDEX
from backalley.rules.base import Part, has_jokers
from backalley.rules.registry import register

if TYPE_CHECKING:
    from backalley.rules.plan import Compiled

__all__ = ["SUIT_BITS", "JokersHigh", "OrderedRanking"]

SUIT_BITS: tuple[int, ...] = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39, 0)
"""The plain cards of each suit 0..3 (and none for 4, "no trump")."""


class OrderedRanking(Part):
    """A ranking given by a strength :meth:`key` per card and trump.

    The jokers belong to the trump suit; in a deal without a trump suit, a
    joker still in play forms a trump suit of its own.  A trick is won by its
    highest trump, else by the highest card of the suit led.  Subclasses give
    :meth:`key`; everything else follows from it, compiled once per trump.
    """

    __slots__ = ()
    part: ClassVar[str] = "ranking"

    def key(self, card: int, trump: int) -> int:
        """The strength of ``card`` within its suit (higher wins); trumps are
        compared with trumps only, so the keys of different suits never meet."""
        raise NotImplementedError

    def _tables(self, trump: int) -> tuple[tuple[int, ...], int]:
        cache = _TABLES.get((self, trump))
        if cache is None:
            keys = tuple(self.key(c, trump) for c in range(54))
            cache = (keys, SUIT_BITS[trump] | JOKERS_MASK)
            _TABLES[(self, trump)] = cache
        return cache

    def trumps(self, trump: int) -> int:
        return SUIT_BITS[trump] | JOKERS_MASK

    def suit_cards(self, card: int, trump: int) -> int:
        if card >= LJ_INDEX or card // 13 == trump:
            return SUIT_BITS[trump] | JOKERS_MASK
        return SUIT_BITS[card // 13]

    def trick_winner(self, trick: tuple[int, ...], trump: int) -> int:
        keys, tmask = self._tables(trump)
        led = trick[0]
        best_trump = bool((tmask >> led) & 1)
        suit = tmask if best_trump else SUIT_BITS[led // 13]
        best_pos, best_key = 0, keys[led]
        for pos in range(1, len(trick)):
            card = trick[pos]
            if (tmask >> card) & 1:
                if not best_trump or keys[card] > best_key:
                    best_pos, best_key, best_trump = pos, keys[card], True
            elif not best_trump and (suit >> card) & 1 and keys[card] > best_key:
                best_pos, best_key = pos, keys[card]
        return best_pos

    def compile(self, rules: object) -> Compiled:
        """A fast form of :meth:`trick_winner` for the rule set's plan: per
        trump and led card, a table of each card's strength in that trick (a
        trump above every card of the suit led, a card of another suit
        nowhere), built once from :meth:`key`; the earliest of equal
        strengths wins, as in :meth:`trick_winner`.  A subclass that changes
        :meth:`trick_winner` runs through it instead."""
        if type(self).trick_winner not in _KEYED_WINNERS:
            return {}
        tables: list[tuple[int, ...] | None] = [None] * (5 * 54)

        def table(trump: int, led: int) -> tuple[int, ...]:
            keys, tmask = self._tables(trump)
            top = max(keys) - min(keys) + 1
            low = min(keys)
            suit = tmask if tmask >> led & 1 else SUIT_BITS[led // 13]
            strength = tuple(
                keys[c] - low + top if tmask >> c & 1 else keys[c] - low if suit >> c & 1 else -1
                for c in range(54)
            )
            tables[trump * 54 + led] = strength
            return strength

        def trick_winner(trick: tuple[int, ...], trump: int) -> int:
            led = trick[0]
            strength = tables[trump * 54 + led] or table(trump, led)
            best = strength[led]
            winner = 0
            for pos, card in enumerate(trick):  # a plain loop: cheaper than map/max/index
                key = strength[card]
                if key > best:
                    best, winner = key, pos
            return winner

        return {"trick_winner": trick_winner}

    def highest(self, cards: int, trump: int) -> int:
        keys = self._tables(trump)[0]
        return max(_indices(cards), key=keys.__getitem__)

    def lowest(self, cards: int, trump: int) -> int:
        keys = self._tables(trump)[0]
        return min(_indices(cards), key=keys.__getitem__)


_TABLES: dict[tuple[OrderedRanking, int], tuple[tuple[int, ...], int]] = {}
_KEYED_WINNERS: set[object] = {OrderedRanking.trick_winner}
"""The ``trick_winner`` methods that are the keyed rule (see :meth:`OrderedRanking.compile`)."""


def _indices(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@register
@attrs.frozen(slots=True, repr=False)
class JokersHigh(OrderedRanking):
    """Cards rank A (high), K, Q, J, 10 … 2 (low) in each suit.  The two
    jokers belong to the trump suit and rank above its ace: the Big Blooper
    (BJ), then the Little Blooper (LJ), then the ace of trumps.  A trick is won
    by its highest trump, else by the highest card of the suit led; the
    winner leads the next trick."""

    tag: ClassVar[str] = "jokers-high"

    def key(self, card: int, trump: int) -> int:
        return card  # card indices run 2..A within a suit, then LJ, BJ

    # the card index *is* the key: the fast paths below are the same rule
    def highest(self, cards: int, trump: int) -> int:
        return cards.bit_length() - 1

    def lowest(self, cards: int, trump: int) -> int:
        return (cards & -cards).bit_length() - 1

    def trick_winner(self, trick: tuple[int, ...], trump: int) -> int:
        tmask = SUIT_BITS[trump] | JOKERS_MASK
        led = trick[0]
        if (tmask >> led) & 1:
            suit = tmask
        else:
            suit = SUIT_BITS[led // 13]
        best_pos, best_key = 0, led + (100 if suit == tmask else 0)
        for pos in range(1, len(trick)):
            card = trick[pos]
            if (tmask >> card) & 1:
                key = card + 100
            elif (suit >> card) & 1:
                key = card
            else:
                continue
            if key > best_key:
                best_pos, best_key = pos, key
        return best_pos

    def describe(self) -> str:
        return self._describe(lowest="2", jokers=True) + (
            " In a deal without a trump suit, a joker still in play is a trump of its own."
        )

    def describe_in(self, rules: Any) -> str:
        """The card order of ``rules``' deck (down to its lowest rank; the
        jokers only when the deck has them) and how a trick is won.  Which
        no-trump deals keep a joker in play is the trump part's to say."""
        mask = rules.deck.mask
        plain = [CARDS[i].rank for i in range(52) if mask >> i & 1]
        lowest = min(plain).letter if plain else "2"
        return self._describe(lowest="10" if lowest == "T" else lowest, jokers=has_jokers(rules))

    def _describe(self, lowest: str, jokers: bool) -> str:
        text = f"Cards rank A (high), K, Q, J, 10 down to {lowest} (low) in each suit."
        if lowest in ("A", "K", "Q", "J", "10"):
            order = ["A", "K", "Q", "J", "10"]
            text = f"Cards rank {', '.join(order[: order.index(lowest) + 1])} in each suit (high to low)."
        if jokers:
            text += (
                " The jokers belong to the trump suit and rank above its ace: the Big Blooper "
                "(BJ), then the Little Blooper (LJ), then the ace of trumps."
            )
        return text + (
            " A trick is won by its highest trump, else by the highest card of the suit led; "
            "the winner leads the next trick."
        )


_KEYED_WINNERS.add(JokersHigh.trick_winner)  # the same rule, with the card index as key
