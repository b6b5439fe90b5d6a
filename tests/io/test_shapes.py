"""The documents are described once (``backalley.io.shapes``): what the
library writes has the keys of its shape, in the shape's order, and the
shape's converter reads it back."""

from __future__ import annotations

import random

import attrs
import pytest

import backalley as ba
from backalley.io import shapes
from backalley.io.serialize import to_data
from backalley.io.serialize.structure import structure


def _played(rules: ba.RuleSet, moves: int | None) -> ba.GameState:
    """A game of ``rules`` played by a random player, for ``moves`` moves or to its end."""
    rng = random.Random(7)
    state = ba.new_game(rules, seed=11)
    played = 0
    while not state.is_over and (moves is None or played < moves):
        state = state.apply(rng.choice(state.legal_moves()))
        played += 1
    return state


def _finished_state() -> ba.GameState:
    return _played(ba.RuleSet(schedule=ba.rules.Schedule((3, 2))), None)


def _mid_state() -> ba.GameState:
    return _played(ba.variants.get("vietnam"), 30)


def _keys(shape: type) -> list[str]:
    return [f.name for f in attrs.fields(shape)]


def _document(value: object) -> dict[str, object]:
    data = to_data(value)
    assert isinstance(data, dict)
    data.pop("format", None)
    data.pop("version", None)
    return data


@pytest.mark.parametrize("make", [_mid_state, _finished_state], ids=["mid-game", "over"])
def test_a_written_view_has_its_shapes_keys_in_order(make: object) -> None:
    state = make()  # type: ignore[operator]
    view = _document(state.view(1))
    assert list(view) == _keys(shapes.ViewShape)
    assert list(view["tricks"][0]) == _keys(shapes.TrickShape) if view["tricks"] else True
    for answer in view["cards"]:
        assert list(answer) == _keys(shapes.CardAnswerShape)
    for answer in view["call_answers"]:
        assert list(answer) == _keys(shapes.CallAnswerShape)
    read = structure(view, shapes.ViewShape)
    assert read.seat == 1 and read.hand == state.view(1).hand


def test_a_written_state_and_its_deal_results_have_their_shapes_keys() -> None:
    state = _finished_state()
    document = _document(state)
    assert list(document) == _keys(shapes.StateShape)
    result = _document(state.deal_results[0])
    assert list(result) == _keys(shapes.DealResultShape)
    contract = next(c for r in state.deal_results for c in r.contracts if c is not None)
    assert list(_document(contract)) == _keys(shapes.ContractShape)
    assert structure(document, shapes.StateShape).moves == state.moves


def test_a_written_record_has_keys_of_its_shape_in_order() -> None:
    record = ba.GameRecord.from_state(
        _finished_state(), players=("a", "b", "c", "d"), metadata={"event": "club night"}
    )
    document = _document(record)
    order = _keys(shapes.RecordShape)
    assert list(document) == [k for k in order if k in document]


def test_the_shapes_converter_is_strict_and_says_where() -> None:
    trick = {"leader": 0, "cards": ["QS", "2H"], "winner": True}
    with pytest.raises(ba.SerializationError) as info:
        structure(trick, shapes.TrickShape, "$.tricks[3]")
    assert info.value.path == "$.tricks[3].winner"
    assert info.value.message == "expected a whole number, got true"
    with pytest.raises(ba.SerializationError) as info:
        structure({**trick, "winner": 1, "cards": "QS"}, shapes.TrickShape)
    assert (info.value.path, info.value.message) == ("$.cards", 'expected a list, got "QS"')
    with pytest.raises(ba.SerializationError) as info:
        structure({**trick, "winner": 1, "cards": ["QS", 7]}, shapes.TrickShape)
    assert info.value.path == "$.cards[1]"
    with pytest.raises(ba.SerializationError) as info:
        structure({**trick, "winner": 1, "extra": 0}, shapes.TrickShape)
    assert info.value.path == "$.extra" and "unknown key 'extra' in a trick" in info.value.message
