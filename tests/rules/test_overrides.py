"""A subclass that overrides one decision method of a built-in part is
followed everywhere: legal moves, ``check``, ``apply``, views, the playout,
the solver's legal sets and the bots.  A part whose answers the engine cannot
use is refused with a :class:`~backalley.RuleSetError` naming the part.

Every registered built-in class of a part is subclassed, one decision method
at a time, with a rule that changes the outcome; the test then plays games
and checks that every consumer sees the changed rule.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

import backalley as ba
from backalley import lowlevel
from backalley.bots import make_bot
from backalley.errors import Reason
from backalley.rules import register
from backalley.rules.registry import _REGISTRY, part_classes

BUILT_IN = {name: ba.variants.get(name) for name in ba.variants.names()}


def _variant_for(part: str, cls: type) -> ba.RuleSet:
    """A built-in variant that uses ``cls`` for ``part`` (or gamerules)."""
    for rules in BUILT_IN.values():
        if type(getattr(rules, part)) is cls:
            return rules
    return ba.variants.GAMERULES


_MADE: list[type] = []


@pytest.fixture(autouse=True)
def _unregister_test_parts() -> Iterator[None]:
    """The subclasses a test registers are registered while it runs only."""
    yield
    while _MADE:
        cls = _MADE.pop()
        del _REGISTRY[cls.part][cls.tag]  # type: ignore[attr-defined]


def _subclass(cls: type, name: str, method: str, body: Callable[..., Any]) -> Any:
    """A registered attrs subclass of ``cls`` overriding ``method`` with ``body``."""
    namespace = {method: body, "tag": f"test/{cls.__name__.lower()}-{name.lower()}"}
    sub = register(attrs.frozen(slots=True)(type(f"{cls.__name__}{name}", (cls,), namespace)))
    _MADE.append(sub)
    return sub


def _lowest_only_lead(self: Any, ctx: Any, seat: int, hand: int, broken: bool) -> Any:
    low = hand & -hand
    return ((low, Reason.HOUSE_RULE),)


def _lowest_only_follow(self: Any, ctx: Any, seat: int, hand: int, trick: Any, leader: int) -> Any:
    low = hand & -hand
    return ((low, Reason.HOUSE_RULE),)


def _no_bid_two(self: Any, ctx: Any, move: Any) -> Any:
    if isinstance(move, ba.Bid) and move.tricks == 2:
        return (Reason.HOUSE_RULE, "at this table nobody bids 2")
    return type(self).__mro__[1].refusal(self, ctx, move)  # type: ignore[attr-defined]


def _play_randomly(rules: ba.RuleSet, seed: int, moves: int) -> list[ba.GameState]:
    rng = random.Random(seed)
    state = ba.new_game(rules, seed=seed)
    seen = [state]
    for _ in range(moves):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))
        seen.append(state)
    return seen


def _every_consumer_agrees(state: ba.GameState) -> None:
    """Legal moves, check, apply, the seat's view, the solver's legal set and
    a bot's choice all answer alike at ``state``."""
    if state.is_over:
        return
    legal = state.legal_moves()
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert view.legal_moves() == legal
    assert make_bot("heuristic", 1).choose(view) in legal
    if state.phase is ba.Phase.PLAYING:
        core = lowlevel.core(state)
        core.hand_bits[seat]
        for card in state.hands[seat]:
            move = ba.Play(card)
            assert state.is_legal(move) == (move in legal)
            if move not in legal:
                with pytest.raises(ba.IllegalMoveError):
                    state.check(move)
                with pytest.raises(ba.IllegalMoveError):
                    state.apply(move)
                with pytest.raises(ba.IllegalMoveError):
                    view.check(move)
        position = lowlevel.raw_position(state)
        if position is not None:
            mask = lowlevel.legal_play_mask(state)
            assert {m.card.index for m in legal} == {i for i in range(54) if mask >> i & 1}


def _built_in(part: str) -> list[type]:
    """The library's own registered classes of ``part``."""
    found = (c for c in part_classes(part).values() if c.__module__.startswith("backalley."))
    return sorted(found, key=lambda c: c.__name__)


LEAD_CLASSES = _built_in("lead")
FOLLOW_CLASSES = _built_in("follow")
BIDDING_CLASSES = _built_in("bidding")
RANKING_CLASSES = _built_in("ranking")
SCORING_CLASSES = _built_in("scoring")
DEALER_CLASSES = _built_in("dealer")


@pytest.mark.parametrize("cls", LEAD_CLASSES, ids=lambda c: c.__name__)
def test_an_overridden_lead_restriction_is_followed_everywhere(cls: type) -> None:
    """Leading: only the lowest card of the hand may be led."""
    base = _variant_for("lead", cls)
    sub = _subclass(cls, "LowestLead", "restrictions", _lowest_only_lead)
    rules = base.replace(lead=sub(**base.lead.options()) if type(base.lead) is cls else sub())
    leads = 0
    for state in _play_randomly(rules, 3, 120):
        if state.phase is ba.Phase.PLAYING and not state.trick:
            leads += 1
            hand = lowlevel.core(state).hand_bits[state.to_act]  # type: ignore[index]
            assert [m.card.index for m in state.legal_moves()] == [(hand & -hand).bit_length() - 1]  # type: ignore[union-attr]
        _every_consumer_agrees(state)
    assert leads >= 5
    end = lowlevel.playout(_play_randomly(rules, 4, 0)[0], random.Random(4).choice, until="deal")
    assert end.deal_results


@pytest.mark.parametrize("cls", FOLLOW_CLASSES, ids=lambda c: c.__name__)
def test_an_overridden_follow_restriction_is_followed_everywhere(cls: type) -> None:
    """Following: only the lowest card of the hand may be played."""
    base = _variant_for("follow", cls)
    sub = _subclass(cls, "LowestFollow", "restrictions", _lowest_only_follow)
    rules = base.replace(follow=sub(**base.follow.options()) if type(base.follow) is cls else sub())
    follows = 0
    for state in _play_randomly(rules, 5, 120):
        if state.phase is ba.Phase.PLAYING and state.trick:
            follows += 1
            hand = lowlevel.core(state).hand_bits[state.to_act]  # type: ignore[index]
            assert [m.card.index for m in state.legal_moves()] == [(hand & -hand).bit_length() - 1]  # type: ignore[union-attr]
        _every_consumer_agrees(state)
    assert follows >= 10


@pytest.mark.parametrize("cls", BIDDING_CLASSES, ids=lambda c: c.__name__)
def test_an_overridden_refusal_is_followed_everywhere(cls: type) -> None:
    """A bidding whose ``refusal`` alone forbids ``bid 2``: the call is not
    legal, ``check`` and ``apply`` refuse it with the house rule's reason."""
    base = _variant_for("bidding", cls)
    sub = _subclass(cls, "NoTwo", "refusal", _no_bid_two)
    rules = base.replace(
        bidding=sub(**base.bidding.options()) if type(base.bidding) is cls else sub()
    )
    states = _play_randomly(rules, 7, 200)
    biddings = 0
    for state in states:
        if state.phase is ba.Phase.BIDDING:
            biddings += 1
            assert ba.Bid(2) not in state.legal_moves()
            assert not state.is_legal(ba.Bid(2))
            with pytest.raises(ba.IllegalMoveError) as info:
                state.check(ba.Bid(2))
            assert info.value.reason in (
                Reason.HOUSE_RULE,
                Reason.BID_NOT_HIGHER,
                Reason.BID_TOO_HIGH,
            )
            view = state.view(state.to_act)  # type: ignore[arg-type]
            assert ba.Bid(2) not in view.legal_moves()
        _every_consumer_agrees(state)
    assert biddings >= 8
    assert all(
        r.bids.count(ba.Bid(2)) == 0
        for r in lowlevel.playout(states[0], random.Random(1).choice).deal_results
    )


@pytest.mark.parametrize("cls", RANKING_CLASSES, ids=lambda c: c.__name__)
def test_an_overridden_trick_winner_is_followed(cls: type) -> None:
    """A ranking where the last card played always wins the trick."""
    base = _variant_for("ranking", cls)

    def last_wins(self: Any, trick: tuple[int, ...], trump: int) -> int:
        return len(trick) - 1

    sub = _subclass(cls, "LastWins", "trick_winner", last_wins)
    rules = base.replace(
        ranking=sub(**base.ranking.options()) if type(base.ranking) is cls else sub()
    )
    tricks = 0
    for state in _play_randomly(rules, 9, 150):
        for trick in state.tricks:
            tricks += 1
            assert trick.winner == trick.plays[-1][0]
    assert tricks >= 10


@pytest.mark.parametrize("cls", SCORING_CLASSES, ids=lambda c: c.__name__)
def test_an_overridden_score_is_followed(cls: type) -> None:
    """A scoring where every side scores its tricks."""
    base = _variant_for("scoring", cls)

    def tricks_only(self: Any, ctx: Any, tricks: Any, dealt: Any) -> tuple[int, ...]:
        return tuple(tricks)

    sub = _subclass(cls, "TricksOnly", "score", tricks_only)
    rules = base.replace(
        scoring=sub(**base.scoring.options()) if type(base.scoring) is cls else sub()
    )
    end = lowlevel.playout(ba.new_game(rules, seed=2), random.Random(2).choice, until="deal")
    for result in end.deal_results:
        assert result.points == result.tricks


@pytest.mark.parametrize("cls", DEALER_CLASSES, ids=lambda c: c.__name__)
def test_an_overridden_dealer_is_followed(cls: type) -> None:
    """A dealer rule where seat 0 deals every deal after the first."""
    base = _variant_for("dealer", cls)

    def always_north(self: Any, ctx: Any, points: Any) -> int:
        return 0

    sub = _subclass(cls, "NorthDeals", "dealer_after", always_north)
    rules = base.replace(dealer=sub(**base.dealer.options()) if type(base.dealer) is cls else sub())
    end = lowlevel.playout(
        ba.new_game(rules, seed=2, dealer=1), random.Random(2).choice, decisions=400
    )
    assert all(r.dealer == 0 for r in end.deal_results[1:])


# ----------------------------------------------------- answers the engine refuses


def test_a_lead_rule_that_allows_nothing_is_refused_naming_the_part() -> None:
    def nothing(self: Any, ctx: Any, seat: int, hand: int, broken: bool) -> Any:
        return ((0, Reason.HOUSE_RULE),)

    sub = _subclass(ba.rules.LeadPolicy, "Nothing", "restrictions", nothing)
    rules = ba.variants.GAMERULES.replace(lead=sub())
    state = ba.new_game(rules, seed=1)
    while state.phase is ba.Phase.BIDDING:
        state = state.apply(state.legal_moves()[-1])
    # the legal moves are worked out when asked: the first asking names the part
    with pytest.raises(ba.RuleSetError, match=r"lead: LeadPolicyNothing\.restrictions leave seat"):
        state.legal_moves()


def test_a_bidding_that_refuses_every_call_is_refused_naming_the_part() -> None:
    def never(self: Any, ctx: Any, move: Any) -> Any:
        return (Reason.HOUSE_RULE, "no")

    sub = _subclass(ba.rules.OnceAroundBidding, "Never", "refusal", never)
    rules = ba.variants.GAMERULES.replace(bidding=sub())
    with pytest.raises(ba.RuleSetError, match=r"bidding: OnceAroundBiddingNever leaves seat"):
        ba.new_game(rules, seed=1)


@pytest.mark.parametrize(
    ("part", "cls", "method", "answer", "message"),
    [
        (
            "ranking",
            ba.rules.JokersHigh,
            "trick_winner",
            lambda self, trick, trump: 5,
            "trick_winner answered 5",
        ),
        (
            "scoring",
            None,
            "score",
            lambda self, ctx, tricks, dealt: (1,),
            "one whole number per side",
        ),
        (
            "scoring",
            None,
            "score",
            lambda self, ctx, tricks, dealt: [1.5, 2],
            "one whole number per side",
        ),
        ("dealer", None, "dealer_after", lambda self, ctx, points: 9, "dealer_after answered 9"),
        (
            "lead",
            ba.rules.LeadPolicy,
            "first_leader",
            lambda self, ctx: 7,
            "first_leader answered 7",
        ),
    ],
)
def test_answers_the_engine_cannot_use_are_refused_naming_the_method(
    part: str, cls: Any, method: str, answer: Any, message: str
) -> None:
    base = ba.variants.GAMERULES
    cls = cls or type(getattr(base, part))
    sub = _subclass(cls, "Bad", method, answer)
    rules = base.replace(**{part: sub(**getattr(base, part).options())})
    with pytest.raises(ba.RuleSetError, match=message):
        lowlevel.playout(ba.new_game(rules, seed=3), random.Random(3).choice, until="deal")


def test_a_scoring_answer_in_a_list_is_stored_as_a_tuple() -> None:
    sub = _subclass(
        type(ba.variants.GAMERULES.scoring),
        "Listed",
        "score",
        lambda self, ctx, tricks, dealt: [1, 2],
    )
    rules = ba.variants.GAMERULES.replace(scoring=sub())
    end = lowlevel.playout(ba.new_game(rules, seed=3), random.Random(3).choice, until="deal")
    assert end.deal_results[0].points == (1, 2) and type(end.deal_results[0].points) is tuple


# ------------------------------------------------ the other decision methods


def test_an_overridden_trumps_is_followed_by_following_and_the_trick_winner() -> None:
    """A ranking where every card is a trump: any card follows a plain lead,
    and the highest card of the trick (by the ranking's key) wins it."""

    def everything(self: Any, trump: Any) -> ba.CardSet:
        return ~ba.CardSet()

    sub = _subclass(ba.rules.JokersHigh, "AllTrumps", "trumps", everything)
    rules = ba.variants.GAMERULES.replace(ranking=sub())
    tricks = 0
    for state in _play_randomly(rules, 4, 200):
        if state.phase is ba.Phase.PLAYING and state.trick and not state.trick[0][1].is_joker:
            # (a led blooper still forces the highest or lowest trump: every card is one)
            assert {m.card for m in state.legal_moves()} == set(state.hands[state.to_act])  # type: ignore[index, union-attr]
        for trick in state.tricks:
            tricks += 1
            best = max(trick.cards, key=lambda c: c.index)
            assert trick.winner == next(s for s, c in trick.plays if c == best)
    assert tricks >= 10


def test_an_overridden_trump_for_is_followed_by_the_turn_up() -> None:
    """A turn-up that never makes a trump suit: every deal is played without one."""
    sub = _subclass(
        ba.rules.TurnUpTrump, "NeverTrump", "trump_for", lambda self, ctx, turn_up: None
    )
    rules = ba.variants.GAMERULES.replace(trump=sub())
    for state in _play_randomly(rules, 6, 150):
        if not state.is_over:
            assert state.trump is None
    view = _play_randomly(rules, 6, 30)[-1].view(0)
    assert ba.from_json(ba.to_json(view), ba.PlayerView) == view


def test_an_overridden_first_leader_and_breaks_trump_are_followed() -> None:
    """North leads every deal's first trick, and nothing ever breaks trump."""
    leads = _subclass(ba.rules.LeadPolicy, "NorthLeads", "first_leader", lambda self, ctx: 0)
    rules = ba.variants.GAMERULES.replace(lead=leads())
    for state in _play_randomly(rules, 8, 200):
        if state.tricks:
            assert state.tricks[0].leader == 0
    never = _subclass(
        ba.rules.LeadPolicy, "NeverBroken", "breaks_trump", lambda self, ctx, trick: False
    )
    rules = ba.variants.GAMERULES.replace(lead=never())
    for state in _play_randomly(rules, 8, 200):
        assert not lowlevel.broken(state)


def test_an_overridden_speaker_and_calls_are_followed() -> None:
    """A bidding where only the first two seats speak, and only pass, bid 1
    and bid 2 are known calls."""

    def two_speak(self: Any, ctx: Any) -> int | None:
        return ctx.seat if len(ctx.calls) < 2 else None

    short = _subclass(ba.rules.OnceAroundBidding, "TwoSpeak", "speaker", two_speak)
    rules = ba.variants.GAMERULES.replace(bidding=short())
    end = lowlevel.playout(ba.new_game(rules, seed=4), random.Random(4).choice, until="deal")
    assert all(sum(b is not None for b in r.bids) <= 2 for r in end.deal_results)

    def few(self: Any, ctx: Any) -> tuple[ba.Move, ...]:
        return (ba.Pass(), ba.Bid(1), ba.Bid(2))

    known = _subclass(ba.rules.OnceAroundBidding, "FewCalls", "calls", few)
    rules = ba.variants.GAMERULES.replace(bidding=known())
    for state in _play_randomly(rules, 5, 60):
        if state.phase is ba.Phase.BIDDING:
            assert set(state.legal_moves()) <= {ba.Pass(), ba.Bid(1), ba.Bid(2)}
            with pytest.raises(ba.IllegalMoveError):
                state.check(ba.BoardBid())


@pytest.mark.parametrize(
    ("part", "cls", "method", "answer", "message"),
    [
        ("follow", ba.rules.FollowPolicy, "restrictions",
         lambda self, ctx, seat, hand, trick, leader: ((frozenset(), Reason.HOUSE_RULE),),
         "restrictions must answer"),
        ("bidding", ba.rules.OnceAroundBidding, "refusal",
         lambda self, ctx, move: Reason.HOUSE_RULE if isinstance(move, ba.Bid) and move.tricks == 2 else None,
         "refusal must answer a"),
    ],
)  # fmt: skip
def test_answers_of_the_wrong_shape_are_refused_naming_the_method(
    part: str, cls: Any, method: str, answer: Any, message: str
) -> None:
    sub = _subclass(cls, "Shape", method, answer)
    rules = ba.variants.GAMERULES.replace(**{part: sub()})
    with pytest.raises(ba.RuleSetError, match=message):
        state = ba.new_game(rules, seed=3)
        state.check(ba.Bid(2))
        lowlevel.playout(state, random.Random(3).choice, until="deal")


def test_a_trump_to_name_without_a_declarer_is_refused_naming_both_parts() -> None:
    rules = ba.variants.GAMERULES
    names = _subclass(
        ba.rules.TurnUpTrump, "Names", "choices", lambda self, ctx: (ba.Suit.HEARTS, ba.Suit.SPADES)
    )
    with pytest.raises(ba.RuleSetError, match="named no declarer"):
        lowlevel.playout(
            ba.new_game(rules.replace(trump=names()), seed=2), random.Random(2).choice, until="deal"
        )


def test_naming_a_trump_the_rules_do_not_offer_says_which_may_be_named() -> None:
    rules = ba.variants.VIETNAM
    state = ba.new_game(rules, seed=1)
    while state.phase is not ba.Phase.NAMING_TRUMP:
        state = state.apply(
            state.legal_moves()[-1] if state.phase is ba.Phase.BIDDING else state.legal_moves()[0]
        )
        if state.is_over:
            pytest.skip("no auction reached a declarer")
    narrow = rules.replace(trump=_subclass(ba.rules.DeclarerNamesTrump, "TwoSuits", "choices",
                                           lambda self, ctx: (ba.Suit.HEARTS, ba.Suit.SPADES))())  # fmt: skip
    state = ba.new_game(narrow, seed=1)
    while state.phase is ba.Phase.BIDDING:
        state = state.apply(state.legal_moves()[-1])
    if state.phase is not ba.Phase.NAMING_TRUMP:
        pytest.skip("the bidding made no declarer")
    with pytest.raises(ba.IllegalMoveError, match="may name only H, S") as info:
        state.check(ba.NameTrump(ba.Suit.CLUBS))
    assert info.value.reason is Reason.HOUSE_RULE


def test_an_overridden_first_bidder_and_redealer_are_followed() -> None:
    """The dealer speaks first, and a thrown-in deal is dealt again by the
    same dealer."""
    first = _subclass(
        ba.rules.OnceAroundBidding, "DealerFirst", "first", lambda self, dealer, n: dealer
    )
    state = ba.new_game(ba.variants.GAMERULES.replace(bidding=first()), seed=2)
    assert state.to_act == state.dealer
    again = _subclass(
        ba.rules.OnceAroundBidding, "SameDealer", "redealer", lambda self, dealer, n: dealer
    )
    state = ba.new_game(ba.variants.GAMERULES.replace(bidding=again()), seed=2)
    dealer = state.dealer
    while state.phase is ba.Phase.BIDDING and not state.deal_results:
        before = lowlevel.thrown_in(state)
        state = state.apply(ba.Pass())
        if lowlevel.thrown_in(state) > before:
            assert state.dealer == dealer
            break
    else:
        pytest.fail("four passes did not throw the deal in")


def test_an_overridden_key_decides_the_trick() -> None:
    """A ranking whose key reverses the order within a suit: the lowest card
    of the suit led wins a trick without trumps."""
    low = _subclass(ba.rules.JokersHigh, "LowWins", "key", lambda self, card, trump: -card.index)
    rules = ba.variants.GAMERULES.replace(ranking=low())
    checked = 0
    for state in _play_randomly(rules, 11, 200):
        for trick in state.tricks:
            trumps = rules.ranking.trumps(state.trump)
            if any(c in trumps for c in trick.cards):
                continue
            led = trick.cards[0].suit
            lowest = min((c for c in trick.cards if c.suit is led), key=lambda c: c.index)
            assert trick.winner == next(s for s, c in trick.plays if c == lowest)
            checked += 1
    assert checked >= 5


def test_an_overridden_opening_and_winner_are_followed() -> None:
    """A trump part that turns nothing up and makes spades trump, and an end
    rule under which the side with the fewest points wins."""

    def spades(self: Any, ctx: Any, hands: Any, stock: Any) -> Any:
        return ba.rules.TrumpSetup(hands, stock, None, ba.Suit.SPADES)

    opening = _subclass(ba.rules.TurnUpTrump, "Spades", "opening", spades)
    rules = ba.variants.GAMERULES.replace(trump=opening())
    for state in _play_randomly(rules, 3, 80):
        if not state.is_over:
            assert state.trump is ba.Suit.SPADES and state.turn_up is None
    fewest = _subclass(
        ba.rules.EndPolicy, "Fewest", "winner", lambda self, scores: scores.index(min(scores))
    )
    short = ba.variants.GAMERULES.replace(schedule=ba.rules.Schedule((2, 1)), end=fewest())
    over = lowlevel.playout(ba.new_game(short, seed=5), random.Random(5).choice)
    assert over.is_over and over.winner == over.scores.index(min(over.scores))


def test_an_overridden_highest_decides_what_a_led_big_blooper_forces() -> None:
    """A ranking whose ``highest`` answers the lowest card: when the Big
    Blooper is led, a player holding trumps must play their lowest trump."""

    def lowest(self: Any, cards: ba.CardSet, trump: Any) -> ba.Card:
        return min(cards, key=lambda card: self.key(card, trump))

    flipped = _subclass(ba.rules.JokersHigh, "HighIsLow", "highest", lowest)
    rules = ba.variants.GAMERULES.replace(
        ranking=flipped(),
        lead=ba.rules.LeadPolicy(
            first_lead=ba.rules.FirstLead.LEFT_OF_DEALER, trump_lead=ba.rules.TrumpLead.ANY_TIME
        ),
    )
    deck = [c for c in ba.CARDS if c not in (ba.parse_card("BJ"), ba.parse_card("2S"))]
    order = [ba.parse_card("BJ"), *deck[:51], ba.parse_card("2S"), deck[51]]
    state = ba.new_game(rules, seed=1, dealer=3, decks=[order])
    while state.phase is ba.Phase.BIDDING:
        state = state.apply(ba.Bid(1))
    assert state.trump is ba.Suit.SPADES and state.to_act == 0
    state = state.apply(ba.parse_move("play BJ"))
    spades = sorted(
        (c for c in state.hands[1] if c.suit is ba.Suit.SPADES or c.is_joker), key=lambda c: c.index
    )
    assert len(spades) >= 2
    assert state.legal_moves() == (ba.Play(spades[0]),)
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(ba.Play(spades[-1]))
    assert info.value.reason is Reason.MUST_PLAY_HIGHEST_TRUMP
    assert state.view(1).legal_moves() == (ba.Play(spades[0]),)


def test_an_end_rule_naming_no_side_is_refused_naming_the_method() -> None:
    bad = _subclass(ba.rules.EndPolicy, "NoSide", "winner", lambda self, scores: 7)
    short = ba.variants.GAMERULES.replace(schedule=ba.rules.Schedule((2, 1)), end=bad())
    over = lowlevel.playout(ba.new_game(short, seed=5), random.Random(5).choice)
    with pytest.raises(ba.RuleSetError, match=r"end: EndPolicyNoSide\.winner answered 7"):
        _ = over.winner


# ------------------------------------------- the solver follows every override


def _side_tricks(state: ba.GameState, seat: int, deals: int) -> int:
    """The tricks the side of ``seat`` has taken in deal number ``deals`` so far."""
    teams = state.rules.teams
    side = next(team for team in teams if seat in team)
    if len(state.deal_results) > deals:
        return state.deal_results[deals].tricks[teams.index(side)]
    return sum(state.tricks_won[s] for s in side)


def _minimax(state: ba.GameState, seat: int) -> int:
    """The remaining tricks of ``seat``'s side, every seat playing its best
    (that side maximises, every other seat minimises): a plain exhaustive
    search through the public engine alone (``legal_moves`` and ``apply``)."""
    deals = len(state.deal_results)
    side = next(team for team in state.rules.teams if seat in team)
    base = _side_tricks(state, seat, deals)

    def value(s: ba.GameState) -> int:
        if len(s.deal_results) > deals:
            return _side_tricks(s, seat, deals) - base
        results = [value(s.apply(m)) for m in s.legal_moves()]
        return max(results) if s.to_act in side else min(results)

    return value(state)


def _small_positions(rules: ba.RuleSet, count: int, size: int = 4) -> list[ba.GameState]:
    """``count`` positions of ``size``-card deals of ``rules`` with at most
    three tricks left (at a lead or inside a trick), after random calls and
    plays of seeds 0, 1, 2, ..."""
    rules = rules.replace(schedule=ba.rules.Schedule(hand_sizes=(size,)))
    out: list[ba.GameState] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        state = ba.new_game(rules, seed=seed)
        while state.phase is not ba.Phase.PLAYING and not state.is_over:
            state = state.apply(rng.choice(state.legal_moves()))
        plays = rules.players * max(0, size - 3) + seed % (rules.players + 1)
        for _ in range(plays):
            state = state.apply(rng.choice(state.legal_moves()))
        if state.phase is ba.Phase.PLAYING:
            out.append(state)
        seed += 1
    return out


def _solver_disagreements(positions: list[ba.GameState], solver: Any = None) -> list[str]:
    """The positions (and moves) where ``solve`` or ``analyse`` (or those of
    ``solver``, a :class:`~backalley.solver.Solver` kept across the
    positions) differ from the minimax of the public engine; empty when the
    solver agrees."""
    from backalley.solver import analyse, solve

    if solver is not None:
        solve, analyse = solver.solve, solver.analyse
    wrong: list[str] = []
    for i, state in enumerate(positions):
        seat = state.to_act
        assert seat is not None
        deals = len(state.deal_results)
        expected = _minimax(state, seat)
        if solve(state) != expected:
            wrong.append(f"position {i}: solve {solve(state)}, minimax {expected}")
        values = analyse(state)
        assert list(values) == list(state.legal_moves())
        for move, tricks in values.items():
            child = state.apply(move)
            gained = _side_tricks(child, seat, deals) - _side_tricks(state, seat, deals)
            rest = _minimax(child, seat) if len(child.deal_results) == deals else 0
            if tricks != gained + rest:
                wrong.append(f"position {i}, {move}: analyse {tricks}, minimax {gained + rest}")
    return wrong


def _lowest_of_led_in_full_tricks(self: Any, trick: tuple[ba.Card, ...], trump: Any) -> int:
    """A full trick (four cards) without a trump is won by the lowest card
    of the suit led; any shorter trick as the parent ranks it."""
    parent = ba.rules.JokersHigh.trick_winner(self, trick, trump)
    if len(trick) < 4 or trick[parent] in self.trumps(trump):
        return parent
    led = self.suit_cards(trick[0], trump)
    return min((i for i, c in enumerate(trick) if c in led), key=lambda i: trick[i].index)


def _second_best_from_three_cards(self: Any, trick: tuple[ba.Card, ...], trump: Any) -> int:
    """A trick of three cards or more is won by its second-best card (by the
    parent's own ranking: the better of the others when the best is taken
    away); two-card tricks as the parent ranks them."""
    parent = ba.rules.JokersHigh.trick_winner(self, trick, trump)
    if len(trick) < 3:
        return parent
    rest = trick[:parent] + trick[parent + 1 :]
    second = ba.rules.JokersHigh.trick_winner(self, rest, trump)
    return second if second < parent else second + 1


@pytest.mark.parametrize(
    ("name", "winner"),
    [
        ("FullTrickLow", _lowest_of_led_in_full_tricks),
        ("SecondBest", _second_best_from_three_cards),
    ],
)
def test_the_solver_follows_a_ranking_that_differs_only_in_longer_tricks(
    name: str, winner: Callable[..., int]
) -> None:
    """A registered ``JokersHigh`` subclass whose trick winner agrees with
    the parent's on every two-card trick (all the solver's pair probes see)
    and differs in tricks of four cards, or of three cards or more: ``solve``
    and ``analyse`` equal the public engine's minimax in a dozen positions."""
    sub = _subclass(ba.rules.JokersHigh, name, "trick_winner", winner)
    rules = ba.variants.GAMERULES.replace(ranking=sub())
    assert _solver_disagreements(_small_positions(rules, 12)) == []


def _free_late(self: Any, ctx: Any, seat: int, hand: Any, trick: Any, leader: int) -> Any:
    """In the deal's last two tricks any card may be played; before them,
    the parent's rule."""
    if len(ctx.played) >= ctx.players * (ctx.hand_size - 2):
        return ()
    return ba.rules.FollowPolicy.restrictions(self, ctx, seat, hand, trick, leader)


def test_the_solver_follows_a_follow_rule_that_differs_only_late_in_the_deal() -> None:
    """A registered ``FollowPolicy`` subclass under which following is free
    in the last two tricks of a deal (and the parent's rule before): the
    solver agrees with the public engine's minimax in a dozen positions."""
    sub = _subclass(ba.rules.FollowPolicy, "FreeLate", "restrictions", _free_late)
    rules = ba.variants.GAMERULES.replace(follow=sub())
    assert _solver_disagreements(_small_positions(rules, 12)) == []


@pytest.mark.parametrize(
    ("part", "cls", "name", "method", "body"),
    [
        ("ranking", ba.rules.JokersHigh, "FullTrickLowLive", "trick_winner",
         _lowest_of_led_in_full_tricks),
        ("ranking", ba.rules.JokersHigh, "SecondBestLive", "trick_winner",
         _second_best_from_three_cards),
        ("follow", ba.rules.FollowPolicy, "FreeLateLive", "restrictions", _free_late),
    ],
)  # fmt: skip
def test_the_search_refutes_what_its_plan_derived_and_starts_again(
    part: str, cls: type, name: str, method: str, body: Callable[..., Any]
) -> None:
    """With the plans' own checks left out (the card order checked on no
    trick longer than two cards, no probe late in the deal), the plan keeps its card order and compulsory
    following; the search then meets a trick winner, or a legal set, that
    contradicts them, makes the plan plain and starts again: the answers
    still equal the minimax, also from one Solver kept across positions."""
    from backalley.solver import Solver, _plan

    if not str(_plan.__file__).endswith(".py"):
        pytest.skip("the compiled build: the checks are patched in the pure-Python solver")
    from backalley.rules import order as card_order
    from backalley.solver import _search

    sub = _subclass(cls, name, method, body)
    rules = ba.variants.GAMERULES.replace(**{part: sub()})
    refuted: list[bool] = []
    original = _search.refute

    def spy(plan: Any, order: bool) -> None:
        refuted.append(order)
        original(plan, order)

    with pytest.MonkeyPatch.context() as patch:
        # the rule set plan's card order checks no trick longer than two cards
        patch.setattr(card_order, "_longer_tricks_agree", lambda *args: True)
        patch.setattr(_plan, "_before", lambda rules, cards, used, k: -1)
        patch.setattr(_search, "refute", spy)
        positions = _small_positions(rules, 12)
        assert _solver_disagreements(positions, Solver()) == []
        assert _solver_disagreements(positions) == []
    assert refuted, "no search met the override"
    assert all(refuted) == (part == "ranking")  # the card order, or the deal's following


# ------------------------- the bots, the samplers and the adapters follow every override


def _lowest_led_wins_full_tricks(self: Any, trick: tuple[ba.Card, ...], trump: Any) -> int:
    """A full trick (four cards) without a trump is won by the lowest card of
    the suit led; any shorter trick, or one with a trump, as the parent ranks it."""
    parent = ba.rules.JokersHigh.trick_winner(self, trick, trump)
    if len(trick) < 4 or trick[parent] in self.trumps(trump):
        return parent
    led = self.suit_cards(trick[0], trump)
    return min((i for i, c in enumerate(trick) if c in led), key=lambda i: trick[i].index)


def _low_full_tricks(rules: ba.RuleSet = ba.variants.GAMERULES) -> ba.RuleSet:
    """``rules`` with a ranking that differs from its own only in full tricks."""
    sub = _subclass(ba.rules.JokersHigh, "LowFull", "trick_winner", _lowest_led_wins_full_tricks)
    return rules.replace(ranking=sub())


def _taker(state: ba.GameState | ba.PlayerView, card: ba.Card, rules: ba.RuleSet) -> int:
    """The seat that takes the current trick when the seat to act plays
    ``card`` to it last, as ``rules``' ranking part says."""
    cards = (*(c.index for _seat, c in state.trick), card.index)
    ctx = lowlevel.deal_context(state)
    return (state.leader + rules.plan.trick_position(ctx, cards)) % rules.players


def _heuristic_positions(rules: ba.RuleSet, seeds: range) -> Iterator[ba.GameState]:
    """Every position of games of ``rules`` played by the heuristic bot."""
    bot = make_bot("heuristic", 0)
    for seed in seeds:
        state = ba.new_game(rules, seed=seed)
        while not state.is_over:
            yield state
            state = state.apply(bot.choose(state.view(state.to_act)))  # type: ignore[arg-type]


def test_the_card_order_falls_back_to_a_ranking_that_differs_only_in_full_tricks() -> None:
    """The plan's card order is checked on full tricks: a ranking whose full
    tricks are won otherwise than its two-card tricks say is no standard
    order, and the cards that would win a trick are the ranking part's
    answers, card by card (the parent's order would answer otherwise)."""

    rules = _low_full_tricks()
    base = lowlevel.card_order(ba.variants.GAMERULES, ba.Suit.SPADES)
    order = lowlevel.card_order(rules, ba.Suit.SPADES)
    assert base.standard and not order.standard
    plan = rules.plan
    ctx = plan.deal_context(0, 0, 13, trump=ba.Suit.SPADES)
    rng = random.Random(32)
    differ = 0
    for _ in range(150):
        cards = rng.sample(plan.deck_cards, 4)
        trick, last = tuple(cards[:3]), cards[3]
        wins = plan.trick_position(ctx, (*trick, last)) == 3
        assert bool(order.beaters(trick) >> last & 1) == wins
        differ += bool(base.beaters(trick) >> last & 1) != wins
    assert differ >= 5


def test_the_heuristic_takes_the_last_card_s_trick_as_the_ranking_part_says() -> None:
    """Under a ranking that differs only in full tricks, the heuristic bot
    playing a trick's last card, and wanting the trick, plays a card with
    which its side takes it whenever it holds one; wanting none, a card with
    which it does not take it itself.  In some of these positions the
    ranking's parent would have given the trick to another card."""
    rules = _low_full_tricks()
    bot = make_bot("heuristic", 0)
    checked = differ = 0
    for state in _heuristic_positions(rules, range(3)):
        if state.phase is not ba.Phase.PLAYING or len(state.trick) != rules.players - 1:
            continue
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        legal = [m.card for m in state.legal_moves()]  # type: ignore[union-attr]
        if len(legal) < 2:
            continue
        side = rules.seat_teams[seat]
        ours = {c for c in legal if rules.seat_teams[_taker(state, c, rules)] == side}
        mine = {c for c in legal if _taker(state, c, rules) == seat}
        parent = {c for c in legal if _taker(state, c, ba.variants.GAMERULES) == seat}
        card = bot.choose(view).card  # type: ignore[attr-defined]
        if bot.trick_value(view) > 0:  # type: ignore[attr-defined]
            assert card in ours or not ours, (state, card)
        else:
            assert card not in mine or mine == set(legal), (state, card)
        checked += 1
        differ += mine != parent
    assert checked >= 20 and differ >= 3


def test_montecarlo_follows_a_ranking_that_differs_only_in_full_tricks() -> None:
    """The montecarlo bot joins no touching cards under a ranking whose
    answers fit no card order (its order would wrongly join them), and
    playing a trick's last card with an evaluator that counts its side's
    tricks, it takes the trick - as the ranking part says - whenever it can."""
    from backalley.bots import MonteCarloBot

    rules = _low_full_tricks()

    def side_tricks(state: ba.GameState, seat: int) -> float:
        return float(state.side_tricks[rules.seat_teams[seat]])

    bot = MonteCarloBot(seed=3, samples=2, budget=None, evaluator=side_tricks)
    checked = joined = 0
    for state in _heuristic_positions(rules, range(2)):
        if state.phase is not ba.Phase.PLAYING or state.hand_size - len(state.tricks) < 2:
            continue
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        moves = view.legal_moves()
        if len(moves) < 2:
            continue
        assert bot.candidates(view, moves) == list(moves)
        joined += len(MonteCarloBot(evaluator=side_tricks).candidates(view, moves)) < len(moves)
        if len(state.trick) == rules.players - 1:
            side = rules.seat_teams[seat]
            ours = [m for m in moves if rules.seat_teams[_taker(state, m.card, rules)] == side]  # type: ignore[attr-defined]
            if ours and len(ours) < len(moves):
                assert bot.choose(view) in ours
                checked += 1
    assert checked >= 5
    assert joined == 0
    # the same positions under the parent ranking: its order joins touching cards
    base_joined = sum(
        len(MonteCarloBot().candidates(s.view(s.to_act), s.legal_moves())) < len(s.legal_moves())  # type: ignore[arg-type]
        for s in _heuristic_positions(ba.variants.GAMERULES, range(1))
        if s.phase is ba.Phase.PLAYING
    )
    assert base_joined > 0


def _view_in_play(rules: ba.RuleSet, seed: int, deal: int, plays: int) -> ba.PlayerView | None:
    """The view of the seat to act after ``plays`` random plays of deal
    number ``deal`` (from 0) of a random game of ``rules``, if it gets there."""
    rng = random.Random(seed)
    state = ba.new_game(rules, seed=seed)
    while len(state.deal_results) < deal and not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
    while state.phase is not ba.Phase.PLAYING and not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
    for _ in range(plays):
        if state.is_over or len(state.deal_results) != deal:
            return None
        state = state.apply(rng.choice(state.legal_moves()))
    if state.is_over or len(state.deal_results) != deal:
        return None
    return state.view(state.to_act)  # type: ignore[arg-type]


def test_the_samplers_deal_views_of_a_ranking_that_differs_only_in_full_tricks() -> None:
    """A view's hidden hands drawn and dealt (the samplers, the bots'
    ``determinise``) replay to a state whose tricks are the view's: won as
    the overriding ranking says."""

    rules = _low_full_tricks()
    dealt = 0
    for seed in range(12):
        view = _view_in_play(rules, seed, seed % 2, 5 + seed)
        if view is None:
            continue
        hands = lowlevel.sample_hands(view, random.Random(seed))
        assert hands is not None
        full = lowlevel.determinise(view, hands)
        assert full.tricks == view.tricks and full.trick == view.trick
        assert full.view(view.seat).legal_moves() == view.legal_moves()
        dealt += bool(view.tricks)
    assert dealt >= 6


def _swap_for_the_second_card_later(self: Any, ctx: Any, hands: Any, stock: Any) -> Any:
    """From the second deal on, the holder of the other joker swaps it for
    the *second* stock card after a turned joker (the first deal as the parent)."""
    parent = ba.rules.TurnUpTrump.opening(self, ctx, hands, stock)
    if ctx.deal_index == 0 or not stock[0].is_joker or not parent.discards:
        return parent
    other = ba.CardSet.of(c for c in (ba.parse_card("LJ"), ba.parse_card("BJ")) if c != stock[0])
    rest = list(stock[1:])
    drawn = rest.pop(1)
    held = tuple((h - other) | ba.CardSet.of([drawn]) if h & other else h for h in hands)
    return ba.rules.TrumpSetup(held, tuple(rest), stock[0], None, other)


def test_the_samplers_follow_a_trump_part_s_own_joker_swap_in_later_deals() -> None:
    """A trump part whose joker swap, from the second deal on, draws the
    second stock card: the samplers find the deck order of a view of such a
    deal by letting the part open each candidate, and the montecarlo bot
    decides there from samples (none fails)."""
    from backalley.bots import MonteCarloBot

    sub = _subclass(ba.rules.TurnUpTrump, "SecondCard", "opening", _swap_for_the_second_card_later)
    rules = ba.variants.GAMERULES.replace(trump=sub(), schedule=ba.rules.Schedule((3, 4)))
    jokers = [ba.parse_card("BJ"), ba.parse_card("LJ")]
    plain = [c for c in ba.CARDS if not c.is_joker]
    first = list(ba.CARDS)
    # the second deal: four cards each from the dealer's left, the Little
    # Blooper in a hand, the Big Blooper turned up
    second = [*plain[:15], jokers[1], jokers[0], *plain[15:]]

    def bid(state: ba.GameState, rng: random.Random) -> ba.GameState:
        """A random call other than a pass (no deal is thrown in)."""
        return state.apply(rng.choice([m for m in state.legal_moves() if m != ba.Pass()]))

    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = ba.new_game(rules, seed=seed, dealer=0, decks=[first, second])
        while state.phase is ba.Phase.BIDDING:
            state = bid(state, rng)
        while not state.deal_results:
            state = state.apply(rng.choice(state.legal_moves()))
        assert state.turn_up == jokers[0] and state.discards == (jokers[1],)
        while state.phase is ba.Phase.BIDDING:
            state = bid(state, rng)
        for _ in range(seed + 1):
            state = state.apply(rng.choice(state.legal_moves()))
        view = state.view(state.to_act)  # type: ignore[arg-type]
        hands = lowlevel.sample_hands(view, rng)
        assert hands is not None
        _order, opening = lowlevel.deck_for(view, hands)
        assert opening.turn_up == view.turn_up and opening.discards == view.discards
        assert lowlevel.deal_context(opening).deal_index == 1
        bot = MonteCarloBot(seed=seed, samples=3, budget=None, evaluator="rollout")
        assert bot.choose(view) in view.legal_moves()
        assert bot.stats.failed == 0 and bot.stats.fallbacks == 0
        checked += 1
    assert checked == 4


def _zero_sum_later_double(self: Any, ctx: Any, tricks: Any, dealt: Any) -> tuple[int, ...]:
    """Each side scores its own points less the other side's, the deals after
    the first counting twice: a side's points depend on the other side's
    contract and tricks, and on the deal."""
    own = ba.rules.ContractScoring.score(self, ctx, tricks, dealt)
    times = 1 if ctx.deal_index == 0 else 2
    return tuple(times * (own[s] - own[1 - s]) for s in range(2))


def test_the_heuristic_s_points_follow_a_scoring_across_sides_and_deals() -> None:
    """Under a scoring where a side's points depend on the other side's
    contract and on the deal, the heuristic's points table is the scoring
    part's answer for the deal's own context, every side's tricks and
    contract together: not the parent's, and not the first deal's."""
    from backalley.bots import heuristic as H

    sub = _subclass(ba.rules.ContractScoring, "ZeroSum", "score", _zero_sum_later_double)
    rules = ba.variants.GAMERULES.replace(scoring=sub(), schedule=ba.rules.Schedule((4, 5, 6)))
    assert rules.plan.score_key is None and ba.variants.GAMERULES.plan.score_key is not None
    compared = 0
    for seed in range(6):
        view = _view_in_play(rules, seed, 1 + seed % 2, 2)
        if view is None:
            continue
        outcome = lowlevel.deal_context(view).outcome
        assert outcome is not None
        table = H.points_table(view, outcome)
        ctx = lowlevel.deal_context(view)
        h = view.hand_size
        for side in range(2):
            for k in range(h + 1):
                tricks = (k, h - k) if side == 0 else (h - k, k)
                assert table[side][k] == rules.plan.score(ctx, tricks, (0,) * 4)[side]
        base_view = _view_in_play(
            ba.variants.GAMERULES.replace(schedule=rules.schedule), seed, 1 + seed % 2, 2
        )
        assert base_view is not None
        assert table != H.points_table(base_view, outcome)
        compared += 1
    assert compared >= 3


def _tenfold_later(self: Any, ctx: Any, tricks: Any, dealt: Any) -> tuple[int, ...]:
    """The parent's points, ten times over from the second deal on."""
    points = ba.rules.ContractScoring.score(self, ctx, tricks, dealt)
    return tuple(p * (1 if ctx.deal_index == 0 else 10) for p in points)


def test_the_openspiel_bounds_and_returns_follow_a_scoring_override() -> None:
    """A scoring that counts ten times over from the second deal: the
    OpenSpiel game's utility bound asks it on each deal's own context (ten
    times the parent's bound for the later deals), and its returns are the
    overriding points, within the bound."""
    pytest.importorskip("pyspiel")
    from backalley.adapters import openspiel as O
    from backalley.rules import bounds

    short = ba.variants.GAMERULES.replace(schedule=ba.rules.Schedule((2, 3)))
    sub = _subclass(ba.rules.ContractScoring, "TenfoldLater", "score", _tenfold_later)
    rules = short.replace(scoring=sub())
    expected = bounds.points_bound(short, 0) + 10 * bounds.points_bound(short, 1)
    assert O.utility_bound(rules) == expected
    game = O.load_game(rules, dealer=0)
    assert game.max_utility() == expected and game.min_utility() == -expected
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        engine = state.track.state
        results = engine.deal_results
        points = [r.points for r in results]
        assert points[-1] == tuple(10 * p for p in _parent_points(short, results[-1]))
        returns = state.returns()
        assert returns == [float(engine.scores[rules.seat_teams[s]]) for s in range(4)]
        assert all(abs(r) <= expected for r in returns)


def _parent_points(rules: ba.RuleSet, result: Any) -> tuple[int, ...]:
    """The points the parent scoring gives a deal result (its contracts and tricks)."""
    outcome = ba.rules.BiddingOutcome(result.contracts)
    ctx = rules.plan.deal_context(
        result.number - 1, result.dealer, result.hand_size, outcome, result.trump
    )
    return rules.plan.score(ctx, result.tricks, (0,) * rules.players)


def test_a_scoring_bound_a_game_exceeds_is_refused_naming_the_part() -> None:
    """A scoring part that declares a bound its points exceed: the OpenSpiel
    game's returns raise a RuleSetError naming it."""
    pytest.importorskip("pyspiel")
    from backalley.adapters import openspiel as O

    sub = _subclass(ba.rules.ContractScoring, "TooSmall", "points_bound", lambda self, ctx, c: 0)
    rules = ba.variants.GAMERULES.replace(scoring=sub(), schedule=ba.rules.Schedule((3,)))
    assert O.utility_bound(rules) == 1
    game = O.load_game(rules, dealer=0)
    rng = random.Random(1)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    if all(abs(s) <= 1 for s in state.track.state.scores):
        pytest.skip("this game scored within the bound")
    with pytest.raises(ba.RuleSetError, match=r"scoring: ContractScoringTooSmall scored"):
        state.returns()


def _two_more_calls(self: Any, ctx: Any) -> int | None:
    """Every player calls once, then the first two bidders call again."""
    return ctx.seat if len(ctx.calls) < ctx.players + 2 else None


def test_the_openspiel_game_length_follows_a_bidding_with_more_calls_than_players() -> None:
    """A bidding whose speaker lets two seats call twice: the OpenSpiel game's
    longest game asks the bidding (by walking it), so no game is longer,
    though each is longer than n calls a deal would allow."""
    pytest.importorskip("pyspiel")
    from backalley.adapters import openspiel as O

    sub = _subclass(ba.rules.OnceAroundBidding, "TwoMore", "speaker", _two_more_calls)
    rules = ba.variants.GAMERULES.replace(bidding=sub(), schedule=ba.rules.Schedule((2, 3)))
    sizes = rules.schedule.hand_sizes
    assert O.max_game_length(rules, 0) == sum(6 + 1 + 4 * h for h in sizes)
    for seed in range(4):
        rng = random.Random(seed)
        state = ba.new_game(rules, seed=seed)
        moves = 0
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_moves()))
            moves += 1
        thrown = lowlevel.thrown_in(state)
        assert moves <= O.max_game_length(rules, thrown)
        if not thrown:
            assert moves > sum(4 + 1 + 4 * h for h in sizes)  # beyond n calls a deal


def test_the_pettingzoo_rewards_follow_a_scoring_override() -> None:
    """The PettingZoo environment rewards each deal's overriding points
    (ten times over from the second deal) to every agent of the side."""
    pytest.importorskip("pettingzoo")
    from backalley.adapters.backalley_v0 import raw_env

    short = ba.variants.GAMERULES.replace(schedule=ba.rules.Schedule((2, 3)))
    sub = _subclass(ba.rules.ContractScoring, "TenfoldLaterPZ", "score", _tenfold_later)
    env = raw_env(short.replace(scoring=sub()))
    env.reset(seed=5)
    rng = random.Random(5)
    rewards: list[dict[str, float]] = []
    while not all(env.terminations.values()):
        agent = env.agent_selection
        mask = env.action_mask(agent)
        deals = env.state.deals_played
        env.step(rng.choice([a for a, ok in enumerate(mask) if ok]))
        if env.state.deals_played > deals:
            rewards.append(dict(env.rewards))
    results = env.state.deal_results
    assert len(rewards) == len(results) == 2
    for got, result in zip(rewards, results):
        for seat in range(4):
            assert got[f"player_{seat}"] == result.points[short.seat_teams[seat]]
    assert results[1].points == tuple(10 * p for p in _parent_points(short, results[1]))
