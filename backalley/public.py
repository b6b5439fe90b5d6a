"""What everyone at the table can see: the public facts of a deal, read the
same way from a full :class:`~backalley.GameState` and from a
:class:`~backalley.PlayerView` (both inherit :class:`PublicFacts`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from backalley.cards import CARDS, SUITS, Card, Suit, cards_of_mask
from backalley.errors import IllegalMoveError
from backalley.legality import Phase
from backalley.moves import Move
from backalley.rules.bidding import BiddingOutcome, Contract

if TYPE_CHECKING:
    from backalley.rules.ruleset import RuleSet
    from backalley.state import DealResult

__all__ = ["PublicFacts", "RawTrick", "Trick"]

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


_GAME_OVER = Phase.GAME_OVER


class PublicFacts:
    """Readable properties over the compact fields both states and views hold."""

    __slots__ = ()

    if TYPE_CHECKING:

        @property
        def rules(self) -> RuleSet: ...
        @property
        def phase(self) -> Phase: ...
        @property
        def dealer(self) -> int: ...
        @property
        def calls(self) -> tuple[Move, ...]: ...
        @property
        def outcome(self) -> BiddingOutcome | None: ...
        @property
        def leader(self) -> int: ...
        @property
        def trick_cards(self) -> tuple[int, ...]: ...
        @property
        def history(self) -> tuple[RawTrick, ...]: ...
        @property
        def broken(self) -> bool: ...
        @property
        def trump_index(self) -> int | None: ...
        @property
        def turn_up_index(self) -> int | None: ...
        @property
        def discard_bits(self) -> int: ...
        @property
        def deal_results(self) -> tuple[DealResult, ...]: ...
        @property
        def to_act(self) -> int | None: ...
        @property
        def hand_size(self) -> int: ...
        def hand_mask(self, seat: int) -> int:
            """The hand of ``seat`` as a bit set (0 where it is not known)."""
            ...

        def check(self, move: object) -> None: ...

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
    def discards(self) -> tuple[Card, ...]:
        """Cards put out of play this deal (a swapped or buried joker)."""
        return cards_of_mask(self.discard_bits)

    @property
    def first_bidder(self) -> int:
        return self.rules.bidding.first(self.dealer, self.rules.players)

    @property
    def bids(self) -> tuple[Move | None, ...]:
        """This deal's calls so far, per seat (``None``: not yet spoken)."""
        n, first = self.rules.players, self.first_bidder
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
        n, lead = self.rules.players, self.leader
        return tuple(((lead + k) % n, CARDS[c]) for k, c in enumerate(self.trick_cards))

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """This deal's completed tricks."""
        n = self.rules.players
        return tuple(
            Trick(lead, tuple(CARDS[c] for c in cs), win, n) for lead, cs, win in self.history
        )

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """This deal's tricks per seat."""
        won = [0] * self.rules.players
        for _lead, _cards, winner in self.history:
            won[winner] += 1
        return tuple(won)

    @property
    def trump_broken(self) -> bool:
        return self.broken

    @property
    def deals_played(self) -> int:
        """The number of scored deals (thrown-in deals do not count)."""
        return len(self.deal_results)

    @property
    def is_over(self) -> bool:
        return self.phase is _GAME_OVER

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
