"""The whole schema of backalley's documents, assembled at run time from
the one description of each: the leaves (:mod:`.leaves`), the rule parts
given (:mod:`.policy_defs`, each option as its type states itself) and the
document shapes (:mod:`backalley.io.shapes`, walked by :mod:`.shape_walk`).

One job: the top level - which definitions there are, and how the
documents are put together from them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from backalley.io import protocol_shapes, shapes
from backalley.io.schema.leaves import leaf_definitions, nullable, ref
from backalley.io.schema.policy_defs import Parts, policy_definitions, policy_document
from backalley.io.schema.shape_walk import held_shapes, schema_name, shape_schema

__all__ = ["SCHEMA_ID", "build"]

Schema = dict[str, Any]

SCHEMA_ID = "https://backalley.invalid/schema/backalley.schema.json"
"""The schema's ``$id``."""

_VECTORS = (shapes.VectorsHeaderShape, shapes.VectorsPositionShape, shapes.VectorsResultShape)
"""The lines of ``backalley vectors`` output, in the order they come."""
_SEPARATE_IN_VECTORS = (shapes.ViewShape, shapes.StateShape)
"""The documents that a vectors line holds without ``rules`` (the header line states them)."""


def _document(kind: str) -> Schema:
    """The optional ``format``/``version`` keys of a top-level document."""
    return {
        "format": {"const": f"backalley/{kind}"},
        "version": {"const": shapes.FORMAT_VERSION},
    }


def _rule_sets(parts: Parts) -> dict[str, Schema]:
    """A rule set as written (its name and every part) and as read."""
    name = nullable({"type": "string"})
    return {
        "ruleset": {
            "type": "object",
            "properties": {"name": name, **{part: ref(f"policy:{part}") for part in parts}},
            "required": ["name", *parts],
            "additionalProperties": False,
            "description": "A rule set as written: its name (a label) and every part.",
        },
        "ruleset_input": {
            "type": "object",
            "properties": {
                "name": name,
                "base": {"type": "string", "minLength": 1, "description": "A registered variant."},
                **{part: ref(f"override:{part}") for part in parts},
            },
            "required": [],
            "additionalProperties": False,
            "description": "A rule set as read (rule set documents, records, house-rules "
            "files): parts left out keep their defaults, or the `base` variant's.",
        },
    }


def _shape_definitions() -> tuple[dict[str, Schema], list[str]]:
    """A definition per shape, and the names of those that are top-level
    documents: a document never held by another carries its ``format`` and
    ``version`` itself; one that is held has a ``<name>_document``
    definition of its own that does."""
    held = held_shapes(shapes.SHAPES)
    defs: dict[str, Schema] = {}
    documents: dict[str, Schema] = {}
    standalone: list[str] = []
    for cls in shapes.SHAPES:
        kind = getattr(cls, "format_name", None)
        if kind is None or cls in held:
            defs[schema_name(cls)] = shape_schema(cls)
        else:
            defs[schema_name(cls)] = shape_schema(cls, _document(kind))
            standalone.append(schema_name(cls))
        if kind is not None and cls in held:
            documents[f"{schema_name(cls)}_document"] = shape_schema(cls, _document(kind))
    record = defs[schema_name(shapes.RecordShape)]
    # a record gives its deals by a seed or by deck orders (or both)
    record["anyOf"] = [
        {"required": ["seed"], "properties": {"seed": {"type": "integer"}}},
        {"required": ["decks"], "properties": {"decks": {"minItems": 1}}},
    ]
    defs["policy_document"] = {}  # (filled in by build, kept in this place)
    defs.update(documents)
    return defs, [*documents, *standalone]


def _without_rules(whole: Schema, kind: str) -> Schema:
    return {
        **whole,
        "properties": {k: v for k, v in whole["properties"].items() if k != "rules"},
        "required": [k for k in whole["required"] if k != "rules"],
        "description": f"A {kind} in a vectors line: the {kind} document without "
        "`rules` (the header line states them once).",
    }


def _protocol_definitions() -> dict[str, Schema]:
    """The bot protocol's messages (:mod:`backalley.io.protocol_shapes`),
    each a definition, and what each side may send: ``bot_message`` and
    ``library_message`` (one JSON line each)."""
    defs: dict[str, Schema] = {}
    sides = {
        "bot_message": protocol_shapes.BOT_MESSAGES,
        "library_message": protocol_shapes.LIBRARY_MESSAGES,
    }
    for side, messages in sides.items():
        for cls in messages.values():
            defs[schema_name(cls)] = shape_schema(cls)
        defs[side] = {
            "oneOf": [ref(schema_name(cls)) for cls in messages.values()],
            "description": f"A line of the bot protocol, version "
            f"{protocol_shapes.PROTOCOL_VERSION}: what the "
            f"{side.split('_')[0]} sends.",
        }
    return defs


def build(parts: Parts, reasons: Iterable[str]) -> Schema:
    """The whole schema: of the rule part classes ``parts`` (by part and
    tag) and the reason codes ``reasons``, in order."""
    documents, tops = _shape_definitions()
    defs: dict[str, Schema] = {
        **leaf_definitions(reasons),
        **policy_definitions(parts),
        **_rule_sets(parts),
        **documents,
    }
    defs["policy_document"] = policy_document(parts, _document("policy"))
    defs["vectors_line"] = {"oneOf": [ref(schema_name(cls)) for cls in _VECTORS]}
    defs.update(_protocol_definitions())
    rules_input = defs["ruleset_input"]
    defs["rules_document"] = {
        **rules_input,
        "properties": {**_document("rules"), **rules_input["properties"]},
        "description": "A rule set as a top-level document (backalley.to_json(rules)).",
    }
    for cls in _SEPARATE_IN_VECTORS:
        name = schema_name(cls)
        defs[f"vectors_{name}"] = _without_rules(defs[name], name)
    top = ["card", "move", "rules_document", "policy_document", *tops, "vectors_line"]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "backalley documents",
        "description": _DESCRIPTION,
        "oneOf": [ref(name) for name in top],
        "$defs": defs,
    }


_DESCRIPTION = (
    f"The JSON documents of the backalley library, format version {shapes.FORMAT_VERSION}: "
    "cards and moves (canonical text), rule sets, policies, deal results, contracts, "
    "game states, player views, game records, conformance-vector lines and the bot protocol's messages. "
    "Each document type is a $defs entry; the top level accepts any one of them. "
    'Top-level objects may carry `format` ("backalley/<kind>") and `version`; '
    "nested ones may not. Documents that backalley writes have every key; where "
    "others write documents for backalley to read (records, rule sets, house "
    "rules) the schema also accepts what the loader accepts: parts and parameters "
    "left out, a `base` variant, parts without `type`. Passing the schema is "
    "necessary, not sufficient: loading also checks consistency (a state's moves "
    "legal when replayed, a view that agrees with itself and with its legal moves, "
    "scores that add up). A state document carries its `format`: without it, a "
    "state reads as a game record too. "
    "Generated at run time from the library's description of each document "
    "(backalley.io.schema; python -m backalley.io.schema writes the shipped file)."
)
