"""The compiled plan and the fast paths: the compiled functions agree with the
parts' protocol methods, a part without a compile hook runs through its
protocol methods, the flat transitions accept equal moves as the interned
ones, and ``lowlevel.playout`` reaches the very state the public API does."""

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
from backalley import legality, lowlevel
from backalley.errors import Reason
from backalley.rules import (
    BlooperForced,
    FirstLead,
    FollowPolicy,
    LeadPolicy,
    OrderedRanking,
    TrumpBrokenBy,
    TrumpLead,
    register,
)
from backalley.rules import plan as plan_module
from backalley.rules.plan import Plan, generic_follow_mask, generic_lead_mask
from backalley.rules.registry import _REGISTRY
from backalley.values import BiddingOutcome, Contract

VARIANTS = ba.variants.names()


@attrs.frozen(slots=True)
class JokersLow(OrderedRanking):
    """A test ranking: the jokers are trumps below the two of trumps, the Big
    Blooper above the Little one; ties in no case."""

    tag: ClassVar[str] = "test-jokers-low"

    def key(self, card: int, trump: int) -> int:
        if card >= 52:
            return card - 60  # below every plain card
        return card % 13

    def describe(self) -> str:
        return "Jokers rank below the two of trumps."


@attrs.frozen(slots=True)
class FlatRanking(OrderedRanking):
    """A test ranking where every card of a suit is equal: the earliest wins."""

    tag: ClassVar[str] = "test-flat"

    def key(self, card: int, trump: int) -> int:
        return 0

    def describe(self) -> str:
        return "Every card of a suit is equal; the earliest played wins."


@attrs.frozen(slots=True)
class NoAceLeads(LeadPolicy):
    """A user's lead part without a compile hook of its own that changes the
    rule: no ace may be led while the other rules leave another card."""

    tag: ClassVar[str] = "test-no-ace-leads"

    def restrictions(
        self, ctx: Any, seat: int, hand: int, broken: bool
    ) -> tuple[tuple[int, Reason], ...]:
        base = super().restrictions(ctx, seat, hand, broken)
        narrowed = hand
        for allowed, _reason in base:
            narrowed &= allowed
        aces = narrowed & ACES
        if aces and aces != narrowed:
            return (*base, (hand & ~aces, Reason.TRUMP_NOT_BROKEN))
        return base


ACES = sum(1 << (13 * s + 12) for s in range(4))


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

    def legal_calls(self, ctx: Any) -> tuple[Any, ...]:
        return tuple(
            c for c in super().legal_calls(ctx) if not isinstance(c, ba.Bid) or c.tricks <= 3
        )


TEST_PARTS = (JokersLow, FlatRanking, NoAceLeads, DoubledBoards, NoHighBids)


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
]
FOLLOWS = [
    FollowPolicy(),
    FollowPolicy(blooper_forced=BlooperForced.OPPONENTS),
    FollowPolicy(little_blooper_forcing=False),
    FollowPolicy(blooper_lead_forcing=False),
]
RANKINGS = [ba.rules.JokersHigh(), JokersLow(), FlatRanking()]  # instances need no registry


@st.composite
def positions(draw: Any) -> tuple[Any, ...]:
    """A rule set, a deal context and a position of the play (hand, trick)."""
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
    seat = draw(st.integers(0, n - 1))
    leader = (seat - len(trick)) % n
    board = frozenset(draw(st.sets(st.integers(0, n - 1), max_size=2)))
    outcome = BiddingOutcome(
        tuple(Contract(1) for _ in rules.teams), highest_bidder=0, board_bidders=board
    )
    ctx = plan.deal_context(0, 0, size, outcome, draw(st.integers(0, 4)))
    return rules, ctx, seat, hand, trick, leader, draw(st.booleans())


@settings(max_examples=300, deadline=None)
@given(positions())
def test_compiled_play_functions_agree_with_the_protocol_methods(pos: tuple[Any, ...]) -> None:
    rules, ctx, seat, hand, trick, leader, broken = pos
    plan = rules.plan
    if trick:
        expected = generic_follow_mask(rules.follow)(ctx, seat, hand, trick, leader)
        assert plan.follow_mask(ctx, seat, hand, trick, leader) == expected
        same = plan.follow_suits[ctx.trump][trick[0]]  # where the table decides, it agrees
        assert not same or (hand & same or hand) == expected
        full = (*trick, (hand & -hand).bit_length() - 1)
        assert plan.trick_winner(full, ctx.trump) == rules.ranking.trick_winner(full, ctx.trump)
        assert plan.breaks_trump(ctx, full) == rules.lead.breaks_trump(ctx, full)
    else:
        assert plan.lead_mask(ctx, seat, hand, broken) == generic_lead_mask(rules.lead)(
            ctx, seat, hand, broken
        )


@pytest.mark.parametrize("name", VARIANTS)
def test_the_follow_table_agrees_with_the_follow_rule(name: str) -> None:
    """Every entry of a follow part's table of suits, for every trump and led
    card, against the part's own restrictions on random hands."""
    rules = ba.variants.get(name)
    plan = rules.plan
    rng = random.Random(name)
    follow = generic_follow_mask(rules.follow)
    deck = plan.deck_cards
    for trump in range(5):
        ctx = plan.deal_context(0, 0, 13, None, trump)
        for led in deck:
            same = plan.follow_suits[trump][led]
            for _ in range(12):
                cards = rng.sample([c for c in deck if c != led], rng.randint(1, 13))
                hand = sum(1 << c for c in cards)
                seat = rng.randrange(1, rules.players)
                expected = follow(ctx, seat, hand, (led,), 0)
                assert plan.follow_mask(ctx, seat, hand, (led,), 0) == expected
                assert not same or (hand & same or hand) == expected


def test_the_built_in_parts_compile_and_a_changed_rule_runs_through_its_methods() -> None:
    rules = ba.variants.GAMERULES
    compiled = plan_module.compiled_parts(rules)
    assert set(compiled["lead"]) == {"lead_mask", "breaks_trump"}
    assert set(compiled["follow"]) == {"follow_mask", "follow_suits"}
    assert set(compiled["ranking"]) == {"trick_winner"}
    # subclasses that change the rule get no compiled form: their own methods run
    must = ba.variants.get("must-head")
    assert plan_module.compiled_parts(must)["follow"] == {}
    user = rules.replace(lead=NoAceLeads())
    assert "lead_mask" not in plan_module.compiled_parts(user)["lead"]
    plan = user.plan
    ctx = plan.deal_context(0, 0, 3, None, 0)
    ace, club = 1 << 51, 1 << 1
    assert plan.lead_mask(ctx, 0, ace | club, True) == club
    state = ba.new_game(user, seed=3)
    rng = random.Random(3)
    while not state.is_over:  # a whole game through the protocol methods
        state = state.apply(rng.choice(state.legal_moves()))


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


def test_the_bidding_table_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plan_module, "CALL_NODE_LIMIT", 5)
    rules = ba.variants.GAMERULES
    plan = Plan(rules)
    ctx = plan.deal_context(0, 0, 13)
    for k in range(1, 12):
        node = plan.call_node(ctx, (ba.moves.bid(k), ba.moves.bid(1)))
        assert node.legal == rules.bidding.legal_calls(plan.bidding_context(ctx, node.ctx.calls))
        assert plan._nodes <= 5


def test_only_the_first_calls_of_a_bidding_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nodes of up to SHARED_CALLS calls are shared between deals; a deeper
    node is found again only while it is among the latest met, and a node
    built again answers the same."""
    monkeypatch.setattr(plan_module, "RECENT_NODES", 3)
    plan = Plan(ba.variants.GAMERULES)
    ctx = plan.deal_context(0, 0, 6)
    calls = (ba.moves.bid(1), ba.moves.bid(2), ba.moves.bid(4), ba.moves.bid(3))
    shallow = plan.call_node(ctx, calls[: plan_module.SHARED_CALLS])
    assert plan.call_node(ctx, calls[: plan_module.SHARED_CALLS]) is shallow
    kept = plan._nodes
    deep = plan.call_node(ctx, calls[:3])
    assert plan.call_node(ctx, calls[:3]) is deep  # the same bidding again, soon
    end = plan.call_node(ctx, calls)
    assert plan.call_node(ctx, calls) is end and not end.open
    for k in range(4):  # other deep nodes push them out
        plan.call_node(ctx, (*calls[:2], ba.moves.bid(k + 1), ba.moves.bid(1)))
    again = plan.call_node(ctx, calls[:3])
    assert again is not deep and again.legal is deep.legal and again.ctx == deep.ctx
    assert plan.call_node(ctx, calls).outcome == end.outcome
    assert plan._nodes == kept and len(plan._recent) <= 3


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


@settings(max_examples=200, deadline=None)
@given(mask=st.integers(1, (1 << 54) - 1))
def test_legal_play_tuples_are_the_cards_in_order(mask: int) -> None:
    """The plays of any set of cards are its cards in index order; a set
    within one suit (or the jokers) is that group's one shared tuple."""
    plays = legality.plays_of_mask(mask)
    assert [p.card.index for p in plays] == [i for i in range(54) if mask >> i & 1]
    assert all(p is ba.moves.PLAYS[p.card.index] for p in plays)
    groups = {i // 13 if i < 52 else 4 for i in range(54) if mask >> i & 1}
    if len(groups) == 1:
        (group,) = groups
        assert plays is legality._RUNS[group][mask >> 13 * group]


BIDDINGS = [
    ba.rules.OnceAroundBidding(),
    ba.rules.OnceAroundBidding(
        board_multiplier=ba.rules.BoardMultiplier.OWN_HIGHEST_CLAIM,
        board_claims=ba.rules.BoardClaims.OPPONENTS_ONLY,
        all_pass=ba.rules.AllPass.PLAY_FOR_OVERTRICKS,
    ),
    ba.rules.OnceAroundBidding(min_bid=0, pass_allowed=False, hook=True),
]


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(VARIANTS),
    bidding=st.sampled_from(BIDDINGS),
    dealer=st.integers(0, 5),
    seed=st.integers(0, 10_000),
)
def test_the_compiled_bidding_agrees_with_the_bidding_part(
    name: str, bidding: Any, dealer: int, seed: int
) -> None:
    base = ba.variants.get(name)
    rules = base if base.bidding.tag != bidding.tag else base.replace(bidding=bidding)
    plan = rules.plan
    compiled = plan_module.compiled_parts(rules)["bidding"]
    rng = random.Random(seed)
    for size in plan.hand_sizes[:6]:
        ctx = plan.deal_context(0, dealer % rules.players, size)
        node = plan.call_node(ctx)
        while node.open:
            legal = rules.bidding.legal_calls(node.ctx)
            assert node.legal == legal
            if "legal_calls" in compiled:
                assert compiled["legal_calls"](node.ctx) == legal
            node = node.after(rng.choice(node.legal))
        expected = rules.bidding.outcome(node.ctx)
        assert node.outcome == expected
        if "outcome" in compiled:
            assert compiled["outcome"](node.ctx) == expected


@pytest.mark.parametrize("bidding", BIDDINGS, ids=lambda b: type(b).__name__)
def test_the_compiled_outcome_shares_outcomes_only_where_they_are_equal(bidding: Any) -> None:
    """One compiled outcome, asked about many biddings (so it answers from the
    outcomes it shares), always gives the bidding part's outcome."""
    for name in ("gamerules", "vietnam-cutthroat", "cutthroat-5"):
        base = ba.variants.get(name)
        rules = base if base.bidding.tag != bidding.tag else base.replace(bidding=bidding)
        outcome = plan_module.compiled_parts(rules)["bidding"].get("outcome")
        if outcome is None:
            continue
        plan = rules.plan
        rng = random.Random(7)
        for _ in range(400):
            size = rng.choice((1, 2, 3))
            node = plan.call_node(plan.deal_context(0, rng.randrange(rules.players), size))
            while node.open:
                node = node.after(rng.choice(node.legal))
            assert outcome(node.ctx) == rules.bidding.outcome(node.ctx)


def test_a_bidding_that_changes_the_legal_calls_runs_through_its_method() -> None:
    rules = ba.variants.GAMERULES.replace(bidding=NoHighBids())
    assert set(plan_module.compiled_parts(rules)["bidding"]) == {"outcome"}
    node = rules.plan.call_node(rules.plan.deal_context(0, 0, 8))
    assert max(c.tricks for c in node.legal if isinstance(c, ba.Bid)) == 3
    state = ba.new_game(rules, seed=4)
    assert ba.moves.bid(4) not in state.legal_moves()


def test_a_bidding_that_changes_the_outcome_runs_through_its_method() -> None:
    compiled = plan_module.compiled_parts(ba.variants.GAMERULES)["bidding"]
    assert set(compiled) == {"legal_calls", "outcome"}
    rules = ba.variants.GAMERULES.replace(bidding=DoubledBoards())
    assert set(plan_module.compiled_parts(rules)["bidding"]) == {"legal_calls"}
    plan = rules.plan
    node = plan.call_node(plan.deal_context(0, 0, 5))
    for call in (ba.moves.BOARD, ba.moves.PASS, ba.moves.bid(2), ba.moves.PASS):
        node = node.after(node.find(call))  # type: ignore[arg-type]
    # seat 1 (left of the dealer, side 1) claimed board once: x1, doubled
    assert node.outcome.contracts[1] == Contract(5, board=True, multiplier=2)


def test_every_deal_opens_at_the_plans_shared_first_node() -> None:
    """A dealt deal (shuffled, from a deck order, or read from a document)
    starts its bidding at the plan's one node for its hand size and first
    bidder, so its first calls need no look-up."""
    rules = ba.variants.GAMERULES
    plan = rules.plan
    state = ba.new_game(rules, seed=5)
    first = rules.bidding.first(state.dealer, rules.players)
    node = lowlevel.core(state).deal.node
    assert node is plan.opening_node(state.hand_size, first)
    assert node is plan.call_node(lowlevel.deal_context(state))
    assert plan.first_bidders == tuple(rules.bidding.first(d, 4) for d in range(4))
    reread = ba.from_json(ba.to_json(state), ba.GameState)
    first_node = reread.rules.plan.opening_node(state.hand_size, first)
    assert lowlevel.core(reread).deal.node is first_node
    again = lowlevel.deal_order(state, tuple(reversed(plan.deck_cards)))
    assert lowlevel.core(again).deal.node is node
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


@settings(max_examples=40, deadline=None)
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
