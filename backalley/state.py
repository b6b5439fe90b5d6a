"""The game state: an immutable value; every move returns a new state.

``GameState.apply`` dispatches on the phase: calls go to the rule set's
bidding part, the trump call to its trump part, cards to the play rules
(:mod:`backalley.play`), and a finished deal to the scoring, dealer and
schedule parts.  Legality is asked of :mod:`backalley.legality`, the one place
that both :meth:`GameState.legal_moves` and :meth:`GameState.check` use.

Internally cards are small integers and hands bit sets (see
:mod:`backalley.cards`); the public properties give :class:`~backalley.Card`
values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import attrs

from backalley import chance
from backalley.cards import CARDS, Card, Suit, cards_of_mask
from backalley.errors import IllegalMoveError, Reason
from backalley.legality import (
    Phase,
    legal_moves,
    plays_of_mask,
    refusal,
)
from backalley.moves import Move, NameTrump
from backalley.play import breaks_trump, restrictions, trick_winner
from backalley.public import PublicFacts, RawTrick, Trick
from backalley.rules.bidding import AllPass, BiddingContext, BiddingOutcome, Contract
from backalley.rules.deck import deck_cards
from backalley.rules.lead import FirstLead
from backalley.rules.ruleset import RuleSet

if TYPE_CHECKING:
    from backalley.views import PlayerView

__all__ = ["Deal", "DealResult", "GameState", "Match", "Phase", "Trick"]

_NOBODY: frozenset[int] = frozenset()
BITS: tuple[int, ...] = tuple(1 << i for i in range(54))
"""The bit of each card index."""
_PLAYING = Phase.PLAYING
_BIDDING = Phase.BIDDING
_GAME_OVER = Phase.GAME_OVER


@attrs.frozen(slots=True)
class DealResult:
    """The record of one scored deal.

    ``bids`` are the calls per seat; ``contracts``, ``tricks`` and ``points``
    are per side (team, or seat in a cutthroat game).
    """

    number: int
    dealer: int
    hand_size: int
    turn_up: Card | None
    trump: Suit | None
    bids: tuple[Move | None, ...]
    contracts: tuple[Contract | None, ...]
    declarer: int | None
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    _data: Any = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)


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
    """The parts of a deal that change at most during the bidding."""

    dealer: int
    hand_size: int
    dealt_bits: tuple[int, ...]
    stock_order: tuple[int, ...]
    turn_up_index: int | None
    discard_bits: int
    trump_index: int | None
    calls: tuple[Move, ...] = ()
    outcome: BiddingOutcome | None = None

    def with_calls(self, calls: tuple[Move, ...], outcome: BiddingOutcome | None = None) -> Deal:
        """This deal with the calls so far (and the bidding's outcome when complete)."""
        return Deal(
            self.dealer,
            self.hand_size,
            self.dealt_bits,
            self.stock_order,
            self.turn_up_index,
            self.discard_bits,
            self.trump_index,
            calls,
            outcome,
        )

    def with_trump(self, trump: int | None) -> Deal:
        """This deal once the declarer has named ``trump``."""
        return Deal(
            self.dealer,
            self.hand_size,
            self.dealt_bits,
            self.stock_order,
            self.turn_up_index,
            self.discard_bits,
            trump,
            self.calls,
            self.outcome,
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
    ``bids``, ``scores``, ...); :attr:`core` holds the engine's compact form.
    """

    core: Core
    _legal: Any = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)

    @property
    def rules(self) -> RuleSet:
        return self.core.rules

    @property
    def match(self) -> Match:
        """The parts of the game that change at most once per deal."""
        return self.core.match

    @property
    def deal(self) -> Deal:
        """The parts of this deal that change at most during the bidding."""
        return self.core.deal

    @property
    def phase(self) -> Phase:
        return self.core.phase

    @property
    def hand_bits(self) -> tuple[int, ...]:
        """Every seat's hand as a bit set of card indices."""
        return self.core.hand_bits

    @property
    def leader(self) -> int:
        """Who leads the current trick (the first bidder before the play)."""
        return self.core.leader

    @property
    def trick_cards(self) -> tuple[int, ...]:
        """The current trick's card indices in the order played."""
        return self.core.trick_cards

    @property
    def history(self) -> tuple[RawTrick, ...]:
        """This deal's completed tricks (leader, card indices, winner)."""
        return self.core.history

    @property
    def broken(self) -> bool:
        """Whether trump has been broken this deal."""
        return self.core.broken

    @property
    def is_over(self) -> bool:
        return self.core.phase is _GAME_OVER

    @property
    def to_act(self) -> int | None:
        """The seat whose move it is (``None`` when the game is over)."""
        rules, _match, deal, phase, _hands, leader, trick, _history, _broken = self.core
        if phase is Phase.PLAYING:
            return (leader + len(trick)) % rules.players
        if phase is Phase.BIDDING:
            return (leader + len(deal.calls)) % rules.players
        if phase is Phase.NAMING_TRUMP:
            return deal.outcome.declarer  # type: ignore[union-attr]
        return None

    # ------------------------------------------------------------ deal facts

    @property
    def dealer(self) -> int:
        return self.deal.dealer

    @property
    def hand_size(self) -> int:
        return self.deal.hand_size

    @property
    def dealt_bits(self) -> tuple[int, ...]:
        """The hands as dealt (after the trump part's turn-up handling)."""
        return self.deal.dealt_bits

    @property
    def stock_order(self) -> tuple[int, ...]:
        return self.deal.stock_order

    @property
    def turn_up_index(self) -> int | None:
        return self.deal.turn_up_index

    @property
    def discard_bits(self) -> int:
        return self.deal.discard_bits

    @property
    def calls(self) -> tuple[Move, ...]:
        """This deal's calls in the order spoken."""
        return self.deal.calls

    @property
    def outcome(self) -> BiddingOutcome | None:
        """The bidding's result once every player has called."""
        return self.deal.outcome

    @property
    def trump_index(self) -> int | None:
        return self.deal.trump_index

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
        return self.match.seed

    @property
    def first_dealer(self) -> int:
        return self.match.first_dealer

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's hand, each in card order."""
        return tuple(cards_of_mask(h) for h in self.hand_bits)

    def hand(self, seat: int) -> tuple[Card, ...]:
        return cards_of_mask(self.hand_bits[seat])

    @property
    def stock(self) -> tuple[Card, ...]:
        """The undealt cards, top first (the turn-up is not among them)."""
        return tuple(CARDS[i] for i in self.stock_order)

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative points per side (team, or seat in a cutthroat game)."""
        return self.match.scores

    @property
    def deal_results(self) -> tuple[DealResult, ...]:
        """One record per scored deal."""
        return self.match.results

    @property
    def winner(self) -> int | None:
        """The winning side when the game is over, ``None`` for a draw or while playing."""
        if self.phase is not Phase.GAME_OVER:
            return None
        return self.rules.end.winner(self.match.scores)

    def hand_mask(self, seat: int) -> int:
        """The hand of ``seat`` as a bit set."""
        return self.hand_bits[seat]

    # ---------------------------------------------------------------- legality

    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves of the seat to act, in a deterministic order."""
        legal = self._legal
        if legal is None:
            core = self.core
            if core.phase is _PLAYING:
                legal = plays_of_mask(self._play_mask())
            elif core.phase is _BIDDING:
                legal = core.rules.bidding.legal_calls(self._bidding(core.deal.calls))
            else:
                legal = legal_moves(self)
            object.__setattr__(self, "_legal", legal)
        return legal  # type: ignore[no-any-return]

    def _bidding(self, calls: tuple[Move, ...]) -> BiddingContext:
        """The bidding part's view of this deal, with ``calls`` (see :mod:`backalley.legality`)."""
        rules, _match, deal, _phase, _hands, leader, _trick, _history, _broken = self.core
        return BiddingContext(deal.hand_size, rules.players, leader, calls, rules.teams)

    def _play_mask(self) -> int:
        """The legal plays (a bit set): the hand narrowed by every play rule."""
        rules, _match, deal, _phase, hands, leader, trick, _history, broken = self.core
        seat = (leader + len(trick)) % rules.players
        allowed = hand = hands[seat]
        outcome = deal.outcome
        trump = deal.trump_index
        for mask, _reason in restrictions(
            rules,
            hand,
            trick,
            4 if trump is None else trump,
            broken,
            seat,
            leader,
            _NOBODY if outcome is None else outcome.board_bidders,
        ):
            allowed &= mask
        return allowed

    def check(self, move: object, seat: int | None = None) -> None:
        """Raise :class:`~backalley.IllegalMoveError` if ``move`` is not legal now.

        With ``seat``, also refuse a move by a seat that is not to act
        (``NOT_YOUR_TURN``, or ``ALREADY_BID`` for a seat that has spoken).
        """
        wrong_seat = seat is not None and (isinstance(seat, bool) or seat != self.to_act)
        if wrong_seat and self.phase is not Phase.GAME_OVER:
            raise _turn_error(self, seat)  # type: ignore[arg-type]
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
        if self.core.phase is _PLAYING:
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
        phase = self.phase
        if phase is Phase.PLAYING:
            return self._play(move.card.index)  # type: ignore[union-attr]
        if phase is Phase.BIDDING:
            return self._call(move)
        return self._name_trump(move)  # type: ignore[arg-type]

    def _call(self, move: Move) -> GameState:
        rules = self.rules
        n = rules.players
        deal = self.deal
        calls = (*deal.calls, move)
        if len(calls) < n:
            return self._with_deal(deal.with_calls(calls), Phase.BIDDING, self.leader)
        outcome = rules.bidding.outcome(self._bidding(calls))
        if outcome.thrown_in:
            same = rules.bidding.all_pass is AllPass.REDEAL_SAME_DEALER
            dealer = deal.dealer if same else (deal.dealer + 1) % n
            return start_deal(rules, self.match, dealer, deal.hand_size)
        deal = deal.with_calls(calls, outcome)
        if rules.trump.named_by_declarer:
            return self._with_deal(deal, Phase.NAMING_TRUMP, self.leader)
        return self._with_deal(deal, Phase.PLAYING, first_leader(rules, outcome, deal.dealer))

    def _name_trump(self, move: NameTrump) -> GameState:
        deal = self.deal
        assert deal.outcome is not None
        leader = first_leader(self.rules, deal.outcome, deal.dealer)
        trump = None if move.suit is None else move.suit.index
        return self._with_deal(deal.with_trump(trump), Phase.PLAYING, leader)

    def _with_deal(self, deal: Deal, phase: Phase, leader: int) -> GameState:
        core = self.core
        return GameState(
            _core(
                Core,
                (
                    core.rules,
                    core.match,
                    deal,
                    phase,
                    core.hand_bits,
                    leader,
                    (),
                    core.history,
                    core.broken,
                ),
            )
        )

    def _play(self, card: int) -> GameState:
        rules, match, deal, _phase, hands, leader, trick, history, broken = self.core
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
        trump = deal.trump_index
        if trump is None:
            trump = 4
        winner = (leader + trick_winner(trick, trump)) % n
        history = (*history, (leader, trick, winner))
        broken = broken or breaks_trump(rules.lead, trick, trump)
        state = GameState(
            _core(Core, (rules, match, deal, _PLAYING, hands, winner, (), history, broken))
        )
        if len(history) < deal.hand_size:
            return state
        return state._end_deal()

    def _end_deal(self) -> GameState:
        """Score the finished deal, then deal the next one or end the game."""
        rules = self.rules
        outcome = self.outcome
        assert outcome is not None
        teams = rules.teams
        won = self.tricks_won
        tricks = tuple(sum(won[s] for s in team) for team in teams)
        trump = 4 if self.trump_index is None else self.trump_index
        points = rules.scoring.score(
            outcome.contracts, tricks, self.hand_size, teams, self.dealt_bits, trump
        )
        match = self.match
        result = DealResult(
            number=len(match.results) + 1,
            dealer=self.dealer,
            hand_size=self.hand_size,
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
            match.seed,
            match.first_dealer,
            match.decks,
            match.deal_number,
            scores,
            (*match.results, result),
        )
        schedule = rules.schedule.hand_sizes
        if len(match.results) >= len(schedule):
            return GameState(self.core._replace(match=match, phase=Phase.GAME_OVER))
        dealer = rules.dealer.after_deal(self.dealer, points, teams, rules.players)
        return start_deal(rules, match, dealer, schedule[len(match.results)])

    def _repr_svg_(self) -> str:
        from backalley.svg import board

        return board(self)

    def diagram(self, ascii: bool = False) -> str:
        """A compact text table of this position (:func:`backalley.diagram.diagram`)."""
        from backalley.diagram import diagram

        return diagram(self, ascii=ascii)


def first_leader(rules: RuleSet, outcome: BiddingOutcome, dealer: int) -> int:
    """Who leads the first trick (RULES.md 1.5, 2.2)."""
    first = rules.lead.first_lead
    left = (dealer + 1) % rules.players
    if first is FirstLead.DECLARER:
        return outcome.declarer if outcome.declarer is not None else left
    if first is FirstLead.HIGHEST_BIDDER and outcome.highest_bidder is not None:
        return outcome.highest_bidder
    return left


def _turn_error(state: GameState, seat: int) -> IllegalMoveError:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
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
    if k < len(match.decks):
        order = match.decks[k]
    else:
        order = chance.shuffled(match.seed, k, deck_cards(rules.deck))
    match = Match(match.seed, match.first_dealer, match.decks, k + 1, match.scores, match.results)
    hands, stock = deal_cards(order, dealer, rules.players, hand_size)
    setup = rules.trump.setup(hands, stock)
    return open_deal(
        rules,
        match,
        dealer,
        hand_size,
        setup.hands,
        setup.stock,
        setup.turn_up,
        setup.discards,
        setup.trump,
    )


def open_deal(
    rules: RuleSet,
    match: Match,
    dealer: int,
    hand_size: int,
    hands: tuple[int, ...],
    stock: tuple[int, ...],
    turn_up: int | None,
    discards: int,
    trump: int | None,
) -> GameState:
    """The state at the start of a dealt deal: bidding opens with the first bidder."""
    n = rules.players
    first = rules.bidding.first(dealer, n)
    deal = Deal(dealer, hand_size, hands, stock, turn_up, discards, trump)
    return GameState(Core(rules, match, deal, Phase.BIDDING, hands, first, (), (), False))
