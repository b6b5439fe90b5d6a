"""Rule sets as values: incompatible part combinations are refused when the
rule set is built, naming both parts, all problems at once;
``RuleSet.replace``; wrong part types and bad part parameters.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import backalley as ba
from backalley.rules import (
    AllPass,
    Auction,
    AuctionScoring,
    BoardClaims,
    ContractScoring,
    Cutthroat,
    DealerRotation,
    Deck,
    DeclarerNamesTrump,
    EndPolicy,
    FirstLead,
    FixedTrump,
    FollowPolicy,
    JokerTurnUp,
    LeadPolicy,
    NoTrump,
    OnceAroundBidding,
    Partnerships,
    Rainbow,
    Schedule,
    TrumpLead,
    TurnUpTrump,
)

V = ba.variants
G = V.GAMERULES
DECK_42 = Deck(ranks=[r for r in ba.Rank if ba.Rank.FIVE <= r <= ba.Rank.ACE])
NO_JOKERS = Deck(jokers=0)
NO_BLOOPERS = FollowPolicy(blooper_lead_forcing=False)


def refusal(build: Any) -> ba.RuleSetError:
    with pytest.raises(ba.RuleSetError) as info:
        build()
    err = info.value
    assert isinstance(err, ValueError) and isinstance(err, ba.BackAlleyError)
    assert err.problems and all(isinstance(p, str) and p for p in err.problems)
    return err


def names_parts(err: ba.RuleSetError, *parts: str) -> None:
    """Some single problem of ``err`` names every one of ``parts``."""
    assert any(all(part in p for part in parts) for p in err.problems), (parts, err.problems)


# ------------------------------------------------------ incompatible parts


def test_13_card_schedule_on_the_42_card_deck() -> None:
    """A 42-card deck with a 13-card schedule is refused, naming deck and schedule."""
    err = refusal(lambda: V.VIETNAM_42.replace(schedule=Schedule.fixed(13, 2)))
    names_parts(err, "deck", "schedule")
    assert "42" in str(err)
    err = refusal(lambda: G.replace(deck=DECK_42))
    names_parts(err, "deck", "schedule", "trump")  # the turn-up needs a card too
    # 10 cards fit
    assert V.VIETNAM.replace(deck=DECK_42, schedule=Schedule.fixed(10, 2)) == V.VIETNAM_42


def test_the_turn_up_needs_a_card_beyond_the_hands() -> None:
    """A turn-up trump needs a stock card: 4 x 13 from 52 cards leaves none, and is refused."""
    err = refusal(lambda: G.replace(deck=NO_JOKERS, follow=NO_BLOOPERS))
    names_parts(err, "deck", "schedule", "trump")
    assert "turn up" in str(err)
    # with spades fixed nothing is turned up: it fits (the spades-no-jokers preset)
    assert G.replace(deck=NO_JOKERS, trump=FixedTrump(ba.Suit.SPADES)) == V.SPADES_NO_JOKERS


def test_too_many_players_for_the_deck() -> None:
    """Five players of 13 cards do not fit 54 cards, and are refused."""
    err = refusal(lambda: G.replace(seating=Cutthroat(5)))
    names_parts(err, "deck", "schedule")
    assert "5 players" in str(err)


def test_declarer_names_trump_needs_the_auction() -> None:
    """DeclarerNamesTrump with OnceAroundBidding is refused (no declarer)."""
    err = refusal(lambda: G.replace(trump=DeclarerNamesTrump()))
    names_parts(err, "trump", "bidding")
    assert "declarer" in str(err)


def test_declarer_names_trump_with_a_deal_played_without_declarer() -> None:
    """An auction with all_pass = play-for-overtricks leaves no declarer to name trump: refused."""
    err = refusal(lambda: V.VIETNAM.replace(bidding=Auction(all_pass=AllPass.PLAY_FOR_OVERTRICKS)))
    names_parts(err, "trump", "bidding")
    # with a fixed trump the same auction is fine
    V.VIETNAM_SPADES.replace(bidding=Auction(all_pass=AllPass.PLAY_FOR_OVERTRICKS))


def test_blooper_forcing_is_inert_without_jokers() -> None:
    """Removing the jokers is one change; the blooper rules then never apply."""
    no_jokers = V.VIETNAM.replace(deck=NO_JOKERS)
    assert no_jokers.follow.blooper_lead_forcing  # kept, but nothing can trigger it
    state = ba.new_game(no_jokers, seed=5)
    assert not any(card.is_joker for hand in state.hands for card in hand)


def test_auction_scoring_needs_the_auction() -> None:
    """AuctionScoring with once-around bidding is refused (scoring and bidding)."""
    err = refusal(lambda: G.replace(scoring=AuctionScoring()))
    names_parts(err, "scoring", "bidding")


def test_contract_scoring_does_not_fit_the_auction() -> None:
    """Summed-bid scoring with the auction's single contract is refused."""
    err = refusal(lambda: V.VIETNAM.replace(scoring=ContractScoring()))
    names_parts(err, "scoring", "bidding")


def test_declarer_leads_needs_an_auction() -> None:
    """FirstLead.DECLARER without an auction is refused (lead and bidding)."""
    err = refusal(lambda: G.replace(lead=LeadPolicy(first_lead=FirstLead.DECLARER)))
    names_parts(err, "lead", "bidding")


def test_auction_lowest_bid_above_the_smallest_deal() -> None:
    """A min_bid above a deal's hand size is refused (bidding and schedule)."""
    err = refusal(lambda: V.VIETNAM_LADDER.replace(bidding=Auction(min_bid=2)))
    names_parts(err, "bidding", "schedule")


def test_once_around_with_no_possible_call() -> None:
    """A bidding with no pass, no board and no number in range on the 1-card deal is refused."""
    err = refusal(lambda: G.replace(bidding=OnceAroundBidding(pass_allowed=False, board=False)))
    names_parts(err, "bidding", "schedule")


def test_rainbow_on_a_deal_never_dealt() -> None:
    """A rainbow bonus for a hand size the schedule never deals is refused."""
    err = refusal(lambda: V.BAB_ONLINE.replace(schedule=Schedule.fixed(13, 2)))
    names_parts(err, "scoring", "schedule")


def test_several_problems_are_reported_at_once() -> None:
    """Every clash is reported when the rule set is built."""
    err = refusal(
        lambda: G.replace(
            deck=NO_JOKERS,
            trump=DeclarerNamesTrump(),
            scoring=AuctionScoring(),
            lead=LeadPolicy(first_lead=FirstLead.DECLARER),
        )
    )
    assert len(err.problems) >= 2
    names_parts(err, "trump", "bidding")
    names_parts(err, "scoring", "bidding")
    names_parts(err, "lead", "bidding")
    text = str(err)
    assert f"{len(err.problems)} problems" in text
    for problem in err.problems:
        assert problem in text
    # problems() says the same without raising, for a valid rule set nothing
    assert G.problems() == []


def test_rule_set_errors_pickle() -> None:
    """errors.py: a RuleSetError keeps its problems through pickling (for worker processes)."""
    import pickle

    err = refusal(lambda: G.replace(trump=DeclarerNamesTrump(), scoring=AuctionScoring()))
    back = pickle.loads(pickle.dumps(err))
    assert back.problems == err.problems and str(back) == str(err)


def test_sensible_combinations_are_constructible() -> None:
    """Any combination that makes sense can be built, e.g. gamerules with spades always
    trump and no jokers; the Vietnam
    auction over the 13..1..13 schedule; the auction with a turn-up."""
    G.replace(trump=FixedTrump(ba.Suit.SPADES), deck=NO_JOKERS, follow=NO_BLOOPERS)
    V.VIETNAM.replace(schedule=Schedule.down_and_up(13, 1))
    V.VIETNAM.replace(trump=TurnUpTrump(), lead=LeadPolicy(first_lead=FirstLead.DECLARER))
    V.VIETNAM.replace(trump=NoTrump())
    G.replace(trump=TurnUpTrump(JokerTurnUp.TURN_NEXT_CARD))
    G.replace(seating=Cutthroat(4))
    G.replace(bidding=OnceAroundBidding(board_claims=BoardClaims.OPPONENTS_ONLY))
    G.replace(bidding=OnceAroundBidding(board=False, all_pass=AllPass.PLAY_FOR_OVERTRICKS))
    G.replace(schedule=Schedule.up_and_down(13, 1))
    G.replace(schedule=Schedule((13, 11, 9, 7, 5, 3, 1)))


# ------------------------------------------------------- RuleSet.replace


def test_replace_makes_a_new_unnamed_rule_set() -> None:
    """Replace is typed and validated; the result is no longer the named variant."""
    house = G.replace(trump=FixedTrump(ba.Suit.SPADES))
    assert house.trump == FixedTrump(ba.Suit.SPADES)
    assert house.name is None
    assert house != G
    assert G.trump == TurnUpTrump() and G.name == "gamerules"  # the original is unchanged
    assert house.replace(trump=TurnUpTrump()) == G  # equality ignores the name
    named = G.replace(trump=FixedTrump(ba.Suit.SPADES), name="spades")
    assert named.name == "spades" and named == house
    assert G.replace() == G and G.replace().name is None
    for part in ba.rules.PART_NAMES:
        if part != "trump":
            assert getattr(house, part) == getattr(G, part)


def test_rule_sets_are_immutable_and_hashable() -> None:
    """Rule sets are immutable values."""
    import attrs

    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        G.deck = NO_JOKERS  # type: ignore[misc]
    assert hash(G) == hash(ba.RuleSet())
    assert {G, ba.RuleSet(), V.GAMERULES_26} == {G, V.GAMERULES_26}
    assert ba.RuleSet() == G


def test_replace_is_validated() -> None:
    """Replace validates the whole new rule set."""
    err = refusal(lambda: V.VIETNAM.replace(bidding=OnceAroundBidding()))
    names_parts(err, "scoring", "bidding")
    names_parts(err, "trump", "bidding")


def test_parts_in_order() -> None:
    """A rule set has eleven parts (ranking: the card order and the trick winner)."""
    assert tuple(G.parts()) == (
        "deck",
        "seating",
        "schedule",
        "dealer",
        "trump",
        "bidding",
        "lead",
        "follow",
        "ranking",
        "scoring",
        "end",
    )
    assert tuple(G.parts()) == ba.rules.PART_NAMES
    assert G.players == 4 and G.teams == ((0, 2), (1, 3))
    assert V.CUTTHROAT_3.players == 3 and V.CUTTHROAT_3.teams == ((0,), (1,), (2,))


# ------------------------------------------------------- wrong part types


@pytest.mark.parametrize(
    ("part", "value"),
    [
        ("deck", Partnerships()),
        ("seating", Deck()),
        ("schedule", (13, 12)),
        ("dealer", "clockwise"),
        ("trump", "spades"),
        ("trump", ba.Suit.SPADES),
        ("bidding", AuctionScoring()),
        ("lead", FollowPolicy()),
        ("follow", LeadPolicy()),
        ("scoring", Auction()),
        ("end", None),
    ],
)
def test_wrong_part_types_are_refused(part: str, value: object) -> None:
    """A part of the wrong type is refused with RuleSetError naming the part."""
    err = refusal(lambda: G.replace(**{part: value}))
    assert any(p.startswith(f"{part}:") for p in err.problems), err.problems
    err = refusal(lambda: ba.RuleSet(**{part: value}))
    assert any(p.startswith(f"{part}:") for p in err.problems)


def test_several_wrong_types_are_all_reported() -> None:
    err = refusal(lambda: ba.RuleSet(deck=None, seating=Deck(), trump="S"))  # type: ignore[arg-type]
    assert len(err.problems) == 3
    for part in ("deck", "seating", "trump"):
        assert any(p.startswith(f"{part}:") for p in err.problems)


@pytest.mark.parametrize(
    "build",
    [
        lambda: Deck(jokers=1),
        lambda: Deck(jokers=True),
        lambda: Deck(ranks=[]),
        lambda: Deck(ranks=["Z"]),
        lambda: Cutthroat(1),
        lambda: Cutthroat(9),
        lambda: Cutthroat(True),
        lambda: Schedule(()),
        lambda: Schedule((13, 0)),
        lambda: Schedule((2.5,)),
        lambda: Schedule(5),
        lambda: OnceAroundBidding(min_bid=-1),
        lambda: OnceAroundBidding(board_multipliers=()),
        lambda: OnceAroundBidding(board_multipliers=(1, 0)),
        lambda: Auction(counters=-1),
        lambda: Auction(min_bid=True),
        lambda: ContractScoring(per_bid_trick=5.5),
        lambda: ContractScoring(per_overtrick="1"),
        lambda: AuctionScoring(per_trick=None),
        lambda: Rainbow(hand_size=0),
        lambda: Rainbow(points=1.5),
        lambda: FixedTrump("X"),
        lambda: FixedTrump(3),
    ],
)
def test_bad_part_parameters_are_refused(build: Any) -> None:
    """errors.py RuleSetError: a part with a bad parameter is refused when built."""
    refusal(build)


@pytest.mark.parametrize(
    "build",
    [
        lambda: OnceAroundBidding(hook="yes"),
        lambda: OnceAroundBidding(pass_allowed=None),
        lambda: FollowPolicy(blooper_lead_forcing="no"),
        lambda: OnceAroundBidding(board="no"),
        lambda: DeclarerNamesTrump(allow_no_trump=1),
    ],
)
def test_bool_options_refuse_other_values(build: Any) -> None:
    """errors.py RuleSetError "(or a part with a bad parameter)": an on/off option is a bool."""
    refusal(build)


@pytest.mark.parametrize(("base", "scoring"), [(G, ContractScoring), (V.VIETNAM, AuctionScoring)])
def test_rainbow_must_be_a_rainbow(base: ba.RuleSet, scoring: Any) -> None:
    """errors.py: a bad parameter is a RuleSetError, never an AttributeError from inside."""
    refusal(lambda: base.replace(scoring=scoring(rainbow=5)))


@pytest.mark.parametrize(
    "build",
    [
        lambda: LeadPolicy(trump_lead="sometimes"),
        lambda: DealerRotation(next_dealer="random"),
        lambda: EndPolicy(tie_break="coin"),
        lambda: TurnUpTrump(joker_turn_up=None),
        lambda: OnceAroundBidding(all_pass="shrug"),
    ],
)
def test_unknown_option_values_are_rule_set_errors(build: Any) -> None:
    """errors.py: every refusal is a BackAlleyError; a bad part parameter is a RuleSetError."""
    refusal(build)


def test_known_option_values_are_read_from_text() -> None:
    """Rule option values are read from their stable text."""
    assert LeadPolicy(trump_lead="any-time").trump_lead is TrumpLead.ANY_TIME
    assert FixedTrump("S") == FixedTrump(ba.Suit.SPADES)
    assert Deck(ranks=["T", "J", "Q", "K", "A"]).size == 22


# --------------------------------- rule sets that build but cannot be played


def _progress(rules: ba.RuleSet, seed: int = 0, limit: int = 3000) -> None:
    """Random legal play must reach the end of the game: every seat to act has a
    legal move, and deals are not thrown in forever."""
    rng = random.Random(seed)
    state = ba.new_game(rules, seed=seed, dealer=0)
    for _ in range(limit):
        if state.is_over:
            return
        moves = state.legal_moves()
        assert moves, f"seat {state.to_act} has no legal move: {state!r}"
        state = state.apply(rng.choice(moves))
    pytest.fail(f"no end after {limit} moves (stuck on deal {state.deals_played + 1}): {state!r}")


def refused_or_playable(build: Any) -> None:
    try:
        rules = build()
    except ba.RuleSetError as err:
        names_parts(err, "bidding")
        return
    _progress(rules)


@pytest.mark.parametrize(
    "bidding",
    [
        OnceAroundBidding(board=False),
        OnceAroundBidding(pass_allowed=False, min_bid=0, board=False),
    ],
)
def test_deal_that_is_always_thrown_in(bidding: OnceAroundBidding) -> None:
    """Combinations that cannot make sense are refused when built."""
    refused_or_playable(lambda: G.replace(bidding=bidding, schedule=Schedule((2, 1))))


def test_deal_without_contracts_is_fine_when_played_for_overtricks() -> None:
    """With all_pass = play-for-overtricks the 1-card deal with only pass is played."""
    rules = G.replace(
        bidding=OnceAroundBidding(board=False, all_pass=AllPass.PLAY_FOR_OVERTRICKS),
        schedule=Schedule((2, 1)),
    )
    _progress(rules)


@pytest.mark.parametrize(
    "bidding",
    [
        OnceAroundBidding(pass_allowed=False, board_multipliers=(1,)),
        OnceAroundBidding(pass_allowed=False, board_claims=BoardClaims.OPPONENTS_ONLY),
    ],
)
def test_seat_left_without_a_call(bidding: OnceAroundBidding) -> None:
    """A rule set that builds must never leave the seat to act without a move."""

    def build() -> ba.RuleSet:
        return G.replace(bidding=bidding, schedule=Schedule((1,)))

    try:
        rules = build()
    except ba.RuleSetError as err:
        names_parts(err, "bidding")
        return
    state = ba.new_game(rules, dealer=0, seed=0)
    for _ in range(4):
        assert state.legal_moves(), f"seat {state.to_act} has no legal call after {state.calls}"
        state = state.apply(
            ba.BoardBid() if ba.BoardBid() in state.legal_moves() else state.legal_moves()[0]
        )


def test_a_joker_swap_needs_a_card_to_draw() -> None:
    """Under NO_TRUMP_SWAP_OTHER_JOKER the holder of the other
    joker draws the next stock card, so the deck must hold one more card than
    the deal and the turn-up; the other joker_turn_up options need no more."""
    tight = ba.rules.Schedule((17,))
    ok = ba.variants.GAMERULES.replace(seating=ba.rules.Cutthroat(3), schedule=tight)
    assert ok.players == 3  # 51 dealt + turn-up + draw = 53 <= 54
    with pytest.raises(ba.RuleSetError) as info:
        ba.variants.GAMERULES.replace(
            seating=ba.rules.Cutthroat(3), schedule=ba.rules.Schedule((17, 18))
        )
    assert "draw" in str(info.value) and "deck" in str(info.value)
    stays = ba.rules.TurnUpTrump(joker_turn_up=ba.rules.JokerTurnUp.NO_TRUMP_OTHER_JOKER_STAYS)
    rules = ba.variants.GAMERULES.replace(
        trump=stays, seating=ba.rules.Cutthroat(3), schedule=tight
    )
    assert rules.trump == stays


@pytest.mark.parametrize(
    "build",
    [
        lambda: ba.rules.Cutthroat(players=ba.Rank.FOUR),
        lambda: ba.rules.Schedule((ba.Rank.TWO,)),
        lambda: ba.rules.ContractScoring(per_bid_trick=ba.Rank.FIVE),
        lambda: ba.rules.OnceAroundBidding(min_bid=ba.Rank.TWO),
        lambda: ba.rules.Deck(jokers=ba.Rank.TWO),
    ],
)
def test_counts_are_plain_numbers(build) -> None:
    """A count is a plain whole number: an enum that happens to be an int (a
    Rank) is refused, since it could not be saved and read back as the same value."""
    with pytest.raises(ba.RuleSetError):
        build()
