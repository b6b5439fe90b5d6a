"""The step kernel: the raw form of a game, its one transition, and the one
builder of each of its values.

A game's raw form is a plain tuple, :data:`Raw`: the rule set, the
:class:`Match` (what changes at most once a deal), the :class:`Deal` (what
changes at most during the bidding), the phase, the hands (bit sets), the
leader, the current trick (card indices), the completed tricks and whether
trump is broken.  Every way of moving a game on goes through this module:

- :func:`start` deals a deal (a given deck order, else the seed's shuffle),
  lets the trump part open it and opens the bidding;
- :func:`call` makes a call (the bidding goes on, is thrown in and dealt again,
  goes to the declarer to name trump, or is played);
- :func:`name_trump` names the declarer's trump;
- :func:`play` plays a card: the trick goes on, or it is complete (its winner
  leads next), or it was the deal's last (the deal is scored and the next one
  dealt, or the game is over).

:meth:`GameState.apply <backalley.GameState.apply>`, ``apply_unchecked``,
:func:`backalley.engine.lowlevel.playout`, record replay and document loading all
come here.  The rule set's :class:`~backalley.rules.plan.Plan` asks the parts
and checks their answers; this module only moves the facts on.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import add
from typing import Any

import attrs

from backalley import chance
from backalley.cards import CARDS
from backalley.cardset import CardSet
from backalley.engine.public import bids_of
from backalley.errors import RuleSetError
from backalley.moves import PLAYS, Move, NameTrump
from backalley.reprs import fields_repr
from backalley.rules.context import DealContext
from backalley.rules.plan import CallNode, Plan
from backalley.rules.ruleset import RuleSet
from backalley.values import DealResult, Phase, RawTrick

__all__ = [
    "BITS",
    "Deal",
    "Match",
    "Raw",
    "begin",
    "call",
    "deal_moves",
    "deals_over",
    "deck_order",
    "impose",
    "name_trump",
    "open_public",
    "play",
    "receiver",
    "restore",
    "resume",
    "start",
    "to_act",
]

BITS: tuple[int, ...] = tuple(1 << i for i in range(54))
"""The bit of each card index."""

PLAYING = Phase.PLAYING
BIDDING = Phase.BIDDING
NAMING = Phase.NAMING_TRUMP
GAME_OVER = Phase.GAME_OVER


@attrs.frozen(slots=True, repr=False)
class Match:
    """The parts of a game that change at most once per deal."""

    __repr__ = fields_repr

    seed: int
    first_dealer: int
    decks: tuple[tuple[int, ...], ...]
    """The deck orders that did not come from the seed: shuffle ``k`` (from 0;
    one per deal dealt, thrown-in deals included, or two when the trump is
    drawn before each deal) uses ``decks[k]`` while there is one, then the seed."""
    deal_number: int
    """How many deals have been dealt, thrown-in deals included."""
    scores: tuple[int, ...]
    results: tuple[DealResult, ...]
    moves: tuple[Move, ...] = ()
    """The moves of every deal that is over (scored or thrown in), in order."""


@attrs.frozen(slots=True, repr=False)
class Deal:
    """The parts of a deal that change at most during the bidding: its
    :class:`~backalley.rules.context.DealContext` (dealer, hand size, bidding
    outcome, trump; during the play also the cards played before the current
    trick and whether trump is broken, moved on at the end of each trick but
    the deal's last), the hands as dealt, the stock, the turn-up, the
    discards, the calls and the declarer's trump call."""

    __repr__ = fields_repr

    ctx: DealContext
    dealt_bits: tuple[int, ...]
    stock_order: tuple[int, ...]
    turn_up_index: int | None
    discard_bits: int
    calls: tuple[Move, ...] = ()
    trump_call: NameTrump | None = None
    node: CallNode | None = attrs.field(default=None, eq=False, hash=False, repr=False)
    """The plan's bidding node after ``calls`` while the bidding goes on (not compared, not pickled)."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            Deal,
            (
                self.ctx,
                self.dealt_bits,
                self.stock_order,
                self.turn_up_index,
                self.discard_bits,
                self.calls,
                self.trump_call,
            ),
        )


_new = object.__new__
_cardset = int.__new__  # a CardSet of the engine's own bit set
_tuple = tuple.__new__  # a named tuple from its fields, without NamedTuple.__new__'s frame
_DEAL_STORES = tuple(Deal.__dict__[a.name].__set__ for a in attrs.fields(Deal))


def _deal(
    ctx: DealContext,
    dealt: tuple[int, ...],
    stock: tuple[int, ...],
    turn_up: int | None,
    discards: int,
    calls: tuple[Move, ...],
    trump_call: NameTrump | None,
    node: CallNode | None,
) -> Deal:
    """The builder of a :class:`Deal` as the bidding goes on (slot stores:
    one is built per call, from the deal's own, checked facts)."""
    deal = _new(Deal)
    s_ctx, s_dealt, s_stock, s_turn_up, s_discards, s_calls, s_trump_call, s_node = _DEAL_STORES
    s_ctx(deal, ctx)
    s_dealt(deal, dealt)
    s_stock(deal, stock)
    s_turn_up(deal, turn_up)
    s_discards(deal, discards)
    s_calls(deal, calls)
    s_trump_call(deal, trump_call)
    s_node(deal, node)
    return deal


Raw = tuple[
    RuleSet,
    Match,
    Deal,
    Phase,
    tuple[int, ...],
    int,
    tuple[int, ...],
    tuple[RawTrick, ...],
    bool,
]
"""A game's raw form: rules, match, deal, phase, hands (bit sets), leader,
current trick (card indices), completed tricks, trump broken."""


def to_act(raw: Raw) -> int | None:
    """The seat whose move it is (``None`` once the game is over)."""
    rules, _match, deal, phase, _hands, leader, trick, _history, _broken = raw
    if phase is PLAYING:
        return (leader + len(trick)) % rules.players
    if phase is BIDDING:
        return (leader + len(deal.calls)) % rules.players
    if phase is NAMING:
        return deal.ctx.outcome.declarer  # type: ignore[union-attr]
    return None


def deals_over(raw: Raw) -> int:
    """How many deals of the game are over - scored or thrown in: the deals
    dealt, less the one in progress.  A move ended a deal exactly when it
    raised this count (the one fact the tools read "did the deal end" from)."""
    return raw[1].deal_number - (raw[3] is not GAME_OVER)


def deal_moves(
    deal: Deal, history: tuple[RawTrick, ...], trick: tuple[int, ...]
) -> tuple[Move, ...]:
    """The moves of a deal so far: its calls, the trump call, the plays in order."""
    named: tuple[Move, ...] = () if deal.trump_call is None else (deal.trump_call,)
    plays = tuple(PLAYS[c] for _leader, cards, _winner in history for c in cards)
    return deal.calls + named + plays + tuple(PLAYS[c] for c in trick)


# ------------------------------------------------------------------ dealing

_DRAW: Any = object()
"""``start``'s trump when the deal's own shuffle before the deal decides it."""


def begin(
    rules: RuleSet,
    seed: int,
    first_dealer: int,
    decks: tuple[tuple[int, ...], ...],
    order: Sequence[int] | None = None,
) -> Raw:
    """A new game at the opening of its first deal, dealt by ``first_dealer``
    from the deck order ``order`` (else the deal's shuffle of ``decks``, else
    the seed's)."""
    plan = rules.plan
    match = Match(seed, first_dealer, decks, 0, (0,) * len(plan.teams), ())
    return start(rules, match, first_dealer, plan.hand_sizes[0], order)


def resume(
    rules: RuleSet,
    first_dealer: int,
    scores: tuple[int, ...],
    results: tuple[DealResult, ...],
    dealer: int,
    hand_size: int,
    order: Sequence[int],
    trump: Any = _DRAW,
) -> Raw:
    """A game resumed at the opening of a later deal, after another game's
    deal ``results`` and ``scores``, dealt by ``dealer`` from ``order`` (how a
    bot samples the hidden hands of a deal in progress); ``trump``: the trump
    drawn before the deal, for a trump part that draws one."""
    match = Match(0, first_dealer, (), len(results), scores, results)
    return start(rules, match, dealer, hand_size, order, trump)


def open_public(
    rules: RuleSet,
    ctx: DealContext,
    hands: tuple[int, ...],
    turn_up: int | None,
    discards: int,
    scores: tuple[int, ...],
    results: tuple[DealResult, ...],
) -> Raw:
    """A deal at its opening from what one seat may know (how a player's view
    is read back): its context (dealer, hand size, the opening trump), for
    each seat the cards it is known to hold this deal (the seat's own hand
    and the cards the others are seen to play), the turn-up and the discards.
    The kernel's transitions then move it on like any deal, up to the play
    that would end it (which needs the hands as dealt)."""
    plan = rules.plan
    shown = plan.shown(ctx, turn_up, discards)
    if shown:
        ctx = ctx._replace(shown=shown)
    first = plan.first_bidders[ctx.dealer]
    node = plan.opening_node(ctx.hand_size, first)
    match = Match(0, ctx.dealer, (), len(results) + 1, scores, results)
    deal = _deal(ctx, hands, (), turn_up, discards, (), None, node)
    return (rules, match, deal, BIDDING, hands, first, (), (), False)


def restore(raw: Raw) -> Raw:
    """A raw form read back from a pickle, with the bidding's node found again
    (a deal's node is not pickled)."""
    rules, match, deal, phase = raw[:4]
    if phase is not BIDDING or deal.node is not None:
        return raw
    node = rules.plan.call_node(deal.ctx, deal.calls)
    deal = _deal(
        deal.ctx, deal.dealt_bits, deal.stock_order, deal.turn_up_index, deal.discard_bits,
        deal.calls, deal.trump_call, node,
    )  # fmt: skip
    return (rules, match, deal, *raw[3:])


def _shuffle(plan: Plan, match: Match, index: int) -> tuple[int, ...]:
    """Shuffle number ``index`` of the game (from 0): the match's given deck
    order while there is one, then the seed's."""
    if index < len(match.decks):
        return match.decks[index]
    return chance.shuffled(match.seed, index, plan.deck_cards)


def receiver(k: int, dealer: int, players: int, hand_size: int) -> int | None:
    """The seat that card ``k`` (from 0, the top) of a deal's deck order goes
    to, ``None`` for a card left in the stock: :func:`start` deals the hands
    one card at a time, clockwise from the dealer's left."""
    if k >= players * hand_size:
        return None
    return (dealer + 1 + k % players) % players


def deck_order(
    hands: Sequence[int], stock: Sequence[int], dealer: int, hand_size: int
) -> tuple[int, ...]:
    """The deck order (card indices, top first) that :func:`start` deals as
    ``hands`` (bit sets of ``hand_size`` cards, before the trump part's
    opening), leaving ``stock`` (top first): the inverse of its dealing
    (:func:`receiver`).  Each hand's cards are dealt lowest index first."""
    players = len(hands)
    cards = []
    for hand in hands:
        held = []
        while hand:
            low = hand & -hand
            held.append(low.bit_length() - 1)
            hand ^= low
        cards.append(held)
    order = [-1] * (players * hand_size)
    dealt = [0] * players
    for k in range(len(order)):
        seat = receiver(k, dealer, players, hand_size)
        assert seat is not None
        order[k] = cards[seat][dealt[seat]]
        dealt[seat] += 1
    return (*order, *stock)


def start(
    rules: RuleSet,
    match: Match,
    dealer: int,
    hand_size: int,
    order: Sequence[int] | None = None,
    trump: Any = _DRAW,
) -> Raw:
    """Deal the next deal (number ``match.deal_number``): the deck ``order``
    if given, else the match's next given deck order, else the seed's shuffle;
    the hands go round clockwise from the dealer's left, one card at a time;
    the trump part opens the deal; the bidding opens with the first bidder.

    A trump part that draws trump before the deal draws it from a shuffle of
    its own, the deal's first (each deal then takes two shuffles); ``trump``,
    when given, is the trump drawn instead (a deal opened again from what a
    player saw)."""
    plan: Plan = rules.plan
    k = match.deal_number
    shuffles = plan.shuffles_per_deal
    ctx = plan.deal_context(len(match.results), dealer, hand_size)
    if plan.draws_before_deal:
        if trump is _DRAW:
            trump = plan.trump_before_deal(ctx, _shuffle(plan, match, k * shuffles))
        ctx = ctx._replace(trump=trump)
    if order is None:
        order = _shuffle(plan, match, k * shuffles + shuffles - 1)
    match = Match(
        match.seed, match.first_dealer, match.decks, k + 1, match.scores, match.results, match.moves
    )
    players = plan.players
    dealt = players * hand_size
    hands = [0] * players
    for offset in range(players):
        # card k goes to receiver(k): the first round's seats, round after round
        # (distinct cards: the sum of their bits is their union)
        seat = receiver(offset, dealer, players, hand_size)
        assert seat is not None
        hands[seat] = sum(map(BITS.__getitem__, order[offset:dealt:players]))
    hands_t, stock, turn_up, discards, opened = plan.opening(
        ctx, tuple(hands), tuple(order[dealt:])
    )
    if opened is not None:
        ctx = ctx._replace(trump=opened)
    shown = plan.shown(ctx, turn_up, discards)
    if shown:
        ctx = ctx._replace(shown=shown)
    first = plan.first_bidders[dealer]
    node = plan.opening_node(hand_size, first)
    deal = _deal(ctx, hands_t, stock, turn_up, discards, (), None, node)
    return (rules, match, deal, BIDDING, hands_t, first, (), (), False)


def impose(raw: Raw, order: Sequence[int]) -> Raw:
    """The current deal, still before its first call, dealt again from the deck
    ``order``; the match remembers the order (so a replay deals it too)."""
    rules, match, deal, _phase, _hands, _leader, _trick, _history, _broken = raw
    k = match.deal_number - 1
    decks = list(match.decks)
    plan = rules.plan
    index = (k + 1) * plan.shuffles_per_deal - 1  # the deal's own shuffle
    while len(decks) < index:  # the shuffles before it came from the seed: remember them too
        decks.append(tuple(chance.shuffled(match.seed, len(decks), plan.deck_cards)))
    decks[index : index + 1] = [tuple(order)]
    before = attrs.evolve(match, decks=tuple(decks), deal_number=k)
    return start(rules, before, deal.ctx.dealer, deal.ctx.hand_size, order)


# ------------------------------------------------------------------ bidding


def call(raw: Raw, child: CallNode) -> Raw:
    """The game after the call that leads to the bidding node ``child`` (the
    node after the current one): the bidding goes on, or it ends and the deal
    is thrown in, goes to the declarer to name trump, or is played."""
    rules, match, deal, _phase, hands, leader, _trick, history, broken = raw
    calls = child.ctx.calls
    ctx = deal.ctx
    if child.open:
        new = _deal(
            ctx, deal.dealt_bits, deal.stock_order, deal.turn_up_index, deal.discard_bits,
            calls, None, child,
        )  # fmt: skip
        return (rules, match, new, BIDDING, hands, leader, (), history, broken)
    outcome = child.outcome
    plan = rules.plan
    if outcome.thrown_in:
        match = Match(
            match.seed, match.first_dealer, match.decks, match.deal_number, match.scores,
            match.results, match.moves + calls,
        )  # fmt: skip
        return start(rules, match, plan.redealer(ctx.dealer), ctx.hand_size)
    ctx = ctx._replace(outcome=outcome)
    new = _deal(
        ctx, deal.dealt_bits, deal.stock_order, deal.turn_up_index, deal.discard_bits, calls,
        None, None,
    )  # fmt: skip
    if plan.trump_choices(ctx):
        if outcome.declarer is None:
            raise RuleSetError(
                [
                    f"trump and bidding: {type(rules.trump).__name__} has the declarer name "
                    f"trump, but {type(rules.bidding).__name__}.outcome named no declarer"
                ]
            )
        return (rules, match, new, NAMING, hands, leader, (), history, broken)
    return (rules, match, new, PLAYING, hands, plan.first_leader(ctx), (), history, broken)


def name_trump(raw: Raw, move: NameTrump) -> Raw:
    """The game after the declarer names trump (``move.suit``; ``None``: no trump)."""
    rules, match, deal, _phase, hands, _leader, _trick, history, broken = raw
    ctx = deal.ctx._replace(trump=move.suit)
    new = _deal(
        ctx, deal.dealt_bits, deal.stock_order, deal.turn_up_index, deal.discard_bits,
        deal.calls, move, None,
    )  # fmt: skip
    return (rules, match, new, PLAYING, hands, rules.plan.first_leader(ctx), (), history, broken)


# --------------------------------------------------------------------- play


def play(raw: Raw, card: int) -> Raw:
    """The game after the seat to act plays ``card`` (which it may play)."""
    rules, match, deal, _phase, hands, leader, trick, history, broken = raw
    n = rules.players
    seat = (leader + len(trick)) % n
    held = list(hands)
    held[seat] ^= BITS[card]
    trick = (*trick, card)
    if len(trick) < n:
        return (rules, match, deal, PLAYING, tuple(held), leader, trick, history, broken)
    return end_trick(rules, match, deal, tuple(held), leader, trick, history, broken)


def end_trick(
    rules: RuleSet,
    match: Match,
    deal: Deal,
    hands: tuple[int, ...],
    leader: int,
    trick: tuple[int, ...],
    history: tuple[RawTrick, ...],
    broken: bool,
) -> Raw:
    """The game after the play that completes ``trick`` (``hands`` without its
    cards): its winner leads the next trick, or the deal is over."""
    plan = rules.plan
    ctx = deal.ctx
    winner, broken = plan.trick_end(ctx, trick, leader, broken)
    history = (*history, (leader, trick, winner))
    if len(history) < ctx.hand_size:
        # the next trick's context: the cards played before it, whether trump
        # is broken, the cards each seat played before it
        *facts, played, _broken, played_by = ctx  # the deal's facts, then the play's
        played |= sum(map(BITS.__getitem__, trick))  # distinct cards: the sum is the union
        n = plan.players
        by = list(played_by) if played_by else [0] * n
        for k, card in enumerate(trick):
            seat = (leader + k) % n
            by[seat] = _cardset(CardSet, by[seat] | BITS[card])
        after = _tuple(DealContext, (*facts, _cardset(CardSet, played), broken, tuple(by)))
        deal = _deal(
            after, deal.dealt_bits, deal.stock_order, deal.turn_up_index, deal.discard_bits,
            deal.calls, deal.trump_call, None,
        )  # fmt: skip
        return (rules, match, deal, PLAYING, hands, winner, (), history, broken)
    return end_deal(rules, match, deal, hands, winner, history, broken)


def end_deal(
    rules: RuleSet,
    match: Match,
    deal: Deal,
    hands: tuple[int, ...],
    leader: int,
    history: tuple[RawTrick, ...],
    broken: bool,
) -> Raw:
    """Score the finished deal (its tricks in ``history``), then deal the next
    one or end the game."""
    plan = rules.plan
    ctx = deal.ctx
    seat_teams = plan.seat_teams
    tally = [0] * len(plan.teams)
    for _leader, _cards, winner in history:
        tally[seat_teams[winner]] += 1
    tricks = tuple(tally)
    points = plan.score(ctx, tricks, deal.dealt_bits)
    outcome = ctx.outcome
    assert outcome is not None
    turn_up = deal.turn_up_index
    result = DealResult(
        len(match.results) + 1,
        ctx.dealer,
        ctx.hand_size,
        None if turn_up is None else CARDS[turn_up],
        ctx.trump,
        bids_of(plan.players, plan.first_bidders[ctx.dealer], deal.calls),
        outcome.contracts,
        outcome.declarer,
        tricks,
        points,
    )
    match = Match(
        match.seed,
        match.first_dealer,
        match.decks,
        match.deal_number,
        tuple(map(add, match.scores, points)),
        (*match.results, result),
        match.moves + deal_moves(deal, history, ()),
    )
    if len(match.results) >= len(plan.hand_sizes):
        return (rules, match, deal, GAME_OVER, hands, leader, (), history, broken)
    dealer = plan.dealer_after(ctx, points)
    return start(rules, match, dealer, plan.hand_sizes[len(match.results)])
