"""The ranking part: the order of the cards and who wins a trick (see
:ref:`rules-ranking`).

Where the jokers rank is a rule: :class:`JokersHigh` (every source) puts the
Big Blooper above the Little Blooper above the ace of trumps.  A house rule
that ranks them elsewhere is one subclass of :class:`OrderedRanking` giving
its own :meth:`~OrderedRanking.key` (see the docs, "Writing your own rule").
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from backalley.cards import CARDS, JOKERS_MASK, LJ_INDEX
from backalley.rules.base import Part, has_jokers
from backalley.rules.registry import register

__all__ = ["SUIT_BITS", "JokersHigh", "OrderedRanking"]

SUIT_BITS: tuple[int, ...] = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39, 0)
"""The plain cards of each suit 0..3 (and none for 4, "no trump")."""


class OrderedRanking(Part):
    """A ranking given by a strength :meth:`key` per card and trump.

    The jokers belong to the trump suit; in a deal without a trump suit, a
    joker still in play forms a trump suit of its own.  A trick is won by its
    highest trump, else by the highest card of the suit led.  Subclasses give
    :meth:`key`; everything else follows from it.
    """

    __slots__ = ()
    part: ClassVar[str] = "ranking"

    def key(self, card: int, trump: int) -> int:
        """The strength of ``card`` within its suit (higher wins); trumps are
        compared with trumps only, so the keys of different suits never meet."""
        raise NotImplementedError

    def trumps(self, trump: int) -> int:
        return SUIT_BITS[trump] | JOKERS_MASK

    def suit_cards(self, card: int, trump: int) -> int:
        if card >= LJ_INDEX or card // 13 == trump:
            return SUIT_BITS[trump] | JOKERS_MASK
        return SUIT_BITS[card // 13]

    def trick_winner(self, trick: tuple[int, ...], trump: int) -> int:
        """The position of the trick's highest trump, else of the highest card
        of the suit led (by :meth:`key`)."""
        key = self.key
        tmask = SUIT_BITS[trump] | JOKERS_MASK
        led = trick[0]
        best_trump = bool((tmask >> led) & 1)
        suit = tmask if best_trump else SUIT_BITS[led // 13]
        best_pos, best_key = 0, key(led, trump)
        for pos in range(1, len(trick)):
            card = trick[pos]
            if (tmask >> card) & 1:
                strength = key(card, trump)
                if not best_trump or strength > best_key:
                    best_pos, best_key, best_trump = pos, strength, True
            elif not best_trump and (suit >> card) & 1:
                strength = key(card, trump)
                if strength > best_key:
                    best_pos, best_key = pos, strength
        return best_pos

    def highest(self, cards: int, trump: int) -> int:
        """The card of ``cards`` with the highest :meth:`key` (the lowest index of equals)."""
        return max(_indices(cards), key=lambda card: self.key(card, trump))

    def lowest(self, cards: int, trump: int) -> int:
        """The card of ``cards`` with the lowest :meth:`key` (the lowest index of equals)."""
        return min(_indices(cards), key=lambda card: self.key(card, trump))




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

