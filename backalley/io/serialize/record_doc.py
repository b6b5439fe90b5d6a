"""Game records as plain data: the rule set, the first dealer, the seed
and/or deck orders, the moves, and optionally the results the moves must
produce (checked for their form here; :func:`backalley.replay` checks them
against the moves), player names and metadata."""

from __future__ import annotations

from typing import Any

from backalley.errors import SerializationError, SetupError
from backalley.io.record import GameRecord
from backalley.io.serialize.common import (
    _cards,
    _int,
    _list,
    _moves,
    _object,
    _seed,
)
from backalley.io.serialize.limits import check_decks, check_moves
from backalley.io.serialize.results_doc import (
    check_results,
    deal_result_to_data,
    results_from_data,
)
from backalley.io.serialize.rules_doc import rules_from_data, rules_to_data

__all__ = ["record_from_data", "record_to_data"]


def record_to_data(record: GameRecord) -> dict[str, Any]:
    """A record's document (without ``format`` and ``version``)."""
    check_moves(record.rules, len(record.moves), "$.moves")
    check_decks(record.rules, len(record.decks), "$.decks")
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
    """The record of a document (without ``format`` and ``version``).
    Raises :class:`~backalley.SerializationError`."""
    obj = _object(value, path, _KEYS, "a game record")
    rules = rules_from_data(obj["rules"], f"{path}.rules")
    first_dealer = _int(obj["first_dealer"], f"{path}.first_dealer", 0, rules.players - 1)
    seed = obj.get("seed")
    decks_data = _list(obj.get("decks", []), f"{path}.decks")
    check_decks(rules, len(decks_data), f"{path}.decks")
    moves_data = _list(obj["moves"], f"{path}.moves")
    check_moves(rules, len(moves_data), f"{path}.moves")
    decks = tuple(
        tuple(str(c) for c in _cards(d, f"{path}.decks[{i}]", most=rules.deck.size))
        for i, d in enumerate(decks_data)
    )
    results = None
    if "results" in obj:
        results = results_from_data(obj["results"], f"{path}.results", most=rules.schedule.deals)
        check_results(rules, results, None, path, "results")
    players = None
    if "players" in obj:
        names = _list(obj["players"], f"{path}.players", most=rules.players)
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
        first_dealer=first_dealer,
        seed=None if seed is None else _seed(seed, f"{path}.seed"),
        decks=decks,
        moves=_moves(moves_data, f"{path}.moves"),
        results=results,
        players=players,
        metadata=metadata,
    )
    try:
        record.start()
    except SetupError as exc:
        raise SerializationError(str(exc), f"{path}.decks") from None
    return record
