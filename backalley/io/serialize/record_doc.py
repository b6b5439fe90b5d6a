"""Game records as plain data: the rule set, the first dealer, the seed
and/or deck orders, the moves, and optionally the results the moves must
produce (checked for their form here; :func:`backalley.replay` checks them
against the moves), player names and metadata."""

from __future__ import annotations

from typing import Any

from backalley.errors import SerializationError, SetupError
from backalley.io.record import GameRecord
from backalley.io.serialize.common import distinct
from backalley.io.serialize.limits import check_decks, check_moves
from backalley.io.serialize.results_doc import (
    check_results,
    deal_result_of,
    deal_result_to_data,
)
from backalley.io.serialize.rules_doc import rules_from_data, rules_to_data
from backalley.io.serialize.structure import read_keys, structure
from backalley.io.shapes import RecordShape
from backalley.plain import check_length, read_int, read_list

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


def record_from_data(value: Any, path: str = "$") -> GameRecord:
    """The record of a document (without ``format`` and ``version``).
    Raises :class:`~backalley.SerializationError`."""
    obj = read_keys(value, RecordShape, path)
    rules = rules_from_data(obj["rules"], f"{path}.rules")
    # the sizes first: the work a document causes is bounded by its rules
    check_decks(rules, len(read_list(obj.get("decks", []), f"{path}.decks")), f"{path}.decks")
    check_moves(rules, len(read_list(obj["moves"], f"{path}.moves")), f"{path}.moves")
    read_list(obj.get("results", []), f"{path}.results", most=rules.schedule.deals)
    read_list(obj.get("players", []), f"{path}.players", most=rules.players)
    doc = structure({**obj, "rules": rules}, RecordShape, path)
    first_dealer = read_int(doc.first_dealer, f"{path}.first_dealer", 0, rules.players - 1)
    for i, deck in enumerate(doc.decks):
        check_length(deck, f"{path}.decks[{i}]", rules.deck.size)
        distinct(deck, f"{path}.decks[{i}]")
    results = None
    if "results" in obj:
        results = tuple(
            deal_result_of(r, f"{path}.results[{i}]") for i, r in enumerate(doc.results)
        )
        check_results(rules, results, None, path, "results")
    if "players" in obj and len(doc.players) != rules.players:
        raise SerializationError(f"expected one name per seat ({rules.players})", f"{path}.players")
    if doc.seed is None and not doc.decks:
        raise SerializationError("a record needs a seed or deck orders", f"{path}.seed")
    record = GameRecord(
        rules=rules,
        first_dealer=first_dealer,
        seed=doc.seed,
        decks=tuple(tuple(str(c) for c in deck) for deck in doc.decks),
        moves=doc.moves,
        results=results,
        players=doc.players if "players" in obj else None,
        metadata=doc.metadata,
    )
    try:
        record.start()
    except SetupError as exc:
        raise SerializationError(str(exc), f"{path}.decks") from None
    return record
