"""The deck part: which cards are in play (see :ref:`rules-deck`)."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from backalley.cards import CARDS, PLAIN_RANKS, Rank
from backalley.cardset import CardSet
from backalley.errors import RuleSetError
from backalley.rules.base import Part
from backalley.rules.registry import register
from backalley.rules.validators import one_of

__all__ = ["Deck"]


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
    jokers: int = attrs.field(default=2, validator=one_of((0, 2)))

    @property
    def cards(self) -> CardSet:
        """The cards in play: every suit in the kept ranks, and the jokers if any."""
        return CardSet.of(
            card for card in CARDS if (card.is_joker and self.jokers) or card.rank in self.ranks
        )

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
        jokers = (
            ", with two jokers added to them: the Big (BJ) and the Little (LJ) Blooper"
            if self.jokers
            else ", no jokers"
        )
        return f"{self.size} cards: {kept}{jokers}."
