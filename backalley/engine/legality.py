"""Which moves are legal, and why a move is not: the one place both
``legal_moves()`` and ``check()`` (of a full state and of a player's view) ask.

Everything here reads a *position*: the public facts of the deal plus the
hand of the seat to act, which is exactly what that seat knows.  Bidding
questions go to the rule set's bidding part, trump calls to its trump part,
plays to its lead and follow parts - all through the rule set's
:attr:`~backalley.RuleSet.plan`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from backalley.errors import Reason
from backalley.moves import Bid, BoardBid, Counter, Move, NameTrump, Pass, Play
from backalley.values import Phase

__all__ = ["Phase", "known_calls", "legal_moves", "refusal"]

if TYPE_CHECKING:
    # A position: what legality depends on - the public facts of the deal and
    # the hand of the seat to act.  Full states and player views are both one.
    from backalley.engine.public import PublicFacts as Position

Refusal = tuple[Reason, str]


def legal_play_mask(pos: Position) -> int:
    """The cards the seat to act may play, as a bit set."""
    seat = pos.to_act
    if seat is None:
        return 0
    return pos.rules.plan.play_mask(
        pos._ctx, seat, pos._hand_mask(seat), pos._trick_cards, pos.leader, pos._broken
    )


def _trump_choices(pos: Position) -> tuple[NameTrump, ...]:
    return pos.rules.plan.trump_calls(pos._ctx)


def legal_moves(pos: Position) -> tuple[Move, ...]:
    """The legal moves of the seat to act, in a deterministic order:
    calls as the bidding part lists them, trump calls as the trump part lists
    them (C D H S, then no trump), plays in card order (suits C D H S, 2 up to
    A, then LJ, BJ)."""
    phase = pos.phase
    if phase is Phase.PLAYING:
        return pos.rules.plan.plays(legal_play_mask(pos))
    if phase is Phase.BIDDING:
        plan = pos.rules.plan
        return plan.legal_calls(plan.bidding_context(pos._ctx, pos.calls))
    if phase is Phase.NAMING_TRUMP:
        return _trump_choices(pos)
    return ()


def known_calls(pos: Position) -> tuple[Move, ...]:
    """Every call the bidding part knows at this point of the bidding, legal
    or not, in its order (none outside the bidding): the calls
    :func:`legal_moves` picks from and :func:`refusal` answers for."""
    if pos.phase is not Phase.BIDDING:
        return ()
    plan = pos.rules.plan
    return plan.known_calls(plan.bidding_context(pos._ctx, pos.calls))


_PHASE_MOVES = {
    Phase.BIDDING: "it is time to bid",
    Phase.NAMING_TRUMP: "the declarer is naming trump",
    Phase.PLAYING: "it is time to play a card",
}


def turn_refusal(pos: Position, seat: int, you: bool = False) -> Refusal | None:
    """Why ``seat`` (a seat of the game) may not move now, or ``None`` when it
    is the seat to act (or the game is over): the declarer names trump, a seat
    calls once a deal, and otherwise it is another seat's turn.  ``you``: the
    sentence speaks to the seat itself (a player's view)."""
    to_act = pos.to_act
    if pos.phase is Phase.GAME_OVER or seat == to_act:
        return None
    who = "you" if you else f"seat {seat}"
    if pos.phase is Phase.NAMING_TRUMP:
        return (Reason.NOT_DECLARER, f"seat {to_act} is the declarer and names trump, not {who}")
    spoken = pos.bids[seat] if pos.phase is Phase.BIDDING else None
    if spoken is not None:
        has = "have" if you else "has"
        return (Reason.ALREADY_BID, f"{who} {has} already called ({spoken}) this deal")
    whose = "yours" if you else f"seat {seat}'s"
    return (Reason.NOT_YOUR_TURN, f"it is seat {to_act}'s turn, not {whose}")


def refusal(pos: Position, move: object) -> Refusal | None:
    """Why the seat to act may not make ``move`` now, or ``None`` if it may."""
    if not isinstance(move, (Pass, Bid, BoardBid, Counter, NameTrump, Play)):  # MOVE_TYPES
        hint = " (read text with backalley.parse_move)" if isinstance(move, str) else ""
        return (Reason.NOT_A_MOVE, f"{move!r} is not a move{hint}")
    phase = pos.phase
    seat = pos.to_act
    if phase is Phase.GAME_OVER or seat is None:
        return (Reason.GAME_OVER, "the game is over: no more moves can be made")
    if phase is Phase.PLAYING:
        if not isinstance(move, Play):
            return (Reason.WRONG_PHASE, f"{move} is not a card play; {_PHASE_MOVES[phase]}")
        return pos.rules.plan.play_refusal(
            pos._ctx,
            seat,
            pos._hand_mask(seat),
            pos._trick_cards,
            pos.leader,
            pos._broken,
            move.card.index,
        )
    if isinstance(move, Play):
        return (Reason.WRONG_PHASE, f"cards cannot be played yet; {_PHASE_MOVES[phase]}")
    if phase is Phase.BIDDING:
        if isinstance(move, NameTrump):
            return (Reason.WRONG_PHASE, f"trump cannot be named now; {_PHASE_MOVES[phase]}")
        plan = pos.rules.plan
        return plan.call_refusal(plan.bidding_context(pos._ctx, pos.calls), move)
    # naming trump
    if not isinstance(move, NameTrump):
        return (Reason.WRONG_PHASE, f"{move} is not a trump call; {_PHASE_MOVES[phase]}")
    choices = _trump_choices(pos)
    if move in choices:
        return None
    if move.suit is None:
        return (Reason.NO_TRUMP_NOT_ALLOWED, "these rules require the declarer to name a suit")
    allowed = ", ".join(str(c.suit or "no trump") for c in choices)
    return (
        Reason.HOUSE_RULE,
        f"the declarer may name only {allowed} as trump here, not {move.suit}",
    )
