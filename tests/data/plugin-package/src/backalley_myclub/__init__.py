"""Our club's Back Alley, as a backalley plug-in.

Importing the module registers the ranking ``myclub/jokers-below-ace`` (the
jokers rank just below the ace of trumps); :func:`setup`, which the entry
point names, registers the bot ``my-bot`` and the variant ``myclub-table``.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

import backalley as ba
from backalley.bots import bot_names, register_bot
from backalley.rules import OrderedRanking, register

__all__ = ["FirstMoveBot", "JokersBelowAce", "setup"]


@register
@attrs.frozen
class JokersBelowAce(OrderedRanking):
    """The jokers belong to the trump suit and rank just below its ace."""

    tag: ClassVar[str] = "myclub/jokers-below-ace"

    ace_on_top: bool = attrs.field(default=True, validator=ba.rules.boolean())
    """Whether the ace of trumps ranks above the jokers (else below them)."""

    def key(self, card: ba.Card, trump: ba.Suit | None) -> int:
        if card.rank is ba.Rank.LITTLE_JOKER:
            return 13
        if card.rank is ba.Rank.BIG_JOKER:
            return 14
        if card.rank is ba.Rank.ACE and card.suit is trump:
            return 15 if self.ace_on_top else 12
        return card.rank.value - 2

    def describe(self) -> str:
        return (
            "Cards rank A (high) down to 2 in each suit; the jokers belong to the trump "
            "suit and rank just below its ace."
        )


class FirstMoveBot:
    """Bids the lowest number it may (else board rather than pass), and
    otherwise makes the first legal move."""

    def __init__(self, seed: object = None) -> None:
        self.seed = seed

    def choose(self, view: ba.PlayerView) -> ba.Move:
        moves = view.legal_moves()
        bids = [move for move in moves if isinstance(move, (ba.Bid, ba.BoardBid))]
        return bids[0] if bids else moves[0]


def setup() -> None:
    """Register the bot and the variant (the entry point calls this once)."""
    if "my-bot" not in bot_names():
        register_bot("my-bot", FirstMoveBot)
    ba.variants.register(
        ba.variants.GAMERULES.replace(ranking=JokersBelowAce(), name="myclub-table")
    )
