"""The plan asks the parts and remembers their answers: the legal plays are
the parts' restrictions, the legal calls the bidding part's refusals, a
subclass that changes a rule is followed, its tables are bounded, equal moves
are applied like the shared ones, and ``lowlevel.playout`` reaches the very
state the public API does."""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator
from typing import Any, ClassVar

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import backalley as ba
from backalley import lowlevel
from backalley.errors import Reason
from backalley.rules import (
    BlooperForced,
    FirstLead,
    FirstTrickTrumpLead,
    FollowPolicy,
    LeadPolicy,
    LittleLead,
    OrderedRanking,
    TrumpBrokenBy,
    TrumpBrokenFor,
    TrumpBrokenWhen,
    TrumpLead,
    TrumpPlay,
    calltree,
    play_memory,
    register,
)
from backalley.rules import plan as plan_module
from backalley.rules.plan import Plan
from backalley.rules.registry import _REGISTRY
from backalley.values import BiddingOutcome, Contract

from ..helpers import examples

VARIANTS = ba.variants.names()


@attrs.frozen(slots=True)
class JokersLow(OrderedRanking):
    """A test ranking: the jokers are trumps below the two of trumps, the Big
    Blooper above the Little one; ties in no case."""

    tag: ClassVar[str] = "test-jokers-low"

    def key(self, card: ba.Card, trump: ba.Suit | None) -> int:
        if card.is_joker:
            return card.rank.value - 20  # below every plain card
        return card.rank.value

    def describe(self) -> str:
        return "Jokers rank below the two of trumps."


@attrs.frozen(slots=True)
class FlatRanking(OrderedRanking):
    """A test ranking where every card of a suit is equal: the earliest wins."""

    tag: ClassVar[str] = "test-flat"

    def key(self, card: ba.Card, trump: ba.Suit | None) -> int:
        return 0

    def describe(self) -> str:
        return "Every card of a suit is equal; the earliest played wins."


@attrs.frozen(slots=True)
class NoAceLeads(LeadPolicy):
    """A user's lead part without a compile hook of its own that changes the
    rule: no ace may be led while the other rules leave another card."""

    tag: ClassVar[str] = "test-no-ace-leads"

    def restrictions(
        self, ctx: Any, seat: int, hand: ba.CardSet, broken: bool
    ) -> tuple[tuple[ba.CardSet, Reason], ...]:
        base = super().restrictions(ctx, seat, hand, broken)
        narrowed = hand
        for allowed, _reason in base:
            narrowed &= allowed
        aces = ba.CardSet.of(card for card in narrowed if card.rank is ba.Rank.ACE)
        if aces and aces != narrowed:
            return (*base, (hand - aces, Reason.TRUMP_NOT_BROKEN))
        return base


@attrs.frozen(slots=True)
class DoubledBoards(ba.rules.OnceAroundBidding):
    """A user's bidding that changes the outcome: a board contract counts double."""

    tag: ClassVar[str] = "test-doubled-boards"

    def outcome(self, ctx: Any) -> BiddingOutcome:
        out = super().outcome(ctx)
        contracts = tuple(
            attrs.evolve(c, multiplier=2 * c.multiplier) if c is not None and c.board else c
            for c in out.contracts
        )
        return attrs.evolve(out, contracts=contracts)


@attrs.frozen(slots=True)
class NoHighBids(ba.rules.OnceAroundBidding):
    """A user's bidding that changes the legal calls: no bid above 3."""

    tag: ClassVar[str] = "test-no-high-bids"

    def refusal(self, ctx: Any, move: Any) -> Any:
        if isinstance(move, ba.Bid) and move.tricks > 3:
            return (Reason.BID_TOO_HIGH, "at this table the highest bid is 3")
        return super().refusal(ctx, move)


TEST_PARTS: tuple[type, ...] = (JokersLow, FlatRanking, NoAceLeads, DoubledBoards, NoHighBids)


@pytest.fixture(autouse=True, scope="module")
def _test_parts() -> Iterator[None]:
    """Register this module's test parts while its tests run (and only then:
    the schema lists every registered part)."""
    for cls in TEST_PARTS:
        register(cls)
    yield
    for cls in TEST_PARTS:
        del _REGISTRY[cls.part][cls.tag]


LEADS = [
    LeadPolicy(),
    LeadPolicy(trump_lead=TrumpLead.AFTER_BROKEN),
    LeadPolicy(trump_lead=TrumpLead.ANY_TIME),
    LeadPolicy(trump_broken_by=TrumpBrokenBy.DISCARD, first_lead=FirstLead.LEFT_OF_DEALER),
    LeadPolicy(trump_broken_for=TrumpBrokenFor.THE_LEADER),
    LeadPolicy(first_trick_trump_lead=FirstTrickTrumpLead.NEVER, trump_lead=TrumpLead.ANY_TIME),
    LeadPolicy(
        first_trick_trump_lead=FirstTrickTrumpLead.NEVER, trump_broken_for=TrumpBrokenFor.THE_LEADER
    ),
    NoAceLeads(),
]
FOLLOWS = [
    FollowPolicy(),
    FollowPolicy(blooper_forced=BlooperForced.OPPONENTS),
    FollowPolicy(little_blooper_forcing=False),
    FollowPolicy(blooper_lead_forcing=False),
    FollowPolicy(little_lead=LittleLead.LOWEST_TRUMP),
    FollowPolicy(little_lead=LittleLead.LOWEST_TRUMP, blooper_forced=BlooperForced.OPPONENTS),
    FollowPolicy(trump_play=TrumpPlay.NOT_UNTIL_BROKEN),
    FollowPolicy(
        trump_play=TrumpPlay.NOT_UNTIL_BROKEN, trump_broken_when=TrumpBrokenWhen.ANY_TRUMP_SO_FAR
    ),
    ba.rules.MustTrumpWhenVoid(),
]
RANKINGS = [ba.rules.JokersHigh(), JokersLow(), FlatRanking()]  # instances need no registry


@st.composite
def positions(draw: Any) -> tuple[Any, ...]:
    """A rule set, a deal context and a position of the play (hand, trick),
    with cards played to earlier tricks (by every seat) and cards shown."""
    base = ba.variants.get(draw(st.sampled_from(VARIANTS)))
    rules = base.replace(
        lead=draw(st.sampled_from(LEADS)),
        follow=draw(st.sampled_from(FOLLOWS)),
        ranking=draw(st.sampled_from(RANKINGS)),
    )
    plan = rules.plan
    n = rules.players
    deck = list(plan.deck_cards)
    cards = draw(st.permutations(deck))
    size = draw(st.integers(1, min(13, len(deck) // n)))
    hand = 0
    for c in cards[:size]:
        hand |= 1 << c
    trick = tuple(cards[size : size + draw(st.integers(0, n - 1))])
    rest = cards[size + len(trick) :]
    earlier = rest[: draw(st.integers(0, min(len(rest), 3 * n)))]
    shown = sum(1 << c for c in rest[len(earlier) : len(earlier) + draw(st.integers(0, 2))])
    by_seat = [0] * n
    for k, c in enumerate(earlier):
        by_seat[k % n] |= 1 << c
    seat = draw(st.integers(0, n - 1))
    leader = (seat - len(trick)) % n
    board = frozenset(draw(st.sets(st.integers(0, n - 1), max_size=2)))
    outcome = BiddingOutcome(
        tuple(Contract(1) for _ in rules.teams), highest_bidder=0, board_bidders=board
    )
    ctx = plan.deal_context(0, 0, size, outcome, draw(st.sampled_from([*ba.Suit, None])))
    ctx = ctx._replace(
        played=ba.CardSet(sum(by_seat)),
        played_by=tuple(map(ba.CardSet, by_seat)) if earlier else (),
        shown=ba.CardSet(shown),
    )
    return rules, ctx, seat, hand, trick, leader, draw(st.booleans())


@pytest.mark.parametrize("name", VARIANTS)
def test_fresh_equal_moves_are_applied_like_the_shared_ones(name: str) -> None:
    rng = random.Random(5)
    state = ba.new_game(ba.variants.get(name), seed=5)
    for _ in range(60):
        if state.is_over:
            break
        move = rng.choice(state.legal_moves())
        fresh = ba.parse_move(str(move))
        if isinstance(move, ba.Bid):
            fresh = ba.Bid(move.tricks)  # a new object, equal to the shared one
        elif isinstance(move, ba.Play):
            fresh = ba.Play(ba.parse_card(str(move.card)))
        assert state.is_legal(fresh)
        assert state.apply(fresh) == state.apply(move) == state.apply_unchecked(move)
        state = state.apply(fresh)


def test_refusals_keep_their_reasons() -> None:
    state = ba.new_game(seed=1)
    with pytest.raises(ba.IllegalMoveError) as info:
        state.apply(ba.Bid(40))
    assert info.value.reason is Reason.BID_TOO_HIGH
    with pytest.raises(ba.IllegalMoveError) as info:
        state.apply(ba.Play(ba.parse_card("QS")))
    assert info.value.reason is Reason.WRONG_PHASE
    with pytest.raises(ba.IllegalMoveError) as info:
        state.apply("bid 1")  # type: ignore[arg-type]
    assert info.value.reason is Reason.NOT_A_MOVE


def test_states_pickle_without_their_caches() -> None:
    rng = random.Random(2)
    state = ba.new_game(seed=2)
    for _ in range(30):
        state.legal_moves()
        back = pickle.loads(pickle.dumps(state))
        assert back == state and hash(back) == hash(state)
        assert back.legal_moves() == state.legal_moves()
        state = state.apply(rng.choice(state.legal_moves()))


def test_a_closed_bidding_has_no_next_call() -> None:
    """A complete bidding's node has no legal calls and refuses to go on (its
    empty tables are shared by every closed node, so nothing may be added)."""
    plan = ba.variants.GAMERULES.plan
    node = plan.call_node(plan.deal_context(0, 0, 5))
    while node.open:
        node = node.after(node.legal[1])
    assert node.legal == () and node.find(ba.moves.bid(1)) is None
    with pytest.raises(ba.SetupError, match="the bidding is over"):
        node.after(ba.moves.bid(1))
    again = plan.call_node(plan.deal_context(0, 0, 4))
    while again.open:
        again = again.after(again.legal[0])
    assert again.find(ba.moves.bid(1)) is None


@settings(max_examples=examples(600), deadline=None)
@given(positions())
def test_the_legal_plays_are_the_hand_narrowed_by_each_restriction(pos: tuple[Any, ...]) -> None:
    """The plan's legal plays are the hand narrowed by every restriction of the
    lead part (leading) or the follow part (following), and each other card of
    the hand is refused with the reason of the first restriction excluding it:
    also when the plan answers from what it remembers by the parts' keys (the
    rule sets of the examples are few, so their plans remember many answers)."""
    rules, ctx, seat, hand, trick, leader, broken = pos
    plan = rules.plan
    ctx = ctx._replace(broken=broken)
    if trick:
        cards = tuple(ba.CARDS[c] for c in trick)
        found = rules.follow.restrictions(ctx, seat, ba.CardSet(hand), cards, leader)
    else:
        found = rules.lead.restrictions(ctx, seat, ba.CardSet(hand), broken)
    want = hand
    for allowed, _reason in found:
        want &= allowed
    assert plan.play_mask(ctx, seat, hand, trick, leader, broken) == want
    for card in range(54):
        if hand >> card & 1:
            why = plan.play_refusal(ctx, seat, hand, trick, leader, broken, card)
            assert (why is None) == bool(want >> card & 1)


def _narrowed(rules: Any, ctx: Any, seat: int, hand: int, trick: Any, leader: int) -> int:
    """The hand narrowed by the lead or follow part's restrictions, asked directly."""
    if trick:
        cards = tuple(ba.CARDS[c] for c in trick)
        found = rules.follow.restrictions(ctx, seat, ba.CardSet(hand), cards, leader)
    else:
        found = rules.lead.restrictions(ctx, seat, ba.CardSet(hand), ctx.broken)
    for allowed, _reason in found:
        hand &= allowed
    return hand


@settings(max_examples=examples(300), deadline=None)
@given(positions(), st.data())
def test_remembered_answers_are_the_parts_answers_for_every_hand(
    pos: tuple[Any, ...], data: st.DataObject
) -> None:
    """Many hands met in one situation (the same rule set, deal, trick and
    seat): the plan asks the part once per key and serves the others from
    what it remembers, and every answer is the part's own - the legal cards
    and each refused card's reason (the built-in parts' keys hold for every
    option; the plan is not in the checking mode here)."""
    rules, ctx, seat, _hand, trick, leader, broken = pos
    plan = Plan(rules)
    plan._check = False
    ctx = ctx._replace(broken=broken)
    free = [c for c in plan.deck_cards if c not in trick and not (ctx.played | ctx.shown) >> c & 1]
    for _ in range(12):
        held = data.draw(st.lists(st.sampled_from(free), min_size=1, max_size=13, unique=True))
        hand = sum(1 << c for c in held)
        want = _narrowed(rules, ctx, seat, hand, trick, leader)
        assert plan.play_mask(ctx, seat, hand, trick, leader, broken) == want
        for card in held:
            why = plan.play_refusal(ctx, seat, hand, trick, leader, broken, card)
            assert (why is None) == bool(want >> card & 1)


@pytest.mark.parametrize("follow", FOLLOWS, ids=lambda part: part.summary())
def test_the_follow_parts_keys_hold_after_every_card_led(follow: Any) -> None:
    """After every card that may be led, under every trump and with trump
    broken or not, hands rich in the suit led (and in trumps) that share a key
    get the follow part's own answers from the plan."""
    rules = ba.variants.GAMERULES.replace(follow=follow)
    rng = random.Random(7)
    for broken in (False, True):
        plan = Plan(rules)
        plan._check = False
        for trump in (*ba.Suit, None):
            ctx = plan.deal_context(0, 0, 13, trump=trump)._replace(broken=broken)
            trumps = int(rules.ranking.trumps(trump))
            for led in plan.deck_cards:
                suit = int(rules.ranking.suit_cards(ba.CARDS[led], trump)) & ~(1 << led)
                pool = [c for c in plan.deck_cards if c != led]
                rich = [c for c in pool if (suit | trumps) >> c & 1]
                for k in range(8):
                    leader = k % 4
                    seat = (leader + 1 + k % 3) % 4
                    trick = (
                        led,
                        *rng.sample([c for c in pool if c != led], (seat - leader) % 4 - 1),
                    )
                    held = [c for c in rng.sample(rich, min(len(rich), 4)) if c not in trick]
                    held += [c for c in rng.sample(pool, 3) if c not in trick and c not in held]
                    hand = sum(1 << c for c in held)
                    want = _narrowed(rules, ctx, seat, hand, trick, leader)
                    assert plan.play_mask(ctx, seat, hand, trick, leader, broken) == want


@pytest.mark.parametrize("lead", LEADS, ids=lambda part: part.summary())
def test_the_lead_parts_keys_hold_for_every_hand(lead: Any) -> None:
    """Leads from hands of few and of many trumps, in the first trick and
    later, trump broken or not, by a board bidder or not, by a seat that has
    played a trump or not: the plan's answers are the lead part's own."""
    rules = ba.variants.GAMERULES.replace(lead=lead)
    rng = random.Random(3)
    plan = Plan(rules)
    plan._check = False
    deck = list(plan.deck_cards)
    for trump in (*ba.Suit, None):
        trumps = [c for c in deck if rules.ranking.trumps(trump) >> c & 1]
        for k in range(60):
            earlier = rng.sample(deck, rng.choice((0, 4, 8)))
            by_seat = [sum(1 << c for c in earlier[s::4]) for s in range(4)]
            board = frozenset({k % 4}) if k % 3 == 0 else frozenset()
            outcome = BiddingOutcome((Contract(1), Contract(1)), 0, board_bidders=board)
            ctx = plan.deal_context(0, 0, 13, outcome, trump)._replace(
                played=ba.CardSet(sum(by_seat)),
                played_by=tuple(map(ba.CardSet, by_seat)) if earlier else (),
                broken=k % 2 == 1,
            )
            free = [c for c in deck if c not in earlier]
            free_trumps = [c for c in trumps if c in free]
            held = set(rng.sample(free_trumps, min(len(free_trumps), k % 5)))
            held |= set(rng.sample(free, k % 4))
            hand = sum(1 << c for c in held)
            seat = k % 4
            want = _narrowed(rules, ctx, seat, hand, (), seat)
            assert plan.play_mask(ctx, seat, hand, (), seat, ctx.broken) == want


@attrs.frozen(slots=True)
class ForgetfulFollow(FollowPolicy):
    """A follow part whose key claims too little: that its answer depends
    only on the card led (not on whether the hand holds its suit)."""

    tag: ClassVar[str] = "test-forgetful-follow"

    def restrictions_key(self, ranking: Any, trump: Any, led: Any) -> ba.rules.PlayKey:
        return ba.rules.PlayKey()


@attrs.frozen(slots=True)
class MustFollowLow(FollowPolicy):
    """A follow part that changes the rule through its form (follow with the
    lowest card of the suit led) and declares no key of its own."""

    tag: ClassVar[str] = "test-must-follow-low"

    def restrictions_form(self, ranking: Any, trump: Any, led: ba.Card) -> Any:
        from backalley import masks

        suit = masks.Cards(ranking.suit_cards(led, trump))
        low = masks.Lowest(masks.HAND & suit)
        return (
            *super().restrictions_form(ranking, trump, led),
            (masks.Choose(masks.holds(suit), low, masks.ALL), Reason.HOUSE_RULE),
        )


class HandFollow(FollowPolicy):
    """A follow part that keys its answer well but allows the hand's own
    cards of the suit led (not every card of the suit): an allowed set that
    depends on more than the key."""

    tag: ClassVar[str] = "test-hand-follow"

    def restrictions(
        self, ctx: Any, seat: int, hand: ba.CardSet, trick: Any, leader: int
    ) -> tuple[tuple[ba.CardSet, Reason], ...]:
        return tuple(
            (allowed & hand, reason)
            for allowed, reason in super().restrictions(ctx, seat, hand, trick, leader)
        )

    def restrictions_key(self, ranking: Any, trump: Any, led: Any) -> ba.rules.PlayKey | None:
        return super().restrictions_key(ranking, trump, led)


@attrs.frozen(slots=True)
class ConstantKeyBidding(ba.rules.OnceAroundBidding):
    """A bidding part whose key claims its calls never depend on the bidding."""

    tag: ClassVar[str] = "test-constant-key"

    def answer_key(self, ctx: Any) -> Any:
        return ctx.hand_size


TEST_PARTS += (ForgetfulFollow, HandFollow, MustFollowLow, ConstantKeyBidding)


def _play_until_refused(rules: ba.RuleSet, games: int = 3) -> None:
    for seed in range(games):
        state = ba.new_game(rules, seed=seed)
        choice = random.Random(seed).choice
        while not state.is_over:
            state = state.apply(choice(state.legal_moves()))


@pytest.mark.parametrize("part", [ForgetfulFollow(), HandFollow()], ids=lambda p: type(p).__name__)
def test_a_wrong_play_key_is_caught_naming_the_part(
    monkeypatch: pytest.MonkeyPatch, part: Any
) -> None:
    """The checking mode asks the part again wherever the plan would answer
    from what it remembers by the part's key, and refuses a key that gives
    two positions the same key but the part different answers (a key that
    leaves out what the rule reads, or allowed cards taken from the hand)."""
    monkeypatch.setattr(plan_module, "CHECK_KEYS", True)
    rules = ba.variants.GAMERULES.replace(follow=part)
    assert rules.plan._follow_key is not None  # the class's own key is trusted
    name = type(part).__name__
    with pytest.raises(
        ba.RuleSetError, match=rf"follow: {name}\.restrictions_key gives a position"
    ):
        _play_until_refused(rules)


def test_a_wrong_bidding_key_is_caught_naming_the_part(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plan_module, "CHECK_KEYS", True)
    rules = ba.variants.GAMERULES.replace(bidding=ConstantKeyBidding())
    with pytest.raises(
        ba.RuleSetError, match=r"bidding: ConstantKeyBidding\.answer_key gives the bidding after"
    ):
        _play_until_refused(rules)


def test_without_the_checking_mode_a_wrong_key_is_the_parts_claim(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without the checking mode the plan believes a key: a forgetful one
    gives a later position an earlier position's answer (here a hand void in
    the suit led is left nothing to play, which the plan refuses)."""
    monkeypatch.setattr(plan_module, "CHECK_KEYS", False)
    rules = ba.variants.GAMERULES.replace(follow=ForgetfulFollow())
    with pytest.raises(ba.RuleSetError, match=r"follow: ForgetfulFollow\.restrictions leave seat"):
        _play_until_refused(rules)


def test_a_key_is_trusted_only_from_the_class_that_decides() -> None:
    """A part that overrides a decision method of a part with a key is asked
    at every position (its parent's key would be a claim about another
    rule); its own key, and a parent's when it only describes itself
    otherwise, are trusted; a part without a key is asked every time."""
    gamerules = ba.variants.GAMERULES
    assert gamerules.plan._lead_key is not None and gamerules.plan._follow_key is not None
    assert gamerules.replace(lead=NoAceLeads()).plan._lead_key is None
    assert gamerules.replace(follow=MustFollowLow()).plan._follow_key is None
    # the house rules that are the follow part's options: its own key, which asks every time
    must_trump = gamerules.replace(follow=ba.rules.MustTrumpWhenVoid())
    assert must_trump.plan._follow_key is not None
    assert must_trump.follow.restrictions_key(gamerules.ranking, None, ba.parse_card("2C")) is None
    assert gamerules.replace(follow=HandFollow()).plan._follow_key is not None
    assert plan_module.trusted_answer_key(ConstantKeyBidding()) is not None


def test_optional_hooks_are_found_once_as_protocols() -> None:
    """The optional methods a part may give are runtime-checkable protocols,
    found when the plan is built."""
    from backalley.rules import protocols

    vietnam, gamerules = ba.variants.VIETNAM, ba.variants.GAMERULES
    assert isinstance(gamerules.trump, protocols.ShowsStock)
    assert gamerules.plan._stock_shown is gamerules.trump
    assert isinstance(gamerules.bidding, protocols.KeyedBidding)
    assert isinstance(gamerules.lead, protocols.KeyedLead)
    assert isinstance(gamerules.follow, protocols.KeyedFollow)
    assert not isinstance(gamerules.trump, protocols.DrawsTrumpBeforeDeal)
    assert not gamerules.plan.draws_before_deal
    turned = ba.variants.get("vietnam-literal")
    assert turned.plan.draws_before_deal == isinstance(turned.trump, protocols.DrawsTrumpBeforeDeal)
    assert vietnam.plan.direct_counters == (
        tuple(vietnam.bidding.direct_counters())
        if isinstance(vietnam.bidding, protocols.DirectCounters)
        else ()
    )


def test_the_play_answers_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play_memory, "PLAY_ANSWERS_LIMIT", 20)
    rules = ba.variants.GAMERULES
    plan = Plan(rules)
    rng = random.Random(1)
    ctx = plan.deal_context(0, 0, 13, trump=ba.Suit.SPADES)
    deck = [c for c in plan.deck_cards if c != 53]
    for _ in range(200):  # after the Big Blooper the key holds the hand's trumps: many keys
        hand = sum(1 << c for c in rng.sample(deck, 6))
        plan.play_mask(ctx, 0, hand, (53,), 3, rng.random() < 0.5)
        assert len(plan._play_answers) <= 20
    assert len(plan._play_answers) > 0


@settings(max_examples=examples(200), deadline=None)
@given(mask=st.integers(0, (1 << 54) - 1))
def test_legal_play_tuples_are_the_cards_in_order(mask: int) -> None:
    plays = ba.variants.GAMERULES.plan.plays(mask)
    assert [p.card.index for p in plays] == [i for i in range(54) if mask >> i & 1]
    assert ba.variants.GAMERULES.plan.plays(mask) == plays
    if sum(1 for g in range(5) if mask >> (13 * g) & 0x1FFF) == 1:
        assert ba.variants.GAMERULES.plan.plays(mask) is plays  # a set within one suit is shared


def test_the_bidding_tables_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(calltree, "CALL_NODE_LIMIT", 5)
    rules = ba.variants.GAMERULES
    plan = Plan(rules)
    ctx = plan.deal_context(0, 0, 13)
    for k in range(1, 12):
        node = plan.call_node(ctx, (ba.moves.bid(k), ba.moves.bid(1)))
        bctx = plan.bidding_context(ctx, node.ctx.calls)
        assert node.legal == tuple(
            c for c in rules.bidding.calls(bctx) if rules.bidding.refusal(bctx, c) is None
        )
        tree = plan.call_tree
        assert tree._nodes <= 5 and len(tree._answers) <= 6


def test_an_answer_key_is_trusted_only_from_the_class_that_decides() -> None:
    """A bidding part's ``answer_key`` is used only when no subclass below the
    class declaring it defines a method of its own: a subclass that changes a
    rule is asked at every bidding point instead of being given its parent's
    answers."""
    assert plan_module.trusted_answer_key(ba.rules.OnceAroundBidding()) is not None
    assert plan_module.trusted_answer_key(NoHighBids()) is None

    @attrs.frozen(slots=True)
    class Described(ba.rules.OnceAroundBidding):
        tag: ClassVar[str] = "test-described"

        def describe(self) -> str:
            return "The same bidding, described otherwise."

    assert plan_module.trusted_answer_key(Described()) is not None


def test_a_bidding_that_changes_the_refusals_is_followed() -> None:
    """A subclass overriding ``refusal`` alone changes the legal calls, ``check`` and ``apply``."""
    rules = ba.variants.GAMERULES.replace(bidding=NoHighBids())
    state = ba.new_game(rules, seed=3)
    assert all(not isinstance(m, ba.Bid) or m.tricks <= 3 for m in state.legal_moves())
    with pytest.raises(ba.IllegalMoveError) as info:
        state.apply(ba.Bid(4))
    assert info.value.reason is Reason.BID_TOO_HIGH
    assert lowlevel.playout(state, random.Random(1).choice).is_over


def test_a_bidding_that_changes_the_outcome_is_followed() -> None:
    rules = ba.variants.GAMERULES.replace(bidding=DoubledBoards())
    state = ba.new_game(rules, seed=1)
    state = state.apply(ba.BoardBid())
    while state.phase is ba.Phase.BIDDING:
        state = state.apply(ba.Pass())
    assert state.outcome is not None
    assert [c.multiplier for c in state.outcome.contracts if c.board] == [2]


def test_every_deal_opens_at_the_plans_shared_first_node() -> None:
    """A dealt deal (shuffled, from a deck order, or read from a document)
    starts its bidding at the plan's one node for its hand size and first
    bidder, so its first calls need no look-up."""
    rules = ba.variants.GAMERULES
    plan = rules.plan
    state = ba.new_game(rules, seed=5)
    first = rules.bidding.first(state.dealer, rules.players)
    node = lowlevel.core(state).node
    assert node is plan.opening_node(state.hand_size, first)
    assert node is plan.call_node(lowlevel.deal_context(state))
    assert plan.first_bidders == tuple(rules.bidding.first(d, 4) for d in range(4))
    reread = pickle.loads(pickle.dumps(state))
    first_node = reread.rules.plan.opening_node(state.hand_size, first)
    assert lowlevel.core(reread).node is first_node
    again = lowlevel.deal_order(state, tuple(reversed(plan.deck_cards)))
    assert lowlevel.core(again).node is node
    assert again.legal_moves() == state.legal_moves()


# --------------------------------------------------------------- playout


def _public(state: ba.GameState, choose: Any, until: str, decisions: int | None) -> ba.GameState:
    """What ``playout`` promises: the public API's loop."""
    results, history = len(state.deal_results), len(state.tricks)
    done = 0
    while not state.is_over and (decisions is None or done < decisions):
        state = state.apply(choose(state.legal_moves()))
        done += 1
        if until != "game" and len(state.deal_results) != results:
            break
        if until == "trick" and state.tricks and len(state.tricks) != history:
            break
    return state


@settings(max_examples=examples(40), deadline=None)
@given(
    name=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10_000),
    until=st.sampled_from(["game", "deal", "trick"]),
    decisions=st.one_of(st.none(), st.integers(0, 60)),
    start=st.integers(0, 80),
)
def test_playout_reaches_the_state_the_public_api_does(
    name: str, seed: int, until: str, decisions: int | None, start: int
) -> None:
    rules = ba.variants.get(name)
    rng = random.Random(seed)
    state = ba.new_game(rules, seed=seed)
    for _ in range(start):  # start anywhere: bidding, mid-trick, ...
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))
    if until == "game" and decisions is None and rules.schedule.deals > 8:
        decisions = 300  # keep the test small
    got = lowlevel.playout(state, random.Random(seed).choice, until=until, decisions=decisions)
    want = _public(state, random.Random(seed).choice, until, decisions)
    assert got == want
    assert got.legal_moves() == want.legal_moves()


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("until", ["deal", "trick"])
def test_playout_of_every_variant_from_the_opening(name: str, until: str) -> None:
    """Every variant, including biddings where only some seats speak."""
    state = ba.new_game(ba.variants.get(name), seed=11)
    got = lowlevel.playout(state, random.Random(11).choice, until=until)
    assert got == _public(state, random.Random(11).choice, until, None)


def test_playout_refuses_an_illegal_choice_as_apply_does() -> None:
    state = ba.new_game(seed=4)

    def bad_bid(legal: tuple[ba.Move, ...]) -> ba.Move:
        return ba.Bid(99)

    with pytest.raises(ba.IllegalMoveError) as info:
        lowlevel.playout(state, bad_bid)
    assert info.value.reason is Reason.BID_TOO_HIGH
    playing = lowlevel.playout(state, random.Random(1).choice, until="trick")
    assert playing.phase is ba.Phase.PLAYING and len(playing.tricks) == 1
    seat = playing.to_act
    assert seat is not None
    refused = [ba.Play(c) for c in playing.hands[seat] if ba.Play(c) not in playing.legal_moves()]
    not_held = next(ba.Play(c) for c in ba.CARDS if c not in playing.hands[seat])
    for move in [*refused[:1], not_held]:
        with pytest.raises(ba.IllegalMoveError) as info:
            lowlevel.playout(playing, lambda legal, m=move: m)
        with pytest.raises(ba.IllegalMoveError) as direct:
            playing.apply(move)
        assert info.value.reason is direct.value.reason
    with pytest.raises(ba.SetupError):
        lowlevel.playout(state, random.Random(1).choice, until="hand")
    with pytest.raises(ba.SetupError):
        lowlevel.playout(state, random.Random(1).choice, decisions=-1)
    over = lowlevel.playout(state, random.Random(1).choice)
    assert over.is_over and lowlevel.playout(over, random.Random(1).choice) is over
