"""The game state: an immutable value; every move returns a new state.

``GameState.apply`` dispatches on the phase: calls go to the rule set's
bidding part, the trump call to its trump part, cards to the lead and follow
parts, a completed trick to the ranking and lead parts, and a finished deal to
the scoring, dealer and schedule parts - all through the rule set's compiled
:attr:`~backalley.RuleSet.plan`.  The engine never looks at a part's type or
options: it only asks the parts for decisions.

The transitions are flat: one path for a play, one for the play that ends a
trick, one for the end of a deal; a new state is built by two slot stores;
legality is a bit test (plays) or an identity look-up (calls), with the full
check - and its reason - only for a move that is refused.

Internally cards are small integers and hands bit sets (see
:mod:`backalley.cards`); the public properties give :class:`~backalley.Card`
values, and :mod:`backalley.lowlevel` documents the raw forms.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import add as _add
from typing import TYPE_CHECKING, Any, NamedTuple

import attrs

from backalley import chance
from backalley.cards import CARDS, SUITS, Card, cards_of_mask
from backalley.errors import IllegalMoveError, Reason, SetupError
from backalley.legality import _PLAYS_OF, _plays, legal_moves, refusal
from backalley.moves import Move, NameTrump, Play
from backalley.public import PublicFacts, bids_of
from backalley.reprs import fields_repr
from backalley.rules.context import NO_TRUMP, DealContext
from backalley.rules.plan import CallNode, Plan
from backalley.rules.ruleset import RuleSet
from backalley.values import DealResult, Phase, RawTrick, Trick

if TYPE_CHECKING:
    from backalley.views import PlayerView

__all__ = ["Deal", "DealResult", "GameState", "Match", "Phase", "Trick"]

BITS: tuple[int, ...] = tuple(1 << i for i in range(54))
"""The bit of each card index."""
_PLAYING = Phase.PLAYING
_BIDDING = Phase.BIDDING
_NAMING = Phase.NAMING_TRUMP
_GAME_OVER = Phase.GAME_OVER


@attrs.frozen(slots=True, repr=False)
class Match:
    """The parts of a game that change at most once per deal."""

    __repr__ = fields_repr

    seed: int
    first_dealer: int
    decks: tuple[tuple[int, ...], ...]
    """The deck orders given to ``new_game``: deal ``k`` (counting thrown-in
    deals, from 0) uses ``decks[k]`` while there is one, then the seed."""
    deal_number: int
    """How many deals have been dealt, thrown-in deals included."""
    scores: tuple[int, ...]
    results: tuple[DealResult, ...]


_DEAL_FIELDS = ("ctx", "dealt_bits", "stock_order", "turn_up_index", "discard_bits", "calls")


@attrs.frozen(slots=True, repr=False)
class Deal:
    """The parts of a deal that change at most during the bidding: its
    :class:`~backalley.rules.context.DealContext` (dealer, hand size, bidding
    outcome, trump), the hands as dealt, the stock, the turn-up, the discards
    and the calls."""

    __repr__ = fields_repr

    ctx: DealContext
    dealt_bits: tuple[int, ...]
    stock_order: tuple[int, ...]
    turn_up_index: int | None
    discard_bits: int
    calls: tuple[Move, ...] = ()
    node: CallNode | None = attrs.field(default=None, eq=False, hash=False, repr=False)
    """The plan's bidding node for ``calls`` (a cache: not compared, not pickled)."""

    def with_calls(
        self,
        calls: tuple[Move, ...],
        ctx: DealContext | None = None,
        node: CallNode | None = None,
    ) -> Deal:
        """This deal with the calls so far (and a new context once the bidding
        is over; ``node``: the bidding's node after ``calls``, if known)."""
        return _deal(
            self.ctx if ctx is None else ctx,
            self.dealt_bits,
            self.stock_order,
            self.turn_up_index,
            self.discard_bits,
            calls,
            node,
        )

    def __getstate__(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in _DEAL_FIELDS)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(_DEAL_FIELDS, state):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "node", None)


class Core(NamedTuple):
    """A state's fields, in one tuple: building a state then costs one tuple
    and two attribute stores, which matters when bots play millions of moves."""

    rules: RuleSet
    match: Match
    deal: Deal
    phase: Phase
    hand_bits: tuple[int, ...]
    leader: int
    trick_cards: tuple[int, ...]
    history: tuple[RawTrick, ...]
    broken: bool


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
"""A state's fields as a plain tuple, in the order of :class:`Core`."""

_tuple = tuple.__new__  # a named tuple without NamedTuple.__new__'s Python-level call
_new = object.__new__


@attrs.frozen(slots=True, repr=False)
class GameState(PublicFacts):
    """One moment of a game, with full information (every hand, the stock, the seed).

    Build one with :func:`backalley.new_game`; move on with :meth:`apply`.
    The public reading is through the properties (``hands``, ``trick``,
    ``bids``, ``scores``, ...); :mod:`backalley.lowlevel` reads the engine's
    compact form.
    """

    _raw: Raw
    """The fields of :class:`Core`, as a plain tuple (see :attr:`_core`)."""
    _legal: Any = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)
    """A cache: the legal plays as a bit set while playing, the legal moves otherwise."""

    @property
    def _core(self) -> Core:
        """The state's fields as a :class:`Core` (see :func:`backalley.lowlevel.core`)."""
        return _tuple(Core, self._raw)

    @property
    def rules(self) -> RuleSet:
        return self._raw[0]

    @property
    def phase(self) -> Phase:
        return self._raw[3]

    @property
    def leader(self) -> int:
        """Who leads the current trick (the first bidder before the play)."""
        return self._raw[5]

    @property
    def is_over(self) -> bool:
        return self._raw[3] is _GAME_OVER

    @property
    def to_act(self) -> int | None:
        """The seat whose move it is (``None`` when the game is over)."""
        rules, _match, deal, phase, _hands, leader, trick, _history, _broken = self._raw
        if phase is _PLAYING:
            return (leader + len(trick)) % rules.players
        if phase is _BIDDING:
            return (leader + len(deal.calls)) % rules.players
        if phase is _NAMING:
            return deal.ctx.outcome.declarer  # type: ignore[union-attr]
        return None

    @property
    def calls(self) -> tuple[Move, ...]:
        """This deal's calls in the order spoken."""
        return self._raw[2].calls

    @property
    def outcome(self) -> Any:
        """The bidding's result once every player has called (a
        :class:`~backalley.values.BiddingOutcome`), else ``None``."""
        return self._raw[2].ctx.outcome

    @property
    def dealer(self) -> int:
        return self._raw[2].ctx.dealer

    @property
    def hand_size(self) -> int:
        return self._raw[2].ctx.hand_size

    # the raw forms PublicFacts reads (see backalley.lowlevel)
    @property
    def _ctx(self) -> DealContext:
        return self._raw[2].ctx

    @property
    def _trick_cards(self) -> tuple[int, ...]:
        return self._raw[6]

    @property
    def _history(self) -> tuple[RawTrick, ...]:
        return self._raw[7]

    @property
    def _broken(self) -> bool:
        return self._raw[8]

    @property
    def _turn_up_index(self) -> int | None:
        return self._raw[2].turn_up_index

    @property
    def _discard_bits(self) -> int:
        return self._raw[2].discard_bits

    def _hand_mask(self, seat: int) -> int:
        return self._raw[4][seat]

    def __reduce__(self) -> tuple[Any, ...]:
        # the state is its core; caches are rebuilt on demand
        return (_state, (self._raw,))

    # ------------------------------------------------------------------ reading

    def __repr__(self) -> str:
        name = self.rules.name or "custom"
        if self.phase is Phase.GAME_OVER:
            return f"<GameState {name}: game over after {self.deals_played} deals, scores {self.scores}>"
        return (
            f"<GameState {name}: deal {self.deals_played + 1}/{self.rules.schedule.deals} "
            f"({self.hand_size} cards), {self.phase.value}, seat {self.to_act} to act>"
        )

    @property
    def seed(self) -> int:
        """The seed all chance in this game comes from (full information only)."""
        return self._raw[1].seed

    @property
    def first_dealer(self) -> int:
        return self._raw[1].first_dealer

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's hand, each in card order."""
        return tuple(cards_of_mask(h) for h in self._raw[4])

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The hand of ``seat``, in card order."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise SetupError(f"there is no seat {seat!r}; seats are 0 to {self.players - 1}")
        return cards_of_mask(self._raw[4][seat])

    @property
    def stock(self) -> tuple[Card, ...]:
        """The undealt cards, top first (the turn-up is not among them)."""
        return tuple(CARDS[i] for i in self._raw[2].stock_order)

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative points per side (team, or seat in a cutthroat game)."""
        return self._raw[1].scores

    @property
    def deal_results(self) -> tuple[DealResult, ...]:
        """One record per scored deal."""
        return self._raw[1].results

    @property
    def winner(self) -> int | None:
        """The winning side when the game is over, ``None`` for a draw or while playing."""
        if self.phase is not Phase.GAME_OVER:
            return None
        return self.rules.end.winner(self._raw[1].scores)

    # ---------------------------------------------------------------- legality

    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves of the seat to act, in a deterministic order."""
        rules, _match, deal, phase, hands, leader, trick, _history, broken = self._raw
        if phase is _PLAYING:
            mask = self._legal
            if mask is None:
                plan = rules._plan or rules.plan
                if trick:
                    hand = hands[(leader + len(trick)) % plan.players]
                    same = plan.follow_suits[deal.ctx.trump][trick[0]]
                    if same:  # the follow part's table decides (no call)
                        mask = hand & same or hand
                    else:
                        seat = (leader + len(trick)) % plan.players
                        mask = plan.follow_mask(deal.ctx, seat, hand, trick, leader)
                else:
                    mask = plan.lead_mask(deal.ctx, leader, hands[leader], broken)
                _set_legal(self, mask)
            return _PLAYS_OF.get(mask) or _plays(mask)
        if phase is _BIDDING:
            return (deal.node or _node(rules, deal)).legal
        legal = self._legal
        if legal is None:
            legal = legal_moves(self)
            _set_legal(self, legal)
        return legal  # type: ignore[no-any-return]

    def _play_mask(self) -> int:
        """The legal plays (a bit set): the hand narrowed by every play rule."""
        mask = self._legal
        if mask is None:
            rules, _match, deal, _phase, hands, leader, trick, _history, broken = self._raw
            plan = rules._plan or rules.plan
            if trick:
                seat = (leader + len(trick)) % plan.players
                mask = plan.follow_mask(deal.ctx, seat, hands[seat], trick, leader)
            else:
                mask = plan.lead_mask(deal.ctx, leader, hands[leader], broken)
            _set_legal(self, mask)
        return mask  # type: ignore[no-any-return]

    def _accepts(self, move: object) -> bool:
        """Whether ``move`` is legal now (a bit test or an identity look-up first)."""
        phase = self._raw[3]
        if phase is _PLAYING:
            return isinstance(move, Play) and bool(self._play_mask() >> move.card.index & 1)
        if phase is _BIDDING:
            return _node(self._raw[0], self._raw[2]).find(move) is not None
        return move in self.legal_moves()

    def check(self, move: object, seat: int | None = None) -> None:
        """Raise :class:`~backalley.IllegalMoveError` if ``move`` is not legal now.

        With ``seat``, also refuse a move by a seat that is not to act
        (``NOT_YOUR_TURN``, or ``ALREADY_BID`` for a seat that has spoken).
        """
        if (
            seat is not None
            and self.phase is not Phase.GAME_OVER
            and (type(seat) is not int or seat != self.to_act)
        ):
            raise _turn_error(self, seat)
        if self._accepts(move):
            return
        why = refusal(self, move)
        if why is None:  # pragma: no cover - legal_moves and refusal share their rules
            raise AssertionError(f"{move} is refused without a reason")
        raise IllegalMoveError(*why)

    def apply(self, move: Move) -> GameState:
        """The state after ``move`` by the seat to act.

        Raises :class:`~backalley.IllegalMoveError` (and leaves this state as it
        was: states never change) when the move is not legal.
        """
        raw = self._raw
        phase = raw[3]
        if phase is _PLAYING:
            if type(move) is Play:
                card = move.card.index
                mask = self._legal
                if mask is None:
                    mask = self._play_mask()
                if mask >> card & 1:
                    rules, match, deal, _phase, hands, leader, trick, history, broken = raw
                    n = rules.players
                    k = len(trick)
                    hand_list = list(hands)
                    hand_list[(leader + k) % n] ^= BITS[card]
                    trick = trick + (card,)  # noqa: RUF005  (half the cost of unpacking, per move)
                    if k < n - 1:  # the trick goes on (the common case, inline)
                        state = _new(GameState)
                        _set_legal(state, None)
                        _set_raw(
                            state,
                            (
                                rules,
                                match,
                                deal,
                                _PLAYING,
                                tuple(hand_list),
                                leader,
                                trick,
                                history,
                                broken,
                            ),
                        )
                        return state
                    # the trick's last card: one path for it
                    return trick_done(
                        rules, match, deal, tuple(hand_list), leader, trick, history, broken
                    )
            self.check(move)  # raises, with the reason
            return self._play(move.card.index)  # type: ignore[union-attr]  # pragma: no cover
        if phase is _BIDDING:
            node = raw[2].node or _node(raw[0], raw[2])
            call = node.ids.get(id(move))
            if call is None:
                call = node.find(move)
                if call is None:
                    self.check(move)  # raises, with the reason
                    raise AssertionError(f"{move} is refused without a reason")  # pragma: no cover
            return called(raw, node.after(call))
        self.check(move)
        return self._name_trump(move)  # type: ignore[arg-type]

    def apply_unchecked(self, move: Move) -> GameState:
        """The fast path for simulations: ``apply`` without validating ``move``.

        Only for moves taken from :meth:`legal_moves` of this very state; any
        other move gives an undefined (but still immutable) result.
        """
        raw = self._raw
        phase = raw[3]
        if phase is _PLAYING:
            return self._play(move.card.index)  # type: ignore[union-attr]
        if phase is _BIDDING:
            node = _node(raw[0], raw[2])
            return called(raw, node.after(node.ids.get(id(move)) or node.find(move) or move))
        return self._name_trump(move)  # type: ignore[arg-type]

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know: see :class:`~backalley.PlayerView`."""
        return (_VIEW_MAKER or _view_maker())(self, seat)

    # ------------------------------------------------------------- transitions

    def _apply(self, move: Move) -> GameState:
        return self.apply_unchecked(move)

    def _name_trump(self, move: NameTrump) -> GameState:
        rules, match, deal, _phase, hands, _leader, _trick, history, broken = self._raw
        ctx = deal.ctx
        ctx = _with(ctx, ctx.outcome, NO_TRUMP if move.suit is None else move.suit.index)
        leader = rules.lead.first_leader(ctx)
        new = deal.with_calls(deal.calls, ctx)
        return _state((rules, match, new, _PLAYING, hands, leader, (), history, broken))

    def _play(self, card: int) -> GameState:
        """A card played by the seat to act: the trick goes on, or it is
        complete (its winner leads next), or it was the deal's last."""
        rules, match, deal, _phase, hands, leader, trick, history, broken = self._raw
        n = rules.players
        trick = trick + (card,)  # noqa: RUF005  (half the cost of unpacking, per move)
        seat = (leader + len(trick) - 1) % n
        hand_list = list(hands)
        hand_list[seat] ^= BITS[card]
        hands = tuple(hand_list)
        if len(trick) < n:
            state = _new(GameState)
            _set_raw(state, (rules, match, deal, _PLAYING, hands, leader, trick, history, broken))
            _set_legal(state, None)
            return state
        return trick_done(rules, match, deal, hands, leader, trick, history, broken)

    def _end_deal(self) -> GameState:
        """Score the finished deal, then deal the next one or end the game."""
        rules, match, deal, _phase, hands, leader, _trick, history, broken = self._raw
        return end_deal(rules, match, deal, hands, leader, history, broken)

    def _repr_svg_(self) -> str:
        from backalley.svg import board

        return board(self)

    def diagram(self, ascii: bool = False) -> str:
        """A compact text table of this position (:func:`backalley.diagram.diagram`)."""
        from backalley.diagram import diagram

        return diagram(self, ascii=ascii)


_set_raw = GameState.__dict__["_raw"].__set__
_set_legal = GameState.__dict__["_legal"].__set__
_deal_slots = tuple(Deal.__dict__[name].__set__ for name in (*_DEAL_FIELDS, "node"))
_match_slots = tuple(Match.__dict__[a.name].__set__ for a in attrs.fields(Match))
_result_slots = tuple(DealResult.__dict__[a.name].__set__ for a in attrs.fields(DealResult))


_VIEW_MAKER: Callable[[GameState, int], PlayerView] | None = None
"""``views.make_view`` once the views are loaded (an import statement in
``view`` would cost about 0.5 µs a call, a third of the view)."""


def _view_maker() -> Callable[[GameState, int], PlayerView]:
    """Load the player views (on the first ``view``: ``import backalley`` does not)."""
    global _VIEW_MAKER
    from backalley.views import make_view

    _VIEW_MAKER = make_view
    return make_view


def _match(
    seed: int,
    first_dealer: int,
    decks: tuple[tuple[int, ...], ...],
    deal_number: int,
    scores: tuple[int, ...],
    results: tuple[DealResult, ...],
) -> Match:
    """A :class:`Match` built by slot stores (the engine's own, checked facts)."""
    match = _new(Match)
    s_seed, s_first, s_decks, s_number, s_scores, s_results = _match_slots
    s_seed(match, seed)
    s_first(match, first_dealer)
    s_decks(match, decks)
    s_number(match, deal_number)
    s_scores(match, scores)
    s_results(match, results)
    return match


def _state(raw: Raw) -> GameState:
    """A state over the fields ``raw`` (two slot stores, no ``__init__``)."""
    state = _new(GameState)
    _set_raw(state, raw)
    _set_legal(state, None)
    return state


def _deal(
    ctx: DealContext,
    dealt: tuple[int, ...],
    stock: tuple[int, ...],
    turn_up: int | None,
    discards: int,
    calls: tuple[Move, ...],
    node: CallNode | None,
) -> Deal:
    """A :class:`Deal` built by slot stores."""
    deal = _new(Deal)
    s_ctx, s_dealt, s_stock, s_turn, s_disc, s_calls, s_node = _deal_slots
    s_ctx(deal, ctx)
    s_dealt(deal, dealt)
    s_stock(deal, stock)
    s_turn(deal, turn_up)
    s_disc(deal, discards)
    s_calls(deal, calls)
    s_node(deal, node)
    return deal


def _with(ctx: DealContext, outcome: Any, trump: int) -> DealContext:
    """``ctx`` with a bidding outcome and an effective trump."""
    players, seat_teams, teams, index, dealer, size, _outcome, _trump, ranking = ctx
    return _tuple(
        DealContext, (players, seat_teams, teams, index, dealer, size, outcome, trump, ranking)
    )


def called(raw: Raw, child: CallNode) -> GameState:
    """The state at bidding node ``child``, just after its last call, in the
    deal of ``raw`` (any state of that bidding: only the deal's cards are read
    from it): the bidding goes on, or it ends and the deal is thrown in, goes
    to the declarer to name trump, or is played."""
    rules, match, deal, _phase, hands, leader, _trick, history, broken = raw
    calls = child.ctx.calls
    ctx = deal.ctx
    if child.open:
        new = deal.with_calls(calls, ctx, child)
        return _state((rules, match, new, _BIDDING, hands, leader, (), history, broken))
    outcome = child.outcome
    plan = rules._plan or rules.plan
    if outcome.thrown_in:
        dealer = rules.bidding.redealer(ctx.dealer, plan.players)
        return start_deal(rules, match, dealer, ctx.hand_size)
    ctx = _with(ctx, outcome, ctx.trump)
    new = deal.with_calls(calls, ctx)
    if plan.trump_choices(ctx):
        phase = _NAMING
    else:
        phase, leader = _PLAYING, plan.first_leader(ctx)
    return _state((rules, match, new, phase, hands, leader, (), history, broken))


def _node(rules: RuleSet, deal: Deal) -> CallNode:
    """The bidding node of ``deal`` (from the plan's table when not cached)."""
    node = deal.node
    if node is None:
        node = (rules._plan or rules.plan).call_node(deal.ctx, deal.calls)
        object.__setattr__(deal, "node", node)
    return node


def _turn_error(state: GameState, seat: object) -> IllegalMoveError:
    if not isinstance(seat, int) or type(seat) is not int or not 0 <= seat < state.players:
        return IllegalMoveError(Reason.NOT_YOUR_TURN, f"there is no seat {seat!r}")
    if state.phase is Phase.NAMING_TRUMP:
        return IllegalMoveError(
            Reason.NOT_DECLARER,
            f"seat {state.to_act} is the declarer and names trump, not seat {seat}",
        )
    if state.phase is Phase.BIDDING and state.bids[seat] is not None:
        return IllegalMoveError(
            Reason.ALREADY_BID, f"seat {seat} has already called ({state.bids[seat]}) this deal"
        )
    return IllegalMoveError(
        Reason.NOT_YOUR_TURN, f"it is seat {state.to_act}'s turn, not seat {seat}'s"
    )


def trick_done(
    rules: RuleSet,
    match: Match,
    deal: Deal,
    hands: tuple[int, ...],
    leader: int,
    trick: tuple[int, ...],
    history: tuple[RawTrick, ...],
    broken: bool,
) -> GameState:
    """The state after the play that completes ``trick`` (``hands`` without
    its cards): its winner leads the next trick, or the deal is over."""
    ctx = deal.ctx
    plan = rules._plan or rules.plan
    winner = (leader + plan.trick_winner(trick, ctx.trump)) % plan.players
    history = history + ((leader, trick, winner),)  # noqa: RUF005  (half the cost of unpacking, per move)
    if not broken:
        broken = plan.breaks_trump(ctx, trick)
    if len(history) < ctx.hand_size:
        state = _new(GameState)
        _set_raw(state, (rules, match, deal, _PLAYING, hands, winner, (), history, broken))
        _set_legal(state, None)
        return state
    return end_deal(rules, match, deal, hands, winner, history, broken)


def end_deal(
    rules: RuleSet,
    match: Match,
    deal: Deal,
    hands: tuple[int, ...],
    leader: int,
    history: tuple[RawTrick, ...],
    broken: bool,
) -> GameState:
    """Score the finished deal (its tricks in ``history``), then deal the next
    one or end the game: one :class:`Match` built, no intermediate state."""
    ctx = deal.ctx
    plan: Plan = rules._plan or rules.plan
    seat_teams = plan.seat_teams
    tally = [0] * len(plan.teams)
    for _leader, _cards, winner in history:
        tally[seat_teams[winner]] += 1
    tricks = tuple(tally)
    points = rules.scoring.score(ctx, tricks, deal.dealt_bits)
    outcome = ctx.outcome
    assert outcome is not None
    turn_up = deal.turn_up_index
    results = match.results
    result = _new(DealResult)  # slot stores: the facts are the engine's own, already checked
    (
        r_number,
        r_dealer,
        r_size,
        r_turn,
        r_trump,
        r_bids,
        r_contracts,
        r_declarer,
        r_tricks,
        r_points,
        r_data,
    ) = _result_slots
    r_number(result, len(results) + 1)
    r_dealer(result, ctx.dealer)
    r_size(result, ctx.hand_size)
    r_turn(result, None if turn_up is None else CARDS[turn_up])
    r_trump(result, None if ctx.trump == NO_TRUMP else SUITS[ctx.trump])
    r_bids(result, bids_of(plan.players, plan.first_bidders[ctx.dealer], deal.calls))
    r_contracts(result, outcome.contracts)
    r_declarer(result, outcome.declarer)
    r_tricks(result, tricks)
    r_points(result, points)
    r_data(result, None)
    scores = tuple(map(_add, match.scores, points))
    results = (*results, result)
    schedule = plan.hand_sizes
    if len(results) >= len(schedule):
        match = _match(
            match.seed, match.first_dealer, match.decks, match.deal_number, scores, results
        )
        core = (rules, match, deal, _GAME_OVER, hands, leader, (), history, broken)
        return _state(core)
    dealer = rules.dealer.dealer_after(ctx, points)
    return _start(
        rules,
        match.seed,
        match.first_dealer,
        match.decks,
        match.deal_number,
        scores,
        results,
        dealer,
        schedule[len(results)],
    )


def start_deal(rules: RuleSet, match: Match, dealer: int, hand_size: int) -> GameState:
    """Shuffle (or take the next given deck order), deal, fix trump, open the bidding."""
    return _start(
        rules,
        match.seed,
        match.first_dealer,
        match.decks,
        match.deal_number,
        match.scores,
        match.results,
        dealer,
        hand_size,
    )


def _start(
    rules: RuleSet,
    seed: int,
    first_dealer: int,
    decks: tuple[tuple[int, ...], ...],
    k: int,
    scores: tuple[int, ...],
    results: tuple[DealResult, ...],
    dealer: int,
    hand_size: int,
) -> GameState:
    """:func:`start_deal` from the match's fields (deal number ``k`` is next)."""
    plan = rules._plan or rules.plan
    if k < len(decks):
        order: Sequence[int] = decks[k]
    else:
        order = chance.shuffled(seed, k, plan.deck_cards)
    match = _match(seed, first_dealer, decks, k + 1, scores, results)
    return _open(rules, plan, match, dealer, hand_size, order)


def deal_order(
    rules: RuleSet, match: Match, dealer: int, hand_size: int, order: Sequence[int]
) -> GameState:
    """Deal a known deck ``order``: the hands, then the trump part's turn-up
    handling, then the bidding opens with the first bidder."""
    return _open(rules, rules._plan or rules.plan, match, dealer, hand_size, order)


def _open(
    rules: RuleSet, plan: Plan, match: Match, dealer: int, hand_size: int, order: Sequence[int]
) -> GameState:
    """:func:`deal_order` in one frame (the path every deal of a game takes)."""
    players = plan.players
    dealt = players * hand_size
    hands = [0] * players
    for offset in range(players):
        # distinct cards: the sum of their bits is their union (RULES.md 1.2)
        hands[(dealer + 1 + offset) % players] = sum(
            map(BITS.__getitem__, order[offset:dealt:players])
        )
    fields = (players, plan.seat_teams, plan.teams, len(match.results), dealer, hand_size)
    ctx = _tuple(DealContext, (*fields, None, NO_TRUMP, plan.ranking))
    setup = rules.trump.opening(ctx, tuple(hands), tuple(order[dealt:]))
    trump = setup.trump
    if trump is not None:
        ctx = _tuple(DealContext, (*fields, None, trump, plan.ranking))
    held = setup.hands
    first = plan.first_bidders[dealer]
    node = plan.opening_node(hand_size, first)  # the bidding's first node, shared
    deal = _deal(ctx, held, setup.stock, setup.turn_up, setup.discards, (), node)
    return _state((rules, match, deal, _BIDDING, held, first, (), (), False))


def open_deal(
    rules: RuleSet,
    match: Match,
    ctx: DealContext,
    hands: tuple[int, ...],
    stock: tuple[int, ...],
    turn_up: int | None,
    discards: int,
    trump: int | None,
) -> GameState:
    """The state at the start of a dealt deal: bidding opens with the first bidder."""
    ctx = _with(ctx, ctx.outcome, NO_TRUMP if trump is None else trump)
    plan = rules._plan or rules.plan
    first = plan.first_bidders[ctx.dealer]
    node = plan.opening_node(ctx.hand_size, first)
    deal = _deal(ctx, hands, stock, turn_up, discards, (), node)
    return _state((rules, match, deal, _BIDDING, hands, first, (), (), False))
