"""The gamerules variant, rule by rule, and worked examples of whole deals.

Positions are built exactly with ``new_game(rules, dealer=..., decks=[order])``
(see ``tests/helpers.py``).  Each test's docstring states the rule it checks.
"""

from __future__ import annotations

import random

import attrs
import pytest

import backalley as ba
from backalley.rules import (
    AllPass,
    BoardClaims,
    ContractScoring,
    CounterHolder,
    Deck,
    FollowPolicy,
    JokerTurnUp,
    LeadPolicy,
    Schedule,
    TrumpLead,
    TurnUpTrump,
)

from ..helpers import (
    bid_round,
    check_conservation,
    deck_order,
    play_to_tricks,
    position,
    short,
    state_fields,
)

GR = ba.variants.GAMERULES
P = ba.parse_move


def play(text: str) -> ba.Play:
    return ba.Play(ba.parse_card(text))


def plays(*texts: str) -> tuple[ba.Play, ...]:
    return tuple(play(t) for t in texts)


def hand(state: ba.GameState, seat: int) -> set[str]:
    return {str(c) for c in state.hands[seat]}


def seeded_deal(rules: ba.RuleSet, seed: int = 0, dealer: int = 0) -> ba.GameState:
    return ba.new_game(rules, dealer=dealer, seed=seed)


def no_throw_in_game(rules: ba.RuleSet, seed: int) -> ba.GameState:
    """A whole game of random legal moves in which the last bidder never passes
    when everyone else has (so no deal is thrown in)."""
    rng = random.Random(seed)
    state = ba.new_game(rules, seed=seed)
    while not state.is_over:
        moves = state.legal_moves()
        last_bidder = state.phase is ba.Phase.BIDDING and len(state.calls) == 3
        if last_bidder and all(isinstance(c, ba.Pass) for c in state.calls):
            moves = tuple(m for m in moves if not isinstance(m, ba.Pass))
        state = state.apply(rng.choice(moves))
    return state


# =============================================================== players, deck


def test_deck_is_52_plus_two_jokers():
    """The deck is the 52 standard cards plus two distinguishable jokers, 54 cards."""
    deck = GR.deck
    assert deck.size == 54
    assert int((deck).cards) == (1 << 54) - 1
    assert deck.has_jokers


def test_four_players_in_opposite_partnerships():
    """Four players play in two partnerships, partners opposite (0&2, 1&3)."""
    assert GR.players == 4
    assert GR.teams == ((0, 2), (1, 3))
    assert len(ba.new_game(GR, seed=1).scores) == 2


def test_first_deal_uses_the_whole_deck():
    """The first deal gives 13 cards to each of four players from the 54 cards, 2 left."""
    state = ba.new_game(GR, seed=3)
    assert [len(h) for h in state.hands] == [13] * 4
    assert len(state.stock) + 1 + len(state.discards) == 2
    check_conservation(state)


# ============================================================= dealing, schedule


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
@pytest.mark.parametrize("hand_size", [13, 5, 1])
def test_dealing_one_card_at_a_time_from_left_of_dealer(dealer, hand_size):
    """Cards are dealt one at a time, clockwise, starting left of the
    dealer; the undealt remainder keeps its order and is the stock (its top is
    the turn-up)."""
    order = [str(c) for c in ba.CARDS if not c.is_joker] + ["LJ", "BJ"]
    random.Random(hand_size * 10 + dealer).shuffle(order)
    # keep the jokers out of the turn-up so that nothing gets swapped
    while ba.parse_card(order[4 * hand_size]).is_joker:
        order.append(order.pop(4 * hand_size))
    state = ba.new_game(short(GR, hand_size), dealer=dealer, decks=[order])
    assert state.dealer == dealer
    expected = {seat: set() for seat in range(4)}
    for k in range(4 * hand_size):
        expected[(dealer + 1 + k) % 4].add(order[k])
    for seat in range(4):
        assert hand(state, seat) == expected[seat]
    assert str(state.turn_up) == order[4 * hand_size]
    assert [str(c) for c in state.stock] == order[4 * hand_size + 1 :]


def test_first_dealer_comes_from_the_seed():
    """The first dealer is chosen at random from the game's seed."""
    dealers = {seed: ba.new_game(GR, seed=seed).dealer for seed in range(40)}
    assert set(dealers.values()) == {0, 1, 2, 3}
    for seed, dealer in dealers.items():
        assert ba.new_game(GR, seed=seed).dealer == dealer
        assert ba.new_game(GR, seed=seed).first_dealer == dealer
    assert ba.new_game(GR, seed=5, dealer=2).dealer == 2


def test_schedule_is_25_deals_13_down_to_1_and_back():
    """A game has 25 scored deals of 13, 12, ..., 2, 1, 2, ..., 13 cards."""
    sizes = GR.schedule.hand_sizes
    assert sizes == (
        13,
        12,
        11,
        10,
        9,
        8,
        7,
        6,
        5,
        4,
        3,
        2,
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        9,
        10,
        11,
        12,
        13,
    )
    assert GR.schedule.deals == 25


@pytest.mark.parametrize("seed", [1, 2])
def test_a_game_deals_the_schedule_and_passes_the_deal_clockwise(seed):
    """Each scored deal has the scheduled hand size; the deal
    passes to the left after every deal; the game ends after the 25th deal."""
    state = no_throw_in_game(GR, seed)
    results = state.deal_results
    assert [r.hand_size for r in results] == list(GR.schedule.hand_sizes)
    assert [r.number for r in results] == list(range(1, 26))
    first = state.first_dealer
    assert [r.dealer for r in results] == [(first + i) % 4 for i in range(25)]
    assert state.deals_played == 25
    assert state.is_over and state.phase is ba.Phase.GAME_OVER
    assert state.scores == tuple(sum(r.points[t] for r in results) for t in range(2))


def test_deck_orders_are_used_one_per_deal():
    """Deck orders given as ``decks`` are dealt one per deal, then the seed shuffles."""
    rules = short(GR, 2, 2, 2)
    first = deck_order(["2C 3C", "2D 3D", "2H 3H", "2S 3S"], "4S", dealer=0)
    second = deck_order(["AC KC", "AD KD", "AH KH", "AS KS"], "4H", dealer=1)
    state = ba.new_game(rules, dealer=0, decks=[first, second], seed=9)
    assert hand(state, 1) == {"2D", "3D"} and str(state.turn_up) == "4S"
    state = bid_round(state, {1: "bid 1", 2: "pass", 3: "pass", 0: "pass"})
    state = play_to_tricks(state, (0, 2))
    assert state.dealer == 1 and state.deals_played == 1
    assert hand(state, 2) == {"AH", "KH"} and str(state.turn_up) == "4H"


def test_bad_deck_orders_are_refused():
    """A deck order must hold exactly the rule set's deck."""
    order = [str(c) for c in ba.CARDS]
    with pytest.raises(ba.SetupError):
        ba.new_game(GR, dealer=0, decks=[order[:-1]])
    with pytest.raises(ba.SetupError):
        ba.new_game(GR, dealer=0, decks=[[*order[:-1], "2C"]])
    with pytest.raises(ba.SetupError):
        ba.new_game(GR, dealer=0, decks=[[*order[:-1], "1X"]])
    with pytest.raises(ba.SetupError):
        ba.new_game(GR, dealer=4, seed=1)


# ======================================================================== trump


def test_turn_up_fixes_trump():
    """The top card of the stock is turned up; its suit is trump."""
    state = position(["2C", "2D", "2H", "2S"], "7D", hand_size=3)
    assert str(state.turn_up) == "7D"
    assert state.trump is ba.Suit.DIAMONDS
    assert all("7D" not in hand(state, s) for s in range(4))
    assert ba.parse_card("7D") not in state.stock
    assert state.discards == ()
    check_conservation(state)


@pytest.mark.parametrize(
    "turned, other, holder", [("LJ", "BJ", 2), ("BJ", "LJ", 0), ("LJ", "BJ", 1)]
)
def test_joker_turn_up_means_no_trump_and_the_other_joker_is_swapped(turned, other, holder):
    """A turned-up joker means no trump; the holder of the other
    joker discards it and draws the new top card of the stock."""
    hands = [["2C"], ["2D"], ["2H"], ["2S"]]
    hands[holder].append(other)
    state = position(hands, turned, hand_size=4, stock="7D 8D")
    assert state.trump is None
    assert str(state.turn_up) == turned
    assert [str(c) for c in state.discards] == [other]
    assert other not in hand(state, holder)
    assert "7D" in hand(state, holder)
    assert len(state.hands[holder]) == 4
    assert state.stock[0] == ba.parse_card("8D")
    assert not any(c.is_joker for h in state.hands for c in h)  # no joker in play
    check_conservation(state)


def test_joker_turn_up_with_the_other_joker_in_the_stock():
    """If nobody holds the other joker, nothing is swapped."""
    state = position(["2C", "2D", "2H", "2S"], "BJ", hand_size=3, stock="LJ 7D")
    assert state.trump is None
    assert state.discards == ()
    assert [str(c) for c in state.stock[:2]] == ["LJ", "7D"]
    assert not any(c.is_joker for h in state.hands for c in h)
    check_conservation(state)


def test_joker_turn_up_option_turn_next_card():
    """With joker_turn_up=TURN_NEXT_CARD a turned joker is buried and cards are
    turned until a suited card shows."""
    rules = short(GR.replace(trump=TurnUpTrump(joker_turn_up=JokerTurnUp.TURN_NEXT_CARD)), 4)
    state = position(
        [["2C"], ["2D"], ["2H", "BJ"], ["2S"]], "LJ", rules=rules, hand_size=4, stock="7D 8D"
    )
    assert str(state.turn_up) == "7D"
    assert state.trump is ba.Suit.DIAMONDS
    assert "BJ" in hand(state, 2)  # the other joker stays where it is
    assert [str(c) for c in state.discards] == ["LJ"]
    assert state.stock[0] == ba.parse_card("8D")
    check_conservation(state)
    # two jokers on top: both buried
    state = position(["2C", "2D", "2H", "2S"], "LJ", rules=rules, hand_size=4, stock="BJ 9H")
    assert str(state.turn_up) == "9H" and state.trump is ba.Suit.HEARTS
    assert {str(c) for c in state.discards} == {"LJ", "BJ"}
    check_conservation(state)


def test_joker_turn_up_option_other_joker_stays():
    """With joker_turn_up=NO_TRUMP_OTHER_JOKER_STAYS a turned joker means no trump
    suit, and the other joker stays in play as the only trump."""
    rules = short(
        GR.replace(trump=TurnUpTrump(joker_turn_up=JokerTurnUp.NO_TRUMP_OTHER_JOKER_STAYS)), 2
    )
    state = position(["2C 3C", "AD 4C", "BJ 5C", "KD 6C"], "LJ", rules=rules, stock="7D")
    assert state.trump is None and str(state.turn_up) == "LJ"
    assert "BJ" in hand(state, 2)
    assert state.discards == ()
    check_conservation(state)
    state = bid_round(state, {1: "bid 1", 2: "pass", 3: "pass", 0: "pass"})
    state = state.apply(play("AD"))  # seat 1 leads a diamond; seat 2 has none
    assert set(state.legal_moves()) == set(plays("BJ", "5C"))
    state = state.apply(play("BJ")).apply(play("KD")).apply(play("2C"))
    assert state.tricks[0].winner == 2  # the joker wins as a trump


def test_jokers_are_the_top_trumps():
    """Trumps rank BJ, LJ, A, K, ... 2; a joker beats the ace of trump."""
    state = position(["2C 5C", "AS 3C", "LJ 4D", "BJ 5D"], "7S")
    # seat 1 (bid 1) leads 3C; seat 2 and 3 cannot follow and trump with jokers
    state = bid_round(state, {1: "bid 1", 2: "pass", 3: "pass", 0: "pass"})
    state = state.apply(play("3C")).apply(play("LJ")).apply(play("BJ")).apply(play("5C"))
    assert state.tricks[0].winner == 3
    assert state.to_act == 3


# ====================================================================== bidding


def test_bidding_starts_left_of_dealer_and_goes_once_around():
    """Bidding starts left of the dealer; each player bids exactly once."""
    state = seeded_deal(short(GR, 5), dealer=2)
    assert state.phase is ba.Phase.BIDDING
    order = []
    for call in ["bid 1", "bid 2", "pass", "bid 1"]:
        order.append(state.to_act)
        state = state.apply(P(call))
    assert order == [3, 0, 1, 2]
    assert state.phase is ba.Phase.PLAYING
    assert state.bids == (P("bid 2"), P("pass"), P("bid 1"), P("bid 1"))


def test_legal_bids_with_13_cards():
    """With 13 cards the calls are pass, a number from 1 to 12, or board."""
    state = seeded_deal(GR)
    assert state.legal_moves() == (ba.Pass(), *[ba.Bid(n) for n in range(1, 13)], ba.BoardBid())
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(ba.Bid(13))
    assert info.value.reason is ba.Reason.BID_TOO_HIGH
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(ba.Bid(0))
    assert info.value.reason is ba.Reason.BID_TOO_LOW


@pytest.mark.parametrize("hand_size", [1, 2, 3, 7])
def test_legal_bids_by_hand_size(hand_size):
    """The numeric bids run from 1 to the hand size minus 1."""
    state = seeded_deal(short(GR, hand_size))
    numbers = [ba.Bid(n) for n in range(1, hand_size)]
    assert state.legal_moves() == (ba.Pass(), *numbers, ba.BoardBid())


def test_bids_need_not_be_higher():
    """Bids need not be higher than earlier bids."""
    state = seeded_deal(short(GR, 8))
    state = state.apply(ba.Bid(7))
    assert ba.Bid(1) in state.legal_moves()
    state = state.apply(ba.Bid(1))
    assert state.bids[2] == ba.Bid(1)


def test_team_contract_is_the_sum_of_bids():
    """A team's contract is the sum of its two players' numeric bids."""
    state = seeded_deal(short(GR, 13))
    state = bid_round(state, {1: "bid 3", 2: "pass", 3: "bid 4", 0: "bid 2"})
    assert state.contracts == (ba.Contract(2), ba.Contract(7))


def test_board_replaces_the_partners_bid():
    """A board claim makes the team's contract the board;
    the partner's numeric bid no longer matters."""
    state = seeded_deal(short(GR, 6))
    state = bid_round(state, {1: "board", 2: "bid 2", 3: "bid 5", 0: "bid 1"})
    team0, team1 = state.contracts
    assert team0 == ba.Contract(3)
    assert team1.board and team1.multiplier == 1 and team1.tricks == 6


@pytest.mark.parametrize(
    "calls, multiplier",
    [
        ({1: "board", 2: "pass", 3: "pass", 0: "pass"}, 1),
        ({1: "board", 2: "board", 3: "pass", 0: "pass"}, 2),
        ({1: "board", 2: "board", 3: "board", 0: "pass"}, 3),
        ({1: "board", 2: "board", 3: "board", 0: "board"}, 4),
        ({1: "bid 1", 2: "board", 3: "bid 2", 0: "board"}, 2),
    ],
)
def test_board_multiplier_is_the_number_of_claims(calls, multiplier):
    """The deal's board multiplier is the number of board claims (1-4)."""
    state = bid_round(seeded_deal(short(GR, 4)), calls)
    boards = [c for c in state.contracts if c.board]
    assert boards
    assert all(c.multiplier == multiplier for c in boards)


def test_board_claims_any_player_by_default():
    """With board_claims=ANY_PLAYER (the default) a partner of a board claimer may claim again."""
    state = bid_round(seeded_deal(short(GR, 4)), {1: "board", 2: "pass"})
    assert ba.BoardBid() in state.legal_moves()  # seat 3, partner of seat 1
    state = bid_round(state, {3: "board", 0: "pass"})
    assert state.contracts[1].multiplier == 2


def test_board_claims_opponents_only():
    """With board_claims=OPPONENTS_ONLY a partner of an earlier
    board claimer may not claim board again."""
    rules = short(
        GR.replace(bidding=ba.rules.OnceAroundBidding(board_claims=BoardClaims.OPPONENTS_ONLY)), 4
    )
    state = bid_round(seeded_deal(rules), {1: "board"})
    assert ba.BoardBid() in state.legal_moves()  # seat 2, an opponent
    state = state.apply(ba.Pass())
    assert ba.BoardBid() not in state.legal_moves()  # seat 3, the partner
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(ba.BoardBid())
    assert info.value.reason is ba.Reason.BOARD_BY_PARTNER
    state = bid_round(state, {3: "bid 2", 0: "board"})
    assert state.contracts == (ba.Contract(4, board=True, multiplier=2),) * 2


def _two_decks(rules, dealer=0, second_dealer=1):
    first = deck_order(["2C 3C 4C", "2D 3D 4D", "2H 3H 4H", "2S 3S 4S"], "5S", dealer=dealer)
    second = deck_order(
        ["AC KC QC", "AD KD QD", "AH KH QH", "AS KS QS"], "JH", dealer=second_dealer
    )
    return ba.new_game(rules, dealer=dealer, decks=[first, second], seed=4)


def test_all_pass_redeals_by_the_next_dealer():
    """If all four pass, the hands are thrown in and the next
    dealer deals the same hand size again; the thrown-in deal is not scored."""
    rules = short(GR, 3, 2)
    state = _two_decks(rules)
    state = bid_round(state, {1: "pass", 2: "pass", 3: "pass", 0: "pass"})
    assert state.phase is ba.Phase.BIDDING
    assert state.dealer == 1
    assert state.hand_size == 3
    assert state.deals_played == 0 and state.deal_results == ()
    assert state.scores == (0, 0)
    assert state.to_act == 2
    assert hand(state, 2) == {"AH", "KH", "QH"}  # dealt from the second deck order
    assert str(state.turn_up) == "JH"
    check_conservation(state)


def test_all_pass_option_redeal_same_dealer():
    """With all_pass=REDEAL_SAME_DEALER, when all four pass the same dealer deals again."""
    rules = short(
        GR.replace(bidding=ba.rules.OnceAroundBidding(all_pass=AllPass.REDEAL_SAME_DEALER)), 3, 2
    )
    state = _two_decks(rules, second_dealer=0)
    state = bid_round(state, {1: "pass", 2: "pass", 3: "pass", 0: "pass"})
    assert state.phase is ba.Phase.BIDDING
    assert state.dealer == 0 and state.hand_size == 3 and state.deals_played == 0
    assert hand(state, 1) == {"AD", "KD", "QD"}


def test_all_pass_option_play_for_overtricks():
    """With all_pass=PLAY_FOR_OVERTRICKS, when all four pass the deal is played and
    scored as two zero contracts (1 point per trick)."""
    rules = short(
        GR.replace(bidding=ba.rules.OnceAroundBidding(all_pass=AllPass.PLAY_FOR_OVERTRICKS)), 5
    )
    state = bid_round(seeded_deal(rules), {1: "pass", 2: "pass", 3: "pass", 0: "pass"})
    assert state.phase is ba.Phase.PLAYING
    assert state.contracts == (ba.Contract(0), ba.Contract(0))
    state = play_to_tricks(state, (3, 2))
    assert state.deal_results[0].points == (3, 2)
    assert state.scores == (3, 2)


# ================================================================ the first lead


@pytest.mark.parametrize(
    "dealer, calls, leader",
    [
        (0, {1: "bid 3", 2: "pass", 3: "bid 4", 0: "bid 2"}, 3),  # highest bid
        (0, {1: "bid 3", 2: "bid 4", 3: "bid 4", 0: "bid 2"}, 2),  # tie: earliest bidder
        (1, {2: "pass", 3: "bid 4", 0: "bid 4", 1: "bid 1"}, 3),  # tie: earliest in bidding order
        (3, {0: "bid 2", 1: "bid 2", 2: "bid 2", 3: "bid 2"}, 0),  # four-way tie
        (0, {1: "pass", 2: "pass", 3: "pass", 0: "bid 1"}, 0),
    ],
)
def test_highest_numeric_bid_leads_ties_to_the_earliest(dealer, calls, leader):
    """Without a board the highest numeric bid leads; on a tie
    the earliest player in bidding order to make that bid leads."""
    state = bid_round(seeded_deal(short(GR, 6), dealer=dealer), calls)
    assert state.phase is ba.Phase.PLAYING
    assert state.to_act == leader
    assert state.leader == leader


@pytest.mark.parametrize(
    "calls, leader",
    [
        ({1: "board", 2: "bid 5", 3: "pass", 0: "pass"}, 1),  # a board beats a higher number
        ({1: "board", 2: "pass", 3: "board", 0: "pass"}, 3),  # the last board leads
        ({1: "board", 2: "board", 3: "pass", 0: "bid 5"}, 2),
        ({1: "board", 2: "board", 3: "board", 0: "board"}, 0),
    ],
)
def test_last_board_bidder_leads(calls, leader):
    """If anyone bid board, the last player who bid board leads."""
    state = bid_round(seeded_deal(short(GR, 6)), calls)
    assert state.to_act == leader


# ========================================================================= play


def _leading(hands, turn_up, calls, **kw):
    """A position in the first trick, after the bids ``calls`` (dealer 0)."""
    state = position(hands, turn_up, **kw)
    return bid_round(state, calls)


PASS3 = {2: "pass", 3: "pass", 0: "pass"}


def test_must_follow_suit():
    """A player must follow the suit led if able."""
    state = _leading(["2C 3C", "5H 6C", "7H 2D", "8C 9C"], "4S", {1: "bid 1", **PASS3})
    state = state.apply(play("5H"))
    assert state.to_act == 2
    assert state.legal_moves() == plays("7H")
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(play("2D"))
    assert info.value.reason is ba.Reason.MUST_FOLLOW_SUIT
    assert str(info.value) == "you hold a heart, so you must follow hearts"
    state = state.apply(play("7H"))
    # seat 3 holds no heart: any card
    assert set(state.legal_moves()) == set(plays("8C", "9C"))


def test_cannot_follow_may_play_any_card_including_trump():
    """A player who cannot follow may play any card (a trump, a joker)."""
    state = _leading(["2C 3C 4C", "5H 6C 7C", "AS BJ 2D", "8C 9C TC"], "4S", {1: "bid 1", **PASS3})
    state = state.apply(play("5H"))
    assert set(state.legal_moves()) == set(plays("AS", "BJ", "2D"))


def test_jokers_follow_a_trump_lead():
    """When a trump is led, a player holding any trump, jokers
    included, must play a trump; a joker is not a card of a plain suit."""
    # seat 1 bid board, so may lead trump
    state = _leading(["2C 3C", "KS 6C", "LJ 2D", "5C BJ"], "4S", {1: "board", **PASS3})
    state = state.apply(play("KS"))
    assert state.legal_moves() == plays("LJ")  # LJ is seat 2's only trump
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(play("2D"))
    assert info.value.reason is ba.Reason.MUST_FOLLOW_SUIT
    assert "trump" in str(info.value)
    # clubs led: a joker does not follow clubs
    state = _leading(["2C 3C", "6C KS", "LJ 2D", "5C BJ"], "4S", {1: "board", **PASS3})
    state = state.apply(play("6C"))
    assert set(state.legal_moves()) == set(plays("LJ", "2D"))  # no club: anything
    state = state.apply(play("2D"))
    assert state.legal_moves() == plays("5C")
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(play("BJ"))
    assert info.value.reason is ba.Reason.MUST_FOLLOW_SUIT


def test_a_joker_lead_must_be_followed_with_trump():
    """Jokers count as the trump suit when led (forcing off, so
    only the follow rule applies)."""
    rules = short(GR.replace(follow=FollowPolicy(blooper_lead_forcing=False)), 2)
    state = _leading(["2C 3C", "BJ 6C", "9S 2D", "5C 7C"], "4S", {1: "board", **PASS3}, rules=rules)
    state = state.apply(play("BJ"))
    assert state.legal_moves() == plays("9S")
    state = state.apply(play("9S"))
    assert set(state.legal_moves()) == set(plays("5C", "7C"))  # no trump: anything


def test_trump_may_not_be_led_before_broken():
    """A player may not lead a trump before trump is broken."""
    state = _leading(["2C 3C", "AH 3D", "7C 2D", "8C 9C"], "5H", {1: "bid 1", **PASS3})
    assert state.legal_moves() == plays("3D")
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(play("AH"))
    assert info.value.reason is ba.Reason.TRUMP_NOT_BROKEN


def test_trump_may_be_led_once_broken():
    """A trump may be led once a trump was played in an earlier trick of this deal."""
    state = _leading(["9C TC JC", "3C 4C 5C", "2H 3H 2D", "6C 7C 8C"], "9H", {1: "bid 1", **PASS3})
    assert not state.trump_broken
    # trick 1: seat 1 leads 3C, seat 2 (no clubs) trumps with 2H
    state = state.apply(play("3C")).apply(play("2H"))
    assert not state.trump_broken  # only a trump of an *earlier* trick counts
    state = state.apply(play("6C")).apply(play("9C"))
    assert state.tricks[0].winner == 2
    assert state.trump_broken
    assert state.to_act == 2
    assert set(state.legal_moves()) == set(plays("3H", "2D"))


def test_board_bidder_may_lead_trump():
    """A player who bid board may lead trump before trump is broken."""
    state = _leading(["2C 3C", "AH 3D", "7C 2D", "8C 9C"], "5H", {1: "board", **PASS3})
    assert set(state.legal_moves()) == set(plays("AH", "3D"))


def test_a_hand_of_only_trumps_may_lead_trump():
    """A hand that holds nothing but trumps may lead trump before trump is broken."""
    state = _leading(["2C 3C 4C", "AH 2H BJ", "7C 2D 3D", "8C 9C TC"], "5H", {1: "bid 1", **PASS3})
    assert set(state.legal_moves()) == set(plays("AH", "2H", "BJ"))


def test_trump_lead_any_time_option():
    """With trump_lead=ANY_TIME a trump may be led before trump is broken."""
    rules = short(GR.replace(lead=LeadPolicy(trump_lead=TrumpLead.ANY_TIME)), 2)
    state = _leading(["2C 3C", "AH 3D", "7C 2D", "8C 9C"], "5H", {1: "bid 1", **PASS3}, rules=rules)
    assert set(state.legal_moves()) == set(plays("AH", "3D"))


def test_no_trump_deal_forbids_no_lead():
    """In a no-trump deal the trump-lead rule has nothing to forbid."""
    state = _leading(["2C 3C", "AH 3D", "7C 2D", "8C 9C"], "BJ", {1: "bid 1", **PASS3}, stock="LJ")
    assert state.trump is None
    assert set(state.legal_moves()) == set(plays("AH", "3D"))


def test_big_blooper_lead_forces_highest_trump():
    """When BJ is led, every other player holding a trump
    plays their highest trump (LJ is the highest below BJ)."""
    state = _leading(
        ["3C 4C 5C 6C", "BJ 7C 8C 9C", "LJ 9S 2S 4D", "AS 2D 3D TC"], "3S", {1: "board", **PASS3}
    )
    state = state.apply(play("BJ"))
    assert state.legal_moves() == plays("LJ")
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(play("9S"))
    assert info.value.reason is ba.Reason.MUST_PLAY_HIGHEST_TRUMP
    assert "LJ" in str(info.value)
    state = state.apply(play("LJ"))
    assert state.legal_moves() == plays("AS")  # seat 3's highest trump
    state = state.apply(play("AS"))
    assert set(state.legal_moves()) == set(plays("3C", "4C", "5C", "6C"))  # no trump: any card


def test_little_blooper_lead_forces_lowest_trump():
    """When LJ is led, every other player holding a trump
    plays their lowest trump (BJ if it is the only one)."""
    state = _leading(
        ["3C 4C 5C 6C", "LJ 7C 8C 9C", "AS 9S 2S 4D", "BJ 2D 3D TC"], "3S", {1: "board", **PASS3}
    )
    state = state.apply(play("LJ"))
    assert state.legal_moves() == plays("2S")
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(play("AS"))
    assert info.value.reason is ba.Reason.MUST_PLAY_LOWEST_TRUMP
    assert "2S" in str(info.value)
    state = state.apply(play("2S"))
    assert state.legal_moves() == plays("BJ")


def test_blooper_lead_forcing_off():
    """With blooper_lead_forcing off a blooper lead is just a trump lead."""
    rules = short(GR.replace(follow=FollowPolicy(blooper_lead_forcing=False)), 4)
    state = _leading(
        ["3C 4C 5C 6C", "BJ 7C 8C 9C", "LJ 9S 2S 4D", "AS 2D 3D TC"],
        "3S",
        {1: "board", **PASS3},
        rules=rules,
    )
    state = state.apply(play("BJ"))
    assert set(state.legal_moves()) == set(plays("LJ", "9S", "2S"))
    state = _leading(
        ["3C 4C 5C 6C", "LJ 7C 8C 9C", "AS 9S 2S 4D", "BJ 2D 3D TC"],
        "3S",
        {1: "board", **PASS3},
        rules=rules,
    )
    state = state.apply(play("LJ"))
    assert set(state.legal_moves()) == set(plays("AS", "9S", "2S"))


@pytest.mark.parametrize(
    "trick, winner",
    [
        (("3C", "AC", "KC", "2C"), 2),  # plain suit: the highest of the suit led
        (("3C", "AD", "KC", "2C"), 3),  # an off-suit card never wins
        (("3C", "AC", "2S", "KC"), 3),  # a trump wins
        (("3C", "3S", "AS", "2C"), 3),  # the highest trump wins
        (("3C", "AS", "LJ", "2C"), 3),  # LJ beats the ace of trump
        (("3C", "LJ", "AS", "BJ"), 0),  # BJ beats LJ
        (("AC", "2C", "3C", "4C"), 1),  # the leader can win
    ],
)
def test_trick_winner(trick, winner):
    """The highest trump wins; else the highest card of the suit
    led.  The winner leads the next trick.  (Trump spades; seat 1 leads, then
    seats 2, 3 and 0 play the cards in order.)"""
    hands = [["7D"], ["4D"], ["5D"], ["6D"]]
    for seat, card in zip([1, 2, 3, 0], trick):
        hands[seat].insert(0, card)
    state = _leading(hands, "9S", {1: "bid 1", **PASS3})
    for card in trick:
        state = state.apply(play(card))
    assert state.tricks[0].winner == winner
    assert state.to_act == winner
    assert state.leader == winner
    assert state.tricks_won[winner] == 1
    assert sum(state.tricks_won) == 1


# ====================================================================== scoring


def _deal_points(state: ba.GameState) -> tuple[int, ...]:
    return state.deal_results[-1].points


@pytest.mark.parametrize(
    "bids, tricks, points",
    [
        # team 0 = seats 0 & 2, team 1 = seats 1 & 3; hand size 6
        ({1: "bid 2", 2: "bid 1", 3: "bid 1", 0: "bid 2"}, (3, 3), (15, 15)),  # both made exactly
        ({1: "bid 2", 2: "bid 1", 3: "bid 1", 0: "pass"}, (4, 2), (5 + 3, -15)),  # overtricks; set
        ({1: "bid 1", 2: "pass", 3: "pass", 0: "pass"}, (4, 2), (4, 6)),  # zero contract: 1/trick
        ({1: "bid 5", 2: "bid 5", 3: "pass", 0: "bid 1"}, (2, 4), (-30, -25)),  # both set
    ],
)
def test_numeric_contract_scoring(bids, tricks, points):
    """A numeric contract b made with t tricks scores +5*b + (t-b); set, it scores -5*b."""
    state = bid_round(seeded_deal(short(GR, 6), seed=2), bids)
    state = play_to_tricks(state, tricks)
    assert state.deal_results[0].tricks == tricks
    assert _deal_points(state) == points
    assert state.scores == points


def _board_position(board_team_wins: bool):
    # seat 3 bids board and leads; trump spades
    if board_team_wins:
        hands = ["2C 3C 4C", "5C 6C 7C", "8C 9C TC", "BJ LJ AS"]
    else:
        hands = ["2S 3C 4C", "5C 6C 7C", "8C 9C TC", "AC KC QC"]
    return position(hands, "9S")


def test_board_made():
    """A board made (all h tricks) scores +10*h*m; the other team
    is scored on its numeric contract."""
    state = bid_round(_board_position(True), {1: "pass", 2: "bid 1", 3: "board", 0: "pass"})
    state = play_to_tricks(state, (0, 3))
    assert _deal_points(state) == (-5, 30)


def test_board_failed():
    """A failed board scores -10*h*m."""
    state = bid_round(_board_position(False), {1: "pass", 2: "pass", 3: "board", 0: "pass"})
    state = play_to_tricks(state, (1, 2))
    assert _deal_points(state) == (1, -30)


def test_both_teams_board():
    """If both teams claimed board, each is scored on its own
    board with the same multiplier (here 3 claims)."""
    state = bid_round(_board_position(True), {1: "board", 2: "board", 3: "board", 0: "pass"})
    assert state.contracts == (ba.Contract(3, board=True, multiplier=3),) * 2
    state = play_to_tricks(state, (0, 3))
    assert _deal_points(state) == (-90, 90)


def test_scoring_parameters():
    """The points per bid trick, per overtrick, per board trick and
    the set penalty are parameters of the scoring policy."""
    scoring = ContractScoring(
        per_bid_trick=10,
        per_overtrick=2,
        set_per_bid_trick=3,
        per_board_trick=20,
        set_per_board_trick=7,
    )
    rules = short(GR.replace(scoring=scoring), 6)
    state = bid_round(seeded_deal(rules, seed=2), {1: "bid 2", 2: "bid 1", 3: "bid 1", 0: "pass"})
    state = play_to_tricks(state, (4, 2))
    assert _deal_points(state) == (10 * 1 + 2 * 3, -3 * 3)
    rules = short(GR.replace(scoring=scoring), 3)
    made = position(["2C 3C 4C", "5C 6C 7C", "8C 9C TC", "BJ LJ AS"], "9S", rules=rules)
    state = bid_round(made, {1: "board", 2: "pass", 3: "board", 0: "pass"})
    state = play_to_tricks(state, (0, 3))
    assert _deal_points(state) == (0, 20 * 3 * 2)
    failed = position(["2S 3C 4C", "5C 6C 7C", "8C 9C TC", "AC KC QC"], "9S", rules=rules)
    state = bid_round(failed, {1: "pass", 2: "pass", 3: "board", 0: "pass"})
    state = play_to_tricks(state, (1, 2))
    assert _deal_points(state) == (2, -7 * 3)


def test_scores_accumulate_over_deals():
    """A game's scores are the sum of its deals' points."""
    rules = short(GR, 3, 2)
    state = bid_round(seeded_deal(rules, seed=7), {1: "bid 2", 2: "bid 1", 3: "pass", 0: "pass"})
    state = play_to_tricks(state, (1, 2))
    assert state.scores == (5, 10)
    assert state.deals_played == 1 and state.hand_size == 2 and state.dealer == 1
    state = bid_round(state, {2: "bid 1", 3: "pass", 0: "pass", 1: "pass"})
    state = play_to_tricks(state, (0, 2))
    assert state.deal_results[1].points == (-5, 2)
    assert state.scores == (0, 12)


# ================================================================= end of game


def test_game_over_and_winner():
    """After the last scored deal the game is over; the team with
    more points wins."""
    state = bid_round(
        seeded_deal(short(GR, 2), seed=3), {1: "bid 1", 2: "bid 1", 3: "pass", 0: "pass"}
    )
    assert state.winner is None and not state.is_over
    state = play_to_tricks(state, (2, 0))
    assert state.is_over and state.phase is ba.Phase.GAME_OVER
    assert state.to_act is None
    assert state.legal_moves() == ()
    assert state.scores == (6, -5)
    assert state.winner == 0
    check_conservation(state)


def test_equal_points_is_a_draw():
    """Equal points is a draw (tie_break=DRAW): winner is None."""
    state = bid_round(seeded_deal(short(GR, 2)), {1: "bid 1", 2: "bid 1", 3: "pass", 0: "pass"})
    state = play_to_tricks(state, (1, 1))
    assert state.is_over
    assert state.scores == (5, 5)
    assert state.winner is None


# ============================================================ worked examples


def _worked_example_bids(seed):
    state = seeded_deal(short(GR, 13), seed=seed)
    return bid_round(state, {1: "bid 3", 2: "pass", 3: "bid 4", 0: "bid 2"})


def test_worked_example_numeric_contracts_made_with_overtricks():
    """Worked example: bids seat1 3, seat2 pass, seat3 4, seat0 2 (dealer 0):
    team 0 = 2, team 1 = 7; seat 3 leads; tricks 5/8 score +13 / +36."""
    state = _worked_example_bids(seed=1)
    assert state.contracts == (ba.Contract(2), ba.Contract(7))
    assert state.to_act == 3 and state.leader == 3
    state = play_to_tricks(state, (5, 8))
    assert state.deal_results[0].tricks == (5, 8)
    assert state.deal_results[0].points == (13, 36)


def test_worked_example_a_numeric_contract_set():
    """Worked example: the same bids as above, team 1 takes 6 (-35), team 0 takes 7 (+15)."""
    state = play_to_tricks(_worked_example_bids(seed=1), (7, 6))
    assert state.deal_results[0].points == (15, -35)


def test_worked_example_a_double_board_made():
    """Worked example: hand size 4, seat1 board, seat2 1, seat3 board,
    seat0 pass: multiplier 2, seat 3 leads; team 1 takes all 4: +80; team 0 -5."""
    state = position(["2C 3C 4C 5C", "6C 7C 8C 9C", "2D 3D 4D 5D", "BJ LJ AS KS"], "9S")
    state = bid_round(state, {1: "board", 2: "bid 1", 3: "board", 0: "pass"})
    assert state.contracts == (ba.Contract(1), ba.Contract(4, board=True, multiplier=2))
    assert state.to_act == 3
    state = play_to_tricks(state, (0, 4))
    assert state.deal_results[0].points == (-5, 80)


def test_worked_example_the_one_card_deal_has_pass_and_board_only():
    """Worked example: with hand size 1 the legal bids are exactly pass and board."""
    state = seeded_deal(short(GR, 1))
    assert state.hand_size == 1
    for _ in range(4):
        assert state.legal_moves() == (ba.Pass(), ba.BoardBid())
        with pytest.raises(ba.IllegalMoveError) as info:
            state.check(ba.Bid(1))
        assert info.value.reason is ba.Reason.BID_TOO_HIGH
        state = state.apply(ba.Pass() if state.to_act != 0 else ba.BoardBid())


def test_worked_example_a_turned_joker_swaps_the_other_joker():
    """Worked example: turn-up LJ: no trump; seat 2's BJ goes to the
    discard and seat 2 draws the next stock card."""
    state = position(["2C 3C 4C 5C", "2D 3D 4D 5D", "BJ 3H 4H 5H", "2S 3S 4S 5S"], "LJ", stock="7D")
    assert state.trump is None
    assert [str(c) for c in state.discards] == ["BJ"]
    assert hand(state, 2) == {"7D", "3H", "4H", "5H"}
    assert ba.parse_card("7D") not in state.stock


def test_worked_example_leading_trump_on_the_first_trick():
    """Worked example: trump hearts, first trick, leader holds AH 3C: AH
    may not be led, 3C must be; a leader who bid board may lead both; a leader
    holding AH 2H BJ may lead any."""
    state = _leading(["2C 4C", "AH 3C", "7C 2D", "8C 9C"], "5H", {1: "bid 1", **PASS3})
    assert state.legal_moves() == plays("3C")
    assert not state.is_legal(play("AH"))
    state = _leading(["2C 4C", "AH 3C", "7C 2D", "8C 9C"], "5H", {1: "board", **PASS3})
    assert set(state.legal_moves()) == set(plays("AH", "3C"))
    state = _leading(["2C 4C 5C", "AH 2H BJ", "7C 2D 3D", "8C 9C TC"], "5H", {1: "bid 1", **PASS3})
    assert set(state.legal_moves()) == set(plays("AH", "2H", "BJ"))


@pytest.mark.parametrize(
    "led, follower, legal",
    [
        ("BJ", "LJ 9S 2S 4D", {"LJ"}),
        ("LJ", "AS 9S 2S 4D", {"2S"}),
        ("LJ", "BJ 4D", {"BJ"}),
        ("LJ", "4D 5C", {"4D", "5C"}),
        ("BJ", "4D 5C", {"4D", "5C"}),
    ],
)
def test_worked_example_blooper_leads_force_trumps(led, follower, legal):
    """Worked example: trump spades; BJ led: LJ 9S 2S 4D must play LJ;
    LJ led: AS 9S 2S 4D must play 2S, BJ 4D must play BJ, 4D 5C may play either."""
    h = len(follower.split())
    leader = [led, "7C", "8C", "9C"][:h]
    state = position(
        ["2C 3C 4H 5H"[: 3 * h - 1], leader, follower, "2H 3H 6H 7H"[: 3 * h - 1]], "3S"
    )
    state = bid_round(state, {1: "board", **PASS3})
    state = state.apply(play(led))
    assert state.to_act == 2
    assert {str(m.card) for m in state.legal_moves()} == legal


def test_worked_example_a_doubled_vietnam_contract():
    """Worked example of the Vietnam auction, under the reading in which a counter
    takes the contract over (``counter_holder = countering-side``): seat1 7, seat2
    8, seat3 double, seat0 pass: seat 3 declares for team 1, 8 doubled; 9 tricks
    score +180.  An auction 7 then 6 is illegal (not higher)."""
    rules = ba.variants.VIETNAM
    rules = rules.replace(
        bidding=attrs.evolve(rules.bidding, counter_holder=CounterHolder.COUNTERING_SIDE)
    )
    state = ba.new_game(rules, dealer=0, seed=3)
    state = bid_round(state, {1: "bid 7", 2: "bid 8", 3: "double", 0: "pass"})
    assert state.phase is ba.Phase.NAMING_TRUMP
    assert state.declarer == 3 and state.to_act == 3
    assert state.contracts == (None, ba.Contract(8, multiplier=2, declarer=3))
    state = state.apply(P("trump S"))
    assert state.to_act == 3
    state = play_to_tricks(state, (4, 9))
    assert state.deal_results[0].points == (0, 180)
    state = ba.new_game(rules, dealer=0, seed=3).apply(P("bid 7"))
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(P("bid 6"))
    assert info.value.reason is ba.Reason.BID_NOT_HIGHER


# ======================================================= refusals and reasons


def _bidding_state():
    return seeded_deal(short(GR, 5, 4), seed=8)


def _playing_state():
    return _leading(["2C 3C", "5H 6C", "7H 2D", "8C 9C"], "4S", {1: "bid 1", **PASS3})


def _reason(state, move, **kw):
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(move, **kw)
    err = info.value
    assert isinstance(err, ValueError)
    assert isinstance(err.message, str) and err.message == str(err) and len(err.message) > 10
    before = state_fields(state)
    if not kw:
        with pytest.raises(ba.IllegalMoveError) as again:
            state.apply(move)
        assert again.value.reason is err.reason
        assert state_fields(state) == before
        assert not state.is_legal(move)
    return err


def test_not_your_turn():
    """A move by a seat whose turn it is not is refused with Reason.NOT_YOUR_TURN by
    ``check(move, seat=...)``."""
    state = _bidding_state()
    assert state.to_act == 1
    err = _reason(state, ba.Pass(), seat=2)
    assert err.reason is ba.Reason.NOT_YOUR_TURN
    assert "seat 1" in str(err) and "seat 2" in str(err)
    state.check(ba.Pass(), seat=1)  # the seat to act may
    state = _playing_state()
    err = _reason(state, play("8C"), seat=3)
    assert err.reason is ba.Reason.NOT_YOUR_TURN


def test_already_bid():
    """Each player bids exactly once (Reason.ALREADY_BID)."""
    state = _bidding_state().apply(ba.Bid(2))
    err = _reason(state, ba.Bid(1), seat=1)
    assert err.reason is ba.Reason.ALREADY_BID
    assert "already" in str(err)


def test_wrong_phase():
    state = _bidding_state()
    assert _reason(state, play(str(state.hands[1][0]))).reason is ba.Reason.WRONG_PHASE
    assert _reason(state, ba.NameTrump(ba.Suit.HEARTS)).reason is ba.Reason.WRONG_PHASE
    state = _playing_state()
    assert _reason(state, ba.Bid(1)).reason is ba.Reason.WRONG_PHASE
    assert _reason(state, ba.Pass()).reason is ba.Reason.WRONG_PHASE
    assert _reason(state, ba.BoardBid()).reason is ba.Reason.WRONG_PHASE


def test_not_in_hand():
    state = _playing_state()
    err = _reason(state, play("2C"))  # seat 0 holds it
    assert err.reason is ba.Reason.NOT_IN_HAND
    assert "2C" in str(err)


def test_not_in_deck():
    rules = ba.variants.VIETNAM_42
    state = ba.new_game(rules, dealer=0, seed=1)
    state = bid_round(state, {1: "bid 5", 2: "pass", 3: "pass", 0: "pass"}).apply(P("trump H"))
    assert state.phase is ba.Phase.PLAYING
    err = _reason(state, play("2C"))
    assert err.reason is ba.Reason.NOT_IN_DECK
    assert "2C" in str(err)
    rules = ba.variants.VIETNAM_NO_JOKERS
    state = ba.new_game(rules, dealer=0, seed=1)
    state = bid_round(state, {1: "bid 5", 2: "pass", 3: "pass", 0: "pass"}).apply(P("trump H"))
    assert _reason(state, play("BJ")).reason is ba.Reason.NOT_IN_DECK


def test_play_reasons():
    state = _playing_state().apply(play("5H"))
    assert _reason(state, play("2D")).reason is ba.Reason.MUST_FOLLOW_SUIT
    state = _leading(["2C 3C", "AH 3D", "7C 2D", "8C 9C"], "5H", {1: "bid 1", **PASS3})
    assert _reason(state, play("AH")).reason is ba.Reason.TRUMP_NOT_BROKEN
    state = _leading(
        ["3C 4C 5C 6C", "BJ 7C 8C 9C", "LJ 9S 2S 4D", "AS 2D 3D TC"], "3S", {1: "board", **PASS3}
    ).apply(play("BJ"))
    assert _reason(state, play("2S")).reason is ba.Reason.MUST_PLAY_HIGHEST_TRUMP
    state = _leading(
        ["3C 4C 5C 6C", "LJ 7C 8C 9C", "AS 9S 2S 4D", "BJ 2D 3D TC"], "3S", {1: "board", **PASS3}
    ).apply(play("LJ"))
    assert _reason(state, play("9S")).reason is ba.Reason.MUST_PLAY_LOWEST_TRUMP


def test_bid_too_high():
    state = _bidding_state()
    err = _reason(state, ba.Bid(5))
    assert err.reason is ba.Reason.BID_TOO_HIGH
    assert "4" in str(err)


def test_not_a_move():
    state = _bidding_state()
    for thing in ["pass", "bid 3", None, 3, ba.parse_card("2C")]:
        err = _reason(state, thing)
        assert err.reason is ba.Reason.NOT_A_MOVE


def test_game_over_refuses_everything():
    state = bid_round(seeded_deal(short(GR, 1)), {1: "board", 2: "pass", 3: "pass", 0: "pass"})
    state = state.apply(state.legal_moves()[0])
    for _ in range(3):
        state = state.apply(state.legal_moves()[0])
    assert state.is_over
    for move in [ba.Pass(), ba.Bid(1), play("2C"), ba.NameTrump(ba.Suit.CLUBS)]:
        assert _reason(state, move).reason is ba.Reason.GAME_OVER
    assert _reason(state, ba.Pass(), seat=0).reason is ba.Reason.GAME_OVER


def test_refused_move_leaves_the_state_as_it_was():
    """A refused move makes ``apply`` raise and leaves the state unchanged (and still usable)."""
    state = _playing_state()
    before = state_fields(state)
    for move in [play("2C"), play("9C"), play("BJ"), ba.Bid(1), "5H", ba.Counter()]:
        with pytest.raises(ba.IllegalMoveError):
            state.apply(move)
        assert state_fields(state) == before
    after = state.apply(play("5H"))
    assert after == _playing_state().apply(play("5H"))


def test_legal_moves_are_exactly_the_moves_check_accepts():
    """``m in legal_moves()`` exactly when ``check(m)`` raises nothing."""
    candidates = [
        ba.Pass(),
        ba.BoardBid(),
        ba.Counter(),
        *[ba.Bid(n) for n in range(15)],
        *[ba.NameTrump(s) for s in ba.Suit],
        *[ba.Play(c) for c in ba.CARDS],
    ]
    state = ba.new_game(short(GR, 4, 3), seed=12)
    while not state.is_over:
        legal = set(state.legal_moves())
        for m in candidates:
            assert state.is_legal(m) == (m in legal), (state, m)
        state = state.apply(state.legal_moves()[-1])


# ========================================================= rule-set validation


def test_incompatible_parts_are_refused_naming_both():
    """Incompatible combinations are rejected when the rule set is
    built, with a message naming both parts."""
    with pytest.raises(ba.RuleSetError) as info:
        GR.replace(trump=ba.rules.DeclarerNamesTrump())
    assert "trump" in str(info.value) and "bidding" in str(info.value)
    deck42 = Deck(ranks=[r for r in ba.Rank if ba.Rank.FIVE <= r <= ba.Rank.ACE])
    with pytest.raises(ba.RuleSetError) as info:
        GR.replace(deck=deck42)
    assert "deck" in str(info.value) and "schedule" in str(info.value)
    with pytest.raises(ba.RuleSetError) as info:
        GR.replace(scoring=ba.rules.AuctionScoring())
    assert "scoring" in str(info.value) and "bidding" in str(info.value)
    with pytest.raises(ba.RuleSetError) as info:
        GR.replace(deck=Deck(jokers=0))
    # the blooper rules are inert without jokers: only the missing turn-up card is refused
    assert "deck" in str(info.value) and "follow" not in str(info.value)


def test_rule_set_error_lists_all_problems():
    """Every problem is reported at once."""
    deck42 = Deck(ranks=[r for r in ba.Rank if ba.Rank.FIVE <= r <= ba.Rank.ACE])
    with pytest.raises(ba.RuleSetError) as info:
        ba.RuleSet(
            deck=deck42, trump=ba.rules.DeclarerNamesTrump(), scoring=ba.rules.AuctionScoring()
        )
    err = info.value
    assert isinstance(err, ValueError)
    assert len(err.problems) >= 3
    text = str(err)
    for problem in err.problems:
        assert problem in text
    assert any("deck" in p and "schedule" in p for p in err.problems)
    assert any("trump" in p and "bidding" in p for p in err.problems)
    assert any("scoring" in p and "bidding" in p for p in err.problems)


def test_wrong_part_types_are_refused():
    with pytest.raises(ba.RuleSetError):
        ba.RuleSet(deck="54 cards")  # type: ignore[arg-type]
    with pytest.raises(ba.RuleSetError):
        GR.replace(trump=ba.rules.Deck())  # type: ignore[arg-type]
    with pytest.raises(ba.RuleSetError):
        Schedule(())
    with pytest.raises(ba.RuleSetError):
        Schedule((3, 0))
    with pytest.raises(ba.RuleSetError):
        Deck(jokers=1)


def test_sensible_combinations_are_accepted():
    """Any combination that makes sense is constructible, e.g. the
    gamerules game with spades always trump and no jokers."""
    rules = GR.replace(
        trump=ba.rules.FixedTrump(ba.Suit.SPADES),
        deck=Deck(jokers=0),
        follow=FollowPolicy(blooper_lead_forcing=False),
        schedule=Schedule((3, 2)),
    )
    state = ba.new_game(rules, seed=1)
    assert state.trump is ba.Suit.SPADES and state.turn_up is None
    rng = random.Random(1)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
        check_conservation(state)
    assert ba.RuleSet() == GR
    assert GR.replace(schedule=Schedule((13, 12))) != GR


def test_a_seat_must_be_a_seat_number():
    """``check(move, seat=...)`` refuses what is not a seat (``True`` is not seat 1)
    as a bad argument (``SetupError``), not as a refused move."""
    state = ba.new_game(GR, seed=1, dealer=0)
    assert state.to_act == 1
    for seat in (True, 7, -1, "1"):
        with pytest.raises(ba.SetupError, match="there is no seat"):
            state.check(ba.Pass(), seat=seat)
    state.check(ba.Pass(), seat=1)


def test_turn_next_card_when_the_stock_runs_out():
    """With joker_turn_up=TURN_NEXT_CARD, when no suited card is left to turn,
    the last joker turned stays the turn-up, the deal has no trump suit, and no
    card is in two places."""
    rules = ba.RuleSet(
        deck=ba.rules.Deck(ranks=[ba.Rank.TWO, ba.Rank.THREE], jokers=2),
        seating=ba.rules.Cutthroat(3),
        schedule=ba.rules.Schedule((3,)),
        trump=ba.rules.TurnUpTrump(joker_turn_up=ba.rules.JokerTurnUp.TURN_NEXT_CARD),
    )
    order = ["2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S", "LJ", "BJ"]
    state = ba.new_game(rules, dealer=0, decks=[order])
    assert state.turn_up == ba.parse_card("BJ")
    assert state.trump is None and state.discards == () and state.stock == ()
    check_conservation(state)
    rules2 = rules.replace(schedule=ba.rules.Schedule((2,)))
    order2 = ["2C", "2D", "2H", "2S", "3C", "3D", "BJ", "LJ", "3H", "3S"]
    state = ba.new_game(rules2, dealer=0, decks=[order2])
    assert state.turn_up == ba.parse_card("3H") and state.trump is ba.Suit.HEARTS
    assert set(state.discards) == {ba.parse_card("BJ"), ba.parse_card("LJ")}
    check_conservation(state)


@pytest.mark.parametrize("decks", [True, 3, "QS QH", [3], [["QS", 4]]])
def test_decks_that_are_not_deck_orders_are_setup_errors(decks):
    """``new_game(decks=...)``: anything but a list of deck orders is a SetupError."""
    with pytest.raises(ba.SetupError):
        ba.new_game(GR, seed=1, decks=decks)
