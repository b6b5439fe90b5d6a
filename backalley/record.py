"""Game records and replay.

A :class:`GameRecord` is everything needed to reproduce a game: the rule set,
the first dealer, the seed and/or deck orders, the moves in order, and
(optionally) the per-deal results it is expected to produce, player names
and free-form metadata.  :func:`replay` plays it back through the rules and
stops at the first illegal move with its index and reason.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs

from backalley.cards import CARDS
from backalley.errors import IllegalMoveError, Reason, SetupError
from backalley.game import new_game
from backalley.moves import Move
from backalley.rules.ruleset import RuleSet
from backalley.state import GameState
from backalley.values import DealResult

__all__ = ["GameRecord", "ReplayError", "replay"]


class ReplayError(IllegalMoveError):
    """A record's move that the rules refuse (or results the moves do not produce).

    ``index`` is the position of the move in ``record.moves`` (``None`` for a
    results mismatch), ``move`` the move and ``state`` the last good state.
    """

    def __init__(
        self, reason: Reason, message: str, index: int | None, move: Move | None, state: GameState
    ) -> None:
        super().__init__(reason, message)
        self.index = index
        self.move = move
        self.state = state

    def __reduce__(self) -> Any:  # pragma: no cover - not pickled in practice
        return (IllegalMoveError, (self.reason, self.message))


def _frozen_mapping(value: Mapping[str, str]) -> Mapping[str, str]:
    """A read-only copy, so that a record stays a value."""
    return MappingProxyType(dict(value))


@attrs.frozen(slots=True)
class GameRecord:
    """A whole (or partial) game as data."""

    rules: RuleSet
    first_dealer: int
    seed: int | None = None
    decks: tuple[tuple[str, ...], ...] = ()
    moves: tuple[Move, ...] = ()
    results: tuple[DealResult, ...] | None = None
    players: tuple[str, ...] | None = None
    metadata: Mapping[str, str] = attrs.field(
        factory=dict, converter=_frozen_mapping, eq=False, hash=False
    )
    """Free-form text by text (read-only)."""

    @classmethod
    def from_game(
        cls,
        start: GameState,
        moves: Sequence[Move],
        *,
        final: GameState | None = None,
        players: Sequence[str] | None = None,
        metadata: Mapping[str, str] | None = None,
    ) -> GameRecord:
        """The record of the game that ``moves`` play from the new game ``start``
        (with ``final``, the results it reached are recorded too)."""
        if not isinstance(start, GameState):
            raise SetupError(f"a record starts from a GameState (backalley.new_game), not {start!r}")
        match = start._core.match
        if start.deals_played or start.calls or match.deal_number != 1:
            raise SetupError("a record starts from a new game (backalley.new_game)")
        decks = tuple(tuple(str(CARDS[i]) for i in order) for order in match.decks)
        return cls(
            rules=start.rules,
            first_dealer=match.first_dealer,
            seed=match.seed,
            decks=decks,
            moves=tuple(moves),
            results=None if final is None else final.deal_results,
            players=None if players is None else tuple(players),
            metadata=dict(metadata or {}),
        )

    def start(self) -> GameState:
        """The new game the record's moves are played from."""
        return new_game(
            self.rules, seed=self.seed, dealer=self.first_dealer, decks=self.decks or None
        )


def replay(record: GameRecord) -> Iterator[GameState]:
    """Every state of the recorded game, the new game first.

    Raises :class:`ReplayError` at the first illegal move (with its index and
    reason), or when the moves do not produce the recorded results.
    """
    state = record.start()
    yield state
    for index, move in enumerate(record.moves):
        try:
            state = state.apply(move)
        except IllegalMoveError as exc:
            raise ReplayError(
                exc.reason, f"move {index} ({move}): {exc}", index, move, state
            ) from None
        yield state
    if record.results is not None:
        got = state.deal_results
        if len(record.results) > len(got) or got[: len(record.results)] != record.results:
            first = next(
                (i for i, (a, b) in enumerate(zip(record.results, got)) if a != b),
                min(len(got), len(record.results)),
            )
            raise ReplayError(
                Reason.NOT_A_MOVE,
                f"the moves do not produce the recorded result of deal {first + 1}",
                None,
                None,
                state,
            )
