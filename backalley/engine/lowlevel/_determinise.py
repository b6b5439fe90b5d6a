"""Determinising a view: a full game state that agrees with what one seat
knows and deals chosen hands to the others."""

from __future__ import annotations

from collections.abc import Sequence

from backalley.cards import CARDS
from backalley.engine.lowlevel._sampling import deck_for
from backalley.engine.state import GameState
from backalley.engine.views import PlayerView
from backalley.moves import NameTrump, Play
from backalley.values import Phase

__all__ = ["determinise"]


def determinise(view: PlayerView, hands: Sequence[int]) -> GameState:
    """A full game state that agrees with ``view`` and in which the seats hold
    ``hands`` (bit sets, the cards each seat holds *now*; the view's own seat
    must hold its own hand).

    The state is the view's game at the opening of its current deal (the
    same rule set, scores and deal results, so the same deal index and deal
    context: :func:`opening`), dealt from a deck order built so that the
    trump part's turn-up handling reproduces the view's turn-up and discards
    (:func:`deck_for`), with the view's calls,
    trump and plays replayed.  When the deal is scored, its result is the
    one after the view's ``deal_results``.  Raises
    :class:`~backalley.BackAlleyError` when no such deal exists.
    """
    state = deck_for(view, hands)[1]
    for call in view.calls:
        state = state.apply(call)
    if state.phase is Phase.NAMING_TRUMP and view.phase is not Phase.NAMING_TRUMP:
        state = state.apply(NameTrump(view.trump))
    for _lead, cards, _win in view._history:
        for card in cards:
            state = state.apply_unchecked(Play(CARDS[card]))
    for card in view._trick_cards:
        state = state.apply_unchecked(Play(CARDS[card]))
    return state
