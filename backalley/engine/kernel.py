"""The step kernel: the raw form of a game, its one transition, and the one
builder of each of its values.

A game's raw form is one typed value, :class:`Raw`: the rule set, the
:class:`Match` (what changes at most once a deal), the :class:`Deal` (what
changes at most once a deal phase: the hands as dealt, the stock, the
turn-up, the discards, the trump call), the phase, the hands (bit sets), the
leader, the current trick (card indices), the completed tricks, whether trump
is broken, the deal's :class:`~backalley.rules.context.DealContext` as the
parts see it now, the calls so far and - during the bidding - the plan's
bidding node.  Every way of moving a game on goes through this module:

- :func:`start` deals a deal (a given deck order, else the seed's shuffle),
  lets the trump part open it and opens the bidding;
- :func:`step` is the one transition of a legal move, whatever the phase:
  :func:`call` (the bidding goes on, is thrown in and dealt again, goes to
  the declarer to name trump, or is played), :func:`name_trump`, and
  :func:`play` (the trick goes on, or it is complete - its winner leads next -,
  or it was the deal's last: the deal is scored and the next one dealt, or the
  game is over);
- :func:`legal` works out the legal moves of a raw form (asked when a state
  is asked, never at its building), :func:`find` the legal move equal to a
  given one, and :func:`advance` is the checked transition (:func:`find`,
  then :func:`step`) that ``apply`` and the playout take.

:meth:`GameState.apply <backalley.GameState.apply>`, ``apply_unchecked``,
:func:`backalley.engine.lowlevel.playout`, record replay and document loading all
come here.  The rule set's :class:`~backalley.rules.plan.Plan` asks the parts
and checks their answers; this module only moves the facts on.

One module, one job: the raw form and the one builder of each of its values;
every transition is here so that none is made anywhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from operator import add, itemgetter
from typing import Any, NamedTuple

import attrs

from backalley import chance
from backalley.cards import CARDS, Suit
from backalley.cardset import CardSet
from backalley.engine.public import bids_of
from backalley.errors import RuleSetError
from backalley.moves import PLAYS, Move, NameTrump, Play
from backalley.reprs import with_fields_repr
from backalley.rules.context import DealContext
from backalley.rules.plan import CallNode, Plan
from backalley.rules.ruleset import RuleSet
from backalley.values import BiddingOutcome, DealResult, Phase, RawTrick

__all__ = [
    "BITS",
    "Deal",
    "Legal",
    "Match",
    "Raw",
    "advance",
    "begin",
    "call",
    "call_within_deal",
    "deal_moves",
    "deals_over",
    "deck_order",
    "find",
    "impose",
    "legal",
    "name_trump",
    "open_public",
    "play",
    "play_within_deal",
    "receiver",
    "reduced",
    "restore",
    "resume",
    "start",
    "step",
    "to_act",
]

BITS: tuple[int, ...] = tuple(1 << i for i in range(54))
"""The bit of each card index."""

PLAYING = Phase.PLAYING
BIDDING = Phase.BIDDING
NAMING = Phase.NAMING_TRUMP
GAME_OVER = Phase.GAME_OVER


@with_fields_repr
@attrs.frozen(slots=True, repr=False)
class Match:
    """The parts of a game that change at most once per deal."""

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


@with_fields_repr
@attrs.frozen(slots=True, repr=False)
class Deal:
    """The parts of a deal that are fixed once it is dealt (the hands as
    dealt, the stock, the turn-up, the discards) and the declarer's trump
    call, once made.  Built twice a deal at most, through its constructor."""

    dealt_bits: tuple[int, ...]
    stock_order: tuple[int, ...]
    turn_up_index: int | None
    discard_bits: int
    trump_call: NameTrump | None = None


class Raw(NamedTuple):
    """A game's raw form: one frozen value per moment of the game, typed field
    by field (a named tuple: built by the kernel alone, in one step, on every
    move).  :func:`backalley.engine.lowlevel.core` gives it to tools."""

    rules: RuleSet
    match: Match
    deal: Deal
    phase: Phase
    hand_bits: tuple[int, ...]
    """Every seat's hand now, as a bit set."""
    leader: int
    """Who leads the current trick (the first bidder before the play)."""
    trick_cards: tuple[int, ...]
    """The current trick's cards in the order played."""
    history: tuple[RawTrick, ...]
    """This deal's completed tricks: ``(leader, cards, winner)``."""
    broken: bool
    """Whether trump is broken (after the deal's last trick: by it too)."""
    ctx: DealContext
    """The deal's context as the parts see it now: during the play, with the
    cards played before the current trick and whether trump is broken."""
    calls: tuple[Move, ...]
    """This deal's calls so far."""
    node: CallNode | None
    """The plan's bidding node after :attr:`calls` while the bidding goes on,
    else ``None`` (not pickled: :func:`reduced` and :func:`restore`)."""


Legal = int | tuple[Move, ...]
"""The legal moves of a raw form, as :func:`legal` gives them: the legal
plays as a bit set while playing, the tuple of legal moves otherwise."""

_tuple = tuple.__new__  # a named tuple from its fields, without NamedTuple.__new__'s frame
_cardset = int.__new__  # a CardSet of the engine's own bit set
_or = int.__or__  # the union of two bit sets (CardSets too) as a plain int
_CARDS_OF = itemgetter(1)  # a completed trick's cards


def _raw(
    rules: RuleSet,
    match: Match,
    deal: Deal,
    phase: Phase,
    hands: tuple[int, ...],
    leader: int,
    trick: tuple[int, ...],
    history: tuple[RawTrick, ...],
    broken: bool,
    ctx: DealContext,
    calls: tuple[Move, ...],
    node: CallNode | None,
) -> Raw:
    """The one builder of a :class:`Raw` (in one step, from checked facts)."""
    return _tuple(
        Raw, (rules, match, deal, phase, hands, leader, trick, history, broken, ctx, calls, node)
    )


def _node(raw: Raw) -> CallNode:
    """The bidding node of a raw form in the bidding."""
    node = raw.node
    if node is None:  # pragma: no cover - the kernel gives every bidding its node
        raise AssertionError("a bidding without its node")
    return node


def to_act(raw: Raw) -> int | None:
    """The seat whose move it is (``None`` once the game is over)."""
    phase = raw.phase
    if phase is PLAYING:
        return (raw.leader + len(raw.trick_cards)) % raw.rules.players
    if phase is BIDDING:
        return (raw.leader + len(raw.calls)) % raw.rules.players
    if phase is NAMING:
        outcome = raw.ctx.outcome
        return None if outcome is None else outcome.declarer
    return None


def deals_over(raw: Raw) -> int:
    """How many deals of the game are over - scored or thrown in: the deals
    dealt, less the one in progress.  A move ended a deal exactly when it
    raised this count (the one fact the tools read "did the deal end" from)."""
    return raw.match.deal_number - (raw.phase is not GAME_OVER)


def deal_moves(
    calls: tuple[Move, ...],
    deal: Deal,
    history: tuple[RawTrick, ...],
    trick: tuple[int, ...],
) -> tuple[Move, ...]:
    """The moves of a deal so far: its calls, the trump call, the plays in order."""
    named: tuple[Move, ...] = () if deal.trump_call is None else (deal.trump_call,)
    plays = tuple(map(PLAYS.__getitem__, chain.from_iterable(map(_CARDS_OF, history))))
    return calls + named + plays + tuple(map(PLAYS.__getitem__, trick))


# ------------------------------------------------------------ legal moves


def legal(raw: Raw) -> Legal:
    """The legal moves of the seat to act: the legal plays as a bit set while
    playing (the lead and follow parts' restrictions), the legal calls of the
    bidding node, the declarer's trump calls, or none."""
    rules, _match, _deal, phase, hands, leader, trick, _history, broken, ctx, _calls, _at = raw
    if phase is PLAYING:
        seat = (leader + len(trick)) % rules.players
        return rules.plan.play_mask(ctx, seat, hands[seat], trick, leader, broken)
    if phase is BIDDING:
        return _node(raw).legal
    if phase is NAMING:
        return rules.plan.trump_calls(ctx)
    return ()


def find(raw: Raw, legal: Legal, move: object) -> Move | None:
    """The legal move equal to ``move`` (``None`` if it is not legal), given
    the raw form's :func:`legal` moves."""
    if isinstance(legal, int):
        return move if type(move) is Play and legal >> move.card.index & 1 else None
    if raw.phase is BIDDING:
        return _node(raw).find(move)
    for found in legal:
        if found == move:
            return found
    return None


def step(raw: Raw, move: Move) -> Raw:
    """The one transition: the game after the seat to act makes ``move``,
    which must be legal (one of :func:`legal`'s moves)."""
    phase = raw.phase
    if type(move) is Play:  # a legal play: the phase is the play
        return play(raw, move.card.index)
    if phase is BIDDING:
        return call(raw, move)
    if phase is NAMING and type(move) is NameTrump:
        return name_trump(raw, move)
    raise AssertionError(f"{move} is no move of phase {phase.value}")  # pragma: no cover


def advance(raw: Raw, legal: Legal, move: object) -> Raw | None:
    """The checked transition: the game after ``move`` when it is one of the
    raw form's :func:`legal` moves (:func:`find`, then :func:`step`), else
    ``None`` (the move is refused; nothing was moved on)."""
    if isinstance(legal, int):  # a play: one bit test
        if type(move) is Play and legal >> move.card.index & 1:
            return play(raw, move.card.index)
        return None
    found = find(raw, legal, move)
    return None if found is None else step(raw, found)


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
    deal = Deal(hands, (), turn_up, discards)
    return _raw(rules, match, deal, BIDDING, hands, first, (), (), False, ctx, (), node)


def reduced(raw: Raw) -> Raw:
    """The raw form as it is pickled: without the bidding's node (a table of
    the plan), which :func:`restore` finds again."""
    return raw if raw.node is None else raw._replace(node=None)


def restore(raw: Raw) -> Raw:
    """A raw form read back from a pickle, with the bidding's node found again."""
    if raw.phase is not BIDDING or raw.node is not None:
        return raw
    return raw._replace(node=raw.rules.plan.call_node(raw.ctx, raw.calls))


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
    dealt = Match(
        match.seed, match.first_dealer, match.decks, match.deal_number + 1, match.scores,
        match.results, match.moves,
    )  # fmt: skip
    return _open(rules, dealt, dealer, hand_size, order, trump)


def _open(
    rules: RuleSet,
    match: Match,
    dealer: int,
    hand_size: int,
    order: Sequence[int] | None = None,
    trump: Any = _DRAW,
) -> Raw:
    """:func:`start`, given the match as it is once the deal is dealt (its
    ``deal_number`` counts this deal)."""
    plan: Plan = rules.plan
    k = match.deal_number - 1
    shuffles = plan.shuffles_per_deal
    ctx = plan.deal_context(len(match.results), dealer, hand_size)
    if plan.draws_before_deal:
        if trump is _DRAW:
            trump = plan.trump_before_deal(ctx, _shuffle(plan, match, k * shuffles))
        ctx = _with_trump(ctx, trump)
    if order is None:
        order = _shuffle(plan, match, k * shuffles + shuffles - 1)
    players = plan.players
    dealt = players * hand_size
    hands = [0] * players
    seat = dealer
    for offset in range(players):
        # card k goes to receiver(k): the first round's seats, round after round
        # (distinct cards: the sum of their bits is their union)
        seat = seat + 1 if seat + 1 < players else 0
        hands[seat] = sum(map(BITS.__getitem__, order[offset:dealt:players]))
    hands_t, stock, turn_up, discards, opened = plan.opening(
        ctx, tuple(hands), tuple(order[dealt:])
    )
    if opened is not None:
        ctx = _with_trump(ctx, opened)
    shown = plan.shown(ctx, turn_up, discards)
    if shown:
        ctx = _tuple(DealContext, (*ctx[:9], shown, *ctx[10:]))
    first = plan.first_bidders[dealer]
    node = plan.opening_node(hand_size, first)
    deal = Deal(hands_t, stock, turn_up, discards)
    return _raw(rules, match, deal, BIDDING, hands_t, first, (), (), False, ctx, (), node)


def _with_trump(ctx: DealContext, trump: Suit | None) -> DealContext:
    """``ctx`` with the deal's trump (a context built in one step, not by ``_replace``)."""
    return _tuple(DealContext, (*ctx[:7], trump, *ctx[8:]))


def _with_outcome(ctx: DealContext, outcome: BiddingOutcome) -> DealContext:
    """``ctx`` with the bidding's outcome."""
    return _tuple(DealContext, (*ctx[:6], outcome, *ctx[7:]))


def impose(raw: Raw, order: Sequence[int]) -> Raw:
    """The current deal, still before its first call, dealt again from the deck
    ``order``; the match remembers the order (so a replay deals it too)."""
    rules, match = raw.rules, raw.match
    k = match.deal_number - 1
    decks = list(match.decks)
    plan = rules.plan
    index = (k + 1) * plan.shuffles_per_deal - 1  # the deal's own shuffle
    while len(decks) < index:  # the shuffles before it came from the seed: remember them too
        decks.append(tuple(chance.shuffled(match.seed, len(decks), plan.deck_cards)))
    decks[index : index + 1] = [tuple(order)]
    before = attrs.evolve(match, decks=tuple(decks), deal_number=k)
    return start(rules, before, raw.ctx.dealer, raw.ctx.hand_size, order)


# ------------------------------------------------------------------ bidding


def call(raw: Raw, move: Move) -> Raw:
    """The game after the seat to speak makes the legal call ``move``: the
    bidding goes on, or it ends and the deal is thrown in, goes to the
    declarer to name trump, or is played."""
    child = _node(raw).after(move)
    if child.open or not child.outcome.thrown_in:
        return _called(raw, child)
    rules, match, ctx = raw.rules, raw.match, raw.ctx
    match = Match(
        match.seed, match.first_dealer, match.decks, match.deal_number + 1, match.scores,
        match.results, match.moves + child.ctx.calls,
    )  # fmt: skip
    return _open(rules, match, rules.plan.redealer(ctx.dealer), ctx.hand_size)


def call_within_deal(raw: Raw, move: Move) -> Raw | None:
    """The game after the seat to speak makes the legal call ``move`` when
    the deal goes on (``None``: the call throws the deal in).  A player's
    view is replayed by it: what follows a throw-in is the next deal, which
    the view does not hold."""
    child = _node(raw).after(move)
    if child.open or not child.outcome.thrown_in:
        return _called(raw, child)
    return None


def _called(raw: Raw, child: CallNode) -> Raw:
    """The game after a call that leads to ``child``, which does not throw
    the deal in: the bidding goes on, or it goes to the declarer to name
    trump, or the play begins."""
    rules, match, deal, _phase, hands, leader, _trick, history, broken, ctx, _calls, _at = raw
    calls = child.ctx.calls
    if child.open:
        return _raw(
            rules, match, deal, BIDDING, hands, leader, (), history, broken, ctx, calls, child
        )
    outcome = child.outcome
    plan = rules.plan
    ctx = _with_outcome(ctx, outcome)
    if plan.trump_choices(ctx):
        if outcome.declarer is None:
            raise RuleSetError(
                [
                    f"trump and bidding: {type(rules.trump).__name__} has the declarer name "
                    f"trump, but {type(rules.bidding).__name__}.outcome named no declarer"
                ]
            )
        return _raw(
            rules, match, deal, NAMING, hands, leader, (), history, broken, ctx, calls, None
        )
    first = plan.first_leader(ctx)
    return _raw(rules, match, deal, PLAYING, hands, first, (), history, broken, ctx, calls, None)


def name_trump(raw: Raw, move: NameTrump) -> Raw:
    """The game after the declarer names trump (``move.suit``; ``None``: no trump)."""
    rules, match, deal, _phase, hands, _leader, _trick, history, broken, ctx, calls, _at = raw
    ctx = _with_trump(ctx, move.suit)
    deal = Deal(deal.dealt_bits, deal.stock_order, deal.turn_up_index, deal.discard_bits, move)
    first = rules.plan.first_leader(ctx)
    return _raw(rules, match, deal, PLAYING, hands, first, (), history, broken, ctx, calls, None)


# --------------------------------------------------------------------- play


def play(raw: Raw, card: int) -> Raw:
    """The game after the seat to act plays ``card`` (which it may play)."""
    rules, match, deal, _phase, hands, leader, trick, history, broken, ctx, calls, _at = raw
    n = rules.players
    seat = (leader + len(trick)) % n
    held = list(hands)
    held[seat] ^= BITS[card]
    trick = (*trick, card)
    if len(trick) < n:
        return _tuple(
            Raw,
            (
                rules,
                match,
                deal,
                PLAYING,
                tuple(held),
                leader,
                trick,
                history,
                broken,
                ctx,
                calls,
                None,
            ),
        )
    return end_trick(raw, tuple(held), trick)


def end_trick(raw: Raw, hands: tuple[int, ...], trick: tuple[int, ...]) -> Raw:
    """The game after the play that completes ``trick`` (``hands`` without its
    cards): its winner leads the next trick, or the deal is over."""
    after = _take_trick(raw, hands, trick)
    if len(after.history) < after.ctx.hand_size:
        return after
    return end_deal(raw, hands, after.leader, after.history, after.broken)


def play_within_deal(raw: Raw, card: int) -> Raw:
    """The game after the seat to act plays ``card`` (which it may play) as
    :func:`play` moves it on within the deal: the trick goes on, or it is
    complete and its winner leads the next - after the deal's last trick,
    with every trick taken and the deal not scored.  A player's view is
    replayed by it: the deal's score needs the hands as dealt, which a view
    does not hold.  (:func:`play`, the engine's hot path, places the card
    the same way inline.)"""
    n = raw.rules.players
    seat = (raw.leader + len(raw.trick_cards)) % n
    held = list(raw.hand_bits)
    held[seat] ^= BITS[card]
    trick = (*raw.trick_cards, card)
    if len(trick) < n:
        return raw._replace(hand_bits=tuple(held), trick_cards=trick)
    return _take_trick(raw, tuple(held), trick)


def _take_trick(raw: Raw, hands: tuple[int, ...], trick: tuple[int, ...]) -> Raw:
    """The game after the play that completes ``trick`` (``hands`` without its
    cards): its winner leads the next trick."""
    rules, match, deal, _phase, _hands, leader, _trick, history, broken, ctx, calls, _at = raw
    plan = rules.plan
    winner, broken = plan.trick_end(ctx, trick, leader, broken)
    history = (*history, (leader, trick, winner))
    # the next trick's context: the cards played before it, whether trump
    # is broken, the cards each seat played before it (int operations:
    # the bit sets are wrapped as CardSets once)
    n = plan.players
    played = _cardset(CardSet, _or(ctx.played, sum(map(BITS.__getitem__, trick))))
    by = list(ctx.played_by or _NO_CARDS[n])
    seat = leader
    for card in trick:
        by[seat] = _cardset(CardSet, _or(by[seat], BITS[card]))
        seat = seat + 1 if seat + 1 < n else 0
    after = _tuple(DealContext, (*ctx[:10], played, broken, tuple(by)))
    return _raw(rules, match, deal, PLAYING, hands, winner, (), history, broken, after, calls, None)


_NO_CARDS: tuple[tuple[CardSet, ...], ...] = tuple((CardSet(),) * n for n in range(9))
"""No card played yet, for each seat of a table of up to 8 players."""


def end_deal(
    raw: Raw,
    hands: tuple[int, ...],
    leader: int,
    history: tuple[RawTrick, ...],
    broken: bool,
) -> Raw:
    """Score the finished deal (its tricks in ``history``), then deal the next
    one or end the game."""
    rules, match, deal, ctx, calls = raw.rules, raw.match, raw.deal, raw.ctx, raw.calls
    plan = rules.plan
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
        bids_of(plan.players, plan.first_bidders[ctx.dealer], calls),
        outcome.contracts,
        outcome.declarer,
        tricks,
        points,
    )
    results = (*match.results, result)
    over = len(results) >= len(plan.hand_sizes)
    match = Match(
        match.seed,
        match.first_dealer,
        match.decks,
        match.deal_number if over else match.deal_number + 1,  # the next deal is dealt
        tuple(map(add, match.scores, points)),
        results,
        match.moves + deal_moves(calls, deal, history, ()),
    )
    if over:
        return _raw(
            rules, match, deal, GAME_OVER, hands, leader, (), history, broken, ctx, calls, None
        )
    dealer = plan.dealer_after(ctx, points)
    return _open(rules, match, dealer, plan.hand_sizes[len(results)])
