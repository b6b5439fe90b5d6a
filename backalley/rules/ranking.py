"""The ranking part: the order of the cards and who wins a trick (see
:ref:`rules-ranking`).

Where the jokers rank is a rule: :class:`JokersHigh` (every source) puts the
Big Blooper above the Little Blooper above the ace of trumps.  A house rule
that ranks them elsewhere is one subclass of :class:`OrderedRanking` giving
its own :meth:`~OrderedRanking.key` (see the docs, "Writing your own rule").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import attrs

from backalley.cards import JOKERS_MASK, Card, Suit
from backalley.cardset import CardSet
from backalley.rules.base import Part, has_jokers
from backalley.rules.context import TRUMP_INDEX
from backalley.rules.registry import register

if TYPE_CHECKING:
    from backalley.rules.protocols import RuleSetFacts

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

    def key(self, card: Card, trump: Suit | None) -> int:
        """The strength of ``card`` within its suit (higher wins); trumps are
        compared with trumps only, so the keys of different suits never meet."""
        raise NotImplementedError

    def trumps(self, trump: Suit | None) -> CardSet:
        """The trump suit's cards and both jokers (the jokers alone without a trump suit)."""
        return _TRUMPS[TRUMP_INDEX[trump]]

    def suit_cards(self, card: Card, trump: Suit | None) -> CardSet:
        """The cards of ``card``'s suit: the trumps (:meth:`trumps`) for a trump,
        else the plain cards of its suit that are not trumps."""
        trumps = self.trumps(trump)
        index = card.index
        if trumps >> index & 1:
            return trumps
        return _cardset(CardSet, _PLAIN_BITS[index // 13] & ~int(trumps))

    def trick_winner(self, trick: tuple[Card, ...], trump: Suit | None) -> int:
        """The position of the trick's highest trump, else of the highest card
        of the suit led (by :meth:`key`; the earliest of equals)."""
        key = self.key
        tmask = int(self.trumps(trump))
        led = trick[0]
        best_trump = bool((tmask >> led.index) & 1)
        suit = tmask if best_trump else int(_PLAIN[led.index // 13]) & ~tmask
        best_pos, best_key = 0, key(led, trump)
        for pos in range(1, len(trick)):
            card = trick[pos]
            if (tmask >> card.index) & 1:
                strength = key(card, trump)
                if not best_trump or strength > best_key:
                    best_pos, best_key, best_trump = pos, strength, True
            elif not best_trump and (suit >> card.index) & 1:
                strength = key(card, trump)
                if strength > best_key:
                    best_pos, best_key = pos, strength
        return best_pos

    def highest(self, cards: CardSet, trump: Suit | None) -> Card:
        """The card of ``cards`` with the highest :meth:`key` (the first in card order of equals)."""
        return max(cards, key=lambda card: self.key(card, trump))

    def lowest(self, cards: CardSet, trump: Suit | None) -> Card:
        """The card of ``cards`` with the lowest :meth:`key` (the first in card order of equals)."""
        return min(cards, key=lambda card: self.key(card, trump))


_PLAIN: tuple[CardSet, ...] = tuple(CardSet(bits) for bits in SUIT_BITS)
_PLAIN_BITS: tuple[int, ...] = SUIT_BITS[:4]
_cardset = int.__new__  # a CardSet of a bit set built here
"""The plain cards of each suit (none for no trump suit)."""
_TRUMPS: tuple[CardSet, ...] = tuple(CardSet(bits | JOKERS_MASK) for bits in SUIT_BITS)
"""The trumps under each raw trump 0..4: its suit and both jokers."""


@register
@attrs.frozen(slots=True, repr=False)
class JokersHigh(OrderedRanking):
    """Cards rank A (high), K, Q, J, 10 … 2 (low) in each suit.  The two
    jokers belong to the trump suit and rank above its ace: the Big Blooper
    (BJ), then the Little Blooper (LJ), then the ace of trumps.  A trick is won
    by its highest trump, else by the highest card of the suit led; the
    winner leads the next trick."""

    tag: ClassVar[str] = "jokers-high"

    def key(self, card: Card, trump: Suit | None) -> int:
        return card.index  # card indices run 2..A within a suit, then LJ, BJ

    def describe(self) -> str:
        return self._describe(lowest="2", jokers=True) + (
            " In a deal without a trump suit, a joker still in play is a trump of its own."
        )

    def describe_in(self, rules: RuleSetFacts) -> str:
        """The card order of ``rules``' deck (down to its lowest rank; the
        jokers only when the deck has them) and how a trick is won.  Which
        no-trump deals keep a joker in play is the trump part's to say."""
        plain = [card.rank for card in rules.deck.cards if not card.is_joker]
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
