"""The game state: an immutable value; every move returns a new state.

``GameState.apply`` dispatches on the phase: calls go to the rule set's
bidding part, the trump call to its trump part, cards to the lead and follow
parts (through the rule set's compiled :attr:`~backalley.RuleSet.plan`), a
completed trick to the ranking and lead parts, and a finished deal to the
scoring, dealer and schedule parts.  The engine never looks at a part's type
or options: it only asks the parts for decisions.

Internally cards are small integers and hands bit sets (see
:mod:`backalley.cards`); the public properties give :class:`~backalley.Card`
values, and :mod:`backalley.lowlevel` documents the raw forms.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import attrs

from backalley import chance
from backalley.cards import CARDS, Card, cards_of_mask
from backalley.errors import IllegalMoveError, Reason, SetupError
from backalley.legality import legal_moves, plays_of_mask, refusal
from backalley.moves import Move, NameTrump
from backalley.public import PublicFacts
from backalley.rules.context import NO_TRUMP, DealContext
from backalley.rules.ruleset import RuleSet
from backalley.values import DealResult, Phase, RawTrick, Trick

if TYPE_CHECKING:
    from backalley.views import PlayerView

__all__ = ["Deal", "DealResult", "GameState", "Match", "Phase", "Trick"]

BITS: tuple[int, ...] = tuple(1 << i for i in range(54))
"""The bit of each card index."""
_PLAYING = Phase.PLAYING
_BIDDING = Phase.BIDDING
_GAME_OVER = Phase.GAME_OVER


@attrs.frozen(slots=True)
class Match:
    """The parts of a game that change at most once per deal."""

    seed: int
    first_dealer: int
    decks: tuple[tuple[int, ...], ...]
    """The deck orders given to ``new_game``: deal ``k`` (counting thrown-in
    deals, from 0) uses ``decks[k]`` while there is one, then the seed."""
    deal_number: int
    """How many deals have been dealt, thrown-in deals included."""
    scores: tuple[int, ...]
    results: tuple[DealResult, ...]


@attrs.frozen(slots=True)
class Deal:
    """The parts of a deal that change at most during the bidding: its
    :class:`~backalley.rules.context.DealContext` (dealer, hand size, bidding
    outcome, trump), the hands as dealt, the stock, the turn-up, the discards
    and the calls."""

    ctx: DealContext
    dealt_bits: tuple[int, ...]
    stock_order: tuple[int, ...]
    turn_up_index: int | None
    discard_bits: int
    calls: tuple[Move, ...] = ()

    def with_calls(self, calls: tuple[Move, ...], ctx: DealContext | None = None) -> Deal:
        """This deal with the calls so far (and a new context once the bidding is over)."""
        return Deal(
            self.ctx if ctx is None else ctx,
            self.dealt_bits,
            self.stock_order,
            self.turn_up_index,
            self.discard_bits,
            calls,
        )


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


_core = tuple.__new__  # Core without NamedTuple.__new__'s Python-level call


@attrs.frozen(slots=True, repr=False)
class GameState(PublicFacts):
    """One moment of a game, with full information (every hand, the stock, the seed).

    Build one with :func:`backalley.new_game`; move on with :meth:`apply`.
    The public reading is through the properties (``hands``, ``trick``,
    ``bids``, ``scores``, ...); :mod:`backalley.lowlevel` reads the engine's
    compact form.
    """

    _core: Core
    _legal: Any = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)

    @property
    def rules(self) -> RuleSet:
        return self._core.rules

    @property
    def phase(self) -> Phase:
        return self._core.phase

    @property
    def leader(self) -> int:
        """Who leads the current trick (the first bidder before the play)."""
        return self._core.leader

    @property
    def is_over(self) -> bool:
        return self._core.phase is _GAME_OVER

    @property
    def to_act(self) -> int | None:
        """The seat whose move it is (``None`` when the game is over)."""
        rules, _match, deal, phase, _hands, leader, trick, _history, _broken = self._core
        if phase is _PLAYING:
            return (leader + len(trick)) % rules.players
        if phase is _BIDDING:
            return (leader + len(deal.calls)) % rules.players
        if phase is Phase.NAMING_TRUMP:
            return deal.ctx.outcome.declarer  # type: ignore[union-attr]
        return None

    @property
    def calls(self) -> tuple[Move, ...]:
        """This deal's calls in the order spoken."""
        return self._core.deal.calls

    @property
    def outcome(self) -> Any:
        """The bidding's result once every player has called (a
        :class:`~backalley.values.BiddingOutcome`), else ``None``."""
        return self._core.deal.ctx.outcome

    @property
    def dealer(self) -> int:
        return self._core.deal.ctx.dealer

    @property
    def hand_size(self) -> int:
        return self._core.deal.ctx.hand_size

    # the raw forms PublicFacts reads (see backalley.lowlevel)
    @property
    def _ctx(self) -> DealContext:
        return self._core.deal.ctx

    @property
    def _trick_cards(self) -> tuple[int, ...]:
        return self._core.trick_cards

    @property
    def _history(self) -> tuple[RawTrick, ...]:
        return self._core.history

    @property
    def _broken(self) -> bool:
        return self._core.broken

    @property
    def _turn_up_index(self) -> int | None:
        return self._core.deal.turn_up_index

    @property
    def _discard_bits(self) -> int:
        return self._core.deal.discard_bits

    def _hand_mask(self, seat: int) -> int:
        return self._core.hand_bits[seat]

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
        return self._core.match.seed

    @property
    def first_dealer(self) -> int:
        return self._core.match.first_dealer

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's hand, each in card order."""
        return tuple(cards_of_mask(h) for h in self._core.hand_bits)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The hand of ``seat``, in card order."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise SetupError(f"there is no seat {seat!r}; seats are 0 to {self.players - 1}")
        return cards_of_mask(self._core.hand_bits[seat])

    @property
    def stock(self) -> tuple[Card, ...]:
        """The undealt cards, top first (the turn-up is not among them)."""
        return tuple(CARDS[i] for i in self._core.deal.stock_order)

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative points per side (team, or seat in a cutthroat game)."""
        return self._core.match.scores

    @property
    def deal_results(self) -> tuple[DealResult, ...]:
        """One record per scored deal."""
        return self._core.match.results

    @property
    def winner(self) -> int | None:
        """The winning side when the game is over, ``None`` for a draw or while playing."""
        if self.phase is not Phase.GAME_OVER:
            return None
        return self.rules.end.winner(self._core.match.scores)

    # ---------------------------------------------------------------- legality

    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves of the seat to act, in a deterministic order."""
        legal = self._legal
        if legal is None:
            core = self._core
            if core.phase is _PLAYING:
                legal = plays_of_mask(self._play_mask())
            elif core.phase is _BIDDING:
                deal = core.deal
                plan = core.rules.plan
                legal = plan.legal_calls(plan.bidding_context(deal.ctx, deal.calls))
            else:
                legal = legal_moves(self)
            object.__setattr__(self, "_legal", legal)
        return legal  # type: ignore[no-any-return]

    def _play_mask(self) -> int:
        """The legal plays (a bit set): the hand narrowed by every play rule."""
        rules, _match, deal, _phase, hands, leader, trick, _history, broken = self._core
        seat = (leader + len(trick)) % rules.players
        return rules.plan.play_mask(deal.ctx, seat, hands[seat], trick, leader, broken)

    def check(self, move: object, seat: int | None = None) -> None:
        """Raise :class:`~backalley.IllegalMoveError` if ``move`` is not legal now.

        With ``seat``, also refuse a move by a seat that is not to act
        (``NOT_YOUR_TURN``, or ``ALREADY_BID`` for a seat that has spoken).
        """
        if seat is not None and self.phase is not Phase.GAME_OVER:
            if type(seat) is not int or seat != self.to_act:
                raise _turn_error(self, seat)
        if move in self.legal_moves():
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
        legal = self._legal
        if legal is None:
            legal = self.legal_moves()
        if move not in legal:
            self.check(move)  # raises, with the reason
        if self._core.phase is _PLAYING:
            return self._play(move.card.index)  # type: ignore[union-attr]
        return self._apply(move)

    def apply_unchecked(self, move: Move) -> GameState:
        """The fast path for simulations: ``apply`` without validating ``move``.

        Only for moves taken from :meth:`legal_moves` of this very state; any
        other move gives an undefined (but still immutable) result.
        """
        return self._apply(move)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know: see :class:`~backalley.PlayerView`."""
        from backalley.views import make_view

        return make_view(self, seat)

    # ------------------------------------------------------------- transitions

    def _apply(self, move: Move) -> GameState:
        phase = self._core.phase
        if phase is _PLAYING:
            return self._play(move.card.index)  # type: ignore[union-attr]
        if phase is _BIDDING:
            return self._call(move)
        return self._name_trump(move)  # type: ignore[arg-type]

    def _call(self, move: Move) -> GameState:
        core = self._core
        rules = core.rules
        deal = core.deal
        calls = (*deal.calls, move)
        plan = rules.plan
        ctx = deal.ctx
        bctx = plan.bidding_context(ctx, calls)
        if rules.bidding.speaker(bctx) is not None:
            return self._with_deal(deal.with_calls(calls), _BIDDING, core.leader)
        outcome = rules.bidding.outcome(bctx)
        if outcome.thrown_in:
            dealer = rules.bidding.redealer(ctx.dealer, rules.players)
            return start_deal(rules, core.match, dealer, ctx.hand_size)
        ctx = ctx._replace(outcome=outcome)
        if rules.trump.choices(ctx):
            return self._with_deal(deal.with_calls(calls, ctx), Phase.NAMING_TRUMP, core.leader)
        return self._with_deal(deal.with_calls(calls, ctx), _PLAYING, rules.lead.first_leader(ctx))

    def _name_trump(self, move: NameTrump) -> GameState:
        core = self._core
        deal = core.deal
        ctx = deal.ctx._replace(trump=NO_TRUMP if move.suit is None else move.suit.index)
        leader = core.rules.lead.first_leader(ctx)
        return self._with_deal(deal.with_calls(deal.calls, ctx), _PLAYING, leader)

    def _with_deal(self, deal: Deal, phase: Phase, leader: int) -> GameState:
        core = self._core
        return GameState(
            _core(
                Core,
                (core.rules, core.match, deal, phase, core.hand_bits, leader, (), core.history, core.broken),
            )
        )

    def _play(self, card: int) -> GameState:
        rules, match, deal, _phase, hands, leader, trick, history, broken = self._core
        n = rules.players
        trick = (*trick, card)
        seat = (leader + len(trick) - 1) % n
        hand_list = list(hands)
        hand_list[seat] ^= 1 << card
        hands = tuple(hand_list)
        if len(trick) < n:
            return GameState(
                _core(Core, (rules, match, deal, _PLAYING, hands, leader, trick, history, broken))
            )
        ctx = deal.ctx
        plan = rules.plan
        winner = (leader + plan.trick_winner(trick, ctx.trump)) % n
        history = (*history, (leader, trick, winner))
        broken = broken or plan.breaks_trump(ctx, trick)
        state = GameState(
            _core(Core, (rules, match, deal, _PLAYING, hands, winner, (), history, broken))
        )
        if len(history) < ctx.hand_size:
            return state
        return state._end_deal()

    def _end_deal(self) -> GameState:
        """Score the finished deal, then deal the next one or end the game."""
        core = self._core
        rules, match, deal = core.rules, core.match, core.deal
        ctx = deal.ctx
        won = [0] * rules.players
        for _lead, _cards, winner in core.history:
            won[winner] += 1
        tricks = tuple(sum(won[s] for s in team) for team in rules.teams)
        points = rules.scoring.score(ctx, tricks, deal.dealt_bits)
        outcome = ctx.outcome
        assert outcome is not None
        result = DealResult(
            number=len(match.results) + 1,
            dealer=ctx.dealer,
            hand_size=ctx.hand_size,
            turn_up=self.turn_up,
            trump=self.trump,
            bids=self.bids,
            contracts=outcome.contracts,
            declarer=outcome.declarer,
            tricks=tricks,
            points=points,
        )
        scores = tuple(a + b for a, b in zip(match.scores, points))
        match = Match(
            match.seed, match.first_dealer, match.decks, match.deal_number, scores, (*match.results, result)
        )
        schedule = rules.schedule.hand_sizes
        if len(match.results) >= len(schedule):
            return GameState(core._replace(match=match, phase=Phase.GAME_OVER))
        dealer = rules.dealer.dealer_after(ctx, points)
        return start_deal(rules, match, dealer, schedule[len(match.results)])

    def _repr_svg_(self) -> str:
        from backalley.svg import board

        return board(self)

    def diagram(self, ascii: bool = False) -> str:
        """A compact text table of this position (:func:`backalley.diagram.diagram`)."""
        from backalley.diagram import diagram

        return diagram(self, ascii=ascii)


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


def deal_cards(
    order: Sequence[int], dealer: int, players: int, hand_size: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Deal ``order`` one card at a time, clockwise, starting left of the
    dealer (RULES.md 1.2): the hands as bit sets, and the stock (top first)."""
    dealt = players * hand_size
    hands = [0] * players
    for offset in range(players):
        # distinct cards: the sum of their bits is their union
        hands[(dealer + 1 + offset) % players] = sum(
            map(BITS.__getitem__, order[offset:dealt:players])
        )
    return tuple(hands), tuple(order[dealt:])


def start_deal(rules: RuleSet, match: Match, dealer: int, hand_size: int) -> GameState:
    """Shuffle (or take the next given deck order), deal, fix trump, open the bidding."""
    k = match.deal_number
    plan = rules.plan
    if k < len(match.decks):
        order = match.decks[k]
    else:
        order = chance.shuffled(match.seed, k, plan.deck_cards)
    match = Match(match.seed, match.first_dealer, match.decks, k + 1, match.scores, match.results)
    return deal_order(rules, match, dealer, hand_size, order)


def deal_order(
    rules: RuleSet, match: Match, dealer: int, hand_size: int, order: Sequence[int]
) -> GameState:
    """Deal a known deck ``order``: the hands, then the trump part's turn-up
    handling, then the bidding opens with the first bidder."""
    hands, stock = deal_cards(order, dealer, rules.players, hand_size)
    ctx = rules.plan.deal_context(len(match.results), dealer, hand_size)
    setup = rules.trump.opening(ctx, hands, stock)
    return open_deal(
        rules, match, ctx, setup.hands, setup.stock, setup.turn_up, setup.discards, setup.trump
    )


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
    ctx = ctx._replace(trump=NO_TRUMP if trump is None else trump)
    first = rules.bidding.first(ctx.dealer, rules.players)
    deal = Deal(ctx, hands, stock, turn_up, discards)
    return GameState(Core(rules, match, deal, Phase.BIDDING, hands, first, (), (), False))

