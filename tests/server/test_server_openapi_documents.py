"""The OpenAPI document takes the library's documents from the JSON schema
generated at run time: a rule part a user registers appears in it, and a
seat's view of a game with that part fits the document's ``SeatView``."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, ClassVar

import attrs
import pytest
from jsonschema import Draft202012Validator

import backalley as ba
from backalley.io.schema import built_in_schema, schema
from backalley.io.serialize import to_data
from backalley.rules import register
from backalley.rules.registry import _REGISTRY
from backalley.rules.validators import whole
from backalley.server.openapi import openapi_document

TAG = "test-openapi/patient-follow"
COMPONENT = "backalley.follow.test-openapi_patient-follow"


@attrs.frozen
class PatientFollow(ba.rules.FollowPolicy):
    """The follow part with a bounded option of a club's own."""

    tag: ClassVar[str] = TAG

    patience: int = attrs.field(default=3, validator=whole(low=1, high=9))


@pytest.fixture()
def registered() -> Iterator[type]:
    register(PatientFollow)
    try:
        yield PatientFollow
    finally:
        _REGISTRY["follow"].pop(TAG, None)


def _validator(document: dict[str, Any], name: str) -> Draft202012Validator:
    """A validator of the component ``name``, its references resolved in ``document``."""
    root = {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
    return Draft202012Validator(root)


def test_every_reference_of_the_document_is_a_component() -> None:
    document = openapi_document()
    text = json.dumps(document)
    schemas = document["components"]["schemas"]
    assert set(re.findall(r'"#/components/schemas/([^"]+)"', text)) <= set(schemas)
    assert "#/$defs/" not in text
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+", name) for name in schemas)
    # the library's documents come from the schema, the server's own objects stay
    assert (
        schemas["backalley.view"]["properties"].keys()
        == schema("view")["$defs"]["view"]["properties"].keys()
    )
    assert {"Error", "Seat", "Summary", "SeatView", "NewTable", "Move"} <= set(schemas)


def test_a_registered_part_appears_in_the_document(registered: type) -> None:
    document = openapi_document()
    schemas = document["components"]["schemas"]
    assert schemas[COMPONENT]["properties"]["patience"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 9,
    }
    assert TAG in schemas["backalley.policy.follow"]["properties"]["type"]["enum"]
    assert COMPONENT not in openapi_document(built_in_schema())["components"]["schemas"]
    # a seat's answer with a view of a game played with the part fits the document
    rules = ba.variants.GAMERULES.replace(follow=PatientFollow(patience=5))
    state = ba.new_game(rules, seed=2)
    answer = {
        "table": "t1",
        "version": 0,
        "seat": 0,
        "seats": ["human"] * 4,
        "view": to_data(state.view(0)),
    }
    _validator(document, "SeatView").validate(answer)
    answer["view"]["rules"]["follow"]["patience"] = 10
    assert not _validator(document, "SeatView").is_valid(answer)
    # a new table's rules, with the part
    body = {"rules": to_data(rules), "seats": ["human"] * 4}
    _validator(document, "NewTable").validate(body)
