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

The reason codes (``$defs`` ``"reason"``) are the built-in
:class:`~backalley.Reason` names, as shipped, followed by the tags of the
reasons registered in this process (:func:`backalley.rules.register_reason`),
so the schema types the refusals of a user's rules too.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from backalley.errors import Reason

__all__ = ["SCHEMA_FILE", "definitions", "schema", "schema_text"]

SCHEMA_FILE = "backalley.schema.json"


def _shipped() -> str:
    """The schema file as shipped (the built-in reasons only)."""
    return resources.files(__name__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def _registered_reasons() -> list[str]:
    """The tags of the reasons users' rules registered, in their order."""
    return [reason.name for reason in Reason if not reason.built_in]


def _load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_shipped())
    data["$defs"]["reason"]["enum"].extend(_registered_reasons())
    return data


def schema_text() -> str:
    """The whole schema as JSON text: the shipped file itself, byte for byte,
    when no reason is registered, else :func:`schema` written as it is."""
    if not _registered_reasons():
        return _shipped()
    return json.dumps(_load(), indent=2, ensure_ascii=False) + "\n"


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
