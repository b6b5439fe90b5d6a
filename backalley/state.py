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
from typing import TYPE_CHECKING, Any

import attrs

from backalley import chance
from backalley.cards import CARDS, SUITS, Card, Suit, cards_of_mask, indices_of_mask
from backalley.errors import IllegalMoveError, Reason
from backalley.legality import Phase, bidding_context, legal_moves, legal_play_mask, refusal
from backalley.moves import Move, NameTrump, Play
from backalley.play import breaks_trump, trick_winner
from backalley.rules.bidding import AllPass, BiddingOutcome, Contract
from backalley.rules.deck import deck_mask
from backalley.rules.lead import FirstLead
from backalley.rules.ruleset import RuleSet

if TYPE_CHECKING:
    from backalley.views import PlayerView

__all__ = ["DealResult", "GameState", "Match", "Phase", "Trick"]

RawTrick = tuple[int, tuple[int, ...], int]
"""A completed trick inside the engine: (leader, card indices in play order, winner)."""


@attrs.frozen(slots=True)
class Trick:
    """A completed trick: who led, the cards in the order played, who won."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    players: int = 4

    @property
    def plays(self) -> tuple[tuple[int, Card], ...]:
        """``((seat, card), ...)`` in the order played."""
        return tuple(((self.leader + k) % self.players, c) for k, c in enumerate(self.cards))


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


@attrs.frozen(slots=True, repr=False)
class GameState:
    """One moment of a game, with full information (every hand, the stock, the seed).

    Build one with :func:`backalley.new_game`; move on with :meth:`apply`.
    The public reading is through the properties (``hands``, ``trick``,
    ``bids``, ``scores``, ...); the fields hold the engine's compact form.
    """

    rules: RuleSet
    match: Match
    phase: Phase
    dealer: int
    hand_size: int
    to_act: int | None
    hand_bits: tuple[int, ...]
    dealt_bits: tuple[int, ...]
    stock_order: tuple[int, ...]
    turn_up_index: int | None
    discard_bits: int
    trump_index: int | None
    calls: tuple[Move, ...]
    outcome: BiddingOutcome | None
    leader: int
    trick_cards: tuple[int, ...]
    tricks_won: tuple[int, ...]
    history: tuple[RawTrick, ...]
    broken: bool
    _legal: Any = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)

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
    def players(self) -> int:
        return self.rules.seating.players

    @property
    def seed(self) -> int:
        """The seed all chance in this game comes from (full information only)."""
        return self.match.seed

    @property
    def first_dealer(self) -> int:
        return self.match.first_dealer

    @property
    def trump(self) -> Suit | None:
        """This deal's trump suit, or ``None`` (no trump, or not named yet)."""
        t = self.trump_index
        return None if t is None else SUITS[t]

    @property
    def turn_up(self) -> Card | None:
        """The card turned up for trump (``None`` where the rules turn none)."""
        t = self.turn_up_index
        return None if t is None else CARDS[t]

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
    def discards(self) -> tuple[Card, ...]:
        """Cards put out of play this deal (a swapped or buried joker)."""
        return cards_of_mask(self.discard_bits)

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative points per side (team, or seat in a cutthroat game)."""
        return self.match.scores

    @property
    def deal_results(self) -> tuple[DealResult, ...]:
        """One record per scored deal."""
        return self.match.results

    @property
    def deals_played(self) -> int:
        """The number of scored deals (thrown-in deals do not count)."""
        return len(self.match.results)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def winner(self) -> int | None:
        """The winning side when the game is over, ``None`` for a draw or while playing."""
        if self.phase is not Phase.GAME_OVER:
            return None
        return self.rules.end.winner(self.match.scores)

    @property
    def first_bidder(self) -> int:
        return self.rules.bidding.first(self.dealer, self.players)

    @property
    def bids(self) -> tuple[Move | None, ...]:
        """This deal's calls so far, per seat (``None``: not yet spoken)."""
        n = self.players
        first = self.first_bidder
        out: list[Move | None] = [None] * n
        for i, call in enumerate(self.calls):
            out[(first + i) % n] = call
        return tuple(out)

    @property
    def contracts(self) -> tuple[Contract | None, ...] | None:
        """Each side's contract once the bidding is over, else ``None``."""
        return None if self.outcome is None else self.outcome.contracts

    @property
    def declarer(self) -> int | None:
        return None if self.outcome is None else self.outcome.declarer

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick: ``((seat, card), ...)`` in the order played."""
        n, lead = self.players, self.leader
        return tuple(((lead + k) % n, CARDS[c]) for k, c in enumerate(self.trick_cards))

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """This deal's completed tricks."""
        n = self.players
        return tuple(Trick(lead, tuple(CARDS[c] for c in cards), win, n) for lead, cards, win in self.history)

    @property
    def trump_broken(self) -> bool:
        return self.broken

    @property
    def actor_hand(self) -> int:
        seat = self.to_act
        return 0 if seat is None else self.hand_bits[seat]

    @property
    def played_bits(self) -> int:
        """The cards played to tricks this deal."""
        mask = 0
        for _lead, cards, _win in self.history:
            for c in cards:
                mask |= 1 << c
        for c in self.trick_cards:
            mask |= 1 << c
        return mask

    # ---------------------------------------------------------------- legality

    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves of the seat to act, in a deterministic order."""
        legal = self._legal
        if legal is None:
            legal = legal_moves(self)
            object.__setattr__(self, "_legal", legal)
        return legal  # type: ignore[no-any-return]

    def is_legal(self, move: object) -> bool:
        """Whether the seat to act may make ``move`` now."""
        try:
            self.check(move)
        except IllegalMoveError:
            return False
        return True

    def check(self, move: object, seat: int | None = None) -> None:
        """Raise :class:`~backalley.IllegalMoveError` if ``move`` is not legal now.

        With ``seat``, also refuse a move by a seat that is not to act
        (``NOT_YOUR_TURN``, or ``ALREADY_BID`` for a seat that has spoken).
        """
        if seat is not None and seat != self.to_act and self.phase is not Phase.GAME_OVER:
            raise _turn_error(self, seat)
        if type(move) is Play and self.phase is Phase.PLAYING:
            if legal_play_mask_cached(self) >> move.card.index & 1:
                return
        elif move in self.legal_moves():
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
        self.check(move)
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
        calls = (*self.calls, move)
        if len(calls) < n:
            return attrs.evolve(self, to_act=(self.to_act + 1) % n, calls=calls)  # type: ignore[operator]
        ctx = bidding_context(self, calls)
        outcome = rules.bidding.outcome(ctx)
        if outcome.thrown_in:
            same = rules.bidding.all_pass is AllPass.REDEAL_SAME_DEALER
            dealer = self.dealer if same else (self.dealer + 1) % n
            return start_deal(rules, self.match, dealer, self.hand_size)
        if rules.trump.named_by_declarer:
            return attrs.evolve(
                self, phase=Phase.NAMING_TRUMP, to_act=outcome.declarer, calls=calls, outcome=outcome
            )
        leader = first_leader(rules, outcome, self.dealer)
        return attrs.evolve(
            self, phase=Phase.PLAYING, to_act=leader, leader=leader, calls=calls, outcome=outcome
        )

    def _name_trump(self, move: NameTrump) -> GameState:
        assert self.outcome is not None
        leader = first_leader(self.rules, self.outcome, self.dealer)
        trump = None if move.suit is None else move.suit.index
        return attrs.evolve(
            self, phase=Phase.PLAYING, to_act=leader, leader=leader, trump_index=trump
        )

    def _play(self, card: int) -> GameState:
        seat = self.to_act
        assert seat is not None
        hands = list(self.hand_bits)
        hands[seat] &= ~(1 << card)
        hand_bits = tuple(hands)
        trick = (*self.trick_cards, card)
        rules = self.rules
        n = rules.seating.players
        if len(trick) < n:
            return GameState(
                rules,
                self.match,
                Phase.PLAYING,
                self.dealer,
                self.hand_size,
                (seat + 1) % n,
                hand_bits,
                self.dealt_bits,
                self.stock_order,
                self.turn_up_index,
                self.discard_bits,
                self.trump_index,
                self.calls,
                self.outcome,
                self.leader,
                trick,
                self.tricks_won,
                self.history,
                self.broken,
            )
        trump = 4 if self.trump_index is None else self.trump_index
        winner = (self.leader + trick_winner(trick, trump)) % n
        won = list(self.tricks_won)
        won[winner] += 1
        history = (*self.history, (self.leader, trick, winner))
        broken = self.broken or breaks_trump(rules.lead, trick, trump)
        state = GameState(
            rules,
            self.match,
            Phase.PLAYING,
            self.dealer,
            self.hand_size,
            winner,
            hand_bits,
            self.dealt_bits,
            self.stock_order,
            self.turn_up_index,
            self.discard_bits,
            self.trump_index,
            self.calls,
            self.outcome,
            winner,
            (),
            tuple(won),
            history,
            broken,
        )
        if len(history) < self.hand_size:
            return state
        return state._end_deal()

    def _end_deal(self) -> GameState:
        """Score the finished deal, then deal the next one or end the game."""
        rules = self.rules
        outcome = self.outcome
        assert outcome is not None
        teams = rules.teams
        tricks = tuple(sum(self.tricks_won[s] for s in team) for team in teams)
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
        match = attrs.evolve(match, scores=scores, results=(*match.results, result))
        schedule = rules.schedule.hand_sizes
        if len(match.results) >= len(schedule):
            return attrs.evolve(self, match=match, phase=Phase.GAME_OVER, to_act=None)
        dealer = rules.dealer.after_deal(self.dealer, points, teams, rules.players)
        return start_deal(rules, match, dealer, schedule[len(match.results)])


def legal_play_mask_cached(state: GameState) -> int:
    """The legal plays of ``state`` as a bit set (from the cached legal moves)."""
    legal = state._legal
    if legal is None:
        mask = legal_play_mask(state)
        return mask
    mask = 0
    for move in legal:
        mask |= 1 << move.card.index
    return mask


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
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        return IllegalMoveError(Reason.NOT_YOUR_TURN, f"there is no seat {seat!r}")
    if state.phase is Phase.BIDDING and state.bids[seat] is not None:
        return IllegalMoveError(
            Reason.ALREADY_BID, f"seat {seat} has already called ({state.bids[seat]}) this deal"
        )
    return IllegalMoveError(
        Reason.NOT_YOUR_TURN, f"it is seat {state.to_act}'s turn, not seat {seat}'s"
    )


def deal_cards(order: Sequence[int], dealer: int, players: int, hand_size: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Deal ``order`` one card at a time, clockwise, starting left of the
    dealer (RULES.md 1.2): the hands as bit sets, and the stock (top first)."""
    hands = [0] * players
    dealt = players * hand_size
    for k in range(dealt):
        hands[(dealer + 1 + k) % players] |= 1 << order[k]
    return tuple(hands), tuple(order[dealt:])


def start_deal(rules: RuleSet, match: Match, dealer: int, hand_size: int) -> GameState:
    """Shuffle (or take the next given deck order), deal, fix trump, open the bidding."""
    k = match.deal_number
    if k < len(match.decks):
        order = match.decks[k]
    else:
        order = chance.shuffled(match.seed, k, tuple(indices_of_mask(deck_mask(rules.deck))))
    match = attrs.evolve(match, deal_number=k + 1)
    hands, stock = deal_cards(order, dealer, rules.players, hand_size)
    setup = rules.trump.setup(hands, stock)
    return open_deal(
        rules, match, dealer, hand_size, setup.hands, setup.stock, setup.turn_up, setup.discards, setup.trump
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
    return GameState(
        rules,
        match,
        Phase.BIDDING,
        dealer,
        hand_size,
        first,
        hands,
        hands,
        stock,
        turn_up,
        discards,
        trump,
        (),
        None,
        first,
        (),
        (0,) * n,
        (),
        False,
    )
