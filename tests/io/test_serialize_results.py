"""Deal results are structured objects wherever they appear: their own
document, views, records and conformance vectors write the same object
(every field typed by the schema), and pickles hold them as plain values."""

from __future__ import annotations

import io
import json
import pickle
import pickletools
import random
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import backalley as ba
from backalley.io.schema import schema
from backalley.io.serialize import deal_result_to_data
from backalley.io.vectors import write_vectors

from ..helpers import short


def _played(deals: int, rules: ba.RuleSet = ba.variants.GAMERULES, seed: int = 5) -> ba.GameState:
    rng = random.Random(seed)
    state = ba.new_game(rules, seed=seed)
    while state.deals_played < deals:
        state = state.apply(rng.choice(state.legal_moves()))
    return state.apply(rng.choice(state.legal_moves()))


STATE = _played(3)
KEYS = ["number", "dealer", "hand_size", "turn_up", "trump", "bids", "contracts", "declarer"]
KEYS += ["tricks", "points"]


def _bare(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("format", "version")}


def test_a_deal_result_is_one_object_with_every_field() -> None:
    result = STATE.deal_results[0]
    data = json.loads(ba.to_json(result))
    assert (data["format"], data["version"]) == ("backalley/deal-result", 2)
    assert list(_bare(data)) == KEYS
    assert data["bids"] == [None if b is None else str(b) for b in result.bids]
    assert data["tricks"] == list(result.tricks) and data["points"] == list(result.points)
    for contract, written in zip(result.contracts, data["contracts"]):
        assert written == (
            None
            if contract is None
            else {
                "tricks": contract.tricks,
                "board": contract.board,
                "multiplier": contract.multiplier,
                "declarer": contract.declarer,
            }
        )
    assert ba.from_json(ba.to_json(result), ba.DealResult) == result


def test_views_records_and_vectors_write_the_same_object() -> None:
    objects = [_bare(json.loads(ba.to_json(r))) for r in STATE.deal_results]
    assert objects == [deal_result_to_data(r) for r in STATE.deal_results]
    view = json.loads(ba.to_json(STATE.view(1)))
    assert view["deal_results"] == objects
    start = ba.new_game(STATE.rules, seed=5)
    record = ba.GameRecord.from_game(start, STATE.moves, final=STATE)
    assert json.loads(ba.to_json(record))["results"] == objects
    out = io.StringIO()
    write_vectors(short(ba.variants.GAMERULES, 2, 1), games=1, seed=1, out=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert all(isinstance(r, dict) for r in lines[-1]["deal_results"])


def test_no_document_holds_a_text_row() -> None:
    """Every string in a state or view document is a card, a move, a phase, a
    suit, a tag, a name or a sentence: none packs a deal result."""
    for value in (STATE, STATE.view(0), STATE.view(3)):
        text = ba.to_json(value)
        assert ";" not in text.replace("; ", "") and "|" not in text


def test_the_schema_types_every_field_of_a_deal_result() -> None:
    definition = schema()["$defs"]["deal_result"]
    assert set(definition["properties"]) == set(KEYS) and not definition["additionalProperties"]
    for name, field in definition["properties"].items():
        assert "pattern" not in json.dumps(field) or name in ("turn_up", "bids"), name
    results = Draft202012Validator(schema("deal_result"))
    for r in STATE.deal_results:
        assert results.is_valid(deal_result_to_data(r))
    assert not results.is_valid("1 0 13 QS S;bid 4,bid 2,pass,bid 3;6,3;-;7,4;60,-30")


@pytest.mark.parametrize(
    "change, path",
    [
        (lambda r: r.__setitem__("points", "60,-30"), "$.points"),
        (lambda r: r.__setitem__("bids", "bid 4,bid 2"), "$.bids"),
        (
            lambda r: r.__setitem__("contracts", [{"tricks": 1, "board": "no"}, None]),
            "$.contracts[0].board",
        ),
        (lambda r: r.__setitem__("declarer", -1), "$.declarer"),
        (lambda r: r.__setitem__("tricks", [1.0, 2]), "$.tricks[0]"),
        (lambda r: r.__setitem__("points", [True, 2]), "$.points[0]"),
        (lambda r: r.pop("number"), "$.number"),
        (lambda r: r.__setitem__("bids", ["bid 1"] * 100), "$.bids"),
    ],
)
def test_a_deal_result_of_the_wrong_form_is_refused(change: Any, path: str) -> None:
    data = _bare(json.loads(ba.to_json(STATE.deal_results[0])))
    change(data)
    with pytest.raises(ba.SerializationError) as info:
        ba.from_json(json.dumps(data), ba.DealResult)
    assert info.value.path == path, str(info.value)


def test_a_deal_result_pickles_as_its_plain_values() -> None:
    result = STATE.deal_results[1]
    deal_result_to_data(result)  # (its document form, cached: not pickled)
    function, args = result.__reduce__()
    assert function is ba.DealResult
    assert args == tuple(getattr(result, name) for name in KEYS)
    data = pickle.dumps(result)
    assert pickle.loads(data) == result
    texts = [arg for op, arg, _pos in pickletools.genops(data) if isinstance(arg, str)]
    assert not [t for t in texts if "|" in t or ";" in t or "," in t], texts


def test_a_state_pickle_holds_its_results_as_values() -> None:
    data = pickle.dumps(STATE)
    back = pickle.loads(data)
    assert back.deal_results == STATE.deal_results
    texts = [arg for op, arg, _pos in pickletools.genops(data) if isinstance(arg, str)]
    assert not [t for t in texts if "|" in t or ";" in t], texts
