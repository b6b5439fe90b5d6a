"""Trump turned from the whole deck before the deal (``turned-before-deal``).

- Before each deal the shuffled deck's top card is turned; its suit is trump
  (a joker is put back and the next card turned).  The card is shuffled back
  and the deck shuffled again before the deal, so a deal that uses every card
  has a trump suit and the card turned may be in any hand.
- Each deal takes two shuffles: the one the trump is drawn from, then the
  deal's own; ``new_game(decks=...)`` and documents hold both, in that order.
- Nothing is turned up after the deal; every unseen card may be in any other
  hand.
"""

from __future__ import annotations

import random

import pytest

import backalley as ba
from backalley import houserules, lowlevel
from backalley.bots import MonteCarloBot
from backalley.rules import Deck, Schedule, TurnedBeforeDeal

from ..helpers import deck_order

NO_JOKERS = ba.variants.GAMERULES.replace(
    deck=Deck(jokers=0), trump=TurnedBeforeDeal(), schedule=Schedule((13, 2))
)
"""Four players, 52 cards, the first deal uses every card."""


def _shuffle(top: str) -> list[str]:
    """A shuffle of the 52-card deck with ``top`` first (the rest in card order)."""
    rest = [str(c) for c in ba.CARDS if not c.is_joker and str(c) != top]
    return [top, *rest]


def _full_deal() -> list[str]:
    hands = [" ".join(str(c) for c in ba.CARDS[s * 13 : s * 13 + 13]) for s in range(4)]
    return deck_order(hands, deck=NO_JOKERS.deck)


def test_the_suit_of_the_card_turned_before_the_deal_is_trump() -> None:
    state = ba.new_game(NO_JOKERS, dealer=0, decks=[_shuffle("7H"), _full_deal()])
    assert state.trump is ba.Suit.HEARTS
    assert state.turn_up is None and not state.stock
    # the card turned was shuffled back: every card is dealt, 7H among them
    assert any(ba.parse_card("7H") in state.hand(s) for s in range(4))


def test_a_turned_joker_is_put_back_and_the_next_card_turned() -> None:
    rules = NO_JOKERS.replace(deck=Deck())
    shuffle = ["BJ", "LJ", "QS", *[str(c) for c in ba.CARDS if str(c) not in ("BJ", "LJ", "QS")]]
    deal = [str(c) for c in ba.CARDS]
    state = ba.new_game(rules, dealer=0, decks=[shuffle, deal])
    assert state.trump is ba.Suit.SPADES


def test_seeded_deals_draw_their_trump_from_a_shuffle_of_their_own() -> None:
    trumps = {ba.new_game(NO_JOKERS, seed=seed).trump for seed in range(40)}
    assert trumps == set(ba.Suit)


def test_a_game_replays_from_its_document_and_its_record() -> None:
    rng = random.Random(4)
    state = ba.new_game(NO_JOKERS, seed=11)
    start, moves = state, []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move)
        if len(moves) in (5, 60):
            again = ba.from_json(ba.to_json(state), ba.GameState)
            assert again == state
            view = state.view(state.to_act if state.to_act is not None else 0)
            assert ba.from_json(ba.to_json(view), ba.PlayerView) == view
    record = ba.GameRecord.from_game(start, moves, final=state)
    assert list(ba.replay(record))[-1] == state


def test_every_unseen_card_may_be_in_another_hand() -> None:
    state = ba.new_game(NO_JOKERS, dealer=0, decks=[_shuffle("7H"), _full_deal()])
    view = state.view(0)
    for seat in (1, 2, 3):
        assert set(view.possible_cards(seat)) == set(view.unseen_cards())
    assert ba.parse_card("7H") in view.unseen_cards() or ba.parse_card("7H") in view.hand


def test_a_deal_dealt_again_from_an_order_keeps_the_trump_drawn() -> None:
    state = ba.new_game(NO_JOKERS, dealer=0, decks=[_shuffle("7D")])
    again = lowlevel.deal_order(state, _full_deal())
    assert again.trump is ba.Suit.DIAMONDS and again.hand(0) != state.hand(0)
    assert ba.from_json(ba.to_json(again), ba.GameState) == again


@pytest.mark.parametrize("moves", [3, 30])
def test_the_montecarlo_bot_samples_deals_with_the_trump_drawn(moves: int) -> None:
    rng = random.Random(2)
    state = ba.new_game(NO_JOKERS.replace(schedule=Schedule((5, 4))), seed=3)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))
    if state.is_over:
        pytest.skip("the game ended")
    seat = state.to_act
    assert seat is not None
    bot = MonteCarloBot(seed=1, samples=3, budget=None)
    assert state.is_legal(bot.choose(state.view(seat)))
    assert bot.stats.failed == 0


def test_the_rule_loads_from_house_rules_and_reads_in_the_sheet() -> None:
    rules = houserules.loads('base = "gamerules"\n[trump]\ntype = "turned-before-deal"\n')
    assert isinstance(rules.trump, TurnedBeforeDeal)
    assert ba.from_json(ba.to_json(rules), ba.RuleSet) == rules
    sheet = ba.rules.rules_sheet(rules)
    assert "turns the top card of the whole deck" in sheet
    assert "shuffled again" in sheet


def test_the_openspiel_game_refuses_a_trump_drawn_before_the_deal() -> None:
    openspiel = pytest.importorskip("backalley.adapters.openspiel")
    with pytest.raises(ba.SetupError, match="drawn from a shuffle of its own"):
        openspiel.load_game(NO_JOKERS)
