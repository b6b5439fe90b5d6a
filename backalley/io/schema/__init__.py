"""The JSON Schema (draft 2020-12) of backalley's documents.

:func:`schema` returns the schema of every document the library writes and
reads: cards and moves (canonical text), rule sets and their policies, deal
results, contracts, game states, player views, game records and
conformance-vector lines.  Each document type is a ``$defs`` entry
(``"card"``, ``"move"``, ``"policy:trump"``, ``"ruleset"``, ``"deal_result"``,
``"contract"``, ``"view"``, ``"record"``, ``"state"``, ...); the top level
accepts any one of them.  ``schema("view")`` is the schema of one type::

    from jsonschema import Draft202012Validator
    from backalley.io.schema import schema

    Draft202012Validator(schema("view")).validate(document)

Every field of every document is typed (format version 2: plain JSON
objects, lists, texts and numbers; no private text formats).  Passing the
schema is necessary, not sufficient: loading also checks consistency (a
state's moves legal when replayed, a view that agrees with itself and with
the legal moves it lists, scores that add up).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

__all__ = ["SCHEMA_FILE", "definitions", "schema"]

SCHEMA_FILE = "backalley.schema.json"


def _load() -> dict[str, Any]:
    text = resources.files(__name__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def schema(definition: str | None = None) -> dict[str, Any]:
    """The schema as a fresh dict (callers may change their copy).

    With ``definition`` (a ``$defs`` name such as ``"state"``), the schema of
    that document type alone; an unknown name raises :class:`KeyError`.
    """
    data = _load()
    if definition is None:
        return data
    if definition not in data["$defs"]:
        raise KeyError(f"no definition {definition!r}; known: {', '.join(data['$defs'])}")
    del data["oneOf"]
    data["$ref"] = f"#/$defs/{definition}"
    return data


def definitions() -> tuple[str, ...]:
    """The names of the schema's ``$defs``."""
    return tuple(_load()["$defs"])
