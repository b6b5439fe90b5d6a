"""Playing on from a state without building a state per move (for bots and
simulations)."""

from __future__ import annotations

from collections.abc import Callable

from backalley.engine import kernel
from backalley.engine.state import GameState, _state
from backalley.errors import SetupError
from backalley.moves import Move
from backalley.values import Phase

__all__ = ["playout"]

_UNTIL = ("game", "deal", "trick")
_GAME_OVER = Phase.GAME_OVER


def playout(
    state: GameState,
    choose: Callable[[tuple[Move, ...]], Move],
    *,
    until: object = "game",
    decisions: object = None,
) -> GameState:
    """Play on from ``state``, asking ``choose`` for every move, and return the
    state reached: the same :class:`~backalley.GameState` as

    .. code-block:: python

        while not done:
            state = state.apply(choose(state.legal_moves()))

    but without building a state per move: the loop moves the game's raw form
    on through :mod:`backalley.engine.kernel` (the one transition ``apply`` uses too)
    and builds a state only where it stops.

    - ``choose(legal)`` gets the legal moves of the seat to act (the very tuple
      :meth:`~backalley.GameState.legal_moves` gives, in its order) and returns
      one of them; ``random.Random(seed).choice`` is a random playout.  A move
      that is not legal raises :class:`~backalley.IllegalMoveError` with the
      reason :meth:`~backalley.GameState.apply` gives, as ``apply`` would.
    - ``until``: ``"game"`` (play to the end of the game), ``"deal"`` (stop once
      a deal is scored: at the opening of the next deal, or the end), or
      ``"trick"`` (stop once a trick is complete, or a deal scored).
    - ``decisions``: stop after this many moves at most.

    A game that is over is returned as it is.
    """
    if until not in _UNTIL:
        raise SetupError(f"until must be one of {', '.join(map(repr, _UNTIL))}, not {until!r}")
    if decisions is None:
        budget = -1
    elif type(decisions) is int and decisions >= 0:
        budget = decisions
    else:
        raise SetupError(f"decisions must be a whole number >= 0, not {decisions!r}")
    stop_trick = until == "trick"
    stop_deal = until != "game"
    raw = state._raw
    plan = raw.rules.plan
    plays, remembered = plan.plays, plan._plays.get
    legal_of, advance = kernel.legal, kernel.advance
    while budget and raw.phase is not _GAME_OVER:
        legal = legal_of(raw)
        if isinstance(legal, int):
            move = choose(remembered(legal) or plays(legal))
        else:
            move = choose(legal)
        after = advance(raw, legal, move)
        if after is None:
            _state(raw).apply(move)  # raises, with the reason
            raise AssertionError(f"{move} is refused without a reason")  # pragma: no cover
        before, raw = raw, after
        budget -= 1
        if stop_deal and (raw.match.results is not before.match.results or raw.phase is _GAME_OVER):
            break
        if stop_trick and raw.history is not before.history:  # a trick is complete
            break
    return state if raw is state._raw else _state(raw)
