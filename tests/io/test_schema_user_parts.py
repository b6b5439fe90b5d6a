"""A user's registered rule part appears in the schema the library gives
(generated at run time from the registry): its definition states its
options' types and the bounds its validators declare, and the documents of
a game that uses it validate, while the shipped file keeps the library's
own parts alone.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterator
from typing import Any, ClassVar

import attrs
import pytest
from jsonschema import Draft202012Validator

import backalley as ba
from backalley.io.schema import built_in_schema, schema, schema_text, shipped_text
from backalley.io.serialize import to_data
from backalley.rules import register
from backalley.rules.registry import _REGISTRY
from backalley.rules.validators import boolean, whole

TAG = "test-schema/our-follow"


class Mood(enum.Enum):
    """How the table takes a revoke."""

    CALM = "calm"
    STERN = "stern"


@attrs.frozen
class Bonus:
    """A bonus on the deal of ``hand_size`` cards."""

    hand_size: int = attrs.field(validator=whole(low=1, high=13))
    points: int = attrs.field(default=5, validator=whole())


@attrs.frozen
class OurFollow(ba.rules.FollowPolicy):
    """The follow part, with four options of our club's (the play is the built-in part's)."""

    tag: ClassVar[str] = TAG

    patience: int = attrs.field(default=3, validator=whole(low=1, high=9))
    strict: bool = attrs.field(default=False, validator=boolean())
    mood: Mood = attrs.field(default=Mood.CALM, converter=Mood)
    bonus: Bonus | None = None


@pytest.fixture()
def registered() -> Iterator[type]:
    """``OurFollow`` registered while the test runs (and out of the registry after it)."""
    register(OurFollow)
    try:
        yield OurFollow
    finally:
        _REGISTRY["follow"].pop(TAG, None)


def _rules(**options: Any) -> ba.RuleSet:
    return ba.variants.GAMERULES.replace(follow=OurFollow(**options))


def test_a_registered_part_has_its_definition_with_its_bounds(registered: type) -> None:
    defs = schema()["$defs"]
    assert TAG in defs["policy:follow"]["properties"]["type"]["enum"]
    definition = defs[f"follow:{TAG}"]
    properties = definition["properties"]
    assert properties["type"] == {"const": TAG}
    assert properties["patience"] == {"type": "integer", "minimum": 1, "maximum": 9}
    assert properties["strict"] == {"type": "boolean"}
    assert properties["mood"] == {"enum": ["calm", "stern"]}
    table = properties["bonus"]["anyOf"][0]
    assert properties["bonus"]["anyOf"][1] == {"type": "null"}
    assert table["properties"]["hand_size"] == {"type": "integer", "minimum": 1, "maximum": 13}
    assert table["required"] == ["hand_size"] and table["additionalProperties"] is False
    # every option of the part, the built-in part's first, each written
    names = [a.name for a in attrs.fields(OurFollow)]
    assert list(properties) == ["type", *names]
    assert definition["required"] == ["type", *names]
    # as read: any of them may be left out
    override = defs["override:follow"]
    assert any(
        branch["then"].get("properties", {}).get("type") == {"const": TAG}
        for branch in override["allOf"]
    )
    # the text agrees, and the shipped file (the library's own parts) does not change
    assert json.loads(schema_text()) == schema()
    assert f"follow:{TAG}" not in built_in_schema()["$defs"]
    assert f"follow:{TAG}" not in json.loads(shipped_text())["$defs"]


def test_the_documents_of_a_game_with_the_part_validate(registered: type) -> None:
    rules = _rules(patience=4, strict=True, mood=Mood.STERN, bonus=Bonus(hand_size=3))
    whole_schema = Draft202012Validator(schema())
    document = to_data(rules)
    whole_schema.validate(document)
    Draft202012Validator(schema("rules_document")).validate(document)
    state = ba.new_game(rules, seed=3)
    Draft202012Validator(schema("state")).validate(to_data(state))
    Draft202012Validator(schema("view")).validate(to_data(state.view(state.to_act)))
    # a house-rules shorthand naming the part, and options out of bounds
    rules_document = Draft202012Validator(schema("rules_document"))
    shorthand = {"base": "gamerules", "follow": {"type": TAG, "patience": 9}}
    rules_document.validate(shorthand)
    assert ba.from_json(json.dumps(shorthand), ba.RuleSet).follow == OurFollow(patience=9)
    for wrong in (
        {"patience": 10},
        {"patience": 0},
        {"strict": "yes"},
        {"mood": "cross"},
        {"bonus": {"points": 3}},
        {"bonus": {"hand_size": 14}},
        {"bonus": {"hand_size": 3, "colour": "red"}},
    ):
        bad = {**shorthand, "follow": {"type": TAG, **wrong}}
        assert not rules_document.is_valid(bad), wrong
        with pytest.raises(ba.SerializationError):
            ba.from_json(json.dumps(bad), ba.RuleSet)


def test_the_built_in_schema_does_not_know_the_part(registered: type) -> None:
    document = to_data(_rules(patience=2))
    assert Draft202012Validator(schema("rules_document")).is_valid(document)
    assert not Draft202012Validator(built_in_schema("rules_document")).is_valid(document)
    written = {k: v for k, v in document.items() if k not in ("format", "version")}
    assert Draft202012Validator(schema("ruleset")).is_valid(written)
    assert not Draft202012Validator(built_in_schema("ruleset")).is_valid(written)
