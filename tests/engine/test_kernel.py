"""A state remembers the moves made since the game began and the deck orders
that did not come from its seed, so that replaying them from a new game gives
the very same state - however its deals were dealt."""

from __future__ import annotations

import random

import pytest

import backalley as ba
from backalley import lowlevel
from backalley.cards import CARDS

VARIANTS = ba.variants.names()


def _replay(state: ba.GameState) -> ba.GameState:
    decks = [[CARDS[i] for i in order] for order in lowlevel.core(state).match.decks]
    again = ba.new_game(state.rules, seed=state.seed, dealer=state.first_dealer, decks=decks)
    for move in state.moves:
        again = again.apply(move)
    return again


@pytest.mark.parametrize("name", VARIANTS)
def test_replaying_a_states_moves_gives_the_same_state(name: str) -> None:
    rng = random.Random(3)
    state = ba.new_game(ba.variants.get(name), seed=3)
    for k in range(300):
        if state.is_over:
            break
        if k % 37 == 0:
            assert _replay(state) == state
        state = state.apply(rng.choice(state.legal_moves()))
    assert _replay(state) == state
    assert list(state.moves[: len(state.moves)]) == list(state.moves)


@pytest.mark.parametrize("name", ["gamerules", "vietnam", "cutthroat-3"])
def test_deck_orders_imposed_at_a_deal_are_replayed(name: str) -> None:
    """A deal dealt from a given order (as a framework with its own chance
    nodes deals) is remembered, and the deals before it from the seed too."""
    rules = ba.variants.get(name)
    rng = random.Random(8)
    state = ba.new_game(rules, seed=8)
    for _deal in range(3):
        if state.is_over:
            break
        order = list(rules.plan.deck_cards)
        rng.shuffle(order)
        state = lowlevel.deal_order(state, order)
        state = lowlevel.playout(state, rng.choice, until="deal")
    assert len(lowlevel.core(state).match.decks) >= 2
    assert _replay(state) == state


def test_a_game_over_remembers_every_move_once() -> None:
    state = lowlevel.playout(ba.new_game(seed=2), random.Random(2).choice)
    assert state.is_over
    plays = sum(1 for m in state.moves if isinstance(m, ba.Play))
    assert plays == sum(r.hand_size for r in state.deal_results) * state.rules.players
    assert _replay(state) == state
