"""Game records and replay.

A :class:`GameRecord` is everything needed to reproduce a game: the rule set,
the first dealer, the seed and/or deck orders, the moves in order, and
(optionally) the per-deal results it is expected to produce, player names
and free-form metadata.  :func:`replay` plays it back through the rules and
stops at the first illegal move with its index and reason.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, TextIO

import attrs

from backalley.cards import CARDS
from backalley.errors import IllegalMoveError, Reason, SerializationError, SetupError
from backalley.moves import Move
from backalley.rules.ruleset import RuleSet
from backalley.state import DealResult, GameState

__all__ = ["GameRecord", "ReplayError", "check_record_file", "replay"]


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
        if start.deals_played or start.calls or start.match.deal_number != 1:
            raise SetupError("a record starts from a new game (backalley.new_game)")
        decks = tuple(tuple(str(CARDS[i]) for i in order) for order in start.match.decks)
        return cls(
            rules=start.rules,
            first_dealer=start.match.first_dealer,
            seed=start.match.seed,
            decks=decks,
            moves=tuple(moves),
            results=None if final is None else final.deal_results,
            players=None if players is None else tuple(players),
            metadata=dict(metadata or {}),
        )

    def start(self) -> GameState:
        """The new game the record's moves are played from."""
        from backalley.game import new_game

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


def record_to_data(record: GameRecord) -> dict[str, Any]:
    from backalley.serialize import deal_result_to_data, rules_to_data

    data: dict[str, Any] = {
        "rules": rules_to_data(record.rules),
        "first_dealer": record.first_dealer,
        "seed": record.seed,
        "decks": [list(d) for d in record.decks],
        "moves": [str(m) for m in record.moves],
    }
    if record.results is not None:
        data["results"] = [deal_result_to_data(r) for r in record.results]
    if record.players is not None:
        data["players"] = list(record.players)
    if record.metadata:
        data["metadata"] = dict(record.metadata)
    return data


_KEYS = {
    "rules": True,
    "first_dealer": True,
    "seed": False,
    "decks": False,
    "moves": True,
    "results": False,
    "players": False,
    "metadata": False,
}


def record_from_data(value: Any, path: str = "$") -> GameRecord:
    from backalley.serialize import (
        _cards,
        _int,
        _list,
        _move,
        _object,
        check_results,
        deal_result_from_data,
        rules_from_data,
    )

    obj = _object(value, path, _KEYS, "a game record")
    rules = rules_from_data(obj["rules"], f"{path}.rules")
    seed = obj.get("seed")
    decks = tuple(
        tuple(str(c) for c in _cards(d, f"{path}.decks[{i}]"))
        for i, d in enumerate(_list(obj.get("decks", []), f"{path}.decks"))
    )
    results = None
    if "results" in obj:
        results = tuple(
            deal_result_from_data(r, f"{path}.results[{i}]")
            for i, r in enumerate(_list(obj["results"], f"{path}.results"))
        )
        check_results(rules, results, None, path, "results")
    players = None
    if "players" in obj:
        names = _list(obj["players"], f"{path}.players")
        for i, name in enumerate(names):
            if not isinstance(name, str):
                raise SerializationError("a player name is text", f"{path}.players[{i}]")
        if len(names) != rules.players:
            raise SerializationError(
                f"expected one name per seat ({rules.players})", f"{path}.players"
            )
        players = tuple(names)
    metadata = obj.get("metadata", {})
    if not isinstance(metadata, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()
    ):
        raise SerializationError("metadata is a table of text values", f"{path}.metadata")
    if seed is None and not decks:
        raise SerializationError("a record needs a seed or deck orders", f"{path}.seed")
    record = GameRecord(
        rules=rules,
        first_dealer=_int(obj["first_dealer"], f"{path}.first_dealer", 0, rules.players - 1),
        seed=None if seed is None else _int(seed, f"{path}.seed"),
        decks=decks,
        moves=tuple(
            _move(m, f"{path}.moves[{i}]")
            for i, m in enumerate(_list(obj["moves"], f"{path}.moves"))
        ),
        results=results,
        players=players,
        metadata=metadata,
    )
    try:
        record.start()
    except ValueError as exc:
        raise SerializationError(str(exc), f"{path}.decks") from None
    return record


def check_record_file(path: Path, out: TextIO) -> int:
    """``backalley check FILE``: 0 when the record replays cleanly, 1 at the
    first illegal move (reported with its index and reason), 2 for a file
    that is not a record."""
    from backalley.serialize import from_json

    record = from_json(path.read_text(encoding="utf-8"), GameRecord)
    last: GameState | None = None
    try:
        for state in replay(record):
            last = state
    except ReplayError as exc:
        where = "results" if exc.index is None else f"move {exc.index} ({exc.move})"
        print(f"{path}: ILLEGAL at {where}: {exc.reason.name}: {exc}", file=out)
        return 1
    assert last is not None
    status = (
        "game over" if last.is_over else f"{last.phase.value}, {last.deals_played} deals scored"
    )
    print(f"{path}: OK, {len(record.moves)} moves, {status}, scores {list(last.scores)}", file=out)
    return 0
