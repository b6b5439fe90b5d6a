"""Whether a trick beyond a made contract costs points: the scoring part's
``overtricks_cost`` (one question, asked of its own contract points), and the
plan's answer for a rule set."""

from __future__ import annotations

import backalley as ba
from backalley.rules import AuctionScoring, ContractScoring, ExactBidScoring, PricesOvertricks


def test_under_exact_bid_scoring_an_overtrick_loses_the_bonus() -> None:
    # a contract of 2 made: 2 + 10 points; one trick more: 3 points
    scoring = ExactBidScoring()
    assert scoring.contract_points(ba.Contract(2), 2, 5) == 12
    assert scoring.contract_points(ba.Contract(2), 3, 5) == 3
    assert scoring.overtricks_cost(5)


def test_exact_bid_scoring_without_bonus_or_penalty_has_no_cost() -> None:
    assert not ExactBidScoring(bonus=0).overtricks_cost(5)
    assert not ExactBidScoring(bonus=1).overtricks_cost(5)  # 2 + 1 == 3: no loss
    assert ExactBidScoring(bonus=0, penalty=2).overtricks_cost(5)


def test_contract_and_auction_scoring_pay_overtricks() -> None:
    assert not ContractScoring().overtricks_cost(13)
    assert not ContractScoring(per_overtrick=0).overtricks_cost(13)
    assert ContractScoring(per_overtrick=-1).overtricks_cost(13)
    assert not AuctionScoring().overtricks_cost(13)


def test_the_plan_asks_the_scoring_part() -> None:
    assert ba.variants.EXACT_BID.plan.overtricks_cost(7)
    assert not ba.variants.GAMERULES.plan.overtricks_cost(7)
    assert not ba.variants.VIETNAM.plan.overtricks_cost(13)
    assert isinstance(ExactBidScoring(), PricesOvertricks)
