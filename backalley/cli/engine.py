"""The command line's one adapter to the engine's raw forms.

A finished deal is scored and the next one dealt within the move that plays
its last card, so the public state no longer shows the last trick: its
winner is asked of the rule set's ranking part here, from the raw trick and
effective trump of :mod:`backalley.engine.lowlevel`.  When the engine moves, only
this file changes.
"""

from __future__ import annotations

from backalley import Card
from backalley.cards import CARDS
from backalley.engine.lowlevel import trick_cards
from backalley.engine.public import PublicFacts

__all__ = ["last_trick_winner"]


def last_trick_winner(before: PublicFacts, card: Card) -> int:
    """The seat that wins the trick completed by ``card``, played in ``before``."""
    trick = (*trick_cards(before), card.index)
    leader = before.trick[0][0] if before.trick else before.to_act
    assert leader is not None
    cards = tuple(CARDS[i] for i in trick)
    position: int = before.rules.ranking.trick_winner(cards, before.trump)
    return (leader + position) % before.players
