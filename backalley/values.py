"""The game's shared value types: the phase of a game, contracts, the outcome
of a bidding, tricks and deal results.

This is a leaf module (it imports only cards, moves and errors), so that the
rule parts, the engine and the documents can all speak of the same values
without importing each other.
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

from backalley.cards import Card, Suit
from backalley.errors import RuleSetError
from backalley.moves import Move
from backalley.reprs import fields_repr

__all__ = ["BiddingOutcome", "Contract", "DealResult", "Phase", "RawTrick", "Trick"]


class Phase(enum.Enum):
    """Where a game stands."""

    BIDDING = "bidding"
    NAMING_TRUMP = "naming-trump"
    PLAYING = "playing"
    GAME_OVER = "game-over"


def _bool(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, bool):
        raise RuleSetError([f"{attribute.name} must be true or false, got {value!r}"])


def _count(instance: Any, attribute: Any, value: Any) -> None:
    if type(value) is not int or value < 0:
        raise RuleSetError([f"{attribute.name} must be a whole number >= 0, got {value!r}"])


def _seat_or_none(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None and (type(value) is not int or value < 0):
        raise RuleSetError([f"{attribute.name} must be a seat number or none, got {value!r}"])


def _counts_or_none(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, tuple) or any(
        v is not None and (type(v) is not int or v < 0) for v in value
    ):
        raise RuleSetError(
            [f"{attribute.name} must be a tuple of whole numbers >= 0 or none, got {value!r}"]
        )


@attrs.frozen(slots=True, repr=False)
class Contract:
    """What one side has contracted to do in a deal.

    ``tricks`` is the number of tricks contracted (the hand size for a board),
    ``multiplier`` the board or counter multiplier, ``declarer`` the seat that
    won an auction (``None`` in once-around bidding).
    """

    __repr__ = fields_repr

    tricks: int = attrs.field(validator=_count)
    board: bool = attrs.field(default=False, validator=_bool)
    multiplier: int = attrs.field(default=1, validator=_count)
    declarer: int | None = attrs.field(default=None, validator=_seat_or_none)

    def __reduce__(self) -> Any:
        return (Contract, (self.tricks, self.board, self.multiplier, self.declarer))

    def __str__(self) -> str:
        text = "board" if self.board else str(self.tricks)
        if self.multiplier != 1:
            text += f" x{self.multiplier}"
        return text


@attrs.frozen(slots=True, repr=False)
class BiddingOutcome:
    """The result of a complete bidding: ``contracts`` per side (``None`` for a
    side without a contract), or ``thrown_in`` when the deal is not played.

    ``highest_bidder`` is the seat the bidding names to lead (the last board
    claimer, else the highest bid), ``declarer`` the seat that won an auction,
    ``board_bidders`` the seats that bid board.  ``announcements`` is, per
    side, the highest number of tricks the side announced (``None``: none),
    as an auction tells it for the defenders' scoring; empty when the bidding
    does not tell it.
    """

    __repr__ = fields_repr

    contracts: tuple[Contract | None, ...]
    highest_bidder: int | None = None
    declarer: int | None = None
    board_bidders: frozenset[int] = frozenset()
    thrown_in: bool = attrs.field(default=False, validator=_bool)
    announcements: tuple[int | None, ...] = attrs.field(default=(), validator=_counts_or_none)


def _card_tuple(cards: Any) -> tuple[Card, ...]:
    return tuple(cards)


RawTrick = tuple[int, tuple[int, ...], int]
"""A completed trick inside the engine: (leader, card indices in play order, winner)."""


@attrs.frozen(slots=True, repr=False)
class Trick:
    """A completed trick: who led, the cards in the order played, who won."""

    __repr__ = fields_repr

    leader: int
    cards: tuple[Card, ...] = attrs.field(converter=_card_tuple)
    winner: int
    players: int = 4

    @property
    def plays(self) -> tuple[tuple[int, Card], ...]:
        """``((seat, card), ...)`` in the order played."""
        return tuple(((self.leader + k) % self.players, c) for k, c in enumerate(self.cards))


@attrs.frozen(slots=True, repr=False)
class DealResult:
    """The record of one scored deal.

    ``bids`` are the calls per seat; ``contracts``, ``tricks`` and ``points``
    are per side (team, or seat in a cutthroat game).
    """

    __repr__ = fields_repr

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

    def __reduce__(self) -> Any:
        """Pickled as its plain values: the class and its fields, in order."""
        return (
            DealResult,
            (
                self.number,
                self.dealer,
                self.hand_size,
                self.turn_up,
                self.trump,
                self.bids,
                self.contracts,
                self.declarer,
                self.tricks,
                self.points,
            ),
        )
