"""Deal results in state and view documents: one compact row of text per deal
(the object form of older documents still read), checked like the long form."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import backalley as ba
from backalley.schema import schema
from backalley.serialize import deal_result_to_row

from .helpers import result_objects


def _played(deals: int, seed: int = 5) -> ba.GameState:
    rng = random.Random(seed)
    state = ba.new_game(ba.variants.GAMERULES, seed=seed)
    while state.deals_played < deals:
        state = state.apply(rng.choice(state.legal_moves()))
    return state.apply(rng.choice(state.legal_moves()))


STATE = _played(3)


def _doc() -> dict[str, Any]:
    return json.loads(ba.to_json(STATE))


def _refused(d: dict[str, Any], path: str, match: str | None = None) -> None:
    with pytest.raises(ba.SerializationError, match=match) as info:
        ba.from_json(json.dumps(d), ba.GameState)
    assert info.value.path.startswith(path), str(info.value)


def test_states_and_views_write_one_row_per_deal() -> None:
    d = _doc()
    assert d["deal_results"] == [deal_result_to_row(r) for r in STATE.deal_results]
    first = STATE.deal_results[0]
    head, calls, contracts, declarer, tricks, points = d["deal_results"][0].split(";")
    assert head.split(" ")[:3] == [str(first.number), str(first.dealer), str(first.hand_size)]
    assert calls.split(",") == [str(b) for b in first.bids]
    assert contracts.split(",") == [str(c.tricks) for c in first.contracts if c is not None]
    assert declarer == "-" and tricks == ",".join(map(str, first.tricks))
    assert points == ",".join(map(str, first.points))
    view = json.loads(ba.to_json(STATE.view(1)))
    assert view["deal_results"] == d["deal_results"]
    assert ba.from_json(ba.to_json(STATE), ba.GameState) == STATE


def test_the_object_form_of_older_documents_still_loads() -> None:
    old = result_objects(_doc())
    assert isinstance(old["deal_results"][0], dict)
    assert ba.from_json(json.dumps(old), ba.GameState) == STATE
    mixed = _doc()
    mixed["deal_results"][1] = old["deal_results"][1]
    assert ba.from_json(json.dumps(mixed), ba.GameState) == STATE


def test_a_documents_size_grows_by_a_short_row_per_deal() -> None:
    later = _played(15)
    grow = len(ba.to_json(later)) - len(ba.to_json(_played(1)))
    assert grow / 14 < 80, grow  # about 60 bytes a deal (the long form: about 320)


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda r: r + ";", "expected a deal result row"),
        (lambda r: r.replace(" ", "  ", 1), "expected a deal result row"),
        (lambda r: r.replace(";", ";+", 4).replace(";+", ";", 3), "canonical"),
        (lambda r: "0" + r, "canonical"),
        (lambda r: "\u0661" + r[1:], "canonical"),  # an Arabic-Indic digit one
        (lambda r: "x" + r[1:], "whole number"),
        (lambda r: "9" * 30 + r[1:], "whole number"),
        (lambda r: r.split(";", 1)[0] + ";bid 2,bid 2;" + r.split(";", 2)[2], "seat"),
        (lambda r: r.replace(";", ";play QS,", 1), "expected a deal result row|call|seat"),
        (lambda r: ";".join([*r.split(";")[:2], "5z,4", *r.split(";")[3:]]), "contract like"),
        (lambda r: r.replace(" ", " 1", 3), "canonical|turn|card|notation"),
        (lambda r: r + "," * 5000, "at most"),
        (lambda r: 7, "expected a deal result"),
    ],
)
def test_wrong_rows_are_refused_with_the_path_of_the_deal(change: Any, match: str) -> None:
    d = _doc()
    d["deal_results"][1] = change(d["deal_results"][1])
    _refused(d, "$.deal_results[1]", match)


def test_a_forged_row_is_checked_through_the_rules() -> None:
    d = _doc()
    fields = d["deal_results"][0].split(";")
    points = [int(p) for p in fields[5].split(",")]
    fields[5] = f"{points[0] + 7},{points[1]}"
    d["deal_results"][0] = ";".join(fields)
    d["scores"][0] += 7  # the sums agree: only the scoring part can tell
    _refused(d, "$.deal_results[0].points", "scoring part")


def test_the_schema_describes_both_forms() -> None:
    rows = Draft202012Validator(schema("deal_results"))
    state = Draft202012Validator(schema("state"))
    d = _doc()
    assert rows.is_valid(d["deal_results"]) and state.is_valid(d)
    assert state.is_valid(result_objects(_doc()))
    for bad in (
        "1 0 13 QS S",
        d["deal_results"][0].replace(";", ";+", 1),
        "x" + d["deal_results"][0],
    ):
        assert not rows.is_valid([bad]), bad


@pytest.mark.parametrize("name", ["gamerules", "vietnam", "bab-online"])
def test_to_json_writes_the_documents_json(name: str) -> None:
    """The rules' text is written once per rule set and spliced into states
    and views: the text is still exactly the JSON of the document."""
    from backalley.serialize import to_data

    rules = ba.variants.get(name)
    rng = random.Random(1)
    state = ba.new_game(rules, seed=2)
    for k in range(40):
        for value in (state, state.view(k % rules.players)):
            text = ba.to_json(value)
            assert text == json.dumps(to_data(value), ensure_ascii=False)
            assert ba.to_json(value, indent=2) == json.dumps(
                to_data(value), indent=2, ensure_ascii=False
            )
        state = state.apply(rng.choice(state.legal_moves()))
