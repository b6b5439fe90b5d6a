"""Rules sheets: every registered variant's sheet is
complete (tricks, card order, dealing) and says nothing that cannot apply
under its rule set (no jokers without jokers, no board without board bids,
counters named as far as they go, "deal" where a Vietnam game is one deal).
"""

from __future__ import annotations

import io
import re
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
from backalley.rules.sheet import SETTINGS_TITLE, TERMS_TITLE, describe_part

from .. import ROOT
from ..helpers import calls, deck_for

V = ba.variants
VARIANTS = V.names()


def sheet(rules: ba.RuleSet) -> str:
    """The sheet's paragraphs (without the settings block), spaces normalized."""
    text = rules.describe().split(f"\n{SETTINGS_TITLE}:")[0]
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


# --------------------------------------------- terms, partnerships, counters

SEATS = ("North", "East", "South", "West")

TERMS = {
    "side": ("side", "sides", "side's"),
    "contract": ("contract", "contracts", "contracting", "contracted"),
    "made": (
        "made",
        *(
            f"{verb} {whose} contract"
            for verb in ("make", "makes", "making")
            for whose in ("its", "their")
        ),
    ),
    "set": ("set",),
    "overtrick": ("overtrick", "overtricks"),
    "declarer": ("declarer", "declarer's"),
    "defenders": ("defender", "defenders", "defending"),
    "winning call": ("winning call",),
}


def uses(text: str, forms: tuple[str, ...]) -> bool:
    words = "|".join(re.escape(w) for w in forms)
    return re.search(rf"(?<![\w-])(?:{words})(?![\w-])", text, re.IGNORECASE) is not None


def blocks(rules: ba.RuleSet) -> tuple[dict[str, str], str]:
    """The Terms block of the sheet (term -> meaning) and the rest of its rules text."""
    text = rules.describe()
    body = text.split(f"\n{SETTINGS_TITLE}:")[0]
    terms: dict[str, str] = {}
    if f"\n{TERMS_TITLE}:\n" in body:
        _, body = body.split(f"\n{TERMS_TITLE}:\n", 1)
        block, body = body.split("\n\n", 1)
        for line in block.splitlines():
            name, meaning = line.strip().split(": ", 1)
            assert name not in terms, f"{name} defined twice"
            terms[name] = meaning
    return terms, " ".join(body.split())


def partnership(rules: ba.RuleSet) -> bool:
    return rules.players == 4 and len(rules.teams) == 2


PARTNERSHIP = [n for n in VARIANTS if partnership(V.get(n))]
ONCE_AROUND_BOARDS = [
    n
    for n in PARTNERSHIP
    if isinstance(V.get(n).bidding, ba.rules.OnceAroundBidding) and V.get(n).bidding.board
]
AUCTIONS = [n for n in VARIANTS if isinstance(V.get(n).bidding, Auction)]
TURN_UPS = [n for n in VARIANTS if V.get(n).trump.turns_up()]


def test_gamerules_defines_every_term_it_uses() -> None:
    """``backalley rules gamerules`` opens with a Terms block that defines each
    term its rules use, once, and none it does not use (no declarer or
    defenders without an auction)."""
    status, out = _cli("rules", "gamerules")
    assert status == 0 and out.splitlines()[3] == f"{TERMS_TITLE}:"
    terms, body = blocks(V.GAMERULES)
    for name, forms in TERMS.items():
        used = uses(body, forms) or any(uses(m, forms) for m in terms.values())
        assert used == (name in terms), name
    assert set(terms) == {"side", "contract", "made", "set", "overtrick"}
    assert "0 when both pass" in terms["contract"] and "board" in terms["contract"]


@pytest.mark.parametrize("name", VARIANTS)
def test_every_sheet_defines_the_terms_it_uses_once(name: str) -> None:
    """Every sheet's Terms block defines the terms it uses and no other;
    declarer and defenders appear only where an auction makes a declarer."""
    rules = V.get(name)
    terms, body = blocks(rules)
    for term in terms:
        assert term in TERMS, term
    for term, forms in TERMS.items():
        used = uses(body, forms) or any(uses(m, forms) for m in terms.values())
        if term in ("side", "contract", "made", "set", "overtrick", "declarer", "defenders"):
            # the parts that make these words define them
            assert used == (term in terms), term
        else:
            assert term in terms or not used, term
    declaring = "declarer" in rules.bidding.provides()
    assert ("declarer" in terms) == declaring
    assert ("defenders" in terms) == declaring
    if not partnership(rules):
        assert "side" not in terms


@pytest.mark.parametrize("name", VARIANTS)
def test_the_settings_block_comes_after_the_rules_under_its_title(name: str) -> None:
    """The block of part tags and option values is titled "Settings (for software)"
    and closes the sheet; ``--no-settings`` leaves it out."""
    rules = V.get(name)
    text = rules.describe()
    assert "\nOptions:" not in text
    rules_end = text.index("\nEnd of the game: ")
    settings = text.index(f"\n{SETTINGS_TITLE}:\n")
    assert settings > rules_end
    block = text[settings:].splitlines()[2:]
    assert [line.split(None, 1)[1] for line in block] == [
        part.summary() for part in rules.parts().values()
    ]
    status, out = _cli("rules", name, "--no-settings")
    assert status == 0 and SETTINGS_TITLE not in out
    assert out == text[:settings]


def test_no_sheet_offers_a_number_from_1_to_0() -> None:
    """No sheet of any registered variant reads "1 to 0" (the 1-card deal of a
    range "from 1 to the hand size minus 1")."""
    for name in VARIANTS:
        text = " ".join(V.get(name).describe().split())
        assert "1 to 0" not in text, name
        assert not re.search(r"from (\d+) to (\d+)", text) or all(
            int(a) <= int(b) for a, b in re.findall(r"from (\d+) to (\d+)", text)
        ), name


@pytest.mark.parametrize("name", PARTNERSHIP)
def test_partnership_sheets_say_seats_run_clockwise(name: str) -> None:
    """Seats run clockwise: North, East, South, West (North-South against East-West)."""
    text = paragraph(V.get(name), "Players")
    assert "Seats run clockwise: North, East, South, West" in text
    assert "North and South (seats 0 & 2) against East and West (seats 1 & 3)" in text


@pytest.mark.parametrize("name", ONCE_AROUND_BOARDS)
def test_partnership_sheets_say_a_board_replaces_the_sides_contract(name: str) -> None:
    """A board replaces the side's contract: the partner's number no longer counts
    (the bidding's outcome: a board contract whatever the partner bid)."""
    rules = V.get(name)
    assert (
        "A board replaces the side's contract: the partner's number no longer counts, and "
        "the side must take every trick." in paragraph(rules, "Bidding")
    )
    # North bids 3, South board: the side's contract is the board alone
    outcome = _bidding_outcome(rules, 6, ["bid 3", "bid 1", "board", "bid 1"], dealer=3)
    assert outcome.contracts[0] == ba.rules.Contract(
        6, board=True, multiplier=outcome.contracts[0].multiplier
    )


@pytest.mark.parametrize("name", ONCE_AROUND_BOARDS)
def test_partnership_sheets_say_how_both_sides_boards_are_scored(name: str) -> None:
    """When both sides claim board each is scored on its own board, at the
    multiplier the bidding part gives: the deal's (the number of claims), or
    each side's own highest claim (``board_multiplier``)."""
    rules = V.get(name)
    text = paragraph(rules, "Bidding")
    outcome = _bidding_outcome(rules, 4, ["board", "board", "bid 1", "bid 1"], dealer=3)
    north, east = outcome.contracts
    assert north.board and east.board
    mults = rules.bidding.board_multipliers
    if rules.bidding.board_multiplier is ba.rules.BoardMultiplier.ALL_CLAIMS:
        assert (
            "When both sides claim board, each is scored on its own board at the deal's "
            "multiplier." in text
        )
        assert north.multiplier == east.multiplier == mults[1]
    else:
        assert (
            "When both sides claim board, each is scored on its own board at the multiplier "
            "of its own highest claim." in text
        )
        assert (north.multiplier, east.multiplier) == (mults[0], mults[1])
    # each side scored on its own board: East takes every trick, North none
    points = rules.scoring.contract_points
    assert points(east, 4, 4) > 0 > points(north, 0, 4)


@pytest.mark.parametrize(
    "name", [n for n in ONCE_AROUND_BOARDS if 1 in V.get(n).schedule.hand_sizes]
)
def test_partnership_sheets_say_what_can_be_called_on_the_one_card_deal(name: str) -> None:
    """On the 1-card deal the sheet names exactly the calls the bidding allows
    there (gamerules: pass and board, no number)."""
    rules = V.get(name)
    text = paragraph(rules, "Bidding")
    one_card = rules.replace(schedule=Schedule((1, *rules.schedule.hand_sizes)))
    legal = [str(m) for m in ba.new_game(one_card, seed=1).legal_moves()]
    numbers = [m for m in legal if m.startswith("bid ")]
    if numbers:
        assert "no number can be bid" not in text
        low = min(int(m.split()[1]) for m in numbers)
        assert f"a number from {low} to" in text
    else:
        assert legal == ["pass", "board"]
        assert "on the 1-card deal no number can be bid: the only calls are pass and board" in text
    if name == "gamerules":
        assert legal == ["pass", "board"]
        assert "The highest number is 12 on the 13-card deal" in text


@pytest.mark.parametrize(
    "name",
    [n for n in PARTNERSHIP if isinstance(V.get(n).scoring, ba.rules.ContractScoring)],
)
def test_partnership_sheets_say_a_side_that_passed_scores_its_tricks(name: str) -> None:
    """A side whose players both pass (a contract of 0) still scores 1 per trick
    taken, as the scoring part counts it."""
    rules = V.get(name)
    per = rules.scoring.contract_points(ba.rules.Contract(0), 1, 13)
    assert per == rules.scoring.per_overtrick
    assert rules.scoring.contract_points(ba.rules.Contract(0), 5, 13) == 5 * per
    who = (
        "A side whose players both pass"
        if rules.bidding.pass_allowed
        else "A side whose bids add up to 0"
    )
    assert f"{who} (a contract of 0) still scores {per} per trick it takes." in paragraph(
        rules, "Scoring"
    )


@pytest.mark.parametrize("name", TURN_UPS)
def test_turn_up_sheets_say_the_turned_card_stays_on_the_table(name: str) -> None:
    """The turned-up card stays face up on the table: in no hand, never played."""
    rules = V.get(name)
    assert (
        "The turned-up card stays face up on the table for the whole deal: it belongs to no "
        "hand and is never played." in paragraph(rules, "Trump")
    )
    for seed in range(5):
        state = ba.new_game(rules, seed=seed)
        card = state.turn_up
        assert card is not None
        assert all(card not in hand for hand in state.hands)
        assert card not in state.stock


EXAMPLE = re.compile(
    r"For example \((?P<dealer>\w+) deals\): (?P<calls>.+?): (?:\d+ is twice \w+'s \d+, so )?"
    r"(?P<declarer>\w+) is the declarer and \w+(?:'s side)? must take (?P<tricks>\d+) tricks "
    r"at x(?P<mult>\d+), scoring (?P<per>\d+) per trick taken \((?P<made>\d+) for \d+ tricks\); "
    r"with fewer it loses (?P<lost>\d+)\."
)


def _example_moves(calls_text: str) -> list[str]:
    moves = []
    for said in calls_text.split(", "):
        _, verb = said.split(" ", 1)
        if verb.startswith("bids "):
            moves.append("bid " + verb.split()[1])
        elif verb == "doubles":
            moves.append("counter")
        else:  # a direct counter: triples, quadruples
            moves.append("counter x" + str(("doubles", "triples", "quadruples").index(verb) + 2))
    return moves


@pytest.mark.parametrize("name", [n for n in AUCTIONS if partnership(V.get(n))])
def test_auction_sheets_work_a_counter_example(name: str) -> None:
    """Every auction sheet works an example of its counters whose numbers are
    the rule set's: the calls, replayed, make the contract it names, and the
    points are the scoring part's per trick times the multiplier."""
    rules = V.get(name)
    text = paragraph(rules, "Bidding")
    match = EXAMPLE.search(text)
    assert match, text
    dealer = SEATS.index(match["dealer"])
    state = calls(ba.new_game(rules, dealer=dealer, seed=1), *_example_moves(match["calls"]))
    while state.phase is ba.Phase.BIDDING:
        state = calls(state, "pass")
    declarer = SEATS.index(match["declarer"])
    tricks, mult = int(match["tricks"]), int(match["mult"])
    contract = state.contracts[declarer % 2]
    assert contract is not None and contract.declarer == declarer
    assert (contract.tricks, contract.multiplier) == (tricks, mult)
    assert int(match["per"]) == rules.scoring.per_trick * mult
    assert int(match["made"]) == rules.scoring.per_trick * mult * tricks
    assert int(match["lost"]) == rules.scoring.set_per_trick * mult * tricks


def test_vietnam_sheet_explains_counters_with_a_worked_example() -> None:
    """``backalley rules vietnam``: "North bids 7, East bids 8, South doubles:
    East's side must take 8 tricks, scoring 20 per trick" (the double multiplies
    East's contract); West may triple, or call 9, which cancels the counters -
    each checked against the engine."""
    status, out = _cli("rules", "vietnam")
    assert status == 0
    text = " ".join(out.split())
    per = V.VIETNAM.scoring.per_trick
    assert (
        "For example (West deals): North bids 7, East bids 8, South doubles: East is the "
        f"declarer and East's side must take 8 tricks at x2, scoring {2 * per} per trick "
        f"taken ({16 * per} for 8 tricks); with fewer it loses {16 * V.VIETNAM.scoring.set_per_trick}."
    ) in text
    assert (
        "Then West may triple (x3) for East and West; or West may call 9, which cancels the "
        "counters (9 tricks at x1)."
    ) in text
    state = calls(ba.new_game(V.VIETNAM, dealer=3, seed=1), "bid 7", "bid 8", "counter")
    tripled = calls(state, "counter")
    assert tripled.contracts[1] == ba.rules.Contract(8, multiplier=3, declarer=1)
    cancelled = calls(state, "bid 9")
    assert cancelled.phase is not ba.Phase.BIDDING
    assert cancelled.contracts[1] == ba.rules.Contract(9, multiplier=1, declarer=3)


def test_countering_side_sheet_says_what_it_does_to_play() -> None:
    """With counter_holder = countering-side the example's double takes the contract over,
    and the sheet says that the last side to speak then takes every deal."""
    rules = V.VIETNAM.replace(bidding=Auction(counter_holder="countering-side"))
    text = sheet(rules)
    assert (
        "For example (West deals): North bids 7, East bids 8, South doubles: South is the "
        "declarer and South's side must take 8 tricks at x2"
    ) in text
    assert (
        "Under this reading a counter costs nothing: it takes any contract over at the same "
        "number; where every trick taken scores at the multiplier, as in the Vietnam scoring, "
        "the last side to speak can take over any number it can make, however low, at the "
        "highest multiplier (after bid 1, double, triple, quadruple, the quadrupling side "
        "scores four times every trick it takes)."
    ) in text
    assert "Under this reading" not in sheet(V.VIETNAM)


@pytest.mark.parametrize(
    ("options", "phrase"),
    [
        (
            {"counter_style": "direct"},
            "North bids 7, East bids 8, South triples: East is the declarer and East's side "
            "must take 8 tricks at x3, scoring 30 per trick taken (240 for 8 tricks); with "
            "fewer it loses 240. The counter cannot be answered: West may only pass.",
        ),
        (
            {"counter_style": "direct", "counter_holder": "countering-side"},
            "North bids 7, East bids 8, South triples: South is the declarer and South's side "
            "must take 8 tricks at x3, scoring 30 per trick taken (240 for 8 tricks); with "
            "fewer it loses 240. The counter cannot be answered: West may only pass.",
        ),
        (
            {"speakers": "one-per-team", "counter_style": "multiple-bid"},
            "North bids 3, East bids 6: 6 is twice North's 3, so East is the declarer and "
            "East's side must take 6 tricks at x2, scoring 20 per trick taken (120 for 6 "
            "tricks); with fewer it loses 120. Over North's 3, 4 would have been a plain "
            "overbid (x1); 7 would have carried x2, 9 x3 and 12 x4.",
        ),
        (
            {"speakers": "one-per-team", "counter_style": "multiple-bid", "multiple": "exact"},
            "Over North's 3, 4 or 7 would have been a plain overbid (x1); 9 would have "
            "carried x3 and 12 x4.",
        ),
        (
            {"speakers": "one-per-team"},
            "North bids 7, East doubles: North is the declarer and North's side must take 7 "
            "tricks at x2, scoring 20 per trick taken (140 for 7 tricks); with fewer it "
            "loses 140.",
        ),
        (
            {"speakers": "one-per-team", "counter_holder": "countering-side"},
            "North bids 7, East doubles: East is the declarer and East's side must take 7 "
            "tricks at x2, scoring 20 per trick taken (140 for 7 tricks); with fewer it "
            "loses 140.",
        ),
    ],
)
def test_each_counter_style_has_its_own_example(options: dict[str, str], phrase: str) -> None:
    """STEP, DIRECT and MULTIPLE_BID counters each get an example of their own."""
    rules = V.VIETNAM.replace(bidding=Auction(**options))
    assert phrase in sheet(rules)


def test_no_counter_example_without_counters() -> None:
    """An auction with no counters has no counter example."""
    rules = V.VIETNAM.replace(bidding=Auction(counters=0))
    assert "For example" not in sheet(rules)


def _cli(*argv: str) -> tuple[int, str]:
    from backalley.cli import main

    out = io.StringIO()
    status = main(list(argv), out=out, inp=io.StringIO(""))
    return status, out.getvalue()


def _bidding_outcome(
    rules: ba.RuleSet, hand_size: int, texts: list[str], dealer: int
) -> ba.rules.BiddingOutcome:
    """The bidding part's outcome of ``texts`` (first speaker left of ``dealer``)."""
    from backalley.rules.context import BiddingContext

    seating = rules.seating
    ctx = BiddingContext(
        hand_size=hand_size,
        players=seating.players,
        first=rules.bidding.first(dealer, seating.players),
        calls=tuple(ba.parse_move(t) for t in texts),
        teams=tuple(seating.teams),
        seat_teams=tuple(seating.team_of(s) for s in range(seating.players)),
    )
    for i in range(len(texts)):
        assert rules.bidding.refusal(ctx.with_calls(ctx.calls[:i]), ctx.calls[i]) is None
    return rules.bidding.outcome(ctx)


def test_the_gamerules_reference_lists_every_value_of_its_options() -> None:
    """The gamerules section of the rules reference lists every named option of
    the gamerules game's parts with all its values, and every on/off option."""
    page = (ROOT / "docs" / "rules.rst").read_text("utf-8")
    section = page.split(".. _rules-gamerules:", 1)[1].split(".. _rules-vietnam:", 1)[0]
    for part in V.GAMERULES.parts().values():
        for option, value in part.options().items():
            if isinstance(value, ba.rules.Option):
                assert f"``{option}``" in section, option
                for member in type(value):
                    assert f"``{member.value}``" in section, (option, member.value)
            elif isinstance(value, bool):
                assert f"``{option}``" in section, option
