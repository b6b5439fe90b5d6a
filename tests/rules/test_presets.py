"""The presets of ``ba.variants.PRESET_NOTES``: each distinguishing rule in play
(house rules seen in play, and the ``bab-online`` server's rules), and each preset's
rules sheet (``rules.describe()``) mentioning it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs
import pytest

import backalley as ba

from ..helpers import calls, deck_for, refused, short

V = ba.variants
R = ba.Reason
S, H, D, C = ba.Suit.SPADES, ba.Suit.HEARTS, ba.Suit.DIAMONDS, ba.Suit.CLUBS

# ----------------------------------------------------------------- helpers


def game(
    rules: ba.RuleSet,
    hands: Sequence[str],
    stock: str = "",
    *,
    dealer: int = 0,
    more: Sequence[Sequence[str]] = (),
    seed: int = 0,
) -> ba.GameState:
    return ba.new_game(
        rules, dealer=dealer, decks=[deck_for(rules, hands, stock, dealer), *more], seed=seed
    )


def plays(state: ba.GameState) -> set[str]:
    return {str(m.card) for m in state.legal_moves()}  # type: ignore[union-attr]


def play_out(state: ba.GameState) -> ba.GameState:
    """Play the current deal to its end, each seat playing its lowest legal card."""
    deals = state.deals_played
    while state.deals_played == deals:
        assert state.phase is ba.Phase.PLAYING
        state = state.apply(state.legal_moves()[0])
    return state


def random_game(rules: ba.RuleSet, seed: int) -> ba.GameState:
    rng = random.Random(seed)
    state = ba.new_game(rules, seed=seed)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
    return state


def bab(*sizes: int) -> ba.RuleSet:
    """bab-online on a short schedule (the 4-card deal kept last, for the rainbow part)."""
    return short(BAB, *sizes) if 4 in sizes else short(BAB, *sizes, 4)


def sheet(rules: ba.RuleSet) -> str:
    return " ".join(rules.describe().split())


COVERED = {
    "bab-online",
    "gamerules-26",
    "hook",
    "strict-trump",
    "spades-no-jokers",
    "ten-per-trick",
    "cutthroat-3",
    "cutthroat-5",
    "vietnam-ladder",
    "rotating-trump",  # tests/rules/test_rule_classes.py
    "must-head",  # tests/rules/test_rule_classes.py
    "vietnam-literal",  # tests/rules/test_sheets.py
    "score-keeper-5",  # tests/rules/test_scoring_rules.py
    "exact-bid",  # tests/rules/test_scoring_rules.py
}


def test_every_preset_is_registered_and_covered_here() -> None:
    """Every preset is a registered variant, and this file tests each one."""
    assert set(V.PRESET_NOTES) == COVERED
    for name in V.PRESET_NOTES:
        rules = V.get(name)
        assert rules.name == name
        assert name in V.names()
        assert rules != V.GAMERULES


# ================================================================ bab-online

BAB = V.BAB_ONLINE


def test_bab_online_schedule() -> None:
    """bab-online plays 13 deals of 12, 10, 8, 6, 4, 2, 1, 3, 5, 7, 9, 11, 13 cards and ends
    after the 13th."""
    sizes = (12, 10, 8, 6, 4, 2, 1, 3, 5, 7, 9, 11, 13)
    assert BAB.schedule.hand_sizes == sizes
    assert ba.new_game(BAB, seed=1).hand_size == 12
    for seed in (1, 2):
        final = random_game(BAB, seed)
        assert final.is_over and final.deals_played == 13
        assert tuple(r.hand_size for r in final.deal_results) == sizes
        assert final.scores == tuple(sum(r.points[t] for r in final.deal_results) for t in (0, 1))


# Joker turn-up: BJ turned, seat1 holds LJ.
JOKER_HANDS = ["AC KC QC", "LJ 2D 3D", "2C 3C 4C", "5C 6C 7C"]


def test_bab_online_turned_joker_leaves_the_other_joker_in_play() -> None:
    """In bab-online a turned joker means no trump suit; the turned joker is out; the other
    joker stays."""
    rules = bab(3)
    state = game(rules, JOKER_HANDS, "BJ 9H 9S")
    assert state.turn_up == ba.parse_card("BJ")
    assert state.trump is None
    assert ba.parse_card("LJ") in state.hand(1)
    assert state.discards == ()
    assert not any(ba.parse_card("BJ") in h for h in state.hands)
    # contrast: the gamerules turn-up swaps the other joker out
    plain = game(short(V.GAMERULES, 3), JOKER_HANDS, "BJ 9H 9S")
    assert plain.trump is None
    assert ba.parse_card("LJ") not in plain.hand(1)
    assert plain.discards == (ba.parse_card("LJ"),)
    assert ba.parse_card("9H") in plain.hand(1)


def test_bab_online_other_joker_is_the_only_trump_and_wins_a_trick() -> None:
    """In bab-online the joker left after a joker turn-up is led, followed and wins as a trump."""
    rules = bab(3)
    state = calls(game(rules, JOKER_HANDS, "BJ 9H 9S"), "bid 0", "bid 0", "bid 0", "bid 2")
    assert state.phase is ba.Phase.PLAYING and state.to_act == 0
    state = calls(state, "AC")
    assert "LJ" in plays(state)  # seat1 has no club: any card
    state = calls(state, "LJ", "2C", "5C")
    assert state.tricks[0].winner == 1  # the Little Blooper beats the ace led
    assert state.trump_broken


def test_bab_online_other_joker_may_not_be_led_before_trump_is_broken() -> None:
    """In bab-online the joker left after a joker turn-up is a trump for leading too."""
    rules = bab(3)
    state = calls(game(rules, JOKER_HANDS, "BJ 9H 9S"), "bid 2", "bid 0", "bid 0", "bid 0")
    assert state.to_act == 1
    assert plays(state) == {"2D", "3D"}
    assert refused(state, "LJ") is R.TRUMP_NOT_BROKEN


def test_bab_online_bids_are_0_to_hand_size_without_pass() -> None:
    """bab-online has no pass: a bid is a number from 0 to the hand size, or a board."""
    state = ba.new_game(BAB, dealer=0, seed=3)
    assert state.hand_size == 12
    assert state.legal_moves() == (*[ba.Bid(n) for n in range(0, 13)], ba.BoardBid())
    assert refused(state, "pass") is R.PASS_NOT_ALLOWED
    assert refused(state, "bid 13") is R.BID_TOO_HIGH
    one = ba.new_game(bab(1), dealer=0, seed=3)
    assert one.legal_moves() == (ba.Bid(0), ba.Bid(1), ba.BoardBid())
    assert refused(one, "pass") is R.PASS_NOT_ALLOWED


# Board hands: trump spades (turn-up 6S); team 1 holds every winner.
BOARD_HANDS = ["2C 3C 4C 5C", "AS KS QS JS", "2D 3D 4D 5D", "AH KH QH JH"]
# ... and the reverse: team 0 holds every winner.
SET_HANDS = ["AS KS QS JS", "2C 3C 4C 5C", "AH KH QH JH", "2D 3D 4D 5D"]


@pytest.mark.parametrize(
    ("bids", "contracts", "leader"),
    [
        (
            ("board", "bid 1", "bid 0", "bid 0"),
            (ba.Contract(1), ba.Contract(4, board=True, multiplier=2)),
            1,
        ),
        (
            ("board", "bid 1", "board", "bid 0"),
            (ba.Contract(1), ba.Contract(4, board=True, multiplier=4)),
            3,
        ),
        (
            ("board", "board", "board", "board"),
            (
                ba.Contract(4, board=True, multiplier=16),
                ba.Contract(4, board=True, multiplier=8),
            ),
            0,
        ),
        (
            ("board", "board", "bid 3", "bid 0"),
            (
                ba.Contract(4, board=True, multiplier=4),
                ba.Contract(4, board=True, multiplier=2),
            ),
            2,
        ),
    ],
)
def test_bab_online_board_ladder_uses_the_sides_own_highest_claim(
    bids: tuple[str, ...], contracts: tuple[ba.Contract, ...], leader: int
) -> None:
    """In bab-online boards climb B, 2B, 3B, 4B at x2, x4, x8, x16; a side's
    multiplier is that of its own highest claim; the highest board leads."""
    state = calls(game(bab(4), BOARD_HANDS, "6S"), *bids)
    assert state.phase is ba.Phase.PLAYING
    assert state.contracts == contracts
    assert state.to_act == leader


def test_gamerules_board_multiplier_counts_all_claims_for_contrast() -> None:
    """In gamerules (unlike bab-online) two claims by one side make x2 for it."""
    state = calls(game(short(V.GAMERULES, 4), BOARD_HANDS, "6S"), "board", "bid 1", "board", "pass")
    assert state.contracts == (ba.Contract(1), ba.Contract(4, board=True, multiplier=2))


def test_bab_online_board_made_and_set_scores() -> None:
    """In bab-online a board scores b*10*m (b = hand size) made, -b*10*m set."""
    rules = bab(4)
    state = calls(game(rules, BOARD_HANDS, "6S"), "board", "bid 1", "board", "bid 0")
    state = play_out(state)
    result = state.deal_results[0]
    assert result.tricks == (0, 4)
    assert result.points == (-10, 4 * 10 * 4)
    state = calls(game(rules, SET_HANDS, "6S"), "board", "bid 0", "board", "bid 0")
    state = play_out(state)
    result = state.deal_results[0]
    assert result.tricks == (4, 0)
    assert result.points == (4, -4 * 10 * 4)  # team 0's zero contract: 1 per trick


def test_bab_online_both_teams_zero_redeal_by_the_same_dealer() -> None:
    """In bab-online, when both teams bid 0 in all, the deal is thrown in and the same dealer
    deals again."""
    rules = bab(4)
    second = deck_for(rules, SET_HANDS, "6S", dealer=2)
    state = game(rules, BOARD_HANDS, "6S", dealer=2, more=[second])
    state = calls(state, "bid 0", "bid 0", "bid 0", "bid 0")
    assert state.phase is ba.Phase.BIDDING
    assert state.dealer == 2 and state.to_act == 3 and state.hand_size == 4
    assert state.deals_played == 0 and state.scores == (0, 0)
    for seat, hand in enumerate(SET_HANDS):
        assert set(state.hand(seat)) == set(ba.parse_cards(hand))
    # contrast: gamerules all pass -> the next dealer
    plain = calls(game(short(V.GAMERULES, 4), BOARD_HANDS, "6S", dealer=2), *["pass"] * 4)
    assert plain.dealer == 3


def test_bab_online_one_team_at_zero_plays_and_scores_one_per_trick() -> None:
    """In bab-online a team whose bids sum to 0 scores 1 per trick taken."""
    rules = bab(4)
    state = calls(game(rules, SET_HANDS, "6S"), "bid 0", "bid 0", "bid 1", "bid 0")
    assert state.phase is ba.Phase.PLAYING
    assert state.contracts == (ba.Contract(0), ba.Contract(1))
    state = play_out(state)
    assert state.deal_results[0].tricks == (4, 0)
    assert state.deal_results[0].points == (4, -10)


def test_bab_online_board_bidder_has_no_right_to_lead_trump() -> None:
    """In bab-online trump may be led only when broken or from a hand of only trumps (no board
    exemption)."""
    hands = ["2C 3C 4C", "AS KS 2D", "5C 6C 7C", "8C 9C TC"]
    state = calls(game(bab(3), hands, "3S"), "board", "bid 0", "bid 0", "bid 0")
    assert state.to_act == 1
    assert refused(state, "AS") is R.TRUMP_NOT_BROKEN
    assert plays(state) == {"2D"}
    plain = calls(game(short(V.GAMERULES, 3), hands, "3S"), "board", "pass", "pass", "pass")
    assert plays(plain) == {"AS", "KS", "2D"}


# BJ/LJ lead: trump spades (turn-up 2S); seat1 leads from a hand of only trumps.
def forcing_game(rules: ba.RuleSet, joker: str) -> ba.GameState:
    other = "LJ" if joker == "BJ" else "BJ"
    hands = ["7S AS 4C", f"{joker} 3S 4S", "5S KS 2C", "6S QS 3C"]
    state = game(short(rules, 3, 4), hands, f"2S {other}")
    bids = (
        ("bid 2", "bid 0", "bid 0", "bid 0")
        if rules.bidding.min_bid == 0
        else (
            "bid 2",
            "pass",
            "pass",
            "pass",
        )
    )
    state = calls(state, *bids)
    assert state.to_act == 1 and state.trump is S
    return calls(state, joker)


def test_bab_online_big_blooper_forces_only_opponents() -> None:
    """In bab-online, on a BJ lead each opponent holding a trump plays its
    highest; the leader's partner only has to follow trump."""
    state = forcing_game(BAB, "BJ")
    assert state.to_act == 2  # an opponent
    assert plays(state) == {"KS"}
    assert refused(state, "5S") is R.MUST_PLAY_HIGHEST_TRUMP
    state = calls(state, "KS")
    assert state.to_act == 3  # the partner
    assert plays(state) == {"6S", "QS"}
    assert refused(state, "3C") is R.MUST_FOLLOW_SUIT
    state = calls(state, "6S")
    assert plays(state) == {"AS"}  # the other opponent
    # contrast: in gamerules the partner is forced too
    plain = calls(forcing_game(V.GAMERULES, "BJ"), "KS")
    assert plays(plain) == {"QS"}


def test_bab_online_little_blooper_forces_nobody() -> None:
    """In bab-online a led LJ forces nothing (players just follow trump)."""
    state = forcing_game(BAB, "LJ")
    assert plays(state) == {"5S", "KS"}
    assert refused(state, "2C") is R.MUST_FOLLOW_SUIT
    plain = forcing_game(V.GAMERULES, "LJ")
    assert plays(plain) == {"5S"}  # gamerules: the lowest trump


SCORE_HANDS = ["6C 7C 8C", "AS KS QS", "2D 3D 4D", "3C 4C 5C"]


def test_bab_online_numeric_scoring() -> None:
    """In bab-online a made contract scores b*10*m + (t - b), a set one -b*10*m (m = 1 without
    a board)."""
    state = calls(game(bab(3), SCORE_HANDS, "2S"), "bid 1", "bid 1", "bid 1", "bid 0")
    assert state.contracts == (ba.Contract(1), ba.Contract(2))
    assert state.to_act == 1  # equal highest bids: the earliest bidder leads
    state = play_out(state)
    assert state.deal_results[0].tricks == (0, 3)
    assert state.deal_results[0].points == (-10, 2 * 10 + 1)


def rainbow_points(rules: ba.RuleSet, hands: Sequence[str], stock: str) -> tuple[int, ...]:
    """This deal's points with the rules' rainbow minus the same deal without it."""
    no_bonus = rules.replace(scoring=attrs.evolve(rules.scoring, rainbow=None))
    out = []
    for r in (rules, no_bonus):
        state = calls(game(r, hands, stock), "bid 1", "bid 1", "bid 1", "bid 1")
        out.append(play_out(state).deal_results[0].points)
    return tuple(a - b for a, b in zip(*out))


RAINBOW_HANDS = ["2C 2D 2H LJ", "AC AD AH AS", "3C 4C 5C 6C", "3D 4D 5D 6D"]


def test_bab_online_rainbow_on_the_four_card_deal() -> None:
    """In bab-online, on the 4-card deal each player dealt one card of every
    suit (a joker counts as the trump suit) earns +10 for the team, made or set."""
    assert BAB.scoring.rainbow == ba.rules.Rainbow(hand_size=4, points=10)
    rules = bab(4)
    # trump spades: seat0's LJ counts as a spade; seat1 holds every suit
    assert rainbow_points(rules, RAINBOW_HANDS, "3S") == (10, 10)
    # trump hearts: seat0's joker is a heart, so seat0 holds no spade
    assert rainbow_points(rules, RAINBOW_HANDS, "3H") == (0, 10)


def test_bab_online_rainbow_only_on_the_four_card_deal() -> None:
    """In bab-online the rainbow earns no bonus on any other deal."""
    rules = bab(5, 4)
    hands = ["2C 2D 2H 2S 7C", "AC AD AH AS 7D", "3C 4C 5C 6C 8C", "3D 4D 5D 6D 8D"]
    assert rainbow_points(rules, hands, "3S") == (0, 0)


def test_bab_online_sheet() -> None:
    """The rules sheet states every bab-online rule."""
    text = sheet(BAB)
    for phrase in (
        "13 scored deals of 12, 10, 8, 6, 4, 2, 1, 3, 5, 7, 9, 11, 13 cards",
        "the other joker stays in play as the only trump",
        "a number from 0 to the hand size",
        "x2, x4, x8, x16",
        "its own highest claim",
        "the same dealer deals again",
        "each opponent of the leader",
        "scores 10 per bid trick and 1 per overtrick",
        "loses 10 per bid trick",
        "on the 4-card deal",
        "+10",
        "only once trump is broken, or from a hand of nothing but trumps",
    ):
        assert phrase in text, phrase
    assert "pass (0 tricks)" not in text
    assert "Little Blooper (LJ) is led" not in text
    assert "by a player who bid board" not in text


# ============================================================== gamerules-26


def test_gamerules_26_plays_the_one_card_deal_twice() -> None:
    """gamerules-26 plays 13..1,1..13 (26 deals, the 1-card deal twice)."""
    rules = V.GAMERULES_26
    sizes = (*range(13, 0, -1), *range(1, 14))
    assert rules.schedule.hand_sizes == sizes and rules.schedule.deals == 26
    final = random_game(rules, 4)
    assert final.deals_played == 26
    assert tuple(r.hand_size for r in final.deal_results) == sizes
    assert [r.hand_size for r in final.deal_results[12:14]] == [1, 1]
    assert rules.replace(schedule=V.GAMERULES.schedule) == V.GAMERULES
    assert "26 scored deals of 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 2," in sheet(rules)


# ====================================================================== hook


def test_hook_last_bidder_may_not_make_the_total() -> None:
    """The hook: the last bidder may not make the total equal the hand size."""
    rules = short(V.HOOK, 3)
    state = ba.new_game(rules, dealer=0, seed=1)
    # only the last bidder is hooked
    assert state.legal_moves() == (ba.Pass(), ba.Bid(1), ba.Bid(2), ba.BoardBid())
    state = calls(state, "bid 2")
    assert state.is_legal(ba.Bid(1))  # seat2 may make the running total 3
    state = calls(state, "bid 1", "pass")
    assert state.to_act == 0
    # 2 + 1 + 0 = 3: seat0 may not pass (0 makes 3), but bid 1 or 2 (4, 5) are fine
    assert refused(state, "pass") is R.BID_MAKES_TOTAL
    assert state.legal_moves() == (ba.Bid(1), ba.Bid(2), ba.BoardBid())
    state = calls(ba.new_game(rules, dealer=0, seed=1), "bid 1", "bid 1", "pass")
    assert refused(state, "bid 1") is R.BID_MAKES_TOTAL
    assert state.legal_moves() == (ba.Pass(), ba.Bid(2), ba.BoardBid())
    with pytest.raises(ba.IllegalMoveError, match="hand size"):
        state.apply(ba.Bid(1))
    # without the hook the same call is legal
    plain = calls(ba.new_game(short(V.GAMERULES, 3), dealer=0, seed=1), "bid 1", "bid 1", "pass")
    assert plain.is_legal(ba.Bid(1))


def test_hook_does_not_apply_after_a_board() -> None:
    """Under the hook a board makes the numeric total irrelevant."""
    state = calls(ba.new_game(short(V.HOOK, 3), dealer=0, seed=1), "board", "bid 1", "bid 1")
    assert state.is_legal(ba.Bid(1)) and state.is_legal(ba.Pass())


def test_hook_sheet() -> None:
    """The hook preset's sheet names the hook."""
    assert "The hook: the last bidder may not make the bids total the hand size" in sheet(V.HOOK)
    assert "The hook" not in sheet(V.GAMERULES)


# ============================================================== strict-trump

# trump hearts (turn-up 9H); seat1 leads a hand of only trumps.
STRICT_HANDS = ["6H 2S 3S", "2H 3H 4H", "AH KH 2C", "5H 2D 3D"]


def strict_game(rules: ba.RuleSet) -> ba.GameState:
    state = calls(game(short(rules, 3), STRICT_HANDS, "9H"), "bid 1", "pass", "pass", "pass")
    assert state.to_act == 1 and state.trump is H
    return calls(state, "4H", "AH", "5H", "6H")


def test_strict_trump_following_trump_does_not_break_trump() -> None:
    """In strict-trump a trump played while following trump does not break trump."""
    state = strict_game(V.STRICT_TRUMP)
    assert state.tricks[0].winner == 2 and state.to_act == 2
    assert not state.trump_broken
    assert refused(state, "KH") is R.TRUMP_NOT_BROKEN
    assert plays(state) == {"2C"}
    plain = strict_game(V.GAMERULES)  # any trump breaks trump in gamerules
    assert plain.trump_broken and plays(plain) == {"KH", "2C"}


def test_strict_trump_a_trump_discarded_when_void_breaks_trump() -> None:
    """In strict-trump only a trump played by a player who could not follow breaks trump."""
    state = calls(strict_game(V.STRICT_TRUMP), "2C", "2D", "2S")
    assert state.to_act == 1 and plays(state) == {"2H", "3H"}  # void in clubs
    assert not state.trump_broken  # the trick is not over yet
    state = calls(state, "3H")
    assert state.tricks[1].winner == 1
    assert state.trump_broken


def test_strict_trump_board_bidder_may_not_lead_trump_early() -> None:
    """In strict-trump trump may be led only after broken or from only trumps: no board
    exemption."""
    state = calls(
        game(short(V.STRICT_TRUMP, 3), STRICT_HANDS, "9H"), "pass", "board", "pass", "pass"
    )
    assert state.to_act == 2
    assert plays(state) == {"2C"}
    assert refused(state, "AH") is R.TRUMP_NOT_BROKEN
    plain = calls(game(short(V.GAMERULES, 3), STRICT_HANDS, "9H"), "pass", "board", "pass", "pass")
    assert plays(plain) == {"AH", "KH", "2C"}


def test_strict_trump_sheet() -> None:
    """The strict-trump sheet says what breaks trump."""
    text = sheet(V.STRICT_TRUMP)
    assert "Trump is broken only by a trump played by a player who could not follow" in text
    assert "by a player who bid board" not in text


# ========================================================== spades-no-jokers


def test_spades_no_jokers() -> None:
    """spades-no-jokers plays 52 cards without jokers; spades are always trump."""
    rules = V.SPADES_NO_JOKERS
    assert rules.deck.size == 52 and not rules.deck.has_jokers
    assert rules.follow == V.GAMERULES.follow  # blooper rules inert without jokers
    for seed in range(3):
        state = ba.new_game(rules, seed=seed)
        assert state.trump is S and state.turn_up is None
        assert [len(h) for h in state.hands] == [13] * 4 and state.stock == ()
        assert not any(c.is_joker for h in state.hands for c in h)
    final = random_game(rules, 5)
    assert final.deals_played == 25
    assert all(r.trump is S and r.turn_up is None for r in final.deal_results)
    # a two of spades beats the ace led (spades are trump without any turn-up)
    state = calls(game(short(rules, 1), ["QH", "AH", "2S", "KH"]), "board", "pass", "pass", "pass")
    state = calls(state, "AH", "2S", "KH", "QH")
    assert state.deal_results[0].tricks == (1, 0)
    with pytest.raises(ba.SetupError):  # no jokers in this deck
        ba.new_game(rules, dealer=0, decks=[[*deck_for(rules, ["QH", "AH", "2S", "KH"]), "BJ"]])
    text = sheet(rules)
    assert "52 cards" in text and "no jokers" in text and "Spades are always trump" in text


# ============================================================= ten-per-trick


@pytest.mark.parametrize(
    ("rules", "points"), [(V.TEN_PER_TRICK, (-10, 21)), (V.GAMERULES, (-5, 11))]
)
def test_ten_per_trick_scoring(rules: ba.RuleSet, points: tuple[int, int]) -> None:
    """ten-per-trick scores 10 per bid trick + 1 per overtrick made; -10 per bid trick set."""
    state = calls(game(short(rules, 3), SCORE_HANDS, "2S"), "bid 1", "bid 1", "bid 1", "pass")
    state = play_out(state)
    assert state.deal_results[0].tricks == (0, 3)
    assert state.deal_results[0].points == points


def test_ten_per_trick_sheet() -> None:
    """The ten-per-trick sheet states its scoring."""
    text = sheet(V.TEN_PER_TRICK)
    assert "scores 10 per bid trick and 1 per overtrick" in text
    assert "loses 10 per bid trick" in text


# ================================================================= cutthroat


def test_cutthroat_3() -> None:
    """cutthroat-3: 3 singles over 13..1..13 from the 54-card deck; scores per seat."""
    rules = V.CUTTHROAT_3
    assert rules.players == 3 and rules.teams == ((0,), (1,), (2,))
    assert rules.deck.size == 54 and rules.schedule == V.GAMERULES.schedule
    state = ba.new_game(rules, seed=2)
    assert [len(h) for h in state.hands] == [13] * 3
    assert len(state.stock) == 54 - 39 - 1 and state.turn_up is not None
    assert state.scores == (0, 0, 0)
    # dealing goes round three seats; each seat contracts alone
    hands = ["2C 3C", "4C 5C", "6C 7C"]
    state = game(short(rules, 2), hands, "2S", dealer=1)
    for seat, hand in enumerate(hands):
        assert set(state.hand(seat)) == set(ba.parse_cards(hand))
    assert state.to_act == 2
    state = calls(state, "bid 1", "pass", "bid 1")
    assert state.contracts == (ba.Contract(0), ba.Contract(1), ba.Contract(1))
    final = random_game(rules, 3)
    assert final.deals_played == 25 and len(final.scores) == 3
    assert all(len(r.points) == 3 and sum(r.tricks) == r.hand_size for r in final.deal_results)
    assert final.winner is None or final.winner in (0, 1, 2)
    assert "3 players, each playing and scoring alone" in sheet(rules)


def test_cutthroat_5() -> None:
    """cutthroat-5: 5 singles with a 10..1..10 schedule (19 deals)."""
    rules = V.CUTTHROAT_5
    assert rules.players == 5 and len(rules.teams) == 5
    assert rules.schedule.hand_sizes == (*range(10, 0, -1), *range(2, 11))
    state = ba.new_game(rules, seed=2)
    assert state.hand_size == 10
    assert [len(h) for h in state.hands] == [10] * 5
    assert len(state.stock) == 54 - 50 - 1
    final = random_game(rules, 6)
    assert final.deals_played == 19 and len(final.scores) == 5
    assert all(len(r.points) == 5 for r in final.deal_results)
    assert final.winner is None or 0 <= final.winner < 5
    text = sheet(rules)
    assert "5 players, each playing and scoring alone" in text
    assert "19 scored deals of 10, 9," in text
    # 13 cards to 5 players do not fit the deck
    with pytest.raises(ba.RuleSetError):
        rules.replace(schedule=V.GAMERULES.schedule)


# ============================================================ vietnam-ladder


def test_vietnam_ladder() -> None:
    """vietnam-ladder: the Vietnam auction over the 13..1..13 schedule, dealer clockwise."""
    rules = V.VIETNAM_LADDER
    assert rules.schedule == V.GAMERULES.schedule
    assert isinstance(rules.bidding, ba.rules.Auction)
    assert rules.dealer == ba.rules.DealerRotation()
    state = ba.new_game(rules, dealer=0, seed=7)
    moves = 0
    while not state.is_over:
        legal = state.legal_moves()
        if state.phase is ba.Phase.BIDDING:
            # bids go up to the hand size; the first bidder bids, so no deal is thrown in
            if state.to_act == state.first_bidder:
                assert legal[-1] == ba.Bid(state.hand_size)
                move = legal[1]
            else:
                move = legal[0]
        else:
            move = legal[0]
        state = state.apply(move)
        moves += 1
    results = state.deal_results
    assert tuple(r.hand_size for r in results) == rules.schedule.hand_sizes
    assert [r.dealer for r in results] == [k % 4 for k in range(25)]
    assert all(r.declarer is not None for r in results)
    text = sheet(rules)
    assert "ascending auction" in text
    assert "25 scored deals of 13, 12," in text
    assert "passes clockwise after every deal" in text


# ============================================================ rules sheets

SHEET_PHRASES = {
    "bab-online": [
        "12, 10, 8, 6, 4, 2, 1, 3, 5, 7, 9, 11, 13",
        "the other joker stays in play as the only trump",
        "x2, x4, x8, x16",
        "each opponent of the leader",
    ],
    "gamerules-26": ["26 scored deals", "2, 1, 1, 2"],
    "hook": ["The hook: the last bidder may not make the bids total the hand size"],
    "strict-trump": ["Trump is broken only by a trump played by a player who could not follow"],
    "spades-no-jokers": ["52 cards", "no jokers", "Spades are always trump"],
    "ten-per-trick": ["scores 10 per bid trick", "loses 10 per bid trick"],
    "cutthroat-3": ["3 players, each playing and scoring alone"],
    "cutthroat-5": [
        "5 players, each playing and scoring alone",
        "10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 2,",
    ],
    "vietnam-ladder": ["ascending auction", "13, 12, 11", "passes clockwise after every deal"],
    "rotating-trump": [
        "trump rotates each deal: clubs, diamonds, hearts, spades, no trump",
        "must play a trump if they hold one",
    ],
    "must-head": ["must head the trick when able"],
    "vietnam-literal": [
        "each side makes exactly one announcement",
        "the next player clockwise for the other side",
        "3 then 7 is a double",
    ],
    "score-keeper-5": [  # tests/rules/test_scoring_rules.py tests the rules
        "5 players, each playing and scoring alone",
        "x6, x12, x24, x48, x96",
        "scores 3 per bid trick",
        "earns +8",
    ],
    "exact-bid": [
        "4 players, each playing and scoring alone",
        "takes exactly their contract of b tricks scores 1 point per trick taken plus a bonus of 10",
    ],
}


@pytest.mark.parametrize("name", sorted(V.PRESET_NOTES))
def test_preset_sheet_mentions_its_distinguishing_rule(name: str) -> None:
    """Each preset's rules sheet states what sets it apart (and gamerules' does not)."""
    rules = V.get(name)
    text = sheet(rules)
    assert text.startswith(f"Back Alley: {name}")
    base = sheet(V.GAMERULES)
    for phrase in SHEET_PHRASES[name]:
        assert phrase in text, phrase
    assert any(phrase not in base for phrase in SHEET_PHRASES[name])
    assert V.PRESET_NOTES[name]
