"""Each option type is described once (``backalley.rules.option_types``):
that one description reads the option from a document, writes it, says it in
words, states it in JSON Schema with the bounds its validator declares, and
shows it on the rules sheet."""

from __future__ import annotations

import enum

import attrs
import pytest

import backalley as ba
from backalley.rules import option_types as ot
from backalley.rules import validators
from backalley.rules.base import describe_value
from backalley.rules.registry import option_kinds
from backalley.rules.scoring import ContractScoring, HandSizeMultiplier


class Pace(enum.Enum):
    SLOW = "slow"
    FAST = "fast"


def test_a_bounded_whole_number_states_its_bounds_and_reads_strictly() -> None:
    kind = ot.describe(int, validators.whole(low=2, high=8))
    assert kind.schema() == {"type": "integer", "minimum": 2, "maximum": 8}
    assert kind.read(5, "$.players") == 5
    with pytest.raises(ba.SerializationError) as info:
        kind.read(True, "$.players")
    assert (info.value.path, info.value.message) == (
        "$.players",
        "expected a whole number, got true",
    )
    assert ot.describe(int, validators.one_of((0, 2))).schema() == {"enum": [0, 2]}
    assert kind.words() == "a whole number" and kind.words(plural=True) == "whole numbers"


def test_a_list_an_optional_value_and_an_enum_are_described_from_their_parts() -> None:
    kind = ot.describe(tuple[int, ...], validators.whole_numbers(low=1))
    assert kind.schema() == {
        "type": "array",
        "items": {"type": "integer", "minimum": 1},
        "minItems": 1,
    }
    assert kind.read([1, 2], "$.x") == (1, 2) and kind.write((1, 2)) == [1, 2]
    with pytest.raises(ba.SerializationError) as info:
        kind.read([1, "2"], "$.x")
    assert info.value.path == "$.x[1]"
    maybe = ot.describe(Pace | None)
    assert maybe.schema() == {"enum": ["slow", "fast", None]}
    assert maybe.read(None, "$") is None and maybe.read("fast", "$") is Pace.FAST
    assert maybe.write(Pace.SLOW) == "slow" and maybe.text(None) == "none"
    assert maybe.words().startswith('one of "slow", "fast", or none')


def test_a_rank_set_is_written_lowest_first_and_shown_by_letters() -> None:
    kind = ot.describe(frozenset[ba.Rank])
    ranks = kind.read(["A", "10", 2], "$.ranks")
    assert ranks == frozenset({ba.Rank.ACE, ba.Rank.TEN, ba.Rank.TWO})
    assert kind.write(ranks) == ["2", "T", "A"] and kind.text(ranks) == "2, T, A"


@pytest.mark.parametrize(
    ("tp", "why"),
    [
        (float, "a number with a fraction does not load back exactly"),
        (frozenset[int], "a set option is a set of ranks"),
        (tuple[int, str], "a tuple option is a list of any length of one type"),
        (int | str, "a union option is one type or None"),
        (list[int], "a rules document cannot carry it"),
    ],
)
def test_a_type_no_document_carries_is_refused_with_the_cure(tp: object, why: str) -> None:
    with pytest.raises(ot.OptionTypeError) as info:
        ot.describe(tp)
    assert why in info.value.why


def test_a_table_is_described_by_its_registered_options() -> None:
    kinds = option_kinds(ContractScoring)
    table = kinds["hand_size_multipliers"]
    value = (HandSizeMultiplier(hand_size=3, times=2),)
    assert table.write(value) == [{"hand_size": 3, "times": 2}]
    assert table.read([{"hand_size": 3, "times": 2}], "$") == value
    assert table.text(value) == "(hand_size=3, times=2)"
    item = table.schema()["items"]
    assert item["required"] == ["hand_size", "times"]
    assert item["properties"]["times"] == {"type": "integer", "minimum": 1}
    with pytest.raises(ba.SerializationError) as info:
        table.read([{"hand_size": 3, "times": 0}], "$.m")
    assert info.value.path == "$.m[0]" and "times must be a whole number >= 1" in info.value.message


def test_a_table_that_holds_itself_is_stated_once() -> None:
    @attrs.frozen
    class Step:
        size: int = 1
        then: Step | None = None

    ot.remember(Step, {"size": ot.describe(int), "then": ot.Maybe(ot.Table(Step))})
    inner = ot.Table(Step).schema()["properties"]["then"]
    assert inner == {"type": ["object", "null"]}


def test_a_part_shows_its_options_through_their_descriptions() -> None:
    lead = ba.variants.get("vietnam").lead
    assert lead.option_text("trump_lead") == "any-time"
    assert "trump_lead=any-time" in lead.summary()
    with pytest.warns(DeprecationWarning, match="option_text"):
        assert describe_value(True) == "on"
