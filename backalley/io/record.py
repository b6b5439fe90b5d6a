"""Game records and replay.

A :class:`GameRecord` is everything needed to reproduce a game: the rule set,
the first dealer, the seed and/or deck orders, the moves in order, and
(optionally) the per-deal results it is expected to produce, player names
and free-form metadata.  :func:`replay` plays it back through the rules and
stops at the first illegal move with its index and reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs

from backalley.cards import CARDS
from backalley.engine import lowlevel
from backalley.engine.setup import new_game
from backalley.engine.state import GameState
from backalley.errors import IllegalMoveError, Reason, SetupError
from backalley.moves import Move
from backalley.rules.ruleset import RuleSet
from backalley.values import DealResult

__all__ = ["GameRecord", "ReplayError", "replay"]


class ReplayError(IllegalMoveError):
    """A record's move that the rules refuse (or results the moves do not produce).

    ``index`` is the position of the move in ``record.moves`` (``None`` for a
    results mismatch), ``move`` the move, ``seat`` the seat that made it
    (``None`` for a results mismatch) and ``state`` the last good state.
    """

    def __init__(
        self,
        reason: Reason,
        message: str,
        index: int | None,
        move: Move | None,
        state: GameState,
        seat: int | None = None,
    ) -> None:
        super().__init__(reason, message, move=move, seat=seat)
        self.index = index
        self.state = state

    def __reduce__(self) -> Any:
        """Pickle every field as an argument."""
        return (
            type(self),
            (self.reason, self.message, self.index, self.move, self.state, self.seat),
        )


def _frozen_mapping(value: Mapping[str, str] | None) -> Mapping[str, str]:
    """A read-only copy, so that a record stays a value (``None``: no metadata)."""
    if value is None:
        value = {}
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise SetupError(f"metadata is a mapping of text to text, not {type(value).__name__}")
    return MappingProxyType(dict(value))


def _tuple(value: Any) -> tuple[Any, ...]:
    """A tuple copy of a sequence, so that a record stays a value."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise SetupError(f"expected a sequence, not {type(value).__name__}")
    return tuple(value)


def _decks(value: Any) -> tuple[tuple[str, ...], ...]:
    return tuple(_tuple(d) for d in _tuple(value))


def _tuple_or_none(value: Any) -> tuple[Any, ...] | None:
    return None if value is None else _tuple(value)


@attrs.frozen(slots=True)
class GameRecord:
    """A whole (or partial) game as data."""

    rules: RuleSet
    first_dealer: int
    seed: int | None = None
    decks: tuple[tuple[str, ...], ...] = attrs.field(default=(), converter=_decks)
    moves: tuple[Move, ...] = attrs.field(default=(), converter=_tuple)
    results: tuple[DealResult, ...] | None = attrs.field(default=None, converter=_tuple_or_none)
    players: tuple[str, ...] | None = attrs.field(default=None, converter=_tuple_or_none)
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
            raise SetupError(
                f"a record starts from a GameState (backalley.new_game), not {start!r}"
            )
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

    @classmethod
    def from_state(
        cls,
        state: GameState,
        *,
        players: Sequence[str] | None = None,
        metadata: Mapping[str, str] | None = None,
    ) -> GameRecord:
        """The record of the game that led to ``state``: a state remembers its
        start (rule set, seed, first dealer, deck orders) and every move since
        (``state.moves``), so a user interface need keep nothing else.  The
        results of the deals scored so far are recorded too.  Raises
        :class:`~backalley.SetupError` for a state that was not played from a
        new game (a bot's sample of a later deal)."""
        if not isinstance(state, GameState):
            raise SetupError(f"a record is made from a GameState, not {state!r}")
        if not lowlevel.played_from_start(state):
            raise SetupError(
                "this state began mid-game (as lowlevel.opening opens one), so no record "
                "replays to it from a new game"
            )
        match = state._core.match
        return cls(
            rules=state.rules,
            first_dealer=match.first_dealer,
            seed=match.seed,
            decks=tuple(tuple(str(CARDS[i]) for i in order) for order in match.decks),
            moves=state.moves,
            results=state.deal_results,
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
    if not isinstance(record, GameRecord):
        raise SetupError(f"replay plays a GameRecord, not {type(record).__name__}")
    state = record.start()
    yield state
    for index, move in enumerate(record.moves):
        try:
            state = state.apply(move)
        except IllegalMoveError as exc:
            raise ReplayError(
                exc.reason, f"move {index} ({move}): {exc}", index, move, state, exc.seat
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
                Reason.RESULTS_DIFFER,
                f"the moves do not produce the recorded result of deal {first + 1}",
                None,
                None,
                state,
            )
