"""The batch engine on a deck without jokers under a ranking that holds them.

Rules reference (following, the little lead): with ``little_lead =
lowest-trump``, the lowest trump *still out* - every lower trump played to an
earlier trick or shown by the opening - forces each other player who holds a
trump to play their lowest.  A joker the deck lacks is never out: under the
``jokers-high`` ranking the jokers are the highest trumps, so the lowest
trump still out is a card of the deck.  The batch engine picks the lowest
card of a set as the ranking part orders every card, the deck's or not, as
the one-game engine asks it.
"""

from __future__ import annotations

import pytest

import backalley as ba
from backalley.cards import parse_card
from backalley.engine.lowlevel import TRUMPS
from backalley.rules import Deck, FollowPolicy, LittleLead, Schedule

np = pytest.importorskip("numpy", reason="backalley.batch needs NumPy (the 'batch' extra)")

from backalley import batch  # noqa: E402
from backalley.batch.compiled_tables import Tables  # noqa: E402

from .test_batch import check_exact  # noqa: E402

RULES = ba.variants.get("gamerules").replace(
    deck=Deck(jokers=0),
    schedule=Schedule(hand_sizes=(12, 10, 8)),
    follow=FollowPolicy(little_lead=LittleLead.LOWEST_TRUMP),
)


def test_the_jokers_a_deck_lacks_rank_as_the_ranking_ranks_them() -> None:
    """Under hearts, the ranking puts the Little and the Big Blooper above the
    ace of trumps; the batch ranks them so too, though the deck has neither."""
    strength = Tables(RULES).strength[TRUMPS.index(ba.Suit.HEARTS)]
    ace, little, big = (parse_card(c).index for c in ("AH", "LJ", "BJ"))
    two = parse_card("2H").index
    assert strength[two] < strength[ace] < strength[little] < strength[big]


def test_the_lowest_trump_still_out_forces_in_the_batch_as_in_one_game() -> None:
    """Batch games of these rules offer at every decision exactly the one-game
    engine's legal moves (before the jokers were ranked, a led lowest trump
    still out forced nothing in the batch, and ``batch.compile``'s own check
    refused the follow part)."""
    check_exact("gamerules without jokers, little lead: lowest trump", batch.compile(RULES), 20, 7)
