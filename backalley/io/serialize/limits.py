"""The limits of the documents: how many moves and deck orders a game's
document may hold, so that reading one is bounded by its rule set before
anything costly is parsed (and writing refuses what could not be read).

A game of a rule set deals each deal of its schedule once, plus any deals
thrown in (dealt again after nobody contracted); each deal takes at most
:data:`CALL_ROUNDS` ``* (hand size + 2)`` calls per seat, one trump call and
its cards.  A document holds at most :data:`MAX_THROW_INS` thrown-in deals.
"""

from __future__ import annotations

from backalley.io.serialize.common import _fail
from backalley.io.shapes import CALL_ROUNDS
from backalley.rules.ruleset import RuleSet

__all__ = ["CALL_ROUNDS", "MAX_THROW_INS", "check_decks", "check_moves", "most_decks", "most_moves"]

MAX_THROW_INS = 100
"""The most thrown-in deals a document holds (a real game has a handful)."""


def _most_calls(rules: RuleSet, hand_size: int) -> int:
    return rules.players * CALL_ROUNDS * (hand_size + 2)


def most_moves(rules: RuleSet) -> int:
    """The most moves a game of a rule set can take within the limits."""
    sizes = rules.schedule.hand_sizes
    n = rules.players
    played = sum(_most_calls(rules, h) + 1 + n * h for h in sizes)
    return played + MAX_THROW_INS * max(_most_calls(rules, h) for h in sizes)


def most_decks(rules: RuleSet) -> int:
    """The most deck orders a game of a rule set can use: one per shuffle,
    one per deal dealt (two when the trump is drawn before each deal)."""
    return (rules.schedule.deals + MAX_THROW_INS) * rules.plan.shuffles_per_deal


def check_moves(rules: RuleSet, count: int, path: str) -> None:
    """Refuse more moves than a game of ``rules`` can take."""
    most = most_moves(rules)
    if count > most:
        raise _fail(
            path,
            f"{count} moves, but a game of these rules takes at most {most} "
            f"(with at most {MAX_THROW_INS} thrown-in deals)",
        )


def check_decks(rules: RuleSet, count: int, path: str) -> None:
    """Refuse more deck orders than a game of ``rules`` can use."""
    most = most_decks(rules)
    if count > most:
        raise _fail(
            path,
            f"{count} deck orders, but a game of these rules shuffles at most {most} times "
            f"(with at most {MAX_THROW_INS} thrown-in deals)",
        )
