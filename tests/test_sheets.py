"""Rules sheets: every registered variant's sheet is
complete (tricks, card order, dealing) and says nothing that cannot apply
under its rule set (no jokers without jokers, no board without board bids,
counters named as far as they go, "deal" where a Vietnam game is one deal).
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import pytest

import backalley as ba
from backalley import houserules
from backalley.rules import (
    Auction,
    AuctionScoring,
    Deck,
    DeclarerNamesTrump,
    FirstLead,
    LeadPolicy,
    NoTrump,
    RotatingTrump,
    Schedule,
)
from backalley.rules.sheet import describe_part

from .helpers import calls, deck_for

V = ba.variants
VARIANTS = V.names()


def sheet(rules: ba.RuleSet) -> str:
    """The sheet's paragraphs (without the options table), spaces normalized."""
    text = rules.describe().split("\nOptions:")[0]
    return " ".join(text.split())


def beyond_the_deck(rules: ba.RuleSet) -> str:
    """The sheet after its title and deck paragraph (which may say "no jokers")."""
    return sheet(rules).split(" Players: ", 1)[1]


def paragraph(rules: ba.RuleSet, heading: str) -> str:
    for line in rules.describe().splitlines():
        if line.startswith(heading + ":"):
            return line
    raise AssertionError(f"no {heading} paragraph")


# --------------------------------------------------------- complete sheets


@pytest.mark.parametrize("name", VARIANTS)
def test_every_sheet_says_how_tricks_are_won_cards_rank_and_are_dealt(name: str) -> None:
    """A complete sheet says how a trick is
    won and that its winner leads next, the card order, and how cards are dealt."""
    text = sheet(V.get(name))
    assert "A trick is won by its highest trump, else by the highest card of the suit led" in text
    assert "the winner leads the next trick" in text
    assert "Cards rank A (high), K, Q, J, 10 down to" in text
    assert (
        "deals the cards one at a time, face down, clockwise, starting with the player on their left"
        in text
    )
    assert "until each player holds the deal's hand size" in text


def test_the_stock_and_the_card_order_follow_the_deck() -> None:
    """The sheet says what is left undealt (the stock; or, with 13 cards each from 54, two
    cards never used) and the lowest rank of a short deck."""
    assert (
        "the undealt cards are the stock (kept face down in order; its first card is the top)"
        in sheet(V.GAMERULES)
    )
    assert (
        "the undealt cards are the stock, which stays face down and takes no part in the deal"
        in sheet(V.VIETNAM)
    )
    assert "every card is dealt" in sheet(V.VIETNAM_NO_JOKERS)
    assert "stock" not in sheet(V.VIETNAM_NO_JOKERS)
    assert "10 down to 5 (low)" in sheet(V.VIETNAM_42)
    assert "10 down to 2 (low)" in sheet(V.VIETNAM)
    assert "13 scored deals of 12, 10, 8" in sheet(V.BAB_ONLINE)
    assert "2 scored deals of 13 cards each." in sheet(V.VIETNAM)


# ----------------------------------------------- nothing that cannot apply


JOKER_WORDS = ("joker", "Blooper", "BJ", "LJ")


@pytest.mark.parametrize("name", [n for n in VARIANTS if not V.get(n).deck.has_jokers])
def test_no_joker_rules_without_jokers(name: str) -> None:
    """A deck without jokers gets no joker sentence in any part
    (trump, follow, ranking, lead)."""
    text = beyond_the_deck(V.get(name))
    for word in JOKER_WORDS:
        assert word not in text, word


def test_no_turned_joker_on_a_gamerules_base_without_jokers() -> None:
    """The turn-up without jokers says nothing about a turned joker."""
    rules = V.GAMERULES.replace(deck=Deck(jokers=0), schedule=Schedule.down_and_up(12, 1))
    text = beyond_the_deck(rules)
    assert "After the deal the top stock card is turned up; its suit is trump." in text
    for word in JOKER_WORDS:
        assert word not in text, word
    # with the jokers, every joker rule is there
    full = sheet(V.GAMERULES)
    assert "A turned joker means no trump suit" in full
    assert "When the Big Blooper (BJ) is led" in full
    assert "A trump (jokers included) may be led" in full


@pytest.mark.parametrize(
    "trump",
    [NoTrump(), RotatingTrump(), DeclarerNamesTrump(allow_no_trump=True)],
    ids=["none", "rotating", "declarer-names-nt"],
)
def test_no_trump_deals_name_the_jokers_only_when_there_are_jokers(trump: Any) -> None:
    """The sheet says "the jokers are the only trumps" in a no-trump deal only with jokers."""
    base = V.VIETNAM if isinstance(trump, DeclarerNamesTrump) else V.GAMERULES
    with_jokers = base.replace(trump=trump)
    assert "jokers are" in paragraph(with_jokers, "Trump")
    without = with_jokers.replace(deck=Deck(jokers=0))
    assert "joker" not in paragraph(without, "Trump")


def test_no_board_talk_in_an_auction() -> None:
    """An auction on a gamerules base (lead part: highest bidder,
    trump lead after broken or board) talks neither of board bidders nor of
    board scores."""
    rules = V.GAMERULES.replace(bidding=Auction(), scoring=AuctionScoring())
    text = sheet(rules)
    assert "board" not in text.lower()
    assert "The declarer leads the first trick." in text
    assert "may be led only once trump is broken, or from a hand of nothing but trumps" in text
    # gamerules itself keeps them
    assert "by a player who bid board" in sheet(V.GAMERULES)
    assert "The last player to bid board leads the first trick" in sheet(V.GAMERULES)


def test_the_fallback_leader_only_where_a_deal_can_be_played_without_a_bid() -> None:
    """The sheet says "with no bid at all" only when all_pass plays the deal."""
    assert "nobody bid" not in sheet(V.GAMERULES)
    rules = V.GAMERULES.replace(bidding=ba.rules.OnceAroundBidding(all_pass="play-for-overtricks"))
    assert "in a deal nobody bid for, the player left of the dealer" in sheet(rules)
    left = V.GAMERULES.replace(lead=LeadPolicy(first_lead=FirstLead.LEFT_OF_DEALER))
    assert "The player left of the dealer leads the first trick." in sheet(left)


@pytest.mark.parametrize(
    ("counters", "names"),
    [
        (0, None),
        (1, "(double)"),
        (3, "(double, triple, quadruple)"),
        (7, "(double, triple, quadruple, quintuple, sextuple, septuple, octuple)"),
        (12, "(double, triple, quadruple and so on up to x13)"),
    ],
)
def test_counters_beyond_three_are_named(counters: int, names: str | None) -> None:
    """With counters = 7 the sheet names every step (to octuple)."""
    rules = V.VIETNAM.replace(bidding=Auction(counters=counters))
    text = sheet(rules)
    if names is None:
        assert "counter" not in paragraph(rules, "Bidding")
        assert "multiplier" not in paragraph(rules, "Scoring")
    else:
        assert "a counter " + names in text
        assert "times the contract's multiplier" in text


@pytest.mark.parametrize("name", VARIANTS)
def test_vietnam_says_deal_not_game(name: str) -> None:
    """A Vietnam "game" is one deal; the sheet says "after each deal"."""
    text = sheet(V.get(name))
    assert "after each game" not in text.lower()
    if V.get(name).dealer.next_dealer is ba.rules.NextDealer.LOSING_TEAM:
        assert "After each deal the next dealer is the" in text


def test_cutthroat_sheets_speak_of_players_not_sides() -> None:
    """Without partnerships nothing is said of sides or partners."""
    for rules in (V.VIETNAM_CUTTHROAT, V.CUTTHROAT_3, V.CUTTHROAT_5):
        text = sheet(rules)
        assert " side" not in text.replace("inside", "")
        assert "partner" not in text.replace("partnerships", "")
    assert "the player who scored least in it" in sheet(V.VIETNAM_CUTTHROAT)
    assert "each player's contract is their own bid" in sheet(V.CUTTHROAT_3)


def test_describe_still_works_for_a_users_part() -> None:
    """A part with only ``describe()`` (no ``describe_in``) is described by it."""

    @attrs.frozen
    class Plain:
        tag: ClassVar[str] = "plain"
        part: ClassVar[str] = "end"

        def describe(self) -> str:
            return "Whoever has most wins."

    assert describe_part(Plain(), V.GAMERULES) == "Whoever has most wins."

    @attrs.frozen
    class Strict(ba.rules.FollowPolicy):
        tag: ClassVar[str] = "test-sheets/strict"

        def describe(self) -> str:
            return super().describe() + " No aces on a void."

    # a subclass of a built-in part that rewrites only describe() keeps its text
    assert describe_part(Strict(), V.GAMERULES).endswith("their lowest trump. No aces on a void.")
    # the built-in house rules leave the joker rules out without jokers
    for follow in (ba.rules.MustHeadTrick(), ba.rules.MustTrumpWhenVoid()):
        rules = V.SPADES_NO_JOKERS.replace(follow=follow)
        text = paragraph(rules, "Following")
        assert "must" in text and "joker" not in text and "Blooper" not in text
    # every built-in part describes itself without a rule set too
    for name in VARIANTS:
        for part in V.get(name).parts().values():
            assert part.describe()
            assert describe_part(part, V.get(name))


# ------------------------------------------------ the jokers as one change


def test_jokers_back_bring_the_blooper_rules() -> None:
    """``base = "vietnam-no-jokers"`` with
    ``jokers = 2`` is the Vietnam game: the blooper rules come back with the jokers."""
    rules = houserules.loads('base = "vietnam-no-jokers"\n[deck]\njokers = 2\n')
    assert rules == V.VIETNAM
    assert rules.follow.blooper_lead_forcing
    # seat 1 declares spades and leads BJ: seat 2 must play its highest trump
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "BJ 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "AS 2S 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
        "3S 4S 5S 6S 7S 8S 9S TS JS QS KS KH AD",
    ]
    state = ba.new_game(rules, dealer=0, decks=[deck_for(rules, hands)])
    state = calls(state, "bid 7", "pass", "pass", "pass", "trump S", "play BJ")
    assert state.to_act == 2
    assert state.legal_moves() == (ba.parse_move("play AS"),)
    assert "When the Big Blooper (BJ) is led" in sheet(rules)


def test_no_jokers_is_one_change() -> None:
    """Removing the jokers needs no second toggle, and the sheet
    then leaves the joker rules out."""
    for base in (V.GAMERULES.replace(trump=ba.rules.FixedTrump()), V.VIETNAM):
        rules = base.replace(deck=Deck(jokers=0))
        assert rules.follow == base.follow
        for word in JOKER_WORDS:
            assert word not in beyond_the_deck(rules), word
    assert V.VIETNAM.replace(deck=Deck(jokers=0)) == V.VIETNAM_NO_JOKERS
    assert V.SPADES_NO_JOKERS.follow == V.GAMERULES.follow
