"""What the rule parts decide from: one value describing the deal in progress.

The engine builds a :class:`DealContext` when a deal opens and again when its
bidding ends (and when the declarer names trump, and at the end of each trick
but the deal's last); the parts' decision methods read it.  It is a plain
named tuple, cheap to build, so that the rule set's plan can hand it to the
parts without cost on the per-card path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from backalley.cards import SUITS, Suit
from backalley.cardset import CardSet
from backalley.moves import Move
from backalley.values import BiddingOutcome

if TYPE_CHECKING:
    from backalley.rules.protocols import Ranking

__all__ = ["NO_TRUMP", "TRUMP_INDEX", "TRUMP_OF_INDEX", "BiddingContext", "DealContext"]

NO_TRUMP = 4
"""The engine's raw form of "no trump suit" (a suit's raw form is its index 0..3:
C D H S); rule parts see a trump as a :class:`~backalley.Suit` or ``None``."""

TRUMP_INDEX: dict[Suit | None, int] = {**{suit: suit.index for suit in SUITS}, None: NO_TRUMP}
"""The raw form of each trump (a suit's index, :data:`NO_TRUMP` for none)."""
TRUMP_OF_INDEX: tuple[Suit | None, ...] = (*SUITS, None)
"""The trump of each raw form 0..4."""


class DealContext(NamedTuple):
    """The facts of one deal that the rules decide from.

    - ``players``, ``seat_teams`` (the side of each seat), ``teams`` (the seats of each side);
    - ``deal_index``: which deal of the schedule this is (0 for the first; a
      thrown-in deal is dealt again with the same index);
    - ``dealer``, ``hand_size``;
    - ``outcome``: the bidding's result once every player has called, else ``None``
      (the contracts, the declarer, the board bidders);
    - ``trump``: the effective trump, a :class:`~backalley.Suit` or ``None``
      for no trump suit; before the trump part has opened the deal, and while a
      declarer is still to name trump, it is ``None``;
    - ``ranking``: the rule set's ranking part (card order and trick winner), for
      parts that need to know which card is higher;
    - ``shown``: the cards the deal's opening shows to be in no hand - the
      turn-up, the discards and any card the trump part shows to be left in
      the stock (set when the deal opens);
    - ``played``: the cards played to the deal's completed tricks (empty
      during the first trick), and ``broken``: whether trump is broken by
      them - the facts of the trick being played, which the engine moves on
      at the end of each trick (what the lead part's ``breaks_trump`` made of
      the tricks);
    - ``played_by``: the same cards seat by seat (what each seat played to the
      completed tricks; empty before the first trick is complete), read
      through :meth:`seat_played`.
    """

    players: int
    seat_teams: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]
    deal_index: int
    dealer: int
    hand_size: int
    outcome: BiddingOutcome | None
    trump: Suit | None
    ranking: Ranking
    shown: CardSet = CardSet()
    played: CardSet = CardSet()
    broken: bool = False
    played_by: tuple[CardSet, ...] = ()

    def seat_played(self, seat: int) -> CardSet:
        """The cards ``seat`` played to the deal's completed tricks."""
        played_by = self.played_by
        return played_by[seat] if seat < len(played_by) else CardSet()

    @property
    def first_trick(self) -> bool:
        """Whether the trick being played is the deal's first (no card played before it)."""
        return not self.played

    @property
    def board_bidders(self) -> frozenset[int]:
        """The seats that bid board this deal (none before the bidding ends)."""
        outcome = self.outcome
        return frozenset() if outcome is None else outcome.board_bidders

    def is_opponent(self, seat: int, other: int) -> bool:
        """Whether ``seat`` and ``other`` are on different sides."""
        return self.seat_teams[seat] != self.seat_teams[other]


class BiddingContext(NamedTuple):
    """What a bidding part needs to know about the bidding in progress."""

    hand_size: int
    players: int
    first: int
    calls: tuple[Move, ...]
    teams: tuple[tuple[int, ...], ...]
    seat_teams: tuple[int, ...]

    @property
    def seat(self) -> int:
        """The seat now speaking."""
        return (self.first + len(self.calls)) % self.players

    def seat_of(self, i: int) -> int:
        """The seat that made (or makes) call number ``i``."""
        return (self.first + i) % self.players

    def team_of(self, seat: int) -> int:
        return self.seat_teams[seat]

    @property
    def is_last(self) -> bool:
        return len(self.calls) == self.players - 1

    def with_calls(self, calls: tuple[Move, ...]) -> BiddingContext:
        return self._replace(calls=calls)
