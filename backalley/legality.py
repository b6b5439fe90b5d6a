"""Which moves are legal, and why a move is not: the one place both
``legal_moves()`` and ``check()`` (of a full state and of a player's view) ask.

Everything here reads a *position*: the public facts of the deal plus the
hand of the seat to act, which is exactly what that seat knows.  Bidding
questions go to the rule set's bidding part, play questions to
:func:`backalley.play.restrictions`.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from backalley.cards import SUITS, Card
from backalley.errors import Reason
from backalley.moves import MOVE_TYPES, PLAYS, Move, NameTrump, Play
from backalley.play import explain, restrictions
from backalley.rules.bidding import BiddingContext
from backalley.rules.deck import deck_mask

__all__ = ["Phase", "legal_moves", "refusal"]

if TYPE_CHECKING:
    # A position: what legality depends on - the public facts of the deal and
    # the hand of the seat to act.  Full states and player views are both one.
    from backalley.public import PublicFacts as Position

Refusal = tuple[Reason, str]


class Phase(enum.Enum):
    """Where a game stands."""

    BIDDING = "bidding"
    NAMING_TRUMP = "naming-trump"
    PLAYING = "playing"
    GAME_OVER = "game-over"


def bidding_context(pos: Position, calls: tuple[Move, ...] | None = None) -> BiddingContext:
    """The bidding part's view of the deal (with ``calls`` instead of the position's own)."""
    rules = pos.rules
    players = rules.players
    return BiddingContext(
        pos.hand_size,
        players,
        rules.bidding.first(pos.dealer, players),
        pos.calls if calls is None else calls,
        rules.teams,
    )


def play_restrictions(pos: Position, seat: int, hand: int) -> tuple[tuple[int, Reason], ...]:
    """The play rules narrowing ``hand`` of ``seat`` (see :func:`backalley.play.restrictions`)."""
    outcome = pos.outcome
    trump = pos.trump_index
    return restrictions(
        pos.rules,
        hand,
        pos.trick_cards,
        4 if trump is None else trump,
        pos.broken,
        seat,
        pos.leader,
        frozenset() if outcome is None else outcome.board_bidders,
    )


def legal_play_mask(pos: Position) -> int:
    """The cards the seat to act may play, as a bit set."""
    seat = pos.to_act
    if seat is None:
        return 0
    allowed = hand = pos.hand_mask(seat)
    for mask, _reason in play_restrictions(pos, seat, hand):
        allowed &= mask
    return allowed


_RUNS: tuple[dict[int, tuple[Play, ...]], ...] = tuple({} for _ in range(5))


def _run(group: int, bits: int) -> tuple[Play, ...]:
    base = 13 * group
    plays = tuple(PLAYS[base + i] for i in range(13) if bits >> i & 1)
    _RUNS[group][bits] = plays
    return plays


def plays_of_mask(mask: int) -> tuple[Play, ...]:
    """The plays of the cards in a bit set, in card order (runs of a suit are cached)."""
    runs = _RUNS
    out: tuple[Play, ...] = ()
    group = 0
    while mask:
        bits = mask & 0x1FFF
        if bits:
            out += runs[group].get(bits) or _run(group, bits)
        mask >>= 13
        group += 1
    return out


def _trump_choices(pos: Position) -> tuple[NameTrump, ...]:
    names = tuple(NameTrump(suit) for suit in SUITS)
    if getattr(pos.rules.trump, "allow_no_trump", False):
        return (*names, NameTrump(None))
    return names


def legal_moves(pos: Position) -> tuple[Move, ...]:
    """The legal moves of the seat to act, in a deterministic order:
    calls as the bidding part lists them, trump suits C D H S (then no trump),
    plays in card order (suits C D H S, 2 up to A, then LJ, BJ)."""
    phase = pos.phase
    if phase is Phase.PLAYING:
        return plays_of_mask(legal_play_mask(pos))
    if phase is Phase.BIDDING:
        return pos.rules.bidding.legal_calls(bidding_context(pos))
    if phase is Phase.NAMING_TRUMP:
        return _trump_choices(pos)
    return ()


_PHASE_MOVES = {
    Phase.BIDDING: "it is time to bid",
    Phase.NAMING_TRUMP: "the declarer is naming trump",
    Phase.PLAYING: "it is time to play a card",
}


def refusal(pos: Position, move: object) -> Refusal | None:
    """Why the seat to act may not make ``move`` now, or ``None`` if it may."""
    if not isinstance(move, MOVE_TYPES):
        hint = " (read text with backalley.parse_move)" if isinstance(move, str) else ""
        return (Reason.NOT_A_MOVE, f"{move!r} is not a move{hint}")
    phase = pos.phase
    if phase is Phase.GAME_OVER or pos.to_act is None:
        return (Reason.GAME_OVER, "the game is over: no more moves can be made")
    if phase is Phase.PLAYING:
        if not isinstance(move, Play):
            return (Reason.WRONG_PHASE, f"{move} is not a card play; {_PHASE_MOVES[phase]}")
        return _play_refusal(pos, move.card)
    if isinstance(move, Play):
        return (Reason.WRONG_PHASE, f"cards cannot be played yet; {_PHASE_MOVES[phase]}")
    if phase is Phase.BIDDING:
        if isinstance(move, NameTrump):
            return (Reason.WRONG_PHASE, f"trump cannot be named now; {_PHASE_MOVES[phase]}")
        return pos.rules.bidding.refusal(bidding_context(pos), move)  # type: ignore[arg-type]
    # naming trump
    if not isinstance(move, NameTrump):
        return (Reason.WRONG_PHASE, f"{move} is not a trump call; {_PHASE_MOVES[phase]}")
    if move not in _trump_choices(pos):
        return (Reason.NO_TRUMP_NOT_ALLOWED, "these rules require the declarer to name a suit")
    return None


def _play_refusal(pos: Position, card: Card) -> Refusal | None:
    index = card.index
    bit = 1 << index
    if not deck_mask(pos.rules.deck) & bit:
        return (Reason.NOT_IN_DECK, f"{card} is not in this game's deck")
    seat = pos.to_act
    assert seat is not None
    hand = pos.hand_mask(seat)
    if not hand & bit:
        return (Reason.NOT_IN_HAND, f"you do not hold {card}")
    trump = pos.trump_index
    for mask, reason in play_restrictions(pos, seat, hand):
        if not mask & bit:
            text = explain(
                reason, index, mask, pos.trick_cards, 4 if trump is None else trump, pos.rules.lead
            )
            return (reason, text)
    return None
