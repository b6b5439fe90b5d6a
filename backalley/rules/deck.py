"""The deck part: which cards are in play (see :ref:`rules-deck`)."""

from __future__ import annotations

import functools
from typing import Any, ClassVar

import attrs

from backalley.cards import BJ_INDEX, CARDS, LJ_INDEX, PLAIN_RANKS, Rank
from backalley.errors import RuleSetError
from backalley.rules.base import Part
from backalley.rules.registry import register

__all__ = ["Deck", "deck_cards", "deck_mask"]


def _rank(r: Any) -> Rank:
    if isinstance(r, str):
        return Rank.parse(r)
    if isinstance(r, bool) or not isinstance(r, int):
        raise TypeError(f"{r!r} is not a rank")
    return Rank(r)


def _to_ranks(value: Any) -> frozenset[Rank]:
    if isinstance(value, (str, bytes)):
        raise RuleSetError([f"deck: ranks must be a list of ranks like ['A', 'K'], not {value!r}"])
    try:
        ranks = frozenset(_rank(r) for r in value)
    except (TypeError, ValueError) as exc:
        raise RuleSetError([f"deck: ranks must be plain ranks 2..A ({exc})"]) from None
    return ranks


def _check_ranks(instance: Deck, attribute: Any, value: frozenset[Rank]) -> None:
    if not value:
        raise RuleSetError(["deck: a deck needs at least one rank"])
    jokers = [r for r in value if r.is_joker]
    if jokers:
        raise RuleSetError(["deck: jokers are set with `jokers`, not among the ranks"])


def _check_jokers(instance: Deck, attribute: Any, value: int) -> None:
    if type(value) is not int or value not in (0, 2):
        raise RuleSetError([f"deck: the number of jokers must be 0 or 2, got {value!r}"])


@register
@attrs.frozen(slots=True, repr=False)
class Deck(Part):
    """The cards in play: every suit in the kept ``ranks``, plus ``jokers``
    (0, or 2: the Big and the Little Blooper).

    The default is the gamerules deck: 52 cards and two jokers (54).
    ``Deck(ranks=range(5, 15))`` is the Vietnam 42-card deck (2s, 3s, 4s removed).
    """

    tag: ClassVar[str] = "deck"
    part: ClassVar[str] = "deck"

    ranks: frozenset[Rank] = attrs.field(
        default=frozenset(PLAIN_RANKS), converter=_to_ranks, validator=_check_ranks
    )
    jokers: int = attrs.field(default=2, validator=_check_jokers)

    @property
    def mask(self) -> int:
        """The deck as a bit set of card indices."""
        mask = 0
        for i, card in enumerate(CARDS[:52]):
            if card.rank in self.ranks:
                mask |= 1 << i
        if self.jokers:
            mask |= (1 << LJ_INDEX) | (1 << BJ_INDEX)
        return mask

    @property
    def size(self) -> int:
        return 4 * len(self.ranks) + self.jokers

    @property
    def has_jokers(self) -> bool:
        return self.jokers > 0

    def describe(self) -> str:
        ranks = sorted(self.ranks)
        if len(ranks) == 13:
            kept = "all 52 plain cards"
        else:
            kept = f"the plain cards {ranks[0].letter} to {ranks[-1].letter}"
            if [r.value for r in ranks] != list(range(ranks[0], ranks[-1] + 1)):
                kept = "the plain cards of ranks " + " ".join(r.letter for r in ranks)
            kept += f" ({4 * len(ranks)} cards)"
        jokers = " plus the Big (BJ) and Little (LJ) Blooper" if self.jokers else ", no jokers"
        return f"{self.size} cards: {kept}{jokers}."


@functools.lru_cache(maxsize=64)
def deck_mask(deck: Deck) -> int:
    """The deck's bit set, cached per deck."""
    return deck.mask


@functools.lru_cache(maxsize=64)
def deck_cards(deck: Deck) -> tuple[int, ...]:
    """The deck's card indices in index order, cached per deck."""
    mask = deck_mask(deck)
    return tuple(i for i in range(54) if mask >> i & 1)
