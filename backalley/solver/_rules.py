"""The solver's one door into the engine's internals.

Everything the solver needs from the rules and from a state's raw facts
comes through this module, so that only this file changes when the engine
moves its play rules into a compiled per-rule-set plan:

- :func:`legal_mask`, :func:`trick_winner`, :func:`breaks_trump`: the play
  rules (RULES.md 1.6) of a rule set, on card indices and bit-set hands;
- :func:`position`: a state's raw facts (hands as bit sets, the trick so far,
  who leads it, whether trump is broken, the effective trump, the seats that
  bid board).

``trump`` is the effective trump: a suit index 0..3, or 4 in a deal without a
trump suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from backalley.legality import Phase
from backalley.play import breaks_trump as _breaks_trump
from backalley.play import restrictions
from backalley.play import trick_winner as _trick_winner
from backalley.rules.deck import deck_cards
from backalley.rules.ruleset import RuleSet
from backalley.state import GameState

__all__ = [
    "Position",
    "breaks_trump",
    "deck_indices",
    "legal_mask",
    "position",
    "seat_teams",
    "trick_winner",
]

_NOBODY: frozenset[int] = frozenset()


def legal_mask(
    rules: RuleSet,
    hand: int,
    trick: Sequence[int],
    trump: int,
    broken: bool,
    seat: int,
    leader: int,
    board_bidders: frozenset[int],
) -> int:
    """The cards of ``hand`` (a bit set) that ``seat`` may play to ``trick``."""
    allowed = hand
    for mask, _reason in restrictions(
        rules, hand, trick, trump, broken, seat, leader, board_bidders
    ):
        allowed &= mask
    return allowed


def trick_winner(rules: RuleSet, trick: Sequence[int], trump: int) -> int:
    """The position in ``trick`` (0 = the leader's card) of the card that wins it."""
    return _trick_winner(trick, trump)


def breaks_trump(rules: RuleSet, trick: Sequence[int], trump: int) -> bool:
    """Whether the completed ``trick`` breaks trump for the rest of the deal."""
    return _breaks_trump(rules.lead, trick, trump)


def deck_indices(rules: RuleSet) -> tuple[int, ...]:
    """The card indices of the rule set's deck, in index order."""
    return deck_cards(rules.deck)


def seat_teams(rules: RuleSet) -> tuple[int, ...]:
    """The side of each seat (its team, or the seat itself without partnerships)."""
    return tuple(rules.seat_teams)


class Position(NamedTuple):
    """The raw facts of a state in the playing phase."""

    rules: RuleSet
    hands: tuple[int, ...]
    trick: tuple[int, ...]
    leader: int
    broken: bool
    trump: int
    board_bidders: frozenset[int]


def position(state: GameState) -> Position | None:
    """The raw facts of ``state``, or ``None`` when it is not in the playing phase."""
    if state.phase is not Phase.PLAYING:
        return None
    trump = state.trump_index
    outcome = state.outcome
    return Position(
        state.rules,
        tuple(state.hand_bits),
        tuple(state.trick_cards),
        state.leader,
        bool(state.broken),
        4 if trump is None else trump,
        _NOBODY if outcome is None else frozenset(outcome.board_bidders),
    )
