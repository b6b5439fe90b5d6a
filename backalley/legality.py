"""Which moves are legal, and why a move is not: the one place both
``legal_moves()`` and ``check()`` (of a full state and of a player's view) ask.

Everything here reads a *position*: the public facts of the deal plus the
hand of the seat to act, which is exactly what that seat knows.  Bidding
questions go to the rule set's bidding part, trump calls to its trump part,
plays to its lead and follow parts - all through the compiled
:attr:`~backalley.RuleSet.plan`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from backalley.errors import Reason
from backalley.moves import MOVE_TYPES, PLAYS, Move, NameTrump, Play
from backalley.values import Phase

__all__ = ["Phase", "legal_moves", "refusal"]

if TYPE_CHECKING:
    # A position: what legality depends on - the public facts of the deal and
    # the hand of the seat to act.  Full states and player views are both one.
    from backalley.public import PublicFacts as Position

Refusal = tuple[Reason, str]


def legal_play_mask(pos: Position) -> int:
    """The cards the seat to act may play, as a bit set."""
    seat = pos.to_act
    if seat is None:
        return 0
    return pos.rules.plan.play_mask(
        pos._ctx, seat, pos._hand_mask(seat), pos._trick_cards, pos.leader, pos._broken
    )


_RUNS: tuple[list[tuple[Play, ...] | None], ...] = tuple([None] * 8192 for _ in range(5))
"""The plays of each set of cards of one 13-card group (a suit, or the jokers), filled on use."""
_PLAYS_OF: dict[int, tuple[Play, ...]] = {}
PLAYS_CACHE_LIMIT = 1 << 12
"""The most bit sets spanning several groups whose plays are remembered whole
(beyond it only sets within one group are added)."""


def _run(group: int, bits: int) -> tuple[Play, ...]:
    base = 13 * group
    plays = tuple(PLAYS[base + i] for i in range(13) if bits >> i & 1)
    _RUNS[group][bits] = plays
    return plays


def _plays(mask: int) -> tuple[Play, ...]:
    """The plays of ``mask`` from the plays of each group's cards (remembered
    as described at :data:`PLAYS_CACHE_LIMIT`)."""
    r0, r1, r2, r3, r4 = _RUNS
    a, b, c, d, e = (
        mask & 0x1FFF,
        mask >> 13 & 0x1FFF,
        mask >> 26 & 0x1FFF,
        mask >> 39 & 0x1FFF,
        mask >> 52,
    )
    # concatenation, not unpacking: a set within one group is then the group's
    # own tuple (adding an empty tuple gives the same tuple), not a copy of it
    out = (
        ((r0[a] or _run(0, a)) if a else ())
        + ((r1[b] or _run(1, b)) if b else ())
        + ((r2[c] or _run(2, c)) if c else ())
        + ((r3[d] or _run(3, d)) if d else ())
        + ((r4[e] or _run(4, e)) if e else ())
    )
    # Remember every set within one group (at most 5 x 8,191 of them, the sets
    # a seat following suit meets again and again), and other sets while the
    # table is small: whole hands rarely recur, and must not push the others out.
    if len(_PLAYS_OF) < PLAYS_CACHE_LIMIT or (a > 0) + (b > 0) + (c > 0) + (d > 0) + (e > 0) == 1:
        _PLAYS_OF[mask] = out
    return out


def plays_of_mask(mask: int) -> tuple[Play, ...]:
    """The plays of the cards in a bit set, in card order (shared, cached tuples)."""
    return _PLAYS_OF.get(mask) or _plays(mask)


def _trump_choices(pos: Position) -> tuple[NameTrump, ...]:
    return tuple(NameTrump(suit) for suit in pos.rules.trump.choices(pos._ctx))


def legal_moves(pos: Position) -> tuple[Move, ...]:
    """The legal moves of the seat to act, in a deterministic order:
    calls as the bidding part lists them, trump calls as the trump part lists
    them (C D H S, then no trump), plays in card order (suits C D H S, 2 up to
    A, then LJ, BJ)."""
    phase = pos.phase
    if phase is Phase.PLAYING:
        return plays_of_mask(legal_play_mask(pos))
    if phase is Phase.BIDDING:
        plan = pos.rules.plan
        return plan.legal_calls(plan.bidding_context(pos._ctx, pos.calls))
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
        ctx = plan.bidding_context(pos._ctx, pos.calls)
        if move in plan.legal_calls(ctx):
            return None
        return pos.rules.bidding.explain(ctx, move)  # type: ignore[arg-type]
    # naming trump
    if not isinstance(move, NameTrump):
        return (Reason.WRONG_PHASE, f"{move} is not a trump call; {_PHASE_MOVES[phase]}")
    if move not in _trump_choices(pos):
        return (Reason.NO_TRUMP_NOT_ALLOWED, "these rules require the declarer to name a suit")
    return None
