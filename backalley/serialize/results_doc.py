"""Deal results and contracts as plain data, and the check that a game's
deal results are ones its rules could have produced."""

from __future__ import annotations

from typing import Any

from backalley.cards import CARDS
from backalley.moves import Bid, BoardBid, Counter, Pass
from backalley.rules.ruleset import RuleSet
from backalley.serialize.common import (
    _card_or_none,
    _expect,
    _fail,
    _int,
    _list,
    _move,
    _object,
    _suit,
)
from backalley.values import Contract, DealResult


def contract_to_data(c: Contract | None) -> dict[str, Any] | None:
    if c is None:
        return None
    return {
        "tricks": c.tricks,
        "board": c.board,
        "multiplier": c.multiplier,
        "declarer": c.declarer,
    }


def contract_from_data(value: Any, path: str) -> Contract | None:
    if value is None:
        return None
    obj = _object(
        value,
        path,
        {"tricks": True, "board": False, "multiplier": False, "declarer": False},
        "a contract",
    )
    declarer = obj.get("declarer")
    return Contract(
        tricks=_int(obj["tricks"], f"{path}.tricks", 0),
        board=_expect(obj.get("board", False), bool, f"{path}.board", "true or false"),
        multiplier=_int(obj.get("multiplier", 1), f"{path}.multiplier", 1),
        declarer=None if declarer is None else _int(declarer, f"{path}.declarer", 0, 15),
    )


def _contract_document(value: Any, path: str) -> Contract:
    """A contract as a document of its own: ``null`` (no contract) is not one."""
    contract = contract_from_data(value, path)
    if contract is None:
        raise _fail(path, "expected a contract (an object), got null")
    return contract


def deal_result_to_data(r: Any) -> dict[str, Any]:
    """A deal result as plain data, built once per result and shared: never mutate it."""
    data = r._data
    if data is None:
        data = _deal_result_data(r)
        object.__setattr__(r, "_data", data)
    return data  # type: ignore[no-any-return]


def _deal_result_data(r: Any) -> dict[str, Any]:
    return {
        "number": r.number,
        "dealer": r.dealer,
        "hand_size": r.hand_size,
        "turn_up": None if r.turn_up is None else str(r.turn_up),
        "trump": None if r.trump is None else r.trump.value,
        "bids": [None if b is None else str(b) for b in r.bids],
        "contracts": [contract_to_data(c) for c in r.contracts],
        "declarer": r.declarer,
        "tricks": list(r.tricks),
        "points": list(r.points),
    }


_RESULT_KEYS = {
    "number": True,
    "dealer": True,
    "hand_size": True,
    "turn_up": False,
    "trump": False,
    "bids": True,
    "contracts": True,
    "declarer": False,
    "tricks": True,
    "points": True,
}


_RESULTS_CACHE: dict[str, Any] = {}


def deal_result_from_data(value: Any, path: str) -> Any:
    """A deal result from plain data (memoized: results recur in every later state)."""
    key = repr(value)  # exact for JSON data (1 != 1.0 != True), and fast
    result = _RESULTS_CACHE.get(key)
    if result is None:
        result = _deal_result_from_data(value, path)
        if len(_RESULTS_CACHE) >= 4096:
            _RESULTS_CACHE.clear()
        _RESULTS_CACHE[key] = result
    return result


def _deal_result_from_data(value: Any, path: str) -> Any:
    obj = _object(value, path, _RESULT_KEYS, "a deal result")
    declarer = obj.get("declarer")
    return DealResult(
        number=_int(obj["number"], f"{path}.number", 1),
        dealer=_int(obj["dealer"], f"{path}.dealer", 0, 15),
        hand_size=_int(obj["hand_size"], f"{path}.hand_size", 1),
        turn_up=_card_or_none(obj.get("turn_up"), f"{path}.turn_up"),
        trump=_suit(obj.get("trump"), f"{path}.trump"),
        bids=tuple(
            None if b is None else _move(b, f"{path}.bids[{i}]")
            for i, b in enumerate(_list(obj["bids"], f"{path}.bids"))
        ),
        contracts=tuple(
            contract_from_data(c, f"{path}.contracts[{i}]")
            for i, c in enumerate(_list(obj["contracts"], f"{path}.contracts"))
        ),
        declarer=None if declarer is None else _int(declarer, f"{path}.declarer", 0, 15),
        tricks=tuple(
            _int(t, f"{path}.tricks[{i}]", 0)
            for i, t in enumerate(_list(obj["tricks"], f"{path}.tricks"))
        ),
        points=tuple(
            _int(p, f"{path}.points[{i}]")
            for i, p in enumerate(_list(obj["points"], f"{path}.points"))
        ),
    )


def _trick_to_data(raw: tuple[int, tuple[int, ...], int]) -> dict[str, Any]:
    lead, cards, winner = raw
    return {"leader": lead, "cards": [str(CARDS[c]) for c in cards], "winner": winner}


def check_results(
    rules: RuleSet, results: tuple[Any, ...], scores: tuple[int, ...] | None, path: str, key: str
) -> None:
    """Deal results that the rules could have produced, summing to ``scores``
    (when given): numbered in order, of the schedule's hand sizes, with one
    entry per side, tricks that add up to the hand size, bids of every seat."""
    sides = len(rules.teams)
    if scores is not None and len(scores) != sides:
        raise _fail(f"{path}.scores", f"expected {sides} scores, got {len(scores)}")
    schedule = rules.schedule.hand_sizes
    totals = [0] * sides
    for i, r in enumerate(results):
        where = f"{path}.{key}[{i}]"
        if r.number != i + 1 or i >= len(schedule) or r.hand_size != schedule[i]:
            raise _fail(where, "the deal number or hand size does not fit the schedule")
        for name in ("points", "tricks", "contracts"):
            if len(getattr(r, name)) != sides:
                raise _fail(f"{where}.{name}", f"expected {name} for {sides} sides")
        if len(r.bids) != rules.players or not 0 <= r.dealer < rules.players:
            raise _fail(f"{where}.bids", f"expected a dealer and the bids of {rules.players} seats")
        for j, call in enumerate(r.bids):
            if call is not None and not isinstance(call, (Pass, Bid, BoardBid, Counter)):
                raise _fail(f"{where}.bids[{j}]", f"{call} is not a call")
        if r.declarer is not None and not 0 <= r.declarer < rules.players:
            raise _fail(f"{where}.declarer", f"seat {r.declarer} does not exist")
        if sum(r.tricks) != r.hand_size:
            raise _fail(f"{where}.tricks", "the tricks do not add up to the hand size")
        totals = [a + b for a, b in zip(totals, r.points)]
    if scores is not None and tuple(totals) != tuple(scores):
        raise _fail(
            f"{path}.scores",
            f"the scores {list(scores)} are not the sum of the deal results {totals}",
        )
