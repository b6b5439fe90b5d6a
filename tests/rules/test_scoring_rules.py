"""Scoring house rules, rule by rule: exact-bid scoring (``ExactBidScoring``,
tag ``exact-bid``), points that depend on the hand size (``hand_size_multipliers``
of ``ContractScoring`` and ``ExactBidScoring``), and the presets built on them
(``score-keeper-5``, ``exact-bid``).

Positions are built exactly from deck orders (see ``tests/helpers.py``); each
test's docstring states the rule it checks.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, find, settings

import backalley as ba
from backalley import houserules
from backalley.rules import (
    ContractScoring,
    ExactBidScoring,
    HandSizeMultiplier,
    Rainbow,
    Schedule,
)
from backalley.rules.registry import option_types

from ..helpers import bid_round, calls, deck_for, play_to_tricks, position, refused, short
from ..make_records import path_of
from ..strategies import option_values, registered_part, registry_rule_sets

V = ba.variants
GR = V.GAMERULES

# exact-bid scoring over the gamerules bidding throws in a deal everyone bid 0, and says
# so (tests/rules/test_trump_and_rate_options.py); these tests use such rule sets on purpose
pytestmark = pytest.mark.filterwarnings("ignore::backalley.errors.RuleSetWarning")
EXACT = V.EXACT_BID
KEEPER = V.SCORE_KEEPER_5
X = HandSizeMultiplier


def points(state: ba.GameState) -> tuple[int, ...]:
    """The points of the last deal scored."""
    return state.deal_results[-1].points


def sheet(rules: ba.RuleSet) -> str:
    """The sheet's paragraphs (without the settings block for software), spaces normalized."""
    text = re.split(r"\n(?:Options|Settings)[^\n]*:\n", rules.describe())[0]
    return " ".join(text.split())


def play_out(state: ba.GameState) -> ba.GameState:
    """Play the current deal to its end, each seat playing its first legal card."""
    deals = state.deals_played
    while state.deals_played == deals:
        state = state.apply(state.legal_moves()[0])
    return state


# Three cards each, trump spades (9S turned): seat 3 holds the top trumps.
STRONG_3 = ["2C 3C 4C", "5C 6C 7C", "8C 9C TC", "BJ LJ AS"]
WEAK_3 = ["2S 3C 4C", "5C 6C 7C", "8C 9C TC", "AC KC QC"]


def exact_game(scoring: ExactBidScoring | None = None, *sizes: int) -> ba.RuleSet:
    """The exact-bid preset (four players alone) on a short schedule."""
    rules = EXACT if scoring is None else EXACT.replace(scoring=scoring)
    return short(rules, *(sizes or (3,)))


def exact_deal(scoring: ExactBidScoring | None = None) -> ba.GameState:
    """A 3-card deal of the exact-bid game (seeded deck), dealer 0: seat 1 bids first."""
    return ba.new_game(exact_game(scoring), dealer=0, seed=33)


# ================================================================= exact bid


EXACT_BIDS = {1: "bid 1", 2: "bid 0", 3: "bid 2", 0: "bid 0"}


def test_exact_bid_scores_tricks_plus_the_bonus():
    """A player who takes exactly their bid scores 1 per trick taken plus the bonus (10);
    a bid of 0 is made by taking no trick."""
    state = play_to_tricks(bid_round(exact_deal(), EXACT_BIDS), (0, 1, 0, 2))
    assert state.deal_results[0].tricks == (0, 1, 0, 2)
    assert points(state) == (10, 11, 10, 12)
    assert state.scores == (10, 11, 10, 12)


@pytest.mark.parametrize(
    ("tricks", "expected"),
    [
        ((1, 0, 0, 2), (1, 0, 10, 12)),  # seat 0 one over its 0, seat 1 one under its 1
        ((0, 1, 1, 1), (10, 11, 1, 1)),  # seat 2 one over, seat 3 one under
        ((0, 2, 0, 1), (10, 2, 10, 1)),
    ],
)
def test_off_by_one_scores_the_tricks_only(tricks, expected):
    """A player who takes one trick more or fewer than their bid scores 1 per trick taken,
    no bonus (penalty 0, the default)."""
    state = play_to_tricks(bid_round(exact_deal(), EXACT_BIDS), tricks)
    assert points(state) == expected


@pytest.mark.parametrize(
    ("tricks", "expected"),
    [
        ((1, 0, 0, 2), (1 - 3, 0 - 3, 10, 12)),
        ((0, 2, 0, 1), (10, 2 - 3, 10, 1 - 3)),
        ((2, 0, 0, 1), (2 - 3 * 2, 0 - 3, 10, 1 - 3)),  # two off, one off, one off
    ],
)
def test_the_penalty_per_trick_off(tricks, expected):
    """With ``penalty = p``, a missed bid scores the tricks taken less p per trick over or
    under the bid; an exact bid still scores tricks plus the bonus."""
    state = bid_round(exact_deal(ExactBidScoring(penalty=3)), EXACT_BIDS)
    state = play_to_tricks(state, tricks)
    assert points(state) == expected


def test_the_bonus_is_a_parameter():
    """``bonus`` is the points for an exact bid, on top of 1 per trick taken."""
    state = bid_round(exact_deal(ExactBidScoring(bonus=5)), EXACT_BIDS)
    state = play_to_tricks(state, (0, 1, 1, 1))
    assert points(state) == (5, 6, 1, 1)


def test_a_deal_where_everyone_bids_zero_is_played():
    """In the exact-bid preset every player may bid 0 (no pass, no board), and the deal is
    played: whoever takes no trick makes their 0."""
    state = exact_deal()
    assert refused(state, "pass") is ba.Reason.PASS_NOT_ALLOWED
    assert refused(state, "board") is ba.Reason.BOARD_NOT_ALLOWED
    assert ba.Bid(3) in state.legal_moves()
    state = bid_round(state, {1: "bid 0", 2: "bid 0", 3: "bid 0", 0: "bid 0"})
    assert state.phase is ba.Phase.PLAYING
    assert state.to_act == 1  # nobody bid: the player left of the dealer leads
    state = play_to_tricks(state, (0, 0, 1, 2))
    assert points(state) == (10, 10, 1, 2)


def test_exact_bid_board_is_a_bid_of_every_trick_with_multiplied_stakes():
    """Under exact-bid scoring a board is a contract of every trick; the board's multiplier
    multiplies the bonus and the penalty (partnerships: each side's contract is its sum)."""
    rules = short(GR.replace(scoring=ExactBidScoring(penalty=2)), 3)
    made = position(STRONG_3, "9S", rules=rules)
    state = bid_round(made, {1: "board", 2: "pass", 3: "board", 0: "pass"})
    assert state.contracts[1] == ba.Contract(3, board=True, multiplier=2)
    state = play_to_tricks(state, (0, 3))
    # side 1 takes all 3: 3 + 10 x 2; side 0 (both passed: a contract of 0) takes none: 0 + 10
    assert points(state) == (10, 3 + 10 * 2)
    failed = position(WEAK_3, "9S", rules=rules)
    state = bid_round(failed, {1: "pass", 2: "pass", 3: "board", 0: "bid 1"})
    state = play_to_tricks(state, (1, 2))
    # side 1's board is one trick short: 2 - 2 x 1 x 1; side 0 makes its 1 exactly: 1 + 10
    assert points(state) == (11, 0)


VIETNAM_EXACT = V.VIETNAM.replace(scoring=ExactBidScoring(penalty=4), schedule=Schedule((3,)))


def test_a_side_without_a_contract_scores_its_tricks():
    """Under an auction, the defenders have no contract: they score 1 per trick taken, no
    bonus and no penalty; the declarer's side is scored on its contract."""
    state = position(WEAK_3, rules=VIETNAM_EXACT)
    state = calls(state, "bid 2", "pass", "pass", "pass", "trump S")
    assert state.contracts == (None, ba.Contract(2, declarer=1))
    state = play_to_tricks(state, (1, 2))  # seat 0's 2S trumps the last trick
    assert points(state) == (1, 2 + 10)
    state = position(WEAK_3, rules=VIETNAM_EXACT)
    state = play_to_tricks(calls(state, "bid 2", "pass", "pass", "pass", "trump C"), (0, 3))
    assert points(state) == (0, 3 - 4)


def test_an_auction_counter_multiplies_the_exact_bid_stakes():
    """A doubled contract under exact-bid scoring doubles the bonus (and the penalty)."""
    state = calls(position(WEAK_3, rules=VIETNAM_EXACT), "pass", "pass", "bid 2", "counter")
    assert state.contracts == (None, ba.Contract(2, multiplier=2, declarer=3))
    state = play_to_tricks(calls(state, "trump S"), (1, 2))
    assert points(state) == (1, 2 + 10 * 2)
    state = calls(position(WEAK_3, rules=VIETNAM_EXACT), "pass", "pass", "bid 2", "counter")
    state = play_to_tricks(calls(state, "trump C"), (0, 3))
    assert points(state) == (0, 3 - 4 * 2)


# ===================================================== hand-size multipliers


def test_hand_size_multiplier_on_a_made_and_a_set_board():
    """With ``hand_size_multipliers = [{hand_size = 1, times = 10}]`` every contract's points
    on the 1-card deal count ten times over, made or set."""
    rules = short(GR.replace(scoring=ContractScoring(hand_size_multipliers=[X(1, 10)])), 1)
    made = position(["2C", "3C", "4C", "BJ"], "9S", rules=rules)
    state = play_to_tricks(bid_round(made, {1: "pass", 2: "pass", 3: "board", 0: "pass"}), (0, 1))
    assert points(state) == (0, 10 * 1 * 1 * 10)
    failed = position(["AC", "3C", "4C", "2C"], "9S", rules=rules)
    state = play_to_tricks(bid_round(failed, {1: "pass", 2: "pass", 3: "board", 0: "pass"}), (1, 0))
    # side 1's board is set; side 0 (both passed) scores its trick as an overtrick: both x10
    assert points(state) == (1 * 10, -10 * 1 * 1 * 10)


@pytest.mark.parametrize(
    ("bids", "tricks", "expected"),
    [
        ({1: "bid 2", 2: "bid 1", 3: "pass", 0: "pass"}, (0, 3), (-5 * 1 * 2, (5 * 2 + 1) * 2)),
        ({1: "bid 2", 2: "bid 1", 3: "pass", 0: "pass"}, (2, 1), ((5 + 1) * 2, -5 * 2 * 2)),
    ],
)
def test_hand_size_multiplier_on_numeric_contracts(bids, tricks, expected):
    """A hand-size multiplier applies to made numeric contracts (bid tricks and overtricks)
    and to set ones alike."""
    scoring = ContractScoring(hand_size_multipliers=(X(3, 2),))
    state = ba.new_game(short(GR.replace(scoring=scoring), 3), dealer=0, seed=8)
    state = play_to_tricks(bid_round(state, bids), tricks)
    assert points(state) == expected


def test_deals_of_other_sizes_count_once():
    """A deal whose hand size no multiplier names counts once (x1)."""
    scoring = ContractScoring(hand_size_multipliers=(X(3, 2),))
    state = ba.new_game(short(GR.replace(scoring=scoring), 3, 2), dealer=0, seed=7)
    state = bid_round(state, {1: "bid 2", 2: "bid 1", 3: "pass", 0: "pass"})
    state = play_to_tricks(state, (1, 2))
    assert state.scores == (5 * 2, 10 * 2)  # the 3-card deal, x2
    state = bid_round(state, {2: "bid 1", 3: "pass", 0: "pass", 1: "pass"})
    state = play_to_tricks(state, (0, 2))
    assert points(state) == (-5, 2)  # the 2-card deal, x1
    assert state.scores == (10 - 5, 20 + 2)


def test_the_rainbow_bonus_is_not_multiplied():
    """The hand-size multiplier multiplies contract points; a rainbow bonus on the same deal
    is added once."""
    scoring = ContractScoring(rainbow=Rainbow(4, 10), hand_size_multipliers=(X(4, 3),))
    rules = short(GR.replace(scoring=scoring), 4)
    hands = ["2C 2D 2H 3S", "3C 4C 5C 6C", "3D 4D 5D 6D", "3H 4H 5H 6H"]
    state = bid_round(
        position(hands, "9S", rules=rules), {1: "bid 1", 2: "pass", 3: "pass", 0: "pass"}
    )
    state = play_out(state)
    t0, t1 = state.deal_results[0].tricks
    side1 = 5 + (t1 - 1) if t1 >= 1 else -5
    assert points(state) == (3 * t0 + 10, 3 * side1)


def test_hand_size_multiplier_on_exact_bid_scoring():
    """Exact-bid points, exact or missed, count ``times`` over on the deals named."""
    scoring = ExactBidScoring(penalty=3, hand_size_multipliers=(X(1, 10),))
    rules = exact_game(scoring, 1)
    state = position(["2C", "AC", "3C", "4C"], "9S", rules=rules)
    state = bid_round(state, {1: "bid 1", 2: "bid 1", 3: "bid 0", 0: "bid 0"})
    state = play_to_tricks(state, (0, 1, 0, 0))
    assert points(state) == (10 * 10, (1 + 10) * 10, (0 - 3) * 10, 10 * 10)


def test_hand_size_multipliers_are_checked():
    """A multiplier is refused for a hand size the schedule never deals (naming scoring and
    schedule), for a hand size named twice, and for a count below 1."""
    with pytest.raises(ba.RuleSetError, match=r"scoring and schedule: .* 1-card deal"):
        V.VIETNAM.replace(scoring=ExactBidScoring(hand_size_multipliers=(X(1, 10),)))
    with pytest.raises(ba.RuleSetError, match="names the 1-card deal more than once"):
        ContractScoring(hand_size_multipliers=(X(1, 10), X(2, 3), X(1, 2)))
    with pytest.raises(ba.RuleSetError, match="times must be a whole number >= 1"):
        X(1, 0)
    with pytest.raises(ba.RuleSetError, match="must be a list of HandSizeMultiplier"):
        ContractScoring(hand_size_multipliers=(1, 10))  # type: ignore[arg-type]


def test_sheets_describe_the_new_rules():
    """The sheet says the exact-bid scoring and the multipliers in words."""
    scoring = ExactBidScoring(penalty=2, hand_size_multipliers=(X(1, 10), X(13, 2)))
    text = sheet(V.CUTTHROAT_3.replace(scoring=scoring))
    assert (
        "A player who takes exactly their contract of b tricks scores 1 point per trick taken "
        "plus a bonus of 10; a player who takes more or fewer scores 1 point per trick taken, "
        "less 2 per trick over or under the contract."
    ) in text
    assert (
        "A board is a contract of every trick; its multiplier multiplies the bonus and the penalty."
        in text
    )
    assert "These points count x10 on the 1-card deal and x2 on the 13-card deal." in text
    contract = GR.replace(scoring=ContractScoring(hand_size_multipliers=(X(1, 10),)))
    assert "These points, made or set, count x10 on the 1-card deal." in sheet(contract)
    auction = sheet(V.VIETNAM.replace(scoring=ExactBidScoring()))
    assert "A side without a contract scores 1 point per trick taken." in auction
    assert "board" not in auction.lower()
    assert " count x" not in sheet(GR)  # nothing said while every deal counts once
    assert "hand_size_multipliers=(hand_size=1, times=10)" in contract.describe()  # settings


# ================================================================= documents


TOML = """
name = "our table"
base = "cutthroat-3"

[scoring]
type = "exact-bid"
penalty = 2
hand_size_multipliers = [{ hand_size = 1, times = 10 }, { hand_size = 13, times = 2 }]
"""


def test_exact_bid_and_multipliers_load_from_toml():
    """A house-rules file names the exact-bid part and its options, the multipliers as a
    list of tables."""
    rules = houserules.loads(TOML)
    assert rules.scoring == ExactBidScoring(penalty=2, hand_size_multipliers=(X(1, 10), X(13, 2)))
    assert rules.seating == V.CUTTHROAT_3.seating
    contract = houserules.loads(
        'base = "gamerules"\n[scoring]\nhand_size_multipliers = [{ hand_size = 1, times = 10 }]\n'
    )
    assert contract.scoring == ContractScoring(hand_size_multipliers=(X(1, 10),))


@pytest.mark.parametrize(
    "rules",
    [
        houserules.loads(TOML),
        GR.replace(
            scoring=ContractScoring(rainbow=Rainbow(4, 8), hand_size_multipliers=(X(1, 10),))
        ),
        KEEPER,
        EXACT,
    ],
    ids=["exact-bid-toml", "contract-multiplied", "score-keeper-5", "exact-bid"],
)
def test_json_and_toml_round_trips(rules):
    """The new part and option are written and read back equal, as JSON and as TOML."""
    assert ba.from_json(ba.to_json(rules), ba.RuleSet) == rules
    assert houserules.loads(houserules.dumps_toml(rules)) == rules
    assert houserules.loads(ba.to_json(rules), format="json") == rules


@pytest.mark.parametrize(
    ("line", "where"),
    [
        ("hand_size_multipliers = [{ hand_size = 1 }]", "scoring.hand_size_multipliers[0]"),
        ('hand_size_multipliers = [{ hand_size = 1, times = "x" }]', "times"),
        (
            "hand_size_multipliers = [{ hand_size = 1, times = 0 }]",
            "scoring.hand_size_multipliers[0].times",
        ),
        ("hand_size_multipliers = 10", "scoring.hand_size_multipliers"),
        ("bonus = -1", "scoring.bonus"),
    ],
)
def test_bad_options_are_refused_with_their_path(line, where):
    """A wrong multiplier table or a negative bonus is refused, by its dotted key."""
    text = f'base = "exact-bid"\n[scoring]\n{line}\n'
    with pytest.raises((ba.SerializationError, ba.RuleSetError)) as info:
        houserules.loads(text)
    assert where in str(info.value)


def test_the_option_types_are_registered():
    """The multipliers are a list of a structured option whose fields are whole numbers."""
    assert option_types(ExactBidScoring)["hand_size_multipliers"] == tuple[HandSizeMultiplier, ...]
    assert dict(option_types(HandSizeMultiplier)) == {"hand_size": int, "times": int}
    assert option_types(ContractScoring)["hand_size_multipliers"] == tuple[HandSizeMultiplier, ...]


FIND = settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.slow
def test_generated_rule_sets_reach_the_new_part_and_option():
    """The registry-driven strategies draw the exact-bid part, and multipliers on both parts."""
    strategy = registered_part("scoring")
    exact = find(
        strategy,
        lambda p: isinstance(p, ExactBidScoring) and bool(p.hand_size_multipliers),
        settings=FIND,
    )
    assert exact.hand_size_multipliers
    contract = find(
        strategy,
        lambda p: isinstance(p, ContractScoring) and len(p.hand_size_multipliers) == 2,
        settings=FIND,
    )
    sizes = [m.hand_size for m in contract.hand_size_multipliers]
    assert len(set(sizes)) == 2
    tp = option_types(ContractScoring)["hand_size_multipliers"]
    assert find(option_values(tp, "hand_size_multipliers"), lambda v: len(v) > 0, settings=FIND)
    rules = find(
        registry_rule_sets(),
        lambda r: isinstance(r.scoring, ExactBidScoring),
        settings=FIND,
    )
    assert isinstance(rules.scoring, ExactBidScoring)


# ================================================================== presets


def keeper(*sizes: int) -> ba.RuleSet:
    """score-keeper-5 on a short schedule (keeping the 4-card deal, for the rainbow)."""
    return short(KEEPER, *sizes)


KEEPER_HANDS = ["2H 3C 4D 3S", "4C 5C 6C 7C", "2D 3D 5D 6D", "6H 7H 8H 9H", "AS KS QS JS"]


def keeper_deal() -> ba.GameState:
    """A 4-card deal of score-keeper-5, dealer 0, spades trump: seat 4 holds the top
    spades, seat 0 a rainbow."""
    rules = keeper(4)
    return ba.new_game(rules, dealer=0, decks=[deck_for(rules, KEEPER_HANDS, "2S")])


def test_score_keeper_bids_and_board_levels():
    """score-keeper-5: five players alone, no pass, bids 0 to the hand size; board claims
    climb one level each (x6, x12, x24, ...), each board player at the level of their own
    claim; the last board bidder leads."""
    state = keeper_deal()
    assert state.players == 5 and state.trump is ba.Suit.SPADES
    assert refused(state, "pass") is ba.Reason.PASS_NOT_ALLOWED
    assert {ba.Bid(0), ba.Bid(4), ba.BoardBid()} <= set(state.legal_moves())
    state = calls(state, "board", "board", "bid 0", "board", "bid 0")
    assert [c.multiplier if c else None for c in state.contracts] == [1, 6, 12, 1, 24]
    assert state.to_act == 4


def test_score_keeper_scoring_with_boards_and_a_rainbow():
    """score-keeper-5 scores 3 per bid trick, a board 3 x h x its multiplier won or lost,
    and +8 for a rainbow on the 4-card deal (seat 0 holds one card of every suit)."""
    state = calls(keeper_deal(), "board", "board", "bid 0", "board", "bid 0")
    state = play_to_tricks(state, (0, 0, 0, 0, 4))
    assert points(state) == (0 + 8, -3 * 4 * 6, -3 * 4 * 12, 0, 3 * 4 * 24)


def test_score_keeper_numeric_contracts():
    """score-keeper-5: made, 3 per bid trick and 1 per overtrick; set, -3 per bid trick."""
    state = calls(keeper_deal(), "bid 1", "bid 0", "bid 2", "bid 3", "bid 0")
    assert state.to_act == 4  # the highest bidder leads
    state = play_to_tricks(state, (0, 0, 0, 0, 4))
    assert points(state) == (0 + 8, -3, 0, -3 * 2, 3 * 3 + 1)


def _exact_points(result: ba.DealResult) -> tuple[int, ...]:
    """Exact-bid points from nothing but the bids and tricks of a deal."""
    return tuple(
        t + 10 if t == bid.tricks else t  # type: ignore[union-attr]
        for bid, t in zip(result.bids, result.tricks)
    )


def _keeper_points(result: ba.DealResult) -> tuple[int, ...]:
    """score-keeper-5 points from the contracts and tricks (rainbows left out)."""
    out = []
    for contract, t in zip(result.contracts, result.tricks):
        assert contract is not None
        h, b = result.hand_size, contract.tricks
        if contract.board:
            out.append(3 * h * contract.multiplier * (1 if t == h else -1))
        else:
            out.append(3 * b + (t - b) if t >= b else -3 * b)
    return tuple(out)


@pytest.mark.parametrize("name", ["score-keeper-5", "exact-bid"])
def test_preset_records_replay_and_score_by_their_rules(name):
    """Each preset's golden game (tests/data/records) replays to its recorded results, and
    every deal's points follow the preset's scoring, worked out here independently."""
    text = path_of(name).read_text(encoding="utf-8")
    record = ba.from_json(text, ba.GameRecord)
    assert record.rules == V.get(name)
    *_, final = ba.replay(record)
    assert final.is_over and final.deal_results == record.results
    results = record.results
    assert results is not None and len(results) == record.rules.schedule.deals
    for result in results:
        if name == "exact-bid":
            assert result.points == _exact_points(result)
        else:
            extra = [p - q for p, q in zip(result.points, _keeper_points(result))]
            if result.hand_size == 4:
                assert all(e in (0, 8) for e in extra), extra  # a rainbow each, at most
            else:
                assert extra == [0] * 5
    assert json.loads(text)["metadata"]["variant"] == name


def test_preset_sheets():
    """The presets' sheets say their rules in words, and score-keeper-5's says nothing of
    jokers."""
    text = sheet(KEEPER)
    assert "5 players, each playing and scoring alone" in text
    assert "A call is a number from 0 to the hand size or board" in text
    assert "(x6, x12, x24, x48, x96)" in text
    assert "scores 3 per bid trick and 1 per overtrick" in text
    assert "A board on an h-card deal scores 3 x h x the multiplier" in text
    assert "each player dealt one card of every suit earns +8 for themselves" in text
    assert "joker" not in text.split(" Players: ", 1)[1].lower()
    text = sheet(EXACT)
    assert "4 players, each playing and scoring alone" in text
    assert "plus a bonus of 10" in text
    assert "A contract of 0 earns the bonus by taking no trick." in text
    assert "board" not in text.split("Bidding:", 1)[1]
    assert V.get("score-keeper") is KEEPER and V.get("exact") is EXACT
