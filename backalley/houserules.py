"""House rules as files: a rule set described in TOML or JSON.

A file may start from a registered variant and override parts::

    name = "our table"
    base = "gamerules"          # optional; the defaults otherwise

    [trump]                     # a new type: its parameters start from their defaults
    type = "fixed"
    suit = "S"

    [bidding]                   # no type (or the same type): override parameters only
    hook = true

Unknown keys, wrong types and unknown ``type`` tags are refused with the path
to the offending key (:class:`~backalley.SerializationError`); parts that do
not fit together raise :class:`~backalley.RuleSetError`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from backalley.errors import SerializationError
from backalley.rules.ruleset import RuleSet
from backalley.serialize import rules_from_data, rules_to_data

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

__all__ = ["dumps_toml", "load", "loads"]


def loads(text: str, *, format: str = "toml") -> RuleSet:
    """A rule set from TOML (``format="toml"``) or JSON (``format="json"``) text."""
    data: Any
    if format == "toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise SerializationError(f"not valid TOML: {exc}", "$") from None
    elif format == "json":
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise SerializationError(f"not valid JSON: {exc}", "$") from None
        if isinstance(data, dict):
            data = {k: v for k, v in data.items() if k not in ("format", "version")}
    else:
        raise SerializationError(
            f"unknown house-rules format {format!r}; use 'toml' or 'json'", "$"
        )
    return rules_from_data(data, "$")


def load(path: str | Path) -> RuleSet:
    """A rule set from a ``.toml`` or ``.json`` file (by its suffix; TOML otherwise)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SerializationError(f"cannot read {path}: {exc.strerror}", str(path)) from None
    rules = loads(text, format="json" if path.suffix.lower() == ".json" else "toml")
    return rules


def dumps_toml(rules: RuleSet) -> str:
    """A complete TOML description of ``rules`` (every part, every parameter)."""
    data = rules_to_data(rules)
    lines = []
    if rules.name:
        lines.append(f"name = {_toml(rules.name)}")
    for part, table in data.items():
        if part == "name":
            continue
        lines.append("")
        lines.append(f"[{part}]")
        for key, value in table.items():
            if isinstance(value, dict):
                inner = ", ".join(f"{k} = {_toml(v)}" for k, v in value.items())
                lines.append(f"{key} = {{ {inner} }}")
            elif value is not None:
                lines.append(f"{key} = {_toml(value)}")
    return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        # JSON's escapes are TOML's, except for characters beyond the BMP (surrogate
        # pairs): write every character as itself and escape only what TOML requires.
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(value)  # pragma: no cover
