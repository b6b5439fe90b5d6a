"""The bot protocol and the random bot."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Protocol

from backalley.engine import lowlevel
from backalley.engine.state import GameState
from backalley.engine.views import PlayerView
from backalley.errors import SetupError
from backalley.moves import Move

__all__ = [
    "THROW_IN_LIMIT",
    "Bot",
    "RandomBot",
    "bot_notes",
    "check_throw_ins",
    "check_weight",
    "check_whole",
    "choose_among",
    "legal_moves_of",
    "rng_from_seed",
    "close_bots",
    "tell_game_over",
]

THROW_IN_LIMIT = 500
"""The most thrown-in deals a game between bots may have (see :func:`check_throw_ins`)."""


def check_whole(name: str, value: object, low: int) -> None:
    """Refuse a bot's setting ``name`` that is not a whole number of at
    least ``low`` (``True`` is not one) with a :class:`SetupError`."""
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise SetupError(f"{name} must be a whole number >= {low}, not {value!r}")


def check_weight(name: str, value: object) -> None:
    """Refuse a bot's setting ``name`` that is not a finite number of at
    least 0 (``True`` is not one) with a :class:`SetupError`."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value < math.inf:
        raise SetupError(f"{name} must be a number >= 0, not {value!r}")


def check_throw_ins(state: GameState) -> None:
    """Stop a game between bots that keeps being thrown in.

    A deal nobody contracts for is dealt again (option ``all_pass``), so
    rules in which no call is worth making (say, nothing scored for a made
    contract) and players who never make one would deal forever.  Raises
    :class:`~backalley.SetupError` once the game has had more than
    :data:`THROW_IN_LIMIT` thrown-in deals.
    """
    count = lowlevel.thrown_in(state)
    if count > THROW_IN_LIMIT:
        raise SetupError(
            f"{count} deals of this game were thrown in (nobody contracted): "
            "these players make no contract under these rules, so the game would never end"
        )


class Bot(Protocol):
    """Anything that chooses a move from a view.

    A bot sees only a :class:`~backalley.PlayerView` - its own hand and the
    public history - and returns one of ``view.legal_moves()``.
    """

    def choose(self, view: PlayerView) -> Move: ...


def tell_game_over(bots: Sequence[object], state: GameState) -> None:
    """Tell each bot that listens that the game is over: a bot with a
    ``game_over(view)`` method (an :class:`~backalley.bots.ExternalBot`
    tells its program) is given its seat's view of the end."""
    for seat, bot in enumerate(bots):
        listen = getattr(bot, "game_over", None)
        if callable(listen):
            listen(state.view(seat))


def close_bots(bots: Sequence[object]) -> None:
    """Let each bot that holds something (a ``close()`` method: an
    :class:`~backalley.bots.ExternalBot`'s program) let go of it."""
    for bot in dict.fromkeys(bots):
        close = getattr(bot, "close", None)
        if callable(close):
            close()


def bot_notes(bots: Sequence[object]) -> dict[str, str]:
    """What went wrong with each seat's bot, for a record's metadata:
    ``{"bot at seat 2": "turn 12: no move within 5 s; ..."}`` for each bot
    that noted something (an :class:`~backalley.bots.ExternalBot`'s
    ``notes``)."""
    out: dict[str, str] = {}
    for seat, bot in enumerate(bots):
        notes = getattr(bot, "notes", None)
        if isinstance(notes, list) and notes:
            out[f"bot at seat {seat}"] = "; ".join(str(n) for n in notes)
    return out


def rng_from_seed(seed: object) -> random.Random:
    """A random generator reproducible from any seed value (``None``: fresh)."""
    return random.Random(repr(seed) if seed is not None else None)


def legal_moves_of(view: PlayerView) -> tuple[Move, ...]:
    """The moves the seat may make now; :class:`~backalley.SetupError` when it
    has none (the seat is not to act, or the game is over)."""
    moves = view.legal_moves()
    if not moves:
        raise SetupError(f"seat {view.seat} has no legal move now")
    return tuple(moves)


def choose_among(
    view: PlayerView,
    candidates: Callable[[PlayerView, Sequence[Move]], Sequence[Move]],
    decide: Callable[[PlayerView, Sequence[Move]], Move],
) -> Move:
    """The start every sampling bot's decision shares: no legal move is an
    error (:func:`legal_moves_of`), a single legal move is made at once, and
    so is the single move ``candidates(view, moves)`` keeps worth weighing
    (say, the one card of a run of touching cards); otherwise
    ``decide(view, candidates)`` picks among the candidates (all the legal
    moves when ``candidates`` keeps none)."""
    moves = legal_moves_of(view)
    if len(moves) == 1:
        return moves[0]
    cands = list(candidates(view, moves)) or list(moves)
    if len(cands) == 1:
        return cands[0]
    return decide(view, cands)


class RandomBot:
    """Plays a uniformly random legal move (reproducible from its seed)."""

    def __init__(self, seed: object = None) -> None:
        self._rng = rng_from_seed(seed)

    def choose(self, view: PlayerView) -> Move:
        moves = legal_moves_of(view)
        return moves[self._rng.randrange(len(moves))]
