"""What everyone at the table can see: the public facts of a deal, read the
same way from a full :class:`~backalley.GameState` and from a
:class:`~backalley.PlayerView` (both inherit :class:`PublicFacts`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from backalley.cards import CARDS, Card, Suit, cards_of_mask
from backalley.engine.legality import known_calls
from backalley.errors import IllegalMoveError, SetupError
from backalley.moves import Move
from backalley.rules.context import DealContext
from backalley.values import Contract, DealResult, Phase, RawTrick, Trick

if TYPE_CHECKING:
    from backalley.rules.ruleset import RuleSet

__all__ = ["PublicFacts", "RawTrick", "Trick", "bids_of", "seat_number"]

_GAME_OVER = Phase.GAME_OVER


def seat_number(players: int, seat: object) -> int:
    """``seat`` when it is a seat of a game of ``players`` (a plain ``int``
    from 0 to ``players - 1``; ``True`` is not seat 1); anything else raises
    :class:`~backalley.SetupError`: a bad argument, not a refused move."""
    if type(seat) is not int or not 0 <= seat < players:
        raise SetupError(f"there is no seat {seat!r}; seats are 0 to {players - 1}")
    return seat


def bids_of(players: int, first: int, calls: tuple[Move, ...]) -> tuple[Move | None, ...]:
    """The calls per seat (``None``: not yet spoken), the first by seat ``first``."""
    out: list[Move | None] = [None] * players
    for i, call in enumerate(calls):
        out[(first + i) % players] = call
    return tuple(out)


class PublicFacts:
    """Readable properties over the compact fields both states and views hold."""

    __slots__ = ()

    if TYPE_CHECKING:

        @property
        def rules(self) -> RuleSet: ...
        @property
        def phase(self) -> Phase: ...
        @property
        def calls(self) -> tuple[Move, ...]: ...
        @property
        def leader(self) -> int: ...
        @property
        def deal_results(self) -> tuple[DealResult, ...]: ...
        @property
        def scores(self) -> tuple[int, ...]: ...
        @property
        def to_act(self) -> int | None: ...
        @property
        def _ctx(self) -> DealContext: ...
        @property
        def _trick_cards(self) -> tuple[int, ...]: ...
        @property
        def _history(self) -> tuple[RawTrick, ...]: ...
        @property
        def _broken(self) -> bool: ...
        @property
        def _turn_up_index(self) -> int | None: ...
        @property
        def _discard_bits(self) -> int: ...
        def _hand_mask(self, seat: int) -> int:
            """The hand of ``seat`` as a bit set (0 where it is not known)."""
            ...

        def check(self, move: object, seat: int | None = None) -> None: ...

    def is_legal(self, move: object) -> bool:
        """Whether :meth:`check` lets ``move`` through."""
        try:
            self.check(move)
        except IllegalMoveError:
            return False
        return True

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def dealer(self) -> int:
        return self._ctx.dealer

    @property
    def hand_size(self) -> int:
        return self._ctx.hand_size

    @property
    def outcome(self) -> object:
        """The bidding's result once every player has called
        (a :class:`~backalley.values.BiddingOutcome`), else ``None``."""
        return self._ctx.outcome

    @property
    def trump(self) -> Suit | None:
        """This deal's trump suit, or ``None`` (no trump, or not named yet)."""
        return self._ctx.trump

    @property
    def trump_known(self) -> bool:
        """Whether this deal's trump is settled: ``False`` while the bidding or
        a declarer is still to decide it (the trump part names choices, asked
        through the plan)."""
        if self.phase in (Phase.BIDDING, Phase.NAMING_TRUMP):
            return not self.rules.plan.trump_choices(self._ctx)
        return True

    @property
    def turn_up(self) -> Card | None:
        """The card turned up for trump (``None`` where the rules turn none)."""
        t = self._turn_up_index
        return None if t is None else CARDS[t]

    @property
    def discards(self) -> tuple[Card, ...]:
        """Cards put out of play this deal (a swapped or buried joker)."""
        return cards_of_mask(self._discard_bits)

    @property
    def first_bidder(self) -> int:
        """Who speaks first this deal (the bidding part's ``first``, checked by the plan)."""
        return self.rules.plan.first_bidders[self.dealer]

    @property
    def bids(self) -> tuple[Move | None, ...]:
        """This deal's calls so far, per seat (``None``: not yet spoken, or -
        where the bidding part lets only some seats speak - not speaking this deal)."""
        return bids_of(self.rules.players, self.first_bidder, self.calls)

    @property
    def contracts(self) -> tuple[Contract | None, ...] | None:
        """Each side's contract once the bidding is over, else ``None``."""
        outcome = self._ctx.outcome
        return None if outcome is None else outcome.contracts

    @property
    def declarer(self) -> int | None:
        outcome = self._ctx.outcome
        return None if outcome is None else outcome.declarer

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick: ``((seat, card), ...)`` in the order played."""
        n, lead = self.rules.players, self.leader
        return tuple(((lead + k) % n, CARDS[c]) for k, c in enumerate(self._trick_cards))

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """This deal's completed tricks."""
        n = self.rules.players
        return tuple(
            Trick(lead, tuple(CARDS[c] for c in cs), win, n) for lead, cs, win in self._history
        )

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """This deal's tricks per seat."""
        won = [0] * self.rules.players
        for _lead, _cards, winner in self._history:
            won[winner] += 1
        return tuple(won)

    @property
    def side_tricks(self) -> tuple[int, ...]:
        """This deal's tricks per side (in the order of the scores)."""
        won = [0] * len(self.rules.teams)
        seat_teams = self.rules.seat_teams
        for _lead, _cards, winner in self._history:
            won[seat_teams[winner]] += 1
        return tuple(won)

    @property
    def trump_broken(self) -> bool:
        return self._broken

    @property
    def winner(self) -> int | None:
        """The winning side (seat, cutthroat) once the game is over; ``None``
        for a draw or while the game goes on (the rules' end part decides)."""
        if self.phase is not _GAME_OVER:
            return None
        return self.rules.plan.game_winner(self.scores)

    def known_calls(self) -> tuple[Move, ...]:
        """Every call the bidding part knows at this point of the bidding,
        legal or not, in its order; ``()`` outside the bidding.  With
        :meth:`check` (for a view: its seat's answer), the calls to offer as
        buttons and why each refused one is refused::

            for call in view.known_calls():
                try:
                    view.check(call)
                except ba.IllegalMoveError as exc:
                    grey_out(call, exc.reason, str(exc))
        """
        return known_calls(self)

    @property
    def deals_played(self) -> int:
        """The number of scored deals (thrown-in deals do not count)."""
        return len(self.deal_results)

    @property
    def is_over(self) -> bool:
        return self.phase is _GAME_OVER

    def _played_bits(self) -> int:
        """The cards played to tricks this deal."""
        mask = 0
        for _lead, cards, _win in self._history:
            for c in cards:
                mask |= 1 << c
        for c in self._trick_cards:
            mask |= 1 << c
        return mask
