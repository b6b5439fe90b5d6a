"""Readings of the Vietnam auction that the sources leave open, each a named
option whose default keeps the variants as they were:

- ``multiple`` of the auction (with ``counter_style = multiple-bid``):
  ``at-least`` (default: 3 then 7 is a double) or ``exact`` (only exactly
  2, 3 or 4 times the first announcement carries a multiplier);
- the counters of ``vietnam`` are a house reading, and its sheet says so: by
  default (``counter_holder = announcer``) a counter multiplies the announcing
  side's contract, as a double in bridge; ``countering-side`` hands the
  contract to the countering side (the earlier reading);
- ``defenders_score`` of the auction scoring: ``nothing`` (default),
  ``all-tricks`` or ``own-announcement`` (the outbid side scores its tricks
  if it took at least its own announcement).

Positions are dealt from exact deck orders with dealer 0, so seat 1 speaks
first (for side 1) and seat 2 second (for side 0).
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import find, settings

import backalley as ba
from backalley import houserules
from backalley.rules import (
    Auction,
    AuctionScoring,
    CounterHolder,
    CounterStyle,
    DefendersScore,
    Multiple,
    Speakers,
)
from backalley.rules.sheet import describe_part

from ..helpers import calls, deck_for, play_to_tricks, refused
from ..strategies import registered_part

V = ba.variants
R = ba.Reason
LITERAL = V.VIETNAM_LITERAL

# seat 2 holds all thirteen spades and the jokers stay undealt, so with spades
# trump seat 2 wins every trick whatever is played: side 0 takes 13 tricks
ALL_SPADES = [
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
]
# mixed hands, in which either side can take most numbers of tricks
MIXED = [
    "AS KS QS 2H 3H 4H 2D 3D 4D 2C 3C 4C 5C",
    "JS TS 9S 5H 6H 7H 5D 6D 7D 6C 7C 8C 9C",
    "8S 7S 6S 8H 9H TH 8D 9D TD TC JC QC KC",
    "5S 4S 3S 2S JH QH KH AH JD QD KD AD AC",
]
# side 0 strong: it can take ten tricks and leave side 1 three
STRONG = [
    "AS KS QS JS AH KH QH 2D 3D 4D 2C 3C 4C",
    "TS 9S 8S 2H 3H 4H 5D 6D 7D 5C 6C 7C 8C",
    "7S 6S 5S JH TH 9H AD KD QD AC KC QC JC",
    "4S 3S 2S 8H 7H 6H 5H JD TD 9D 8D TC 9C",
]
STOCK = "LJ BJ"


def game(rules: ba.RuleSet, hands: list[str] = MIXED) -> ba.GameState:
    """The first deal of ``rules`` dealt exactly ``hands`` (dealer 0)."""
    return ba.new_game(rules, dealer=0, decks=[deck_for(rules, hands, STOCK)], seed=1)


def with_bidding(base: ba.RuleSet = LITERAL, **options: Any) -> ba.RuleSet:
    return base.replace(bidding=attrs.evolve(base.bidding, **options))


def with_defenders(option: DefendersScore, base: ba.RuleSet = LITERAL) -> ba.RuleSet:
    return base.replace(scoring=AuctionScoring(defenders_score=option))


def sheet(rules: ba.RuleSet) -> str:
    return " ".join(rules.describe().split())


def play_out(state: ba.GameState) -> ba.GameState:
    """The first legal move until the deal is scored."""
    deals = state.deals_played
    while state.deals_played == deals:
        state = state.apply(state.legal_moves()[0])
    return state


def round_trips(rules: ba.RuleSet, toml: str) -> None:
    """``rules`` loads from a house-rules file and survives the JSON document."""
    assert houserules.loads(toml) == rules
    assert ba.from_json(ba.to_json(rules), ba.RuleSet) == rules


EXACT = with_bidding(multiple=Multiple.EXACT)

# ------------------------------------------------------------ multiple


def test_multiple_defaults_to_at_least() -> None:
    """The default reading is unchanged: at least K times carries xK."""
    assert Auction().multiple is Multiple.AT_LEAST
    assert LITERAL.bidding.multiple is Multiple.AT_LEAST
    assert Auction(multiple="exact").multiple is Multiple.EXACT
    with pytest.raises(ba.RuleSetError, match="'at-least', 'exact'"):
        Auction(multiple="exactly")


@pytest.mark.parametrize(
    ("first", "second", "at_least", "exact"),
    [
        (3, 6, 2, 2),
        (3, 7, 2, 1),  # "3 then 7 is a double" only under at-least
        (3, 8, 2, 1),
        (3, 9, 3, 3),
        (3, 12, 4, 4),
        (4, 8, 2, 2),
        (4, 13, 3, 1),
        (2, 10, 4, 1),  # five times: beyond x4, a plain overbid under exact
        (3, 5, 1, 1),
    ],
)
def test_exact_multiples_only(first: int, second: int, at_least: int, exact: int) -> None:
    """With multiple = exact only exactly 2x, 3x or 4x the first announcement
    carries x2, x3 or x4; any other higher number is a plain overbid."""
    for rules, multiplier in ((LITERAL, at_least), (EXACT, exact)):
        state = calls(game(rules), f"bid {first}", f"bid {second}")
        assert state.contracts == (ba.Contract(second, multiplier=multiplier, declarer=2), None)


def test_exact_multiple_changes_the_points() -> None:
    """3 then 7, made with all 13 tricks: 260 as a double (at-least), 130 plain (exact)."""
    for rules, points in ((LITERAL, 260), (EXACT, 130)):
        state = calls(game(rules, ALL_SPADES), "bid 3", "bid 7", "trump S")
        result = play_out(state).deal_results[0]
        assert result.tricks == (13, 0)
        assert result.points == (points, 0)


def test_exact_multiple_with_every_player_speaking() -> None:
    """The reading holds when every player speaks: 2 then 5 is plain, 2 then 4 a double."""
    base = V.VIETNAM.replace(
        bidding=Auction(counter_style=CounterStyle.MULTIPLE_BID, multiple=Multiple.EXACT)
    )
    state = calls(game(base), "bid 2", "bid 5", "pass", "pass")
    assert state.contracts == (ba.Contract(5, declarer=2), None)
    state = calls(game(base), "bid 2", "bid 4", "pass", "pass")
    assert state.contracts == (ba.Contract(4, multiplier=2, declarer=2), None)


def test_exact_multiple_refusal_of_a_counter_says_exactly() -> None:
    """A counter call is refused with the reading's own advice."""
    state = calls(game(EXACT), "bid 3")
    assert refused(state, "counter") is R.COUNTER_NOT_ALLOWED
    with pytest.raises(ba.IllegalMoveError, match="bid exactly twice"):
        state.apply(ba.Counter())
    with pytest.raises(ba.IllegalMoveError, match="bid at least twice"):
        calls(game(LITERAL), "bid 3").apply(ba.Counter())


def test_multiple_is_ignored_without_multiple_bids() -> None:
    """Choice (docs): multiple only reads multiple bids; with step counters it
    changes neither the play nor the sheet's paragraph."""
    rules = with_bidding(V.VIETNAM, multiple=Multiple.EXACT)
    for state in (game(rules), game(V.VIETNAM)):
        state = calls(state, "bid 3", "bid 7")
        assert ba.Counter() in state.legal_moves()
        assert calls(state, "pass", "pass").contracts == (ba.Contract(7, declarer=2), None)
    assert describe_part(rules.bidding, rules) == describe_part(V.VIETNAM.bidding, V.VIETNAM)


def test_exact_multiple_sheet() -> None:
    """The sheet says that only an exact multiple carries a multiplier."""
    text = sheet(EXACT)
    assert (
        "A number called against another side's announcement multiplies the contract only "
        "when it is an exact multiple of that announcement (exactly 2 times carries x2; "
        "exactly 3 times carries x3; exactly 4 times carries x4); any other higher number "
        "is a plain overbid (3 then 6 is a double, 3 then 7 carries no multiplier)."
    ) in text
    assert "at least 2 times" not in text and "at least 2 times" in sheet(LITERAL)
    assert "multiple=exact" in EXACT.describe()


def test_exact_multiple_loads_and_round_trips() -> None:
    round_trips(
        EXACT,
        'base = "vietnam-literal"\n[bidding]\nmultiple = "exact"\n',
    )


# ------------------------------------------- step counters: a house reading


def test_step_counters_let_the_first_side_triple() -> None:
    """With step counters the side whose number was doubled may triple; with
    the literal auction only the side that announced second multiplies."""
    state = calls(game(V.VIETNAM), "bid 7", "double")
    assert state.to_act == 3 and state.is_legal(ba.Counter())  # seat 1's partner triples
    state = calls(game(LITERAL), "bid 7")
    assert not any(isinstance(m, ba.Counter) for m in state.legal_moves())


def test_the_vietnam_sheet_calls_step_counters_a_house_reading() -> None:
    """The vietnam sheet says its alternating counters are a house reading and
    names vietnam-literal for the source's reading."""
    text = sheet(V.VIETNAM)
    assert (
        "Counters alternate: the side whose number was doubled may answer with a triple, "
        "and its opponents with a quadruple. A counter is thus a bet that the contract "
        "fails, called when it pays. This is a house reading of the Vietnam rules, which "
        "give the multiplier to the side that announced second and took that many tricks; "
        "the preset vietnam-literal plays the source's words."
    ) in text
    assert "the player who announced second" in sheet(V.VIETNAM_CUTTHROAT)
    assert "house reading" not in sheet(LITERAL)
    # a counter that multiplies the announcer's contract is a house reading however many
    # counters there are and whoever speaks
    one_each = with_bidding(V.VIETNAM, speakers=Speakers.ONE_PER_TEAM)
    assert "house reading" in sheet(one_each)
    assert "house reading" in sheet(with_bidding(V.VIETNAM, counters=1))
    # the earlier reading: alternating step counters are the house reading
    taken = with_bidding(V.VIETNAM, counter_holder=CounterHolder.COUNTERING_SIDE)
    assert (
        "Counters alternate: the side whose number was doubled may answer with a triple. "
        "This is a house reading of the Vietnam rules, which give a multiplier only to the "
        "side that announced second (the preset vietnam-literal plays them that way)."
    ) in sheet(taken)
    # one announcement per side with step counters: only the second side's double
    one_each = with_bidding(
        V.VIETNAM, speakers=Speakers.ONE_PER_TEAM, counter_holder=CounterHolder.COUNTERING_SIDE
    )
    assert "house reading" not in sheet(one_each)
    assert "house reading" not in sheet(
        with_bidding(V.VIETNAM, counters=1, counter_holder=CounterHolder.COUNTERING_SIDE)
    )


# ------------------------------------------------------- defenders_score


def test_defenders_score_defaults_to_nothing() -> None:
    assert AuctionScoring().defenders_score is DefendersScore.NOTHING
    assert LITERAL.scoring == with_defenders(DefendersScore.NOTHING).scoring


@pytest.mark.parametrize(
    ("hands", "tricks", "option", "points"),
    [
        (MIXED, (7, 6), DefendersScore.NOTHING, (70, 0)),
        (MIXED, (7, 6), DefendersScore.ALL_TRICKS, (70, 60)),
        (MIXED, (7, 6), DefendersScore.OWN_ANNOUNCEMENT, (70, 60)),
        (STRONG, (10, 3), DefendersScore.NOTHING, (100, 0)),
        (STRONG, (10, 3), DefendersScore.ALL_TRICKS, (100, 30)),
        (STRONG, (10, 3), DefendersScore.OWN_ANNOUNCEMENT, (100, 0)),
    ],
)
def test_the_outbid_side_scores_if_it_takes_its_own_announcement(
    hands: list[str], tricks: tuple[int, int], option: DefendersScore, points: tuple[int, int]
) -> None:
    """Seat 1 announces 4 for side 1, seat 2 outbids with 6 for side 0.  With
    own-announcement side 1 scores 10 per trick when it takes at least its 4,
    else nothing; all-tricks pays every defender's trick; nothing pays none."""
    state = calls(game(with_defenders(option), hands), "bid 4", "bid 6", "trump S")
    assert state.contracts == (ba.Contract(6, declarer=2), None)
    assert state.outcome.announcements == (6, 4)
    result = play_to_tricks(state, tricks).deal_results[0]
    assert result.tricks == tricks
    assert result.points == points


def test_a_failed_contract_and_the_outbid_sides_points() -> None:
    """Both scores stand side by side: the declarer's doubled 9 (4 then 9) fails
    and loses 180; the outbid side, with 5 tricks for its own 4, scores 50 (its
    points are never multiplied)."""
    rules = with_defenders(DefendersScore.OWN_ANNOUNCEMENT)
    state = calls(game(rules), "bid 4", "bid 9", "trump S")
    result = play_to_tricks(state, (8, 5)).deal_results[0]
    assert result.points == (-180, 50)


def test_a_side_that_passed_has_no_announcement() -> None:
    """A defending side that announced no number scores nothing, whatever it takes."""
    rules = with_defenders(DefendersScore.OWN_ANNOUNCEMENT)
    state = calls(game(rules), "pass", "bid 5", "trump S")
    assert state.outcome.announcements == (5, None)
    result = play_to_tricks(state, (7, 6)).deal_results[0]
    assert result.points == (70, 0)


def test_announcements_with_every_player_and_counters() -> None:
    """Choice (docs): with every player speaking a side's own announcement is
    its highest number; a counter is not an announcement; a doubled number stays
    its announcer's (by default), and under countering-side counters the side whose
    number was doubled away is outbid on that number."""
    rules = with_defenders(DefendersScore.OWN_ANNOUNCEMENT, V.VIETNAM)
    state = calls(game(rules), "bid 2", "bid 3", "bid 5", "bid 6")
    assert state.outcome.announcements == (6, 5)
    state = calls(game(rules), "bid 7", "double", "pass", "pass")
    assert state.contracts == (None, ba.Contract(7, multiplier=2, declarer=1))
    assert state.outcome.announcements == (None, 7)
    taken = rules.replace(bidding=Auction(counter_holder=CounterHolder.COUNTERING_SIDE))
    state = calls(game(taken), "bid 7", "double", "pass", "pass")
    assert state.contracts == (ba.Contract(7, multiplier=2, declarer=2), None)
    assert state.outcome.announcements == (None, 7)
    state = calls(game(rules), "pass", "pass", "pass", "pass")  # thrown in: dealt again
    assert state.outcome is None and state.dealer == 1


def test_own_announcement_without_partnerships() -> None:
    """Without partnerships every outbid player is scored alone."""
    rules = with_defenders(DefendersScore.OWN_ANNOUNCEMENT, V.VIETNAM_CUTTHROAT)
    state = calls(game(rules), "bid 2", "bid 3", "pass", "bid 4", "trump S")
    assert state.outcome.announcements == (4, 2, 3, None)
    ctx = ba.lowlevel.deal_context(state)
    assert rules.scoring.score(ctx, (5, 2, 3, 3), ((),) * 4) == (50, 20, 30, 0)
    assert rules.scoring.score(ctx, (5, 1, 2, 5), ((),) * 4) == (50, 0, 0, 0)


def test_defenders_score_sheets() -> None:
    """The sheet says what the defenders score, in a player's words."""
    assert "Defenders score nothing." in sheet(LITERAL)
    assert "Defenders score 10 per trick they take." in sheet(
        with_defenders(DefendersScore.ALL_TRICKS)
    )
    text = sheet(with_defenders(DefendersScore.OWN_ANNOUNCEMENT))
    assert (
        "The outbid side (a defending side that announced a number) scores 10 per trick "
        "taken if it takes at least its own announcement (its highest, if it announced more "
        "than once); other defenders score nothing."
    ) in text
    alone = sheet(with_defenders(DefendersScore.OWN_ANNOUNCEMENT, V.VIETNAM_CUTTHROAT))
    assert (
        "An outbid player (a defender who announced a number) scores 10 per trick taken if "
        "they take at least their own announcement; other defenders score nothing."
    ) in alone


@pytest.mark.parametrize("option", list(DefendersScore))
def test_defenders_score_loads_and_round_trips(option: DefendersScore) -> None:
    round_trips(
        with_defenders(option),
        f'base = "vietnam-literal"\n[scoring]\ndefenders_score = "{option.value}"\n',
    )


@pytest.fixture
def scratch_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy of the registry, so that the test's own parts leave no trace."""
    from backalley.rules import registry

    scratch = {part: dict(table) for part, table in registry._REGISTRY.items()}
    monkeypatch.setattr(registry, "_REGISTRY", scratch)


@pytest.mark.usefixtures("scratch_registry")
def test_own_announcement_needs_a_bidding_that_tells_announcements() -> None:
    """The option needs the capability side-announcements, which the auction
    provides; a bidding without it is refused, naming what is missing."""

    @ba.rules.register
    @attrs.frozen
    class Silent(Auction):
        tag = "test-silent-auction"

        def provides(self) -> frozenset[str]:
            return super().provides() - {"side-announcements"}

    rules = with_defenders(DefendersScore.OWN_ANNOUNCEMENT)
    assert "side-announcements" in Auction().provides()
    V.VIETNAM.replace(bidding=Silent())  # the other readings need no announcements
    with pytest.raises(ba.RuleSetError, match="each side's own highest announcement"):
        rules.replace(bidding=Silent())


@pytest.mark.usefixtures("scratch_registry")
def test_a_bidding_outcome_with_announcements_for_some_sides_is_refused() -> None:
    """The plan refuses an outcome whose announcements are neither one per side nor none."""

    @ba.rules.register
    @attrs.frozen
    class Short(Auction):
        tag = "test-short-auction"

        def outcome(self, ctx: Any) -> Any:
            return attrs.evolve(super().outcome(ctx), announcements=(3,))

    rules = V.VIETNAM.replace(bidding=Short())
    with pytest.raises(ba.RuleSetError, match="announcements for every side or none"):
        calls(game(rules), "bid 3", "pass", "pass", "pass")
    assert ba.values.BiddingOutcome(()).announcements == ()
    with pytest.raises(ba.RuleSetError):
        ba.values.BiddingOutcome((), announcements=(-1,))


# -------------------------------------------------- the generated rule sets


def test_the_property_tests_draw_the_new_values() -> None:
    """The registry strategies sample every option enum, the new ones included."""
    bidding = find(
        registered_part("bidding"),
        lambda p: (
            getattr(p, "multiple", None) is Multiple.EXACT
            and p.counter_style is CounterStyle.MULTIPLE_BID
        ),
        settings=settings(max_examples=2000, database=None),
    )
    assert bidding.multiple is Multiple.EXACT
    scoring = find(
        registered_part("scoring"),
        lambda p: getattr(p, "defenders_score", None) is DefendersScore.OWN_ANNOUNCEMENT,
        settings=settings(max_examples=2000, database=None),
    )
    assert scoring.defenders_score is DefendersScore.OWN_ANNOUNCEMENT
