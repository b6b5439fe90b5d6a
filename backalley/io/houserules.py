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

from backalley.errors import RuleSetError, SerializationError
from backalley.io.serialize import rules_from_data, rules_to_data
from backalley.io.serialize.common import read_at_most
from backalley.rules.ruleset import RuleSet

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

__all__ = ["dumps_toml", "load", "loads"]


MAX_FILE_SIZE = 1_000_000
"""The largest house-rules text read, in characters (or bytes): a rule file is a few hundred."""


def loads(text: str | bytes, *, format: str = "toml") -> RuleSet:
    """A rule set from TOML (``format="toml"``) or JSON (``format="json"``) text.

    ``text`` may be bytes: TOML must be UTF-8, JSON UTF-8, UTF-16 or UTF-32.
    Anything that is not such a rule set raises
    :class:`~backalley.SerializationError` (or :class:`~backalley.RuleSetError`
    for parts that do not fit together), never another exception.
    """
    if format not in ("toml", "json"):
        raise SerializationError(
            f"unknown house-rules format {format!r:.40}; use 'toml' or 'json'", "$"
        )
    if not isinstance(text, (str, bytes, bytearray)):
        raise SerializationError(f"expected {format.upper()} text, got {type(text).__name__}", "$")
    if len(text) > MAX_FILE_SIZE:
        raise SerializationError(
            f"the text is {len(text)} long; house rules are at most {MAX_FILE_SIZE}", "$"
        )
    data: Any
    try:
        if format == "toml":
            if not isinstance(text, str):
                text = _utf8(bytes(text))
            data = tomllib.loads(text)
        else:
            data = json.loads(text)
            if isinstance(data, dict):
                data = {k: v for k, v in data.items() if k not in ("format", "version")}
        return rules_from_data(data, "$")
    except RecursionError:
        raise SerializationError("the rules are nested too deeply", "$") from None
    except tomllib.TOMLDecodeError as exc:
        raise SerializationError(f"not valid TOML: {exc}", "$") from None
    except (SerializationError, RuleSetError):
        raise
    except ValueError as exc:  # json.JSONDecodeError, UnicodeDecodeError, int too long
        raise SerializationError(f"not valid {format.upper()}: {exc}", "$") from None


def _utf8(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SerializationError(
            f"not UTF-8 text (byte {exc.start}); save the file as UTF-8", "$"
        ) from None


def load(path: str | Path) -> RuleSet:
    """A rule set from a ``.toml`` or ``.json`` file (by its suffix; TOML otherwise).

    A file that cannot be read, is larger than :data:`MAX_FILE_SIZE` bytes
    (never more is read), is not UTF-8 (TOML) or not UTF-8/16/32 (JSON),
    or does not describe a rule set raises
    :class:`~backalley.SerializationError` (or :class:`~backalley.RuleSetError`).
    """
    path = Path(path)
    data = read_at_most(path, MAX_FILE_SIZE, "a house-rules file")
    try:
        return loads(data, format="json" if path.suffix.lower() == ".json" else "toml")
    except SerializationError as exc:
        raise SerializationError(f"{path}: {exc.message}", exc.path) from None


def dumps_toml(rules: RuleSet) -> str:
    """A complete TOML description of ``rules`` (every part, every parameter).

    TOML has no null: an option that is ``None`` is left out (and read back as
    its default), and a list holding ``None`` raises
    :class:`~backalley.SerializationError`; JSON carries both.
    """
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
            if value is not None:  # TOML has no null: read back as the option's default
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
        # and DEL, which JSON writes as itself but TOML forbids
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):  # a structured option: an inline table, its None fields left out
        inner = ", ".join(f"{k} = {_toml(v)}" for k, v in value.items() if v is not None)
        return f"{{ {inner} }}"
    if value is None:
        raise SerializationError(
            "TOML has no null for an item of a list; write these rules as JSON"
        )
    raise TypeError(value)  # pragma: no cover
