"""Readings of the sources and rates of other programs, each a named option whose
default keeps the games as they were:

- ``hand_size_rates`` of contract scoring (rules reference: rates of a hand size):
  a hand size's own rates, replacing the scoring's (joepikowski/back-alley's
  10 a bid trick on the 1-card deal, overtricks still 1);
- ``trump_broken_when`` of the follow part (rules reference: follow):
  ``completed-tricks`` (default) or ``any-trump-so-far`` - a trump already
  played to the trick frees a later void player to trump under
  ``trump_play = not-until-broken`` (john-rigas/backalley's early env.py);
- ``trump_broken_for`` of the lead part (rules reference: leading trump):
  ``anyone`` (default) or ``the-leader`` - the Spanish sheet read word by
  word, a player leads trump only once they have trumped themselves;
- ``swap_draw`` of the turn-up (rules reference: trump): the holder of the
  other joker draws the ``top`` (default) or the ``bottom`` of the stock;
- the rules sheets: the jokers added to the 52, thrown-in deals not counted,
  the Little Blooper forcing nothing, equal board multipliers, the Vietnam
  house choices; and a :class:`~backalley.RuleSetWarning` for exact-bid
  scoring that throws in a deal everyone bid 0.

Positions are dealt from exact deck orders with dealer 0, so seat 1 speaks and
(with the highest bid) leads first.
"""

from __future__ import annotations

import warnings

import pytest
from hypothesis import find, settings

import backalley as ba
from backalley import houserules
from backalley.rules import (
    AllPass,
    ContractScoring,
    Cutthroat,
    ExactBidScoring,
    FollowPolicy,
    HandSizeMultiplier,
    HandSizeRates,
    LeadPolicy,
    OnceAroundBidding,
    Schedule,
    SwapDraw,
    TrumpBrokenFor,
    TrumpBrokenWhen,
    TrumpLead,
    TrumpPlay,
    TurnUpTrump,
)
from backalley.rules.registry import option_types

from .. import ROOT
from ..helpers import apply_all, deck_order, position, refused, short
from ..strategies import option_values, registered_part
from .test_overrides import _small_positions, _solver_disagreements

V = ba.variants
R = ba.Reason
GR = V.GAMERULES
FIND = settings(database=None, max_examples=2000)


def sheet(rules: ba.RuleSet) -> str:
    return " ".join(rules.describe().split())


def points(state: ba.GameState, deal: int = 0) -> tuple[int, ...]:
    return state.deal_results[deal].points


# ====================================================== rates of a hand size

# joepikowski/back-alley: each player alone, bids 0 to the hand size, 3 a bid
# trick (a bid of the whole hand - here a board - twice as much), 1 an overtrick;
# on the 1-card deal 10 a bid trick and no doubling for the whole hand
JOE_SCORING = ContractScoring(
    per_bid_trick=3,
    set_per_bid_trick=3,
    per_board_trick=6,
    set_per_board_trick=6,
    hand_size_rates=(HandSizeRates(1, per_bid_trick=10, set_per_bid_trick=10, per_board_trick=10),),
)
JOE = GR.replace(
    seating=Cutthroat(4),
    schedule=Schedule((2, 1, 1)),
    bidding=OnceAroundBidding(pass_allowed=False, min_bid=0, max_bid_below_hand=0),
    scoring=JOE_SCORING,
)


def test_the_one_card_deal_scores_at_its_own_rates() -> None:
    """On the 1-card deal a bid trick scores 10 instead of 3 and overtricks still 1: bid 1
    and take 1 +10, bid 1 and take 0 -10, bid 0 and take 1 +1, bid 0 and take 0 0."""
    # the second deal (dealt by seat 1): seat 3, who bids 0, takes the trick with AS
    second = deck_order(["3C", "4C", "2C", "AS"], "9S", dealer=1)
    rules = short(JOE, 1, 1)
    state = position(["3C", "AS", "KS", "2C"], "9S", rules=rules, more_decks=[second])
    state = apply_all(state, ["bid 1", "bid 1", "bid 0", "bid 0"])
    state = apply_all(state, ["AS", "KS", "2C", "3C"])  # seat 1 takes the trick
    assert points(state) == (0, 10, -10, 0)  # bid 1 took 1; bid 1 took 0; bid 0 took 0
    state = apply_all(state, ["bid 1", "bid 0", "bid 0", "bid 0", "2C", "AS", "3C", "4C"])
    assert state.deal_results[1].tricks == (0, 0, 0, 1)
    assert points(state, 1) == (0, 0, -10, 1)  # bid 0 took 1: an overtrick, still 1


def test_other_deals_keep_the_scorings_own_rates() -> None:
    """On the 2-card deal the part's own rates hold: bid 1 and take 1 scores 3; a bid of
    the whole hand (a board) scores 6 a trick, x2; on the 1-card deal a board scores 10."""
    scoring = JOE.scoring
    one, board = ba.Contract(1), ba.Contract(2, board=True)
    assert scoring.side_points([one], (1,), 2, ((0,),), [0], None) == (3,)
    assert scoring.side_points([one], (2,), 2, ((0,),), [0], None) == (4,)
    assert scoring.side_points([board], (2,), 2, ((0,),), [0], None) == (12,)
    assert scoring.side_points([ba.Contract(1, board=True)], (1,), 1, ((0,),), [0], None) == (10,)
    # a rate left out keeps the part's own: the set board still loses 6 x h on any deal
    assert scoring.rates(1) == (10, 1, 10, 10, 6)
    assert scoring.rates(2) == (3, 1, 3, 6, 6)


def test_no_single_hand_size_multiplier_gives_the_four_one_card_scores() -> None:
    """Why rates: a multiplier scales every score alike, and 3 x k = 10 has no whole k."""
    wanted = (10, -10, 1, 0)
    cases = [(1, 1), (1, 0), (0, 1), (0, 0)]
    for times in range(1, 21):
        scoring = ContractScoring(
            per_bid_trick=3,
            set_per_bid_trick=3,
            hand_size_multipliers=[HandSizeMultiplier(1, times)],
        )
        got = tuple(scoring.contract_points(ba.Contract(b), t, 1) for b, t in cases)
        assert got != wanted
    got = tuple(JOE_SCORING.contract_points(ba.Contract(b), t, 1) for b, t in cases)
    assert got == wanted


def test_rates_and_a_multiplier_on_one_deal() -> None:
    """A multiplier multiplies the points at the deal's own rates."""
    scoring = ContractScoring(
        hand_size_rates=[HandSizeRates(3, per_bid_trick=7)],
        hand_size_multipliers=[HandSizeMultiplier(3, 2)],
    )
    assert scoring.contract_points(ba.Contract(2), 3, 3) == (7 * 2 + 1) * 2
    assert scoring.contract_points(ba.Contract(2), 1, 3) == -5 * 2 * 2


def test_hand_size_rates_are_checked() -> None:
    """Refused: a hand size the schedule never deals (naming scoring and schedule), a hand
    size named twice, a rate that is not a whole number, an entry that is not rates."""
    with pytest.raises(ba.RuleSetError, match=r"scoring and schedule: .*rates .* 1-card deal"):
        V.VIETNAM.replace(scoring=ContractScoring(hand_size_rates=[HandSizeRates(1)]))
    with pytest.raises(ba.RuleSetError, match="hand_size_rates names the 2-card deal more"):
        ContractScoring(hand_size_rates=[HandSizeRates(2), HandSizeRates(2, per_bid_trick=1)])
    with pytest.raises(ba.RuleSetError, match="per_bid_trick must be a whole number or none"):
        HandSizeRates(1, per_bid_trick="10")  # type: ignore[arg-type]
    with pytest.raises(ba.RuleSetError, match="must be a list of HandSizeRates"):
        ContractScoring(hand_size_rates=[(1, 10)])  # type: ignore[list-item]


def test_hand_size_rates_in_a_house_rules_file() -> None:
    """The TOML key ``hand_size_rates``: a list of tables, each a hand size and the rates it
    replaces; a bad value is named at its own key."""
    rules = houserules.loads(
        'base = "gamerules"\n[scoring]\n'
        "hand_size_rates = [{ hand_size = 1, per_bid_trick = 10, set_per_bid_trick = 10 }]\n"
    )
    assert rules.scoring == ContractScoring(
        hand_size_rates=(HandSizeRates(1, per_bid_trick=10, set_per_bid_trick=10),)
    )
    assert houserules.loads(houserules.dumps_toml(rules)) == rules
    with pytest.raises(houserules.HouseRulesError) as info:
        houserules.loads(
            'base = "gamerules"\n[scoring]\nhand_size_rates = [{ hand_size = 1, per_bid_trick = "x" }]\n'
        )
    assert "scoring.hand_size_rates[0]" in str(info.value)


def test_the_sheet_gives_the_rates_of_the_hand_size() -> None:
    text = sheet(JOE)
    assert (
        "On the 1-card deal other rates replace these: 10 per bid trick, 10 lost per bid "
        "trick when set and 10 x h x the multiplier for a board made."
    ) in text
    assert "other rates replace" not in sheet(GR)


# ===================================== a trump earlier in the trick breaks it

# a 4-card deal, spades trump: seat 2 holds nothing but spades, seat 3 is void in clubs
SO_FAR_HANDS = ["3C 8D 9D 6H", "AC AD 2S 3H", "4S 5S 6S 7S", "3S 6D 7D 5H"]


def _not_until_broken(when: TrumpBrokenWhen) -> ba.RuleSet:
    follow = FollowPolicy(trump_play=TrumpPlay.NOT_UNTIL_BROKEN, trump_broken_when=when)
    return short(GR.replace(follow=follow), 4)


def test_a_trump_earlier_in_the_trick_frees_a_void_player_to_trump() -> None:
    """Seat 1 leads AC; seat 2, holding nothing but spades, must trump; seat 3, void in
    clubs, may then trump with 3S under any-trump-so-far, but not under completed-tricks
    (no trump has been played to a completed trick)."""
    calls = ["bid 2", "pass", "pass", "pass", "AC", "4S"]
    so_far = apply_all(
        position(SO_FAR_HANDS, "9S", rules=_not_until_broken(TrumpBrokenWhen.ANY_TRUMP_SO_FAR)),
        calls,
    )
    assert so_far.to_act == 3
    assert ba.parse_move("3S") in so_far.legal_moves()
    completed = apply_all(
        position(SO_FAR_HANDS, "9S", rules=_not_until_broken(TrumpBrokenWhen.COMPLETED_TRICKS)),
        calls,
    )
    assert ba.parse_move("3S") not in completed.legal_moves()
    with pytest.raises(ba.IllegalMoveError) as info:
        completed.check(ba.parse_move("3S"))
    assert info.value.reason is R.MAY_NOT_TRUMP
    assert "trump has not been broken" in str(info.value)


def test_before_any_trump_in_the_trick_the_rule_holds() -> None:
    """Under any-trump-so-far a void player before whom nobody trumped still may not."""
    rules = _not_until_broken(TrumpBrokenWhen.ANY_TRUMP_SO_FAR)
    hands = ["3C 8D 9D 6H", "AC AD 2S 3H", "2C 4D 5D 4H", "3S 6D 7D 5H"]
    state = apply_all(position(hands, "9S", rules=rules), ["bid 2", "pass", "pass", "pass"])
    state = apply_all(state, ["AC", "2C"])
    assert refused(state, "3S") is R.MAY_NOT_TRUMP
    with pytest.raises(ba.IllegalMoveError, match=r"nor has anyone trumped this trick"):
        state.check(ba.parse_move("3S"))


def test_trump_broken_when_in_a_house_rules_file_and_the_sheet() -> None:
    rules = houserules.loads(
        'base = "gamerules"\n[follow]\ntrump_play = "not-until-broken"\n'
        'trump_broken_when = "any-trump-so-far"\n'
    )
    assert rules.follow.trump_broken_when is TrumpBrokenWhen.ANY_TRUMP_SO_FAR
    assert FollowPolicy().trump_broken_when is TrumpBrokenWhen.COMPLETED_TRICKS
    assert (
        "A trump already played to the trick in progress counts too: it frees every later "
        "player of that trick who cannot follow to trump."
    ) in sheet(rules)
    assert "trick in progress" not in sheet(GR)


# ======================================== trump broken for the leader alone

# the example: a 4-card deal, spades trump
LEADER_HANDS = ["3C 8D 9D 6H", "AC AD 2S 3H", "2C 4D 5D 4H", "3S 6D 7D 5H"]
LEADER_MOVES = ["bid 2", "pass", "pass", "pass", "AC", "2C", "3S", "3C", "6D", "8D", "AD", "4D"]


def _leader_game(mode: TrumpBrokenFor, trump_lead: TrumpLead = TrumpLead.AFTER_BROKEN_OR_BOARD):
    rules = short(GR.replace(lead=LeadPolicy(trump_lead=trump_lead, trump_broken_for=mode)), 4)
    return apply_all(position(LEADER_HANDS, "9S", rules=rules), LEADER_MOVES)


def test_only_the_player_who_trumped_may_lead_trump() -> None:
    """Seat 3's 3S broke trump in the first trick; seat 1 wins the second and leads.  Under
    anyone it may lead 2S; under the-leader it must lead 3H, having played no trump itself."""
    anyone = _leader_game(TrumpBrokenFor.ANYONE)
    assert anyone.to_act == 1
    assert set(anyone.legal_moves()) == {ba.parse_move("2S"), ba.parse_move("3H")}
    leader = _leader_game(TrumpBrokenFor.THE_LEADER)
    assert leader.legal_moves() == (ba.parse_move("3H"),)
    with pytest.raises(ba.IllegalMoveError) as info:
        leader.check(ba.parse_move("2S"))
    assert info.value.reason is R.TRUMP_NOT_BROKEN
    assert "you have not played a trump to an earlier trick yourself" in str(info.value)


def test_the_player_who_trumped_may_lead_trump_and_a_board_bidder_too() -> None:
    """Seat 3 trumps the first trick and leads the second: it may lead a trump.  A board
    bidder may lead trump under after-broken-or-board, not under after-broken."""
    rules = short(GR.replace(lead=LeadPolicy(trump_broken_for=TrumpBrokenFor.THE_LEADER)), 4)
    hands = ["3C 8D 9D 6H", "AC AD 2S 3H", "2C 4D 5D 4H", "3S 4S 7D 5H"]
    state = apply_all(position(hands, "9S", rules=rules), ["bid 2", "pass", "pass", "pass"])
    state = apply_all(state, ["AC", "2C", "3S", "3C"])  # seat 3 trumps and wins
    assert state.to_act == 3
    assert ba.parse_move("4S") in state.legal_moves()
    board = ["3C 8D 9D 6H", "2S AC AD 3H", "2C 4D 5D 4H", "3S 6D 7D 5H"]
    for mode, may in ((TrumpLead.AFTER_BROKEN_OR_BOARD, True), (TrumpLead.AFTER_BROKEN, False)):
        lead = LeadPolicy(trump_lead=mode, trump_broken_for=TrumpBrokenFor.THE_LEADER)
        state = position(board, "9S", rules=short(GR.replace(lead=lead), 4))
        state = apply_all(state, ["board", "pass", "pass", "pass"])
        assert (ba.parse_move("2S") in state.legal_moves()) is may


def test_a_leader_who_followed_a_trump_lead_with_a_trump_may_lead_trump() -> None:
    """What counts is any trump the leader played to an earlier trick, one that followed a
    trump lead too, whatever trump_broken_by says: under discard the first trick (all
    trumps, no discard) breaks trump for nobody, yet seat 2, who followed it with 4S, may
    lead 5S under the-leader."""
    hands = ["3C 8D 9D 6H", "KS AS 2D 3H", "4S 5S AD 4H", "3S 6D 7D 5H"]
    moves = ["board", "pass", "pass", "pass", "KS", "4S", "3S", "3C", "2D", "AD", "6D", "8D"]
    for mode, may in ((TrumpBrokenFor.ANYONE, False), (TrumpBrokenFor.THE_LEADER, True)):
        lead = LeadPolicy(trump_broken_by=ba.rules.TrumpBrokenBy.DISCARD, trump_broken_for=mode)
        state = apply_all(position(hands, "9S", rules=short(GR.replace(lead=lead), 4)), moves)
        assert state.to_act == 2
        assert (ba.parse_move("5S") in state.legal_moves()) is may


def test_a_view_reads_who_trumped_before() -> None:
    """A view infers from each lead what the rule allowed its leader: seat 3, who trumped
    the first trick, leads 4S - it may still hold plain cards (7D, 5H); a seat that had not
    trumped before and led a trump would have held nothing else."""
    rules = short(GR.replace(lead=LeadPolicy(trump_broken_for=TrumpBrokenFor.THE_LEADER)), 4)
    hands = ["3C 8D 9D 6H", "AC AD 2S 3H", "2C 4D 5D 4H", "3S 4S 7D 5H"]
    state = apply_all(position(hands, "9S", rules=rules), ["bid 2", "pass", "pass", "pass"])
    state = apply_all(state, ["AC", "2C", "3S", "3C", "4S"])
    possible = state.view(0).possible_cards(3)
    assert ba.parse_card("7D") in possible and ba.parse_card("5H") in possible


def test_trump_broken_for_in_a_house_rules_file_and_the_sheet() -> None:
    rules = houserules.loads('base = "gamerules"\n[lead]\ntrump_broken_for = "the-leader"\n')
    assert rules.lead.trump_broken_for is TrumpBrokenFor.THE_LEADER
    assert LeadPolicy().trump_broken_for is TrumpBrokenFor.ANYONE
    assert (
        "A trump (jokers included) may be led only by a player who has played a trump to an "
        "earlier trick themselves (a trump played by anyone else does not free their lead), "
        "by a player who bid board, or from a hand of nothing but trumps."
    ) in sheet(rules)
    assert "themselves" not in sheet(GR)


def test_the_previous_trick_reading_is_explained_not_offered() -> None:
    """The Polish and Japanese "the previous trick", read literally, is not an option; the
    rules reference says why."""
    assert {m.value for m in TrumpBrokenFor} == {"anyone", "the-leader"}
    page = (ROOT / "docs" / "rules.rst").read_text("utf-8")
    assert "That reading is not offered" in page


@pytest.mark.parametrize(
    "rules",
    [
        GR.replace(lead=LeadPolicy(trump_broken_for=TrumpBrokenFor.THE_LEADER)),
        GR.replace(
            follow=FollowPolicy(
                trump_play=TrumpPlay.NOT_UNTIL_BROKEN,
                trump_broken_when=TrumpBrokenWhen.ANY_TRUMP_SO_FAR,
            )
        ),
    ],
    ids=["the-leader", "any-trump-so-far"],
)
def test_the_solver_follows_the_new_readings(rules: ba.RuleSet) -> None:
    """``solve`` and ``analyse`` equal the public engine's minimax (the solver gives the
    lead part the cards each seat played before, from who held them)."""
    from backalley.solver import Solver

    positions = _small_positions(rules, 20)
    assert _solver_disagreements(positions) == []
    assert _solver_disagreements(positions, Solver()) == []


# ====================================================== the other joker's draw


def test_the_other_jokers_holder_draws_the_bottom_of_the_stock() -> None:
    """A turned BJ on a 2-card deal: seat 2 holds LJ, discards it and draws the top stock
    card AH (``top``) or the last card of the deck, AS (``bottom``, denexa's page; the
    deck order ends with the unused cards in card order)."""
    hands = ["2C 3C", "4C 5C", "LJ 6C", "7C 8C"]
    for draw, card in ((SwapDraw.TOP, "AH"), (SwapDraw.BOTTOM, "AS")):
        rules = short(GR.replace(trump=TurnUpTrump(swap_draw=draw)), 2)
        state = position(hands, "BJ", rules=rules, stock=["AH"])
        assert state.trump is None and ba.parse_card("LJ") not in state.hand(2)
        assert set(state.hand(2)) == {ba.parse_card("6C"), ba.parse_card(card)}
        assert ba.parse_card(card) not in state.stock
    rules = houserules.loads('base = "gamerules"\n[trump]\nswap_draw = "bottom"\n')
    assert rules.trump == TurnUpTrump(swap_draw=SwapDraw.BOTTOM)
    assert "draws the last card of the deck (the bottom of the stock)" in sheet(rules)
    assert "draws the next stock card" in sheet(GR)


def test_a_bot_can_sample_a_deal_whose_joker_was_drawn_from_the_bottom() -> None:
    """The samplers rebuild a deal whose other joker's holder drew the bottom card."""
    from backalley.bots import MonteCarloBot

    rules = short(GR.replace(trump=TurnUpTrump(swap_draw=SwapDraw.BOTTOM)), 2)
    hands = ["2C 3C", "4C 5C", "LJ 6C", "7C 8C"]
    state = position(hands, "BJ", rules=rules, stock=["AH"])
    view = state.view(state.to_act)
    assert MonteCarloBot(seed=1, samples=2, budget=None).choose(view) in view.legal_moves()


# ================================================================ the sheets


def test_the_sheets_say_the_jokers_are_added_to_the_52() -> None:
    for name in ("vietnam", "gamerules"):
        assert (
            "54 cards: all 52 plain cards, with two jokers added to them: the Big (BJ) and "
            "the Little (LJ) Blooper."
        ) in sheet(V.get(name))


def test_the_sheets_say_a_thrown_in_deal_does_not_count() -> None:
    assert "(a thrown-in deal is not one of the 25 scored deals)" in sheet(GR)
    assert "(a thrown-in deal is not one of the 2 scored deals)" in sheet(V.VIETNAM)
    assert "thrown-in deal is not one of" not in sheet(V.EXACT_BID)  # such a deal is played


def test_the_bab_online_sheet_says_the_little_blooper_forces_nothing() -> None:
    assert "a Little Blooper (LJ) lead forces nothing beyond following trump" in sheet(V.BAB_ONLINE)
    assert "forces nothing" not in sheet(GR)


def test_equal_board_multipliers_are_described_as_equal() -> None:
    rules = GR.replace(bidding=OnceAroundBidding(board_multipliers=(1, 1, 1, 1)))
    text = sheet(rules)
    assert "escalate" not in text.replace("do not escalate", "")
    assert (
        "Board may be claimed up to 4 times in a deal; every claim has the same multiplier, "
        "x1, so claims do not escalate."
    ) in text
    assert "Board claims escalate one level per claim (x1, x2, x3, x4)" in sheet(GR)


@pytest.mark.parametrize("name", ["vietnam", "vietnam-literal"])
def test_the_vietnam_sheets_mark_the_house_choices(name: str) -> None:
    assert (
        "The Vietnam source gives only the points of a side that takes what it announced; "
        "what a failed contract loses and what the defenders score are house choices."
    ) in sheet(V.get(name))


def test_exact_bid_scoring_that_throws_in_all_zero_deals_warns() -> None:
    """0 is a real exact-bid contract: a bidding that throws in a deal everyone bid 0
    (the default all_pass) is played, but building the rule set warns and names the cure;
    the exact-bid preset plays such a deal, and warns of nothing."""
    with pytest.warns(ba.RuleSetWarning, match=r'all_pass = "play-for-overtricks"') as caught:
        rules = GR.replace(scoring=ExactBidScoring())
    assert "scoring and bidding: under exact-bid scoring a contract of 0" in str(caught[0].message)
    assert rules.cautions() and not V.EXACT_BID.cautions()
    with warnings.catch_warnings():
        warnings.simplefilter("error", ba.RuleSetWarning)
        GR.replace(
            scoring=ExactBidScoring(),
            bidding=OnceAroundBidding(all_pass=AllPass.PLAY_FOR_OVERTRICKS),
        )
        GR.replace(scoring=ExactBidScoring(), bidding=OnceAroundBidding(pass_allowed=False))


# ============================================= the options in generated rules


@pytest.mark.parametrize(
    ("part", "tag", "option", "value"),
    [
        ("lead", "lead", "trump_broken_for", TrumpBrokenFor.THE_LEADER),
        ("follow", "follow", "trump_broken_when", TrumpBrokenWhen.ANY_TRUMP_SO_FAR),
        ("trump", "turn-up", "swap_draw", SwapDraw.BOTTOM),
        ("bidding", "auction", "counter_holder", ba.rules.CounterHolder.COUNTERING_SIDE),
    ],
)
def test_the_registry_strategies_draw_the_new_options(
    part: str, tag: str, option: str, value: object
) -> None:
    """The hypothesis strategies (built from the registry) draw each new value."""
    found = find(
        registered_part(part),
        lambda p: p.tag == tag and getattr(p, option) == value,
        settings=FIND,
    )
    assert getattr(found, option) == value


@pytest.mark.slow
def test_the_registry_strategies_draw_hand_size_rates() -> None:
    tp = option_types(ContractScoring)["hand_size_rates"]
    assert tp == tuple[HandSizeRates, ...]
    rates = find(
        option_values(tp, "hand_size_rates"),
        lambda v: any(e.per_bid_trick is not None for e in v),
        settings=FIND,
    )
    assert rates and isinstance(rates[0], HandSizeRates)
    scoring = find(
        registered_part("scoring"),
        lambda p: isinstance(p, ContractScoring) and bool(p.hand_size_rates),
        settings=FIND,
    )
    assert scoring.hand_size_rates


def test_counter_holder_in_a_house_rules_file() -> None:
    """The TOML key ``counter_holder`` of the auction: ``announcer`` (the default, the
    vietnam variants') or ``countering-side``; another value is refused with the choices."""
    rules = houserules.loads('base = "vietnam"\n[bidding]\ncounter_holder = "countering-side"\n')
    assert rules.bidding == ba.rules.Auction(counter_holder=ba.rules.CounterHolder.COUNTERING_SIDE)
    assert V.VIETNAM.bidding.counter_holder is ba.rules.CounterHolder.ANNOUNCER
    with pytest.raises(houserules.HouseRulesError) as info:
        houserules.loads('base = "vietnam"\n[bidding]\ncounter_holder = "doubler"\n')
    assert "bidding.counter_holder" in str(info.value)
    assert "give one of announcer, countering-side" in str(info.value)
