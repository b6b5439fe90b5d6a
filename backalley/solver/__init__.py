"""An exact double-dummy solver for the play of any rule set.

With every hand known, :func:`solve` gives the number of the remaining tricks
(the current, unfinished trick included) that the side of the seat to act
takes when every seat plays its best, and :func:`analyse` gives that number
after each legal card::

    from backalley.solver import analyse, solve

    tricks = solve(state)                # state.phase is Phase.PLAYING
    values = analyse(state)              # {Play(card): tricks, ...}
    assert max(values.values()) == tricks

The *side* is the seat's team with partnerships; without partnerships it is
the seat alone, against all the other seats together (they minimise its
tricks).  The rules of play (following, jokers, blooper forcing, leading
trump, who wins a trick) are the state's own rules, asked through the same
functions as the engine's legality, so a new rule is solved without changes
here.

The solver is a tool: ``import backalley`` does not import it.
"""

from __future__ import annotations

from backalley.engine.state import GameState
from backalley.errors import SetupError
from backalley.moves import Move
from backalley.solver import _rules
from backalley.solver._search import Search

__all__ = ["analyse", "solve"]


def _position(state: GameState) -> _rules.Position:
    if not isinstance(state, GameState):
        raise SetupError(
            f"the solver needs a GameState (full information), got {type(state).__name__}"
        )
    position = _rules.position(state)
    if position is None:
        raise SetupError(
            f"the solver works on the play of a deal, but this state is in the "
            f"{state.phase.value} phase"
        )
    return position


def solve(state: GameState) -> int:
    """The number of the remaining tricks (the current trick included) that
    the side of ``state.to_act`` takes when every seat plays its best with
    all hands known.

    Raises :class:`~backalley.SetupError` for a state that is not in the
    playing phase.
    """
    pos = _position(state)
    seat = (pos.leader + len(pos.trick)) % len(pos.hands)
    search = Search(pos, seat)
    try:
        return search.value(pos.hands, pos.leader, pos.broken, pos.trick)
    finally:
        search.release()


def analyse(state: GameState) -> dict[Move, int]:
    """Each legal move of ``state.to_act`` mapped to the number of the
    remaining tricks (the current trick included) that the side of
    ``state.to_act`` takes after it, every seat then playing its best.

    ``max(analyse(state).values()) == solve(state)``.  The moves come in the
    order of :meth:`~backalley.GameState.legal_moves`.  Raises
    :class:`~backalley.SetupError` for a state that is not in the playing
    phase.
    """
    pos = _position(state)
    seat = (pos.leader + len(pos.trick)) % len(pos.hands)
    search = Search(pos, seat)
    out: dict[Move, int] = {}
    try:
        for move in state.legal_moves():
            card = move.card.index  # type: ignore[union-attr]
            out[move] = search.after(pos.hands, pos.leader, pos.broken, pos.trick, card)
    finally:
        search.release()
    return out
