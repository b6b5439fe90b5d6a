"""The Vietnam-era variant and its sub-variants, with a worked example of the auction.

Exact positions are built with ``ba.new_game(rules, dealer=0, decks=[...])``:
card ``k`` of a deck order goes to seat ``(dealer + 1 + k) % players`` for
``k < players * hand_size``; the rest is the stock.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import backalley as ba
from backalley.rules import (
    AllPass,
    Auction,
    AuctionScoring,
    CounterHolder,
    Cutthroat,
    DealerRotation,
    DeclarerNamesTrump,
    DefendersScore,
    NextDealer,
    Schedule,
)

from ..helpers import calls, deck_for, refused

V = ba.variants
R = ba.Reason
S, H, D, C = ba.Suit.SPADES, ba.Suit.HEARTS, ba.Suit.DIAMONDS, ba.Suit.CLUBS

# ----------------------------------------------------------------- helpers


Picker = Callable[[ba.GameState], ba.Move]


def first_legal(state: ba.GameState) -> ba.Move:
    """The first legal move, except that bidding never passes when it can bid
    (so that an auction is never thrown in forever)."""
    moves = state.legal_moves()
    if state.phase is ba.Phase.BIDDING and len(moves) > 1:
        return moves[1]
    return moves[0]


def play_deal(state: ba.GameState, pick: Picker = first_legal) -> ba.GameState:
    """Play the current deal to its end with ``pick``; the state after its last card."""
    assert state.phase is ba.Phase.PLAYING
    deals = state.deals_played
    while state.deals_played == deals:
        state = state.apply(pick(state))
    return state


def declarer_high(declarer: int) -> Picker:
    """The declarer plays its highest legal card (by card index), everyone else the lowest."""

    def pick(state: ba.GameState) -> ba.Move:
        moves = state.legal_moves()
        return moves[-1] if state.to_act == declarer else moves[0]

    return pick


def finish(state: ba.GameState, pick: Picker = first_legal) -> ba.GameState:
    while not state.is_over:
        state = state.apply(pick(state))
    return state


# Example 8 hands (dealer 0; bidding order 1, 2, 3, 0); the jokers stay undealt.
EX8_HANDS = [
    "2S 3S 4S 5S 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "6S 7S 8S 9S TS JS QS KS AS 2C 3C 4C 5C",
]
EX8_STOCK = "LJ BJ"


TAKEOVER = V.VIETNAM.replace(bidding=Auction(counter_holder=CounterHolder.COUNTERING_SIDE))
"""Vietnam with the earlier reading of the counters: a counter takes the contract over."""

EX8_CALLS = ("pass", "pass", "bid 8", "double")
"""Example 8 in the default reading: seat3 announces 8 and seat0 doubles it, so seat3's
side (team 1) holds 8 doubled and seat3 declares (a counter leaves the contract with the
side that announced the number)."""

EX8_TAKEOVER_CALLS = ("bid 7", "bid 8", "double", "pass")
"""Example 8 as the specification words it, for ``counter_holder = countering-side``:
seat1 7, seat2 8, seat3 doubles and takes the contract over, seat0 passes."""


def ex8_game(rules: ba.RuleSet = V.VIETNAM, seed: int = 0) -> ba.GameState:
    return ba.new_game(rules, dealer=0, decks=[deck_for(rules, EX8_HANDS, EX8_STOCK)], seed=seed)


def after_ex8_auction(rules: ba.RuleSet = V.VIETNAM) -> ba.GameState:
    """Seat3 declares 8 doubled for team 1 (:data:`EX8_CALLS`) and names spades."""
    state = calls(ex8_game(rules), *EX8_CALLS)
    if state.phase is ba.Phase.NAMING_TRUMP:
        state = state.apply(ba.NameTrump(S))
    return state


# ----------------------------------------------------------------- the deal


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_deal_is_13_cards_and_2_stay_undealt(seed: int) -> None:
    """The deck is 52 cards + 2 jokers; 13 cards each; 2 cards stay undealt, never used."""
    rules = V.VIETNAM
    assert rules.deck.size == 54 and rules.deck.has_jokers
    assert rules.schedule.hand_sizes == (13, 13)
    state = ba.new_game(rules, seed=seed)
    assert state.hand_size == 13
    assert [len(h) for h in state.hands] == [13] * 4
    assert len(state.stock) == 2
    assert state.turn_up is None and state.trump is None
    stock = state.stock
    # the undealt cards never come into play
    state = calls(state, "bid 1", "pass", "pass", "pass")
    state = state.apply(state.legal_moves()[0])
    while state.deals_played == 0:
        assert state.stock == stock
        assert not set(stock) & {c for h in state.hands for c in h}
        state = state.apply(state.legal_moves()[0])


def test_dealing_order_follows_the_deck_order() -> None:
    """Card k of the deck goes to seat (dealer + 1 + k) % 4; the rest is the stock."""
    state = ex8_game()
    for seat, hand in enumerate(EX8_HANDS):
        assert set(state.hand(seat)) == set(ba.parse_cards(hand))
    assert state.stock == ba.parse_cards(EX8_STOCK)


def test_jokers_rank_above_the_ace_as_trumps() -> None:
    """Jokers rank ... K, A, small joker, big joker (as trumps), and a led joker must
    be followed with trump."""
    rules = V.VIETNAM
    hands = [
        "LJ 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
        "BJ 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ]
    state = ba.new_game(rules, dealer=0, decks=[deck_for(rules, hands, "AC AD")])
    state = calls(state, "pass", "pass", "bid 7", "pass", "trump S")
    assert state.to_act == 3
    state = state.apply(ba.parse_move("AS"))
    # seat0's only trump is the Little Blooper: it must follow trump with it
    assert state.legal_moves() == (ba.parse_move("LJ"),)
    assert refused(state, "2C") is R.MUST_FOLLOW_SUIT
    state = state.apply(ba.parse_move("LJ"))
    assert state.legal_moves() == (ba.parse_move("BJ"),)
    state = calls(state, "BJ", "2H")
    assert state.tricks[0].winner == 1  # BJ > LJ > AS
    assert state.tricks_won == (0, 1, 0, 0)


def test_blooper_forcing_applies_in_vietnam() -> None:
    """A led BJ forces the highest trump (the declarer may lead it at once)."""
    rules = V.VIETNAM
    hands = [
        "AS LJ 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "BJ 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
    ]
    state = ba.new_game(rules, dealer=0, decks=[deck_for(rules, hands, "KC AC")])
    state = calls(state, "pass", "pass", "bid 8", "pass", "trump S", "BJ")
    assert state.legal_moves() == (ba.parse_move("LJ"),)
    assert refused(state, "AS") is R.MUST_PLAY_HIGHEST_TRUMP


# ---------------------------------------------------------------- auction


def test_auction_opens_left_of_dealer_with_every_number_up_to_the_hand_size() -> None:
    """The first speaker sits left of the dealer and may pass or bid 1..13; no counter yet."""
    state = ex8_game()
    assert state.phase is ba.Phase.BIDDING and state.to_act == 1
    assert state.legal_moves() == (ba.Pass(), *[ba.Bid(n) for n in range(1, 14)])
    assert state.is_legal(ba.Bid(13))
    assert refused(state, ba.Bid(14)) is R.BID_TOO_HIGH
    assert refused(state, ba.Bid(0)) is R.BID_TOO_LOW
    assert refused(state, "board") is R.BOARD_NOT_ALLOWED
    assert refused(state, "double") is R.COUNTER_NOT_ALLOWED  # nothing to counter


def test_bids_must_be_strictly_higher() -> None:
    """A number must be higher than every number so far: after seat1 `7`, seat2 `6` is illegal."""
    state = calls(ex8_game(), "bid 7")
    assert state.to_act == 2
    assert refused(state, "bid 6") is R.BID_NOT_HIGHER
    assert refused(state, "bid 7") is R.BID_NOT_HIGHER  # equal is not higher
    assert state.is_legal(ba.Bid(8))
    assert state.legal_moves() == (ba.Pass(), *[ba.Bid(n) for n in range(8, 14)], ba.Counter())
    before = state
    with pytest.raises(ba.IllegalMoveError):
        state.apply(ba.Bid(6))
    assert state == before and state.to_act == 2  # the state is unchanged
    # a pass in between does not lower the bar
    state = calls(state, "pass")
    assert refused(state, "bid 7") is R.BID_NOT_HIGHER
    assert state.is_legal(ba.Bid(13))


def test_each_player_speaks_once() -> None:
    """Each player may speak once; the auction ends after four calls."""
    state = calls(ex8_game(), "bid 1")
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(ba.Bid(2), seat=1)
    assert info.value.reason is R.ALREADY_BID
    state = calls(state, "bid 2", "bid 3")
    assert state.phase is ba.Phase.BIDDING and state.to_act == 0
    state = calls(state, "bid 4")
    assert state.phase is ba.Phase.NAMING_TRUMP  # nobody speaks a second time
    assert state.bids == (ba.Bid(4), ba.Bid(1), ba.Bid(2), ba.Bid(3))
    assert state.declarer == 0


def test_counter_only_against_the_other_sides_contract() -> None:
    """A counter is allowed only when the other team holds the contract."""
    state = calls(ex8_game(), "bid 7", "pass")
    assert state.to_act == 3  # seat3 is seat1's partner
    assert refused(state, "double") is R.COUNTER_NOT_ALLOWED
    assert ba.Counter() not in state.legal_moves()
    state = calls(state, "pass")
    assert state.to_act == 0 and state.is_legal(ba.Counter())
    # after team 0's double the next counter is team 1's: team 0 may not counter again
    state = calls(ex8_game(), "bid 7", "double", "pass")
    assert state.to_act == 0
    assert refused(state, "double") is R.COUNTER_NOT_ALLOWED


def test_double_triple_quadruple_alternate_between_the_teams() -> None:
    """Double, triple and quadruple raise the contract to x2, x3, x4, alternating between
    the sides; the contract stays with the side that announced the number (seat1's 7), whose
    player declares."""
    state = calls(ex8_game(), "bid 7", "double", "triple", "quadruple")
    assert state.phase is ba.Phase.NAMING_TRUMP
    assert state.declarer == 1 and state.to_act == 1
    assert state.contracts == (None, ba.Contract(7, multiplier=4, declarer=1))
    state = calls(ex8_game(), "bid 7", "double", "triple", "pass")
    assert state.declarer == 1
    assert state.contracts == (None, ba.Contract(7, multiplier=3, declarer=1))
    # the announcing side answers the double (triple); it may not double its own number
    state = calls(ex8_game(), "bid 7", "pass")
    assert refused(state, "double") is R.COUNTER_NOT_ALLOWED


def test_countering_side_counters_take_the_contract_over() -> None:
    """With counter_holder = countering-side, double, triple and quadruple each take the
    contract over, at x2, x3, x4."""
    state = calls(ex8_game(TAKEOVER), "bid 7", "double", "triple", "quadruple")
    assert state.phase is ba.Phase.NAMING_TRUMP
    assert state.declarer == 0 and state.to_act == 0
    assert state.contracts == (ba.Contract(7, multiplier=4, declarer=0), None)
    state = calls(ex8_game(TAKEOVER), "bid 7", "double", "triple", "pass")
    assert state.declarer == 3
    assert state.contracts == (None, ba.Contract(7, multiplier=3, declarer=3))


def test_counter_limit_after_quadruple() -> None:
    """There is no counter beyond quadruple (COUNTER_LIMIT; the test needs a fifth speaker,
    so the counters take the contract over, seat after seat)."""
    rules = TAKEOVER.replace(seating=Cutthroat(5), schedule=Schedule.fixed(10, 2))
    state = ba.new_game(rules, dealer=0, seed=3)
    state = calls(state, "bid 5", "double", "triple", "quadruple")
    assert state.to_act == 0
    assert refused(state, "counter") is R.COUNTER_LIMIT
    assert ba.Counter() not in state.legal_moves()
    assert state.is_legal(ba.Bid(6))  # a higher number is still possible
    state = calls(state, "pass")
    assert state.contracts is not None
    assert state.contracts[4] == ba.Contract(5, multiplier=4, declarer=4)


def test_counter_limit_follows_the_counters_option() -> None:
    """The number of counter steps is a parameter of the auction."""
    rules = V.VIETNAM.replace(bidding=Auction(counters=1))
    state = calls(ba.new_game(rules, dealer=0, seed=1), "bid 7", "double")
    assert refused(state, "counter") is R.COUNTER_LIMIT
    rules = V.VIETNAM.replace(bidding=Auction(counters=0))
    state = calls(ba.new_game(rules, dealer=0, seed=1), "bid 7")
    assert refused(state, "counter") is R.COUNTER_LIMIT


def test_a_higher_number_resets_the_multiplier() -> None:
    """A later, higher number cancels the counters (multiplier back to 1)."""
    state = calls(ex8_game(), "bid 7", "double", "bid 8")
    assert state.to_act == 0
    assert state.is_legal(ba.Counter())  # 8 belongs to team 1 now: team 0 may counter
    state = calls(state, "pass")
    assert state.declarer == 3
    assert state.contracts == (None, ba.Contract(8, multiplier=1, declarer=3))
    state = calls(ex8_game(), "bid 7", "double", "bid 8", "double")
    assert state.contracts == (None, ba.Contract(8, multiplier=2, declarer=3))


def test_declarer_is_the_last_winning_call() -> None:
    """The player of the final winning call (highest number or last counter) declares."""
    state = calls(ex8_game(), "bid 3", "bid 5", "pass", "pass")
    assert state.declarer == 2 and state.to_act == 2
    assert state.contracts == (ba.Contract(5, declarer=2), None)
    state = calls(ex8_game(), "bid 3", "bid 5", "bid 6", "pass")
    assert state.declarer == 3


def test_declarer_names_trump_in_a_naming_phase() -> None:
    """The declarer names trump (any of the four suits), then leads."""
    state = calls(ex8_game(), *EX8_CALLS)
    assert state.phase is ba.Phase.NAMING_TRUMP
    assert state.to_act == 3 and state.declarer == 3
    assert state.trump is None
    assert state.legal_moves() == tuple(ba.NameTrump(s) for s in (C, D, H, S))
    assert refused(state, "AS") is R.WRONG_PHASE
    assert refused(state, "pass") is R.WRONG_PHASE
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(ba.NameTrump(H), seat=1)
    assert info.value.reason in (R.NOT_YOUR_TURN, R.NOT_DECLARER)
    assert state.view(1).legal_moves() == ()
    assert state.view(3).legal_moves() == state.legal_moves()
    named = state.apply(ba.NameTrump(H))
    assert named.phase is ba.Phase.PLAYING and named.trump is H
    assert named.to_act == 3 and named.leader == 3  # the declarer leads


def test_no_trump_call_refused_by_default() -> None:
    """By default (allow_no_trump off) the declarer must name a suit: NO_TRUMP_NOT_ALLOWED."""
    state = calls(ex8_game(), *EX8_CALLS)
    assert refused(state, ba.NameTrump(None)) is R.NO_TRUMP_NOT_ALLOWED
    assert refused(state, "trump NT") is R.NO_TRUMP_NOT_ALLOWED


def test_no_trump_call_allowed_with_the_option() -> None:
    """With DeclarerNamesTrump(allow_no_trump=True) the declarer may call no trump."""
    rules = V.VIETNAM.replace(trump=DeclarerNamesTrump(allow_no_trump=True))
    state = calls(ex8_game(rules), *EX8_CALLS)
    assert ba.NameTrump(None) in state.legal_moves()
    assert len(state.legal_moves()) == 5
    state = state.apply(ba.NameTrump(None))
    assert state.phase is ba.Phase.PLAYING and state.trump is None and state.to_act == 3
    # no trump: seat3's AS lead is beaten by nothing but a spade; seat0 follows spades
    state = calls(state, "AS", "2S", "2D", "2H")
    assert state.tricks[0].winner == 3


def test_declarer_leads_and_may_lead_trump_at_once() -> None:
    """The declarer leads the first trick and may lead a trump at once (trump_lead = ANY_TIME)."""
    state = after_ex8_auction()
    assert state.trump is S and state.to_act == 3
    hand = state.hand(3)
    assert any(c.suit is not S for c in hand)  # not a hand of only trumps
    assert set(m.card for m in state.legal_moves()) == set(hand)  # type: ignore[union-attr]
    state = state.apply(ba.parse_move("AS"))
    assert state.trick == ((3, ba.parse_card("AS")),)


# ------------------------------------------------- worked example, scoring


def test_example_8_doubled_contract_made_scores_180() -> None:
    """Worked example: seat1 pass, seat2 pass, seat3 8, seat0 double; seat3's side holds 8
    doubled and takes 9: +180 (a double multiplies what the announcing side wins)."""
    state = calls(ex8_game(), *EX8_CALLS)
    assert state.declarer == 3
    assert state.contracts == (None, ba.Contract(8, multiplier=2, declarer=3))
    state = state.apply(ba.NameTrump(S))
    state = play_deal(state, declarer_high(3))
    result = state.deal_results[0]
    assert result.tricks == (4, 9)
    assert result.points == (0, 180)  # 9 * 10 * 2; defenders 0
    assert result.declarer == 3 and result.trump is S and result.hand_size == 13
    assert result.contracts == (None, ba.Contract(8, multiplier=2, declarer=3))
    assert result.bids == (ba.Counter(), ba.Pass(), ba.Pass(), ba.Bid(8))
    assert state.scores == (0, 180)


def test_example_8_as_worded_under_countering_side_counters() -> None:
    """The example as the specification words it (counter_holder = countering-side): seat1
    7, seat2 8, seat3 double, seat0 pass; seat3's double takes seat2's 8 over for team 1,
    which takes 9: +180."""
    state = calls(ex8_game(TAKEOVER), *EX8_TAKEOVER_CALLS)
    assert state.declarer == 3
    assert state.contracts == (None, ba.Contract(8, multiplier=2, declarer=3))
    state = play_deal(state.apply(ba.NameTrump(S)), declarer_high(3))
    result = state.deal_results[0]
    assert result.tricks == (4, 9) and result.points == (0, 180)
    assert result.bids == (ba.Pass(), ba.Bid(7), ba.Bid(8), ba.Counter())
    # the same calls in the default reading: seat2's side keeps its 8, doubled
    state = calls(ex8_game(), *EX8_TAKEOVER_CALLS)
    assert state.declarer == 2
    assert state.contracts == (ba.Contract(8, multiplier=2, declarer=2), None)


def test_example_8_illegal_six_after_seven() -> None:
    """Worked example: in an auction seat1 `7`, seat2 `6`, the `6` is illegal."""
    state = calls(ex8_game(), "bid 7")
    with pytest.raises(ba.IllegalMoveError) as info:
        state.apply(ba.parse_move("bid 6"))
    assert info.value.reason is R.BID_NOT_HIGHER


def test_made_contract_scores_ten_per_trick_taken() -> None:
    """A made contract scores 10 points per trick taken (not per contracted trick), times the
    multiplier."""
    state = calls(ex8_game(), "pass", "pass", "bid 6", "pass", "trump S")
    state = play_deal(state, declarer_high(3))
    assert state.deal_results[0].tricks == (4, 9)
    assert state.deal_results[0].points == (0, 90)


@pytest.mark.parametrize(
    ("rules", "bids", "mult"),
    [
        (V.VIETNAM, ("pass", "pass", "bid 10", "pass"), 1),
        (V.VIETNAM, ("pass", "pass", "bid 10", "double"), 2),
        (TAKEOVER, ("bid 10", "double", "triple", "pass"), 3),
    ],
)
def test_failed_contract_loses_ten_per_contracted_trick_times_multiplier(
    rules: ba.RuleSet, bids: tuple[str, ...], mult: int
) -> None:
    """A failed contract loses 10 * contract * multiplier; the defenders score 0."""
    state = calls(ex8_game(rules), *bids, "trump S")
    assert state.declarer == 3
    state = play_deal(state, declarer_high(3))
    result = state.deal_results[0]
    assert result.tricks == (4, 9)
    assert result.points == (0, -10 * 10 * mult)


def test_defenders_score_all_tricks_option() -> None:
    """With defenders_score = all-tricks the defenders score 10 per trick they take."""
    rules = V.VIETNAM.replace(scoring=AuctionScoring(defenders_score=DefendersScore.ALL_TRICKS))
    state = calls(ex8_game(rules), *EX8_CALLS, "trump S")
    state = play_deal(state, declarer_high(3))
    assert state.deal_results[0].points == (40, 180)


def test_scoring_parameters() -> None:
    """The points per trick and the set penalty are parameters (per_trick, set_per_trick)."""
    rules = V.VIETNAM.replace(scoring=AuctionScoring(per_trick=20, set_per_trick=15))
    state = calls(ex8_game(rules), "pass", "pass", "bid 10", "pass", "trump S")
    assert play_deal(state, declarer_high(3)).deal_results[0].points == (0, -150)
    state = calls(ex8_game(rules), "pass", "pass", "bid 9", "pass", "trump S")
    assert play_deal(state, declarer_high(3)).deal_results[0].points == (0, 180)


# ------------------------------------------------------------ all pass


def test_all_pass_redeals_by_the_next_dealer() -> None:
    """When nobody announces a number the deal is thrown in; the next dealer deals 13 again."""
    rules = V.VIETNAM
    second = deck_for(rules, EX8_HANDS, EX8_STOCK, dealer=1)
    state = ba.new_game(
        rules, dealer=0, decks=[deck_for(rules, EX8_HANDS, EX8_STOCK), second], seed=5
    )
    state = calls(state, "pass", "pass", "pass", "pass")
    assert state.phase is ba.Phase.BIDDING
    assert state.dealer == 1 and state.to_act == 2
    assert state.hand_size == 13
    assert state.deals_played == 0 and state.deal_results == () and state.scores == (0, 0)
    for seat, hand in enumerate(EX8_HANDS):  # the second deck order was used
        assert set(state.hand(seat)) == set(ba.parse_cards(hand))
    # the redeal is followed by a full auction
    state = calls(state, "bid 4", "pass", "pass", "pass")
    assert state.declarer == 2


def test_all_pass_redeal_same_dealer_option() -> None:
    """The auction obeys `all_pass` too: with REDEAL_SAME_DEALER the same dealer deals again."""
    rules = V.VIETNAM.replace(bidding=Auction(all_pass=AllPass.REDEAL_SAME_DEALER))
    state = calls(ba.new_game(rules, dealer=2, seed=4), "pass", "pass", "pass", "pass")
    assert state.dealer == 2 and state.deals_played == 0 and state.to_act == 3


# --------------------------------------------------------- next dealer


def test_next_dealer_is_the_losing_teams_next_player_clockwise() -> None:
    """With next_dealer = LOSING_TEAM the losing side's player next clockwise deals."""
    assert V.VIETNAM.dealer.next_dealer is NextDealer.LOSING_TEAM
    # team 0 loses (0 against 180): from dealer 0, seat1 is team 1, seat2 team 0
    state = play_deal(after_ex8_auction(), declarer_high(3))
    assert state.deal_results[0].points == (0, 180)
    assert state.dealer == 2 and state.to_act == 3
    # team 1 loses (-100 against 0): seat1 is the next clockwise loser
    state = calls(ex8_game(), "pass", "pass", "bid 10", "pass", "trump S")
    state = play_deal(state, declarer_high(3))
    assert state.deal_results[0].points == (0, -100)
    assert state.dealer == 1
    assert state.deal_results[0].dealer == 0


@pytest.mark.parametrize(
    ("dealer", "points", "expected"),
    [
        (0, (0, 180), 2),
        (0, (180, 0), 1),
        (1, (0, 90), 2),
        (1, (90, 0), 3),
        (3, (-50, 0), 0),
        (3, (0, -50), 1),
        (2, (0, 0), 3),  # a tied game: plain clockwise
        (3, (40, 40), 0),
    ],
)
def test_next_dealer_losing_team_partnerships(
    dealer: int, points: tuple[int, int], expected: int
) -> None:
    """The losing side's player next clockwise deals; on a tie, plain clockwise."""
    rotation = DealerRotation(NextDealer.LOSING_TEAM)
    assert rotation.after_deal(dealer, points, ((0, 2), (1, 3)), 4) == expected
    assert DealerRotation().after_deal(dealer, points, ((0, 2), (1, 3)), 4) == (dealer + 1) % 4


@pytest.mark.parametrize(
    ("dealer", "points", "expected"),
    [
        (0, (0, 0, 0, -100), 3),
        (0, (0, 0, 0, 90), 1),  # three tied lowest: the first of them clockwise
        (1, (0, 90, 0, 0), 2),
        (2, (-30, 0, 0, 0), 0),
        (2, (0, 0, 0, 0), 3),
        (0, (5, -1, -1, 5), 1),
        (1, (5, -1, 5, -1), 3),
    ],
)
def test_next_dealer_losing_team_cutthroat(
    dealer: int, points: tuple[int, ...], expected: int
) -> None:
    """Without partnerships the lowest scorer of the game deals; ties go clockwise."""
    rotation = DealerRotation(NextDealer.LOSING_TEAM)
    assert rotation.after_deal(dealer, points, ((0,), (1,), (2,), (3,)), 4) == expected


def test_tied_game_passes_the_deal_clockwise_in_play() -> None:
    """On a tied game the deal passes plain clockwise."""
    rules = V.VIETNAM_SPADES.replace(bidding=Auction(all_pass=AllPass.PLAY_FOR_OVERTRICKS))
    state = calls(ba.new_game(rules, dealer=2, seed=11), "pass", "pass", "pass", "pass")
    assert state.phase is ba.Phase.PLAYING and state.contracts == (None, None)
    state = play_deal(state)
    assert state.deal_results[0].points == (0, 0)
    assert state.dealer == 3


def test_cutthroat_next_dealer_is_the_lowest_scorer_in_play() -> None:
    """In VIETNAM_CUTTHROAT the player who scored least deals next."""
    state = calls(ex8_game(V.VIETNAM_CUTTHROAT), "pass", "pass", "bid 10", "pass", "trump S")
    state = play_deal(state, declarer_high(3))
    assert state.deal_results[0].points == (0, 0, 0, -100)
    assert state.dealer == 3  # not seat 1, the next clockwise


def test_vietnam_ladder_dealer_passes_clockwise() -> None:
    """Next_dealer CLOCKWISE (the gamerules rotation) works with the auction."""
    rules = V.VIETNAM.replace(dealer=DealerRotation())
    state = play_deal(after_ex8_auction(rules), declarer_high(3))
    assert state.deal_results[0].points == (0, 180)
    assert state.dealer == 1


# --------------------------------------------------------------- match


@pytest.mark.parametrize("rules", [V.VIETNAM, V.VIETNAM_NO_JOKERS, V.VIETNAM_SPADES])
def test_a_match_is_two_games(rules: ba.RuleSet) -> None:
    """A match is two games (one deal each); the most points over both wins."""
    state = finish(after_ex8_auction(rules) if rules.deck.has_jokers else ex8_or_plain(rules))
    assert state.is_over and state.phase is ba.Phase.GAME_OVER and state.to_act is None
    assert state.deals_played == 2
    assert [r.hand_size for r in state.deal_results] == [13, 13]
    totals = tuple(sum(r.points[t] for r in state.deal_results) for t in range(2))
    assert state.scores == totals
    if totals[0] == totals[1]:
        assert state.winner is None
    else:
        assert state.winner == (0 if totals[0] > totals[1] else 1)
    assert state.legal_moves() == ()


def ex8_or_plain(rules: ba.RuleSet) -> ba.GameState:
    hands = [*EX8_HANDS[:3], EX8_HANDS[3]]
    state = ba.new_game(rules, dealer=0, decks=[deck_for(rules, hands)], seed=1)
    state = calls(state, *EX8_CALLS)
    if state.phase is ba.Phase.NAMING_TRUMP:
        state = state.apply(ba.NameTrump(S))
    return state


def test_match_winner_over_both_games() -> None:
    """The team with the most points over both games wins the match."""
    first = play_deal(after_ex8_auction(), declarer_high(3))  # team 1 +180
    state = first
    assert state.deals_played == 1 and not state.is_over
    state = finish(state)
    assert state.deals_played == 2
    expected = (
        None if state.scores[0] == state.scores[1] else int(state.scores[1] > state.scores[0])
    )
    assert state.winner == expected


# --------------------------------------------------------- sub-variants


def test_vietnam_no_jokers() -> None:
    """VIETNAM_NO_JOKERS plays the plain 52-card deck: no jokers, no blooper rules."""
    rules = V.VIETNAM_NO_JOKERS
    assert rules.deck.size == 52 and not rules.deck.has_jokers
    assert rules.follow == V.VIETNAM.follow  # blooper rules inert without jokers
    for seed in range(3):
        state = ba.new_game(rules, seed=seed)
        assert [len(h) for h in state.hands] == [13] * 4
        assert state.stock == ()
        assert not any(c.is_joker for h in state.hands for c in h)
    state = ba.new_game(rules, dealer=0, seed=0)
    assert state.is_legal(ba.Bid(13))
    assert refused(state, ba.Bid(14)) is R.BID_TOO_HIGH
    with pytest.raises(ba.SetupError):
        ba.new_game(rules, dealer=0, decks=[deck_for(V.VIETNAM, EX8_HANDS, EX8_STOCK)])
    # everything else is Vietnam
    assert rules.replace(deck=V.VIETNAM.deck, follow=V.VIETNAM.follow) == V.VIETNAM


def test_vietnam_42() -> None:
    """VIETNAM_42 plays 40 cards + 2 jokers, no 2s/3s/4s; 10 cards each; bids up to 10."""
    rules = V.VIETNAM_42
    assert rules.deck.size == 42 and rules.deck.has_jokers
    assert rules.schedule.hand_sizes == (10, 10)
    low = {ba.Rank.TWO, ba.Rank.THREE, ba.Rank.FOUR}
    for seed in range(3):
        state = ba.new_game(rules, seed=seed)
        assert state.hand_size == 10
        assert [len(h) for h in state.hands] == [10] * 4
        assert len(state.stock) == 2
        every = [c for h in state.hands for c in h] + list(state.stock)
        assert len(set(every)) == 42
        assert not any(c.rank in low for c in every)
        assert sum(c.is_joker for c in every) == 2
    state = ba.new_game(rules, dealer=0, seed=0)
    assert state.legal_moves() == (ba.Pass(), *[ba.Bid(n) for n in range(1, 11)])
    assert refused(state, ba.Bid(11)) is R.BID_TOO_HIGH
    state = calls(state, "bid 10")
    assert state.legal_moves() == (ba.Pass(), ba.Counter())
    state = calls(state, "pass", "pass", "pass", "trump H")
    state = play_deal(state)
    assert sum(state.deal_results[0].tricks) == 10
    with pytest.raises(ba.SetupError):  # a 2 is not in this deck
        ba.new_game(rules, dealer=0, decks=[deck_for(V.VIETNAM, EX8_HANDS, EX8_STOCK)])


def test_vietnam_spades() -> None:
    """In VIETNAM_SPADES spades are always trump; there is no NAMING_TRUMP phase."""
    rules = V.VIETNAM_SPADES
    state = ex8_game(rules)
    assert state.trump is S and state.turn_up is None
    state = calls(state, *EX8_CALLS)
    assert state.phase is ba.Phase.PLAYING
    assert state.trump is S and state.to_act == 3 and state.declarer == 3
    assert refused(state, ba.NameTrump(H)) is R.WRONG_PHASE
    state = play_deal(state, declarer_high(3))
    assert state.deal_results[0].points == (0, 180)
    assert state.deal_results[0].trump is S
    for seed in range(3):
        final = finish(ba.new_game(rules, seed=seed))
        assert all(r.trump is S for r in final.deal_results)


def test_vietnam_cutthroat() -> None:
    """VIETNAM_CUTTHROAT has no partnerships: 4 scores, and the winner is a seat."""
    rules = V.VIETNAM_CUTTHROAT
    assert rules.teams == ((0,), (1,), (2,), (3,))
    state = ex8_game(rules)
    assert state.scores == (0, 0, 0, 0)
    # every other player may double (seat2 and seat3 both may double seat1's 7); once
    # doubled, only the contract's holder may answer (seat1, who has spoken)
    state = calls(state, "bid 7")
    assert state.is_legal(ba.Counter())
    state = calls(state, "pass")
    assert state.is_legal(ba.Counter())
    state = calls(ex8_game(rules), "bid 7", "double")
    assert refused(state, "triple") is R.COUNTER_NOT_ALLOWED
    state = calls(ex8_game(rules), *EX8_CALLS, "trump S")
    assert state.contracts == (None, None, None, ba.Contract(8, multiplier=2, declarer=3))
    state = play_deal(state, declarer_high(3))
    result = state.deal_results[0]
    assert result.tricks == (4, 0, 0, 9)
    assert result.points == (0, 0, 0, 180)
    assert state.scores == (0, 0, 0, 180)
    state = finish(state)
    assert state.deals_played == 2 and len(state.scores) == 4
    best = max(state.scores)
    leaders = [s for s, p in enumerate(state.scores) if p == best]
    assert state.winner == (leaders[0] if len(leaders) == 1 else None)
    for seed in range(3):
        final = finish(ba.new_game(rules, seed=seed))
        assert len(final.scores) == 4
        assert all(len(r.points) == 4 for r in final.deal_results)
        assert final.winner is None or 0 <= final.winner < 4


def test_cutthroat_counter_on_own_contract_refused() -> None:
    """In cutthroat with countering-side counters every player but the contract's holder
    may counter (and takes it over)."""
    rules = TAKEOVER.replace(seating=Cutthroat(3), schedule=Schedule.fixed(13, 2))
    state = calls(ba.new_game(rules, dealer=0, seed=2), "bid 5", "double", "triple")
    assert state.phase is ba.Phase.NAMING_TRUMP  # three players, three calls
    assert state.declarer == 0
    assert state.contracts == (ba.Contract(5, multiplier=3, declarer=0), None, None)


def test_cutthroat_counters_alternate_between_the_holder_and_the_others() -> None:
    """In cutthroat with the default counters, any opponent of the announcer may double;
    then only the announcer may triple, and any opponent quadruple."""
    rules = V.VIETNAM_CUTTHROAT.replace(seating=Cutthroat(5), schedule=Schedule.fixed(10, 2))
    state = calls(ba.new_game(rules, dealer=4, seed=3), "bid 5", "double")
    assert state.to_act == 2
    assert refused(state, "triple") is R.COUNTER_NOT_ALLOWED  # seat 2 is not the holder
    state = calls(ba.new_game(rules, dealer=4, seed=3), "pass", "bid 5", "pass", "double")
    assert state.to_act == 4
    assert refused(state, "counter") is R.COUNTER_NOT_ALLOWED
    state = calls(state, "pass")
    assert state.contracts is not None
    assert state.contracts[1] == ba.Contract(5, multiplier=2, declarer=1)
