"""The schema of the rule parts: one definition per registered class (its
options, as each option's type states itself:
:meth:`backalley.rules.option_types.OptionType.schema`), and per rule part
the part as written, as read and as a document of its own.

One job: the policies' ``$defs``, from whatever classes are given (every
registered part, a user's included, or the built-in ones alone).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from backalley.io.schema.leaves import ref
from backalley.rules.registry import option_kinds

__all__ = ["Parts", "options_schema", "policy_definitions", "policy_document"]

Schema = dict[str, Any]
Parts = Mapping[str, Mapping[str, type]]
"""The classes described: by rule part, then tag (the registry's order)."""


def _closed(properties: Schema, required: list[str], **more: Any) -> Schema:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
        **more,
    }


def options_schema(cls: type) -> Schema:
    """The options of a registered class, by name, in field order: each its schema."""
    return {name: kind.schema() for name, kind in option_kinds(cls).items()}


def _if_type(tag: str, then: Schema) -> Schema:
    return {"if": {"required": ["type"], "properties": {"type": {"const": tag}}}, "then": then}


def _union(options: list[Schema]) -> Schema:
    """Any option of a part's classes, by name: one schema where the classes
    agree on the option's, else any of theirs."""
    union: dict[str, list[Schema]] = {}
    for params in options:
        for name, schema in params.items():
            found = union.setdefault(name, [])
            if schema not in found:
                found.append(schema)
    return {
        name: found[0] if len(found) == 1 else {"anyOf": found} for name, found in union.items()
    }


def policy_definitions(parts: Parts) -> dict[str, Schema]:
    """Per part: ``<part>:<tag>`` for each class (as written: every option),
    ``policy:<part>`` (a table tagged by ``type``) and ``override:<part>``
    (as read: ``type`` and any of its options)."""
    defs: dict[str, Schema] = {}
    for part, classes in parts.items():
        options = {tag: options_schema(cls) for tag, cls in classes.items()}
        for tag, params in options.items():
            defs[f"{part}:{tag}"] = _closed(
                {"type": {"const": tag}, **params},
                ["type", *params],
                description=f"The {tag!r} {part} policy, as written (every parameter).",
            )
        defs[f"policy:{part}"] = {
            "description": f"The {part} part as written: a table tagged by `type`.",
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"enum": list(classes)}},
            "allOf": [_if_type(tag, ref(f"{part}:{tag}")) for tag in classes],
        }
        # As read (house rules, records): options may be left out (they keep
        # their defaults, or the base's); without `type` the part keeps the
        # base's type, so any option of the part may appear.
        defs[f"override:{part}"] = {
            "description": f"The {part} part as read: `type` and any of its parameters; "
            "without `type`, parameters of the base's (or default) type.",
            "type": "object",
            "properties": {"type": {"enum": list(classes)}},
            "allOf": [
                _if_type(tag, _closed({"type": {"const": tag}, **params}, ["type"]))
                for tag, params in options.items()
            ]
            + [
                {
                    "if": {"not": {"required": ["type"]}},
                    "then": _closed(_union(list(options.values())), []),
                }
            ],
        }
    return defs


def policy_document(parts: Parts, document: Schema) -> Schema:
    """One policy as a top-level document: ``document`` (its ``format`` and
    ``version``), ``type`` and every option of one class."""
    return {
        "description": "One policy as a top-level document (backalley.to_json(policy)).",
        "anyOf": [
            _closed({**document, "type": {"const": tag}, **options_schema(cls)}, ["type"])
            for classes in parts.values()
            for tag, cls in classes.items()
        ],
    }
