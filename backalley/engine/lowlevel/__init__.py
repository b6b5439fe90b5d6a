"""The one read-only interface to positions for tools: the engine's raw
forms, and the rule set's answers on them, for code that needs speed more
than comfort (bots, the solver, samplers, adapters to other frameworks, the
batch engine, the command line).

A tool reads a position through the public :class:`~backalley.GameState` and
:class:`~backalley.PlayerView` API and through this module, nothing else of
the engine: when the engine moves, this module keeps its answers.  Every
rule answer here is the rule set's plan's (the parts' methods, remembered),
asked with the deal's own context; none is a rule of its own.

Forms.  A card is an index 0..53 (clubs 0..12, diamonds 13..25, hearts
26..38, spades 39..51, each from 2 up to the ace; ``LJ`` 52, ``BJ`` 53) and a
set of cards a bit set (an ``int`` with bit ``i`` for card ``i``).  A trump
is a :class:`~backalley.Suit`, or ``None`` for a deal without a trump suit
(as ``position.trump`` gives it); tools that keep one row per trump take the
row from :data:`TRUMPS`.  A *position* is a :class:`~backalley.GameState` or
a :class:`~backalley.PlayerView`.  The values returned are the engine's own
and carry no validation.

- Reading a position's raw facts: :func:`core`, :func:`deal_context`,
  :func:`hand_bits`, :func:`trick_cards`, :func:`history`, :func:`broken`,
  :func:`played_bits`, :func:`out_of_play_bits`, :func:`possible_bits`,
  :func:`legal_play_mask`, :func:`dealt_bits`, :func:`stock_order`,
  :func:`turn_up_index`, :func:`discard_bits`, :func:`deals_over`,
  :func:`thrown_in`; a state in the play as one value, :func:`raw_position`
  (with its deal's :class:`DealRules`, :func:`deal_rules`).
- The play's answers on raw forms: :func:`card_order` (the card order under
  a trump; :func:`order_of` a position's), :func:`legal_mask`,
  :func:`trick_winner`, :func:`winner_if`, :func:`breaks_trump` (and, with
  a context made once by :func:`context`, :func:`legal_in` and
  :func:`breaks_in`), :func:`trump_choices`.
- The bidding's and the scoring's answers: :func:`outcome_if`,
  :func:`contracts_if`, :func:`partner_speaks_later`, :func:`deal_points`.
- Dealing, drawing and determinising: :func:`receiver`, :func:`deal_order`
  (a known deck order at the opening of a deal: what frameworks with
  explicit chance nodes need), :func:`opening` (the current deal of a
  position, dealt again), :func:`sample_hands` (the hidden hands drawn
  consistently with a view), :func:`deck_for` (the deck order that deals
  chosen hands as a view's deal) and :func:`determinise` (a full state that
  agrees with a view: what a bot that samples hidden hands needs).
- :func:`playout` plays many moves for bots and simulations without building
  a state per move.
"""

from __future__ import annotations

from backalley.engine.kernel import Deal, Match
from backalley.engine.lowlevel._asking import (
    TRUMPS,
    CardOrder,
    breaks_in,
    breaks_trump,
    card_order,
    context,
    legal_in,
    legal_mask,
    order_of,
    trick_winner,
    trump_choices,
    winner_if,
)
from backalley.engine.lowlevel._dealing import deal_order, opening, receiver
from backalley.engine.lowlevel._determinise import determinise
from backalley.engine.lowlevel._outcomes import (
    QUIET_CALLS,
    calls_to_act,
    contracts_if,
    deal_points,
    outcome_if,
    partner_speaks_later,
)
from backalley.engine.lowlevel._playout import playout
from backalley.engine.lowlevel._reading import (
    DealRules,
    RawPosition,
    StateOrView,
    broken,
    core,
    deal_context,
    deal_rules,
    deals_over,
    dealt_bits,
    discard_bits,
    hand_bits,
    history,
    legal_play_mask,
    out_of_play_bits,
    played_bits,
    played_from_start,
    possible_bits,
    raw_position,
    stock_order,
    thrown_in,
    trick_cards,
    trump_index,
    turn_up_index,
)
from backalley.engine.lowlevel._sampling import Draws, deck_for, sample_hands
from backalley.engine.state import Raw
from backalley.values import RawTrick

__all__ = [
    "QUIET_CALLS",
    "TRUMPS",
    "CardOrder",
    "Deal",
    "DealRules",
    "Draws",
    "Match",
    "Raw",
    "RawPosition",
    "RawTrick",
    "StateOrView",
    "breaks_in",
    "breaks_trump",
    "broken",
    "card_order",
    "context",
    "calls_to_act",
    "contracts_if",
    "core",
    "deal_context",
    "deal_order",
    "deal_points",
    "deal_rules",
    "deals_over",
    "deck_for",
    "dealt_bits",
    "determinise",
    "discard_bits",
    "hand_bits",
    "history",
    "legal_in",
    "legal_mask",
    "legal_play_mask",
    "opening",
    "order_of",
    "out_of_play_bits",
    "outcome_if",
    "partner_speaks_later",
    "played_bits",
    "played_from_start",
    "playout",
    "possible_bits",
    "raw_position",
    "receiver",
    "sample_hands",
    "stock_order",
    "thrown_in",
    "trick_cards",
    "trick_winner",
    "trump_choices",
    "trump_index",
    "turn_up_index",
    "winner_if",
]


def __getattr__(name: str) -> object:
    """``Core``, the former name of :class:`Raw` (one name for one thing),
    still imports, with a warning."""
    if name == "Core":
        import warnings

        warnings.warn(
            "backalley.engine.lowlevel.Core is deprecated; use lowlevel.Raw (the same class)",
            DeprecationWarning,
            stacklevel=2,
        )
        return Raw
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
