"""The command line's one adapter to engine internals.

A finished deal is scored and the next one dealt within the move that plays
its last card, so the public state no longer shows the last trick: its
winner is asked of the engine's trick rule here.  When the engine moves,
only this file changes.
"""

from __future__ import annotations

from backalley.cards import Card
from backalley.play import trick_winner
from backalley.public import PublicFacts

__all__ = ["last_trick_winner"]


def last_trick_winner(before: PublicFacts, card: Card) -> int:
    """The seat that wins the trick completed by ``card``, played in ``before``."""
    trick = [c.index for _seat, c in before.trick] + [card.index]
    trump = before.trump
    position = trick_winner(trick, 4 if trump is None else trump.index)
    return (before.leader + position) % before.players
