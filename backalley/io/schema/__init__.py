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

The schema is generated at run time from the library's one description of
each document (:mod:`backalley.io.shapes`, walked field by field), of each
rule part's options (:func:`backalley.rules.registry.option_kinds`) and of
the leaves (cards, calls, moves, suits, phases, reasons): so it describes
every rule part registered in this process, a user's included (each under
``"<part>:<tag>"``), and the reason codes (``$defs`` ``"reason"``) are the
built-in :class:`~backalley.Reason` names followed by the tags of the
reasons registered (:func:`backalley.rules.register_reason`).  It is made
again when a part or a reason is registered later.

The file shipped in the package, ``backalley.schema.json``, is the schema of
the built-in parts and reasons alone (:func:`built_in_schema_text`), for
programs in other languages; ``python -m backalley.io.schema`` writes it
again (``--check`` only compares).
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from backalley.errors import Reason
from backalley.io.schema.assemble import build
from backalley.rules.registry import registered_parts

__all__ = [
    "SCHEMA_FILE",
    "built_in_schema",
    "built_in_schema_text",
    "definitions",
    "schema",
    "schema_text",
    "shipped_text",
]

SCHEMA_FILE = "backalley.schema.json"
"""The name of the shipped schema file, in this package."""

_Key = tuple[tuple[tuple[str, tuple[tuple[str, type], ...]], ...], tuple[str, ...]]


def _key(*, built_in_only: bool = False) -> _Key:
    """What the schema is made of: the registered classes (by part and tag)
    and the reasons' names, in order; with ``built_in_only``, the library's
    own alone."""
    parts = tuple(
        (
            part,
            tuple(
                (tag, cls)
                for tag, cls in classes.items()
                if not built_in_only or cls.__module__.startswith("backalley.")
            ),
        )
        for part, classes in registered_parts().items()
    )
    reasons = tuple(r.name for r in Reason if r.built_in or not built_in_only)
    return parts, reasons


@functools.lru_cache(maxsize=8)
def _text(key: _Key) -> str:
    parts, reasons = key
    data = build({part: dict(classes) for part, classes in parts}, reasons)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def schema_text() -> str:
    """The whole schema as JSON text (indented, ending in a new line): of
    every part and reason registered now.  Where only the library's own are
    registered, it is the shipped file, byte for byte."""
    return _text(_key())


def built_in_schema_text() -> str:
    """The schema of the library's own parts and reasons alone, as JSON
    text: what the shipped file holds, whatever else is registered."""
    return _text(_key(built_in_only=True))


def shipped_text() -> str:
    """The schema file as shipped in the package."""
    return resources.files(__name__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def _select(data: dict[str, Any], definition: str | None) -> dict[str, Any]:
    if definition is None:
        return data
    if definition not in data["$defs"]:
        raise KeyError(f"no definition {definition!r}; known: {', '.join(data['$defs'])}")
    del data["oneOf"]
    data["$ref"] = f"#/$defs/{definition}"
    return data


def schema(definition: str | None = None) -> dict[str, Any]:
    """The schema as a fresh dict (callers may change their copy).

    With ``definition`` (a ``$defs`` name such as ``"state"``), the schema of
    that document type alone; an unknown name raises :class:`KeyError`.
    """
    data: dict[str, Any] = json.loads(schema_text())
    return _select(data, definition)


def built_in_schema(definition: str | None = None) -> dict[str, Any]:
    """As :func:`schema`, of the library's own parts and reasons alone."""
    data: dict[str, Any] = json.loads(built_in_schema_text())
    return _select(data, definition)


def definitions() -> tuple[str, ...]:
    """The names of the schema's ``$defs``."""
    return tuple(schema()["$defs"])
