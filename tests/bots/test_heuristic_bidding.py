"""The heuristic bot's bidding against par: the fitted trick table
(backalley/bots/_tricks_table.py), its features, the sure tricks, the side's
trick distribution, and the cold board."""

from __future__ import annotations

import random

import pytest

import backalley as ba
from backalley.bots import HeuristicBot
from backalley.bots import _tricks_table as TT
from backalley.bots import bidding_model as BM
from backalley.bots import heuristic as H
from backalley.engine import lowlevel

from ..helpers import position

COLD = "BJ LJ AS KS QS JS TS 9S AH KH AD KD AC"
OTHERS = [
    "8S 7S 6S QH JH TH 9H QD JD TD KC QC JC",
    "5S 4S 3S 8H 7H 6H 9D 8D 7D TC 9C 8C 7C",
    "5H 4H 3H 2H 6D 5D 4D 3D 2D 6C 5C 4C 3C",
]


def _cold_deal(seat: int) -> ba.GameState:
    """A 13-card gamerules deal (spades trump) with the cold hand at ``seat``."""
    hands = list(OTHERS)
    hands.insert(seat, COLD)
    return position(hands, "2S", rules=ba.variants.GAMERULES)


@pytest.mark.parametrize("seat", range(4))
def test_the_cold_hand_bids_board_wherever_it_sits(seat: int) -> None:
    state = _cold_deal(seat)
    assert state.hand_size == 13
    bots = [HeuristicBot(seed=s) for s in range(4)]
    while state.to_act != seat:
        state = state.apply(bots[state.to_act].choose(state.view(state.to_act)))  # type: ignore[index]
    view = state.view(seat)
    est = HeuristicBot().bidding_estimate(view)
    assert est.sure == 13
    assert HeuristicBot().choose(view) == ba.BoardBid()


def test_sure_tricks_need_the_trumps_drawn() -> None:
    view = _cold_deal(1).view(1)
    hand = lowlevel.hand_bits(view, view.seat)
    unseen = H.unseen_bits(view)
    order = lowlevel.order_of(view)
    assert H.sure_tricks(hand, unseen, order, 13) == 13
    # without the little joker the top trumps are the big joker alone
    little = 1 << ba.parse_card("LJ").index
    two = 1 << ba.parse_card("2D").index
    weaker = (hand & ~little) | two
    assert H.sure_tricks(weaker, (unseen | little) & ~two, order, 13) == 1


def test_the_table_loads_with_the_bots_features() -> None:
    # the features are defined once, in the bidding model; the heuristic and the
    # generated table read that one definition
    assert H.FEATURES is BM.FEATURES
    assert not hasattr(TT, "FEATURES")
    assert TT.ROWS
    have = {(r[0], r[1], r[2]) for r in TT.ROWS}
    for h in range(1, 14):
        assert (4, True, h) in have, f"no row for 4 players in partnerships, {h} cards"
    free = {H.FEATURES.index("const"), H.FEATURES.index("lead")}
    for row in TT.ROWS:
        _players, _partnered, h, deals, pair, pair_sigma, solo, solo_sigma, share = row
        assert len(pair) == len(solo) == len(H.FEATURES)
        assert deals >= 20 and pair_sigma > 0 and solo_sigma > 0 and 0 <= share <= h
        for i, (a, b) in enumerate(zip(pair, solo)):
            if i not in free:
                assert a >= 0 and b >= 0, (row[:3], H.FEATURES[i])
    # a table the fit has no row for uses the nearest one
    assert H.table_row(6, True, 9)[:3] == (4, True, 9)
    assert H.table_row(4, True, 17)[2] == 13


def _random_hand(rng: random.Random, h: int, t: int) -> tuple[int, int]:
    deck = list(range(54))
    rng.shuffle(deck)
    hand = sum(1 << c for c in deck[:h])
    unseen = sum(1 << c for c in deck[h + 1 :])  # deck[h] is the turn-up
    if not hand & lowlevel.card_order(ba.variants.GAMERULES, lowlevel.TRUMPS[t]).trumps:
        hand = hand & ~(1 << deck[0]) | (1 << 52)  # keep a trump to upgrade
        unseen &= ~(1 << 52)
        unseen |= 1 << deck[0]
    return hand, unseen


@pytest.mark.parametrize("t", [0, 3, 4])
def test_more_or_higher_trumps_never_mean_fewer_tricks(t: int) -> None:
    rng = random.Random(t)
    order = lowlevel.card_order(ba.variants.GAMERULES, lowlevel.TRUMPS[t])
    tm = order.trumps
    for _ in range(150):
        row = rng.choice(TT.ROWS)
        h = row[2]
        hand, unseen = _random_hand(rng, h, t)
        before = H.features_of(hand, unseen, order, 0.5)
        # swap one of the hand's trumps for an unseen higher one
        mine = [c for c in range(54) if hand >> c & 1 and tm >> c & 1]
        low = rng.choice(mine)
        higher = [c for c in range(54) if unseen >> c & 1 and order.above[low] >> c & 1]
        if not higher:
            continue
        up = rng.choice(higher)
        hand2 = hand & ~(1 << low) | (1 << up)
        unseen2 = unseen & ~(1 << up) | (1 << low)
        after = H.features_of(hand2, unseen2, order, 0.5)
        for weights in (row[4], row[6]):
            old = sum(w * f for w, f in zip(weights, before))
            new = sum(w * f for w, f in zip(weights, after))
            assert new >= old - 1e-9, (row[:3], before, after)


def test_side_distribution() -> None:
    dist = H.side_distribution(6.3, 1.2, 13)
    assert len(dist) == 14 and abs(sum(dist) - 1) < 1e-9
    assert max(range(14), key=dist.__getitem__) == 6
    floor = H.side_distribution(2.0, 1.5, 13, sure=4)
    assert abs(sum(floor) - 1) < 1e-9 and sum(floor[:4]) == 0
    assert H.side_distribution(9.0, 1.0, 13, sure=13)[13] == 1.0


def test_a_stronger_hand_bids_at_least_as_much() -> None:
    """The first bidder's call grows with the hand: a weak hand passes, the
    same hand with the top trumps bids."""
    weak = position(
        ["2D 3D 4D 5H 6H", "AS 7D 8D 9D TD", "3H 4H 7H 8H 9H", "2C 3C 4C 5C 6C"],
        "2S",
        rules=ba.variants.GAMERULES.replace(schedule=ba.rules.Schedule((5,))),
    )
    strong = position(
        ["2D 3D 4D 5H 6H", "BJ LJ AS KS TD", "3H 4H 7H 8H 9H", "2C 3C 4C 5C 6C"],
        "2S",
        rules=ba.variants.GAMERULES.replace(schedule=ba.rules.Schedule((5,))),
    )
    a = HeuristicBot().choose(weak.view(1))
    b = HeuristicBot().choose(strong.view(1))
    tricks = {ba.Pass(): 0}
    assert isinstance(b, ba.Bid) and b.tricks >= 2
    assert tricks.get(a, getattr(a, "tricks", 0)) < b.tricks
