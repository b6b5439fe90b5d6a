"""The heuristic bot where each player is alone and a trick beyond one's bid
costs points (plain Oh Hell: the ``exact-bid`` preset without jokers, the
player left of the dealer leading, trump led at any time): the trick table
fitted to its own play (backalley/bots/_tricks_exact.py), its bids, and its
play once its bid is made."""

from __future__ import annotations

import pytest

import backalley as ba
from backalley.bots import HeuristicBot
from backalley.bots import _tricks_exact as TX
from backalley.bots import _tricks_table as TT
from backalley.bots import heuristic as H
from backalley.rules import Deck, FirstLead, LeadPolicy, Schedule, TrumpLead

from ..helpers import bid_round, position, short

OH_HELL = ba.variants.EXACT_BID.replace(
    deck=Deck(jokers=0),
    schedule=Schedule.down_and_up(12, 1),
    lead=LeadPolicy(first_lead=FirstLead.LEFT_OF_DEALER, trump_lead=TrumpLead.ANY_TIME),
)


def test_the_fitted_table_loads() -> None:
    assert {r[2] for r in TX.ROWS} >= set(range(1, 13))
    for row in TX.ROWS:
        players, partnered, _h, deals, pair, _s, solo, _ss, share = row
        assert (players, partnered) == (4, False) and deals >= 20
        assert len(pair) == len(solo) == len(H.FEATURES)
        assert 0 < share <= row[2]
    # alone under exact-bid scoring: this table; else the double-dummy one
    assert H.table_row(4, False, 12, exact=True) in TX.ROWS
    assert H.table_row(4, False, 12) in TT.ROWS
    assert H.table_row(4, True, 12, exact=True) in TT.ROWS


def test_the_rule_set_says_which_table() -> None:
    hands = ["", "AS KS QS 2H 3D", "", ""]
    view = position(hands, "4C", rules=short(OH_HELL, 5), hand_size=5).view(1)
    exact = H.estimate(view)
    row = H.table_row(4, False, 5, exact=True)
    assert exact.mean_share == row[8]
    contract = short(OH_HELL.replace(scoring=ba.rules.ContractScoring()), 5)
    view = position(hands, "4C", rules=contract, hand_size=5).view(1)
    assert H.estimate(view).mean_share == H.table_row(4, False, 5)[8]


def test_trick_worth_reads_the_points() -> None:
    exact = [0, 1, 12, 3, 4]  # exact-bid points for 0..4 tricks, a contract of 2
    assert H.trick_worth(exact, 0, 4) == 6.0  # two tricks to go for 12 points
    assert H.trick_worth(exact, 2, 4) == -9.0  # made: one more loses the bonus
    assert H.trick_worth(exact, 0, 1) == 1.0  # the contract out of reach: a point a trick
    contract = [-10, -10, 10, 11, 12]  # contract scoring: overtricks score
    assert H.trick_worth(contract, 0, 4) == 22 / 4
    assert H.trick_worth(contract, 2, 4) == 1.0


@pytest.mark.parametrize("sure", [1, 2, 3, 4])
def test_sure_winners_are_bid(sure: int) -> None:
    """A hand of ``sure`` top trumps and small plain cards bids about that many."""
    trumps = ["AS", "KS", "QS", "JS"][:sure]
    small = ["2H", "3H", "2D", "3D", "2C", "3C", "4H", "4D"][: 8 - sure]
    state = position([[], trumps + small, [], []], "5S", rules=short(OH_HELL, 8), hand_size=8)
    assert state.to_act == 1  # left of the dealer: the first to speak
    call = HeuristicBot().choose(state.view(1))
    # its sure tricks, or one more: a low card may win once the others' bids are made
    assert isinstance(call, ba.Bid) and sure <= call.tricks <= sure + 1


def _twelve(bid: str) -> ba.GameState:
    """A 12-card deal, clubs trump, seat 2 the dealer and bidding ``bid``, the
    others 3 each: seat 3 leads the five of hearts, seats 0 and 1 follow low,
    and seat 2, last to the trick, holds the ace and the two of hearts."""
    plain = [str(c) for c in ba.CARDS if not c.is_joker and c.suit.value in "SD"]
    plain += [f"{r}C" for r in "23456789T"]
    hands = [
        ["3H", "4H", *plain[:10]],
        ["6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", *plain[10:14]],
        ["AH", "2H", *plain[14:24]],
        ["5H", *plain[24:35]],
    ]
    state = position(hands, "KC", rules=short(OH_HELL, 12), dealer=2)
    state = bid_round(state, {3: "bid 3", 0: "bid 3", 1: "bid 3", 2: bid})
    for card in ("5H", "3H", "6H"):
        state = state.apply(ba.Play(ba.parse_card(card)))
    assert state.to_act == 2
    return state


def test_a_seat_that_bid_nothing_ducks_from_the_first_trick() -> None:
    # under exact-bid scoring a trick more than the bid loses the bonus of 10
    state = _twelve("bid 0")
    assert HeuristicBot().choose(state.view(2)) == ba.Play(ba.parse_card("2H"))


def test_a_seat_short_of_its_bid_takes_the_trick() -> None:
    state = _twelve("bid 1")
    assert HeuristicBot().choose(state.view(2)) == ba.Play(ba.parse_card("AH"))
