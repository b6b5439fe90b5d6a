"""House rules as files: a rule set described in TOML or JSON.

A file may start from a registered variant and override parts::

    name = "our table"
    base = "gamerules"          # optional; the defaults otherwise

    [trump]                     # a new type: its parameters start from their defaults
    type = "fixed"
    suit = "S"

    [bidding]                   # no type (or the same type): override parameters only
    hook = true

    [schedule]                  # a form: what Schedule.fixed(10, 5) builds
    type = "fixed"
    hand_size = 10
    deals = 5

Each part's ``type`` is one of its registered tags, or a form of one of its
classes (:mod:`backalley.io.houserule_keys`, where every key of every part
is listed with its value type and default).

In JSON the same keys sit in one object that names its format,
``"format": "backalley/rules"`` (as every rules document
:func:`~backalley.to_json` writes does): an object without it, or naming
another format (a state, a record), is not read as rules.

A file that is not such a rule set raises :class:`HouseRulesError` (a
:class:`~backalley.SerializationError` and a :class:`~backalley.RuleSetError`)
naming every problem found in one reading, each with its dotted key, what is
wrong and what would work (``bidding.min_bid: -1 is below 0; give a whole
number >= 0``): every unknown key, every bad value of every part and, when
each part could be read, every way the parts do not fit together.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from backalley.errors import RuleSetError, SerializationError
from backalley.io.houserule_keys import table_types, toml_key, toml_value
from backalley.io.houserule_problems import Problem, problems_of, read_part
from backalley.io.serialize import policy_to_data, rules_from_data, rules_to_data
from backalley.io.serialize.common import RulesDocumentError, _show, read_at_most
from backalley.rules.registry import PART_NAMES
from backalley.rules.ruleset import RuleSet

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

__all__ = ["HouseRulesError", "dumps_toml", "load", "loads"]


MAX_FILE_SIZE = 1_000_000
"""The largest house-rules text read, in characters (or bytes): a rule file is a few hundred."""


class HouseRulesError(RulesDocumentError):
    """Every problem of a house-rules text (both a
    :class:`~backalley.SerializationError` and a :class:`~backalley.RuleSetError`).

    ``problems`` holds one sentence per problem, each starting with the dotted
    key it concerns (``bidding.min_bid: -1 is below 0; give ...``; a problem
    of the parts' fit starts with the parts instead); ``paths`` the JSON path
    of each (``$.bidding.min_bid``; ``$`` for the whole file); ``path`` is the
    first of them and ``file`` the file read (``None`` for a text).  ``str()``
    is one line per problem, each starting with the file's name.
    """

    def __init__(
        self,
        problems: Sequence[str],
        paths: Sequence[str] | None = None,
        file: str | None = None,
    ) -> None:
        # a key or value echoed from the text may hold a lone surrogate (JSON's
        # "\ud800"), which no output can encode: it is shown escaped
        self.problems = tuple(_escaped(p) for p in problems)
        self.paths = (
            tuple(_escaped(p) for p in paths) if paths is not None else ("$",) * len(self.problems)
        )
        self.path = self.paths[0] if self.paths else "$"
        self.file = file
        self.message = "\n".join(self.problems)
        lines = [f"{file}: {p}" if file else p for p in self.problems]
        Exception.__init__(self, "\n".join(lines))

    def __reduce__(self) -> Any:
        return (type(self), (self.problems, self.paths, self.file))

    def in_file(self, file: str) -> HouseRulesError:
        """The same problems, found in ``file``."""
        return HouseRulesError(self.problems, self.paths, file)

    @classmethod
    def found(cls, problems: Sequence[Problem]) -> HouseRulesError:
        """The error of the problems a reading found (see
        :func:`~backalley.io.houserule_problems.problems_of`)."""
        return cls([p.text for p in problems], [p.path for p in problems])


RULES_FORMAT = "backalley/rules"
"""The format a JSON house-rules document names (``"format": "backalley/rules"``)."""


def _escaped(text: str) -> str:
    """``text`` with each lone surrogate written as its escape (``\\ud800``)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _json_format(data: dict[str, Any]) -> None:
    """Refuse a JSON object that does not name the rules format."""
    if "format" not in data:
        raise HouseRulesError(
            [
                f'format: missing; a JSON rules document names its format, "format": '
                f'"{RULES_FORMAT}" (every rules document backalley.to_json writes does)'
            ],
            ["$.format"],
        )
    found = data["format"]
    if isinstance(found, str) and found != RULES_FORMAT:
        raise HouseRulesError(
            [f"format: this is a {found[:60]!r} document, not {RULES_FORMAT!r}"], ["$.format"]
        )
    if found != RULES_FORMAT:
        raise HouseRulesError([f"format: got {_show(found)}; give {RULES_FORMAT!r}"], ["$.format"])


def loads(text: str | bytes, *, format: str = "toml") -> RuleSet:
    """A rule set from TOML (``format="toml"``) or JSON (``format="json"``) text.

    ``text`` may be bytes: TOML must be UTF-8, JSON UTF-8, UTF-16 or UTF-32.
    A JSON object names its format, ``"format": "backalley/rules"``.
    Anything that is not such a rule set raises :class:`HouseRulesError`
    naming every problem found (see the module docstring), never another
    exception.
    """
    if format not in ("toml", "json"):
        raise HouseRulesError([f"unknown house-rules format {format!r:.40}; use 'toml' or 'json'"])
    if not isinstance(text, (str, bytes, bytearray)):
        raise HouseRulesError([f"expected {format.upper()} text, got {type(text).__name__}"])
    if len(text) > MAX_FILE_SIZE:
        raise HouseRulesError(
            [f"the text is {len(text)} long; house rules are at most {MAX_FILE_SIZE}"]
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
                _json_format(data)
                data = {k: v for k, v in data.items() if k not in ("format", "version")}
        return _rule_set(data)
    except RecursionError:
        raise HouseRulesError(["the rules are nested too deeply"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise HouseRulesError([f"not valid TOML: {exc}"]) from None
    except HouseRulesError:
        raise
    except ValueError as exc:  # json.JSONDecodeError, UnicodeDecodeError, int too long
        raise HouseRulesError([f"not valid {format.upper()}: {exc}"]) from None


def _rule_set(data: Any) -> RuleSet:
    """The rule set of a parsed document; every problem of one that is not
    (:func:`~backalley.io.houserule_problems.problems_of`)."""
    try:
        return rules_from_data(_forms_built(data), "$")
    except (SerializationError, RuleSetError) as exc:
        first = exc
    found = problems_of(data)
    if found:
        raise HouseRulesError.found(found) from None
    # a refusal the reading key by key does not make: the reader's own words
    if not isinstance(first, SerializationError):
        raise HouseRulesError(first.problems) from None
    key = first.path[2:] if first.path.startswith("$.") else ""
    text = f"{key}: {first.message}" if key else first.message
    raise HouseRulesError([text], [first.path]) from None


def _forms_built(data: Any) -> Any:
    """``data`` with each part given in a form (``type = "fixed"`` for a
    schedule) replaced by the table of the part it builds."""
    if not isinstance(data, dict):
        return data
    out = dict(data)
    for part in PART_NAMES:
        table = data.get(part)
        if not isinstance(table, dict) or not isinstance(table.get("type"), str):
            continue
        kind = table_types(part).get(table["type"])
        if kind is None or not kind.is_form:
            continue
        found: list[Problem] = []
        policy = read_part(part, table, f"$.{part}", None, found)
        if policy is None:
            raise HouseRulesError.found(found)
        out[part] = policy_to_data(policy)
    return out


def _utf8(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HouseRulesError(
            [f"not UTF-8 text (byte {exc.start}); save the file as UTF-8"]
        ) from None


def load(path: str | Path) -> RuleSet:
    """A rule set from a ``.toml`` or ``.json`` file (by its suffix; TOML otherwise).

    A file that cannot be read or is larger than :data:`MAX_FILE_SIZE` bytes
    (never more is read) raises :class:`~backalley.SerializationError`; one
    that is not UTF-8 (TOML) or not UTF-8/16/32 (JSON), or does not describe a
    rule set, raises :class:`HouseRulesError` with every problem, each line
    starting with the file's name.
    """
    path = Path(path)
    data = read_at_most(path, MAX_FILE_SIZE, "a house-rules file")
    try:
        return loads(data, format="json" if path.suffix.lower() == ".json" else "toml")
    except HouseRulesError as exc:
        raise exc.in_file(str(path)) from None


def dumps_toml(rules: RuleSet) -> str:
    """A complete TOML description of ``rules`` (every part, every parameter).

    TOML has no null: an option that is ``None`` is left out (and read back as
    its default), and a list holding ``None`` raises
    :class:`~backalley.SerializationError`; JSON carries both.
    """
    data = rules_to_data(rules)
    lines = []
    if rules.name:
        lines.append(f"name = {toml_value(rules.name)}")
    for part, table in data.items():
        if part == "name":
            continue
        lines.append("")
        lines.append(f"[{toml_key(part)}]")
        for key, value in table.items():
            if value is not None:  # TOML has no null: read back as the option's default
                lines.append(f"{toml_key(key)} = {toml_value(value)}")
    return "\n".join(lines) + "\n"
