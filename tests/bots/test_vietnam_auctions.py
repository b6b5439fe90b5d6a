"""The Vietnam auction is playable under its default reading: with
``counter_holder = announcer`` a counter multiplies the announcing side's
contract, as a double in bridge, and heuristic bots - who weigh each call by
how the later seats would answer it - spread their contracts over the numbers
and counter when it pays.  ``benchmarks/vietnam_auctions.py`` measures the same
figures (and those of the earlier reading, under which the last side to speak
took every deal with "bid 1, counter, counter, counter").
"""

from __future__ import annotations

import sys

import pytest

import backalley as ba
from backalley.bots import HeuristicBot
from backalley.rules import Auction, CounterHolder

from .. import ROOT

BENCHMARKS = ROOT / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import vietnam_auctions  # noqa: E402


@pytest.mark.slow
def test_vietnam_contracts_spread_and_no_call_sequence_dominates() -> None:
    """200 deals between heuristic bots (100 two-deal games, seeds 0..99): no call
    sequence in more than a quarter of the deals, the contracts over four numbers or
    more, the declarers make more than 55 % of them, and a counter step gains its
    side 10 points or less either way on average: the bots counter as far as it
    pays, no further and no less."""
    figures = vietnam_auctions.measure(ba.variants.VIETNAM, 200, seed=0)
    assert figures["deals"] == 200
    assert figures["most_common_share"] <= 0.25, figures
    assert figures["distinct_numbers"] >= 4, figures
    assert figures["declarers_made"] >= 0.55, figures
    assert figures["countered"] > 0
    assert abs(figures["mean_gain_of_a_counter_call"]) <= 10, figures


def test_a_bot_overbids_rather_than_doubles_a_number_it_can_beat() -> None:
    """The first speaker's low number is no gift: a later seat whose side holds the
    majority of the tricks takes the contract with a higher number (a double would only
    multiply the other side's points), and a seat does not open low when the other side
    would then overbid: across a few deals, no auction ends at a contract below 7 of 13."""
    figures = vietnam_auctions.measure(ba.variants.VIETNAM, 40, seed=7)
    assert min(figures["contract_numbers"]) >= 7, figures


def test_the_earlier_reading_keeps_its_sheet_warning_and_its_counters() -> None:
    """Under counter_holder = countering-side the counters take the contract over (the bots
    still play it to the end)."""
    rules = ba.variants.VIETNAM.replace(
        bidding=Auction(counter_holder=CounterHolder.COUNTERING_SIDE)
    )
    state = ba.new_game(rules, seed=3)
    bots = [HeuristicBot((3, s)) for s in range(4)]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state = state.apply(bots[seat].choose(state.view(seat)))
    assert len(state.deal_results) == 2
    assert "Under this reading a counter costs nothing" in rules.describe()
