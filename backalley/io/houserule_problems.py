"""Every problem of a house-rules document, found in one reading.

:func:`problems_of` reads a document (the plain data of a TOML or JSON
file) key by key and keeps going where it can: every unknown key, every
value of the wrong type or refused by its part's validator, of every part,
and - when each part could be built - every problem of the parts' fit.
Each problem names its key as a dotted path and says what is wrong and what
would work::

    bidding.min_bid: -1 is below 0; give a whole number >= 0
    bidding.hooks: unknown key 'hooks' for the bidding type 'once-around'; did you mean 'hook'? ...

:func:`read_part` reads one part's table the same way (the house-rules
reader builds a part given in a *form*, such as ``type = "fixed"`` for a
schedule, with it).
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from backalley import variants
from backalley.errors import BackAlleyError, RuleSetError, SerializationError, did_you_mean
from backalley.io.houserule_keys import TableType, table_types
from backalley.io.serialize.common import _show, known_once_imported
from backalley.rules.registry import PART_NAMES
from backalley.rules.ruleset import RuleSet

__all__ = ["Problem", "problems_of", "read_part"]

TOP_KEYS = ("name", "base", *PART_NAMES)
"""The keys of a house-rules document: its name, the variant it starts from, the parts."""


@attrs.frozen
class Problem:
    """One problem of a document: ``path``, the key's JSON path
    (``$.bidding.min_bid``; ``$`` for the document as a whole, as for the
    parts' fit), and ``text``, the sentence that names the key
    (``bidding.min_bid: ...``)."""

    path: str
    text: str


def _at(path: str, message: str) -> Problem:
    key = path[2:] if path.startswith("$.") else ""
    return Problem(path, f"{key}: {message}" if key else message)


def problems_of(data: Any) -> list[Problem]:
    """Every problem of the house-rules document ``data`` (a parsed TOML or
    JSON text), in the order of its keys; none when it describes a rule set."""
    if not isinstance(data, dict):
        return [
            _at(
                "$", f"got {_show(data)}; a house-rules file is a table of keys (name, base, parts)"
            )
        ]
    out: list[Problem] = []
    for key in data:
        if key not in TOP_KEYS:
            out.append(_at(f"$.{key}", _unknown(key, TOP_KEYS, "a house-rules file")))
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        out.append(_at("$.name", f"got {_show(name)}; give text"))
        name = None
    base, base_known = RuleSet(), True
    if "base" in data:
        base_known = False
        given = data["base"]
        if not isinstance(given, str):
            out.append(_at("$.base", f"got {_show(given)}; give a variant's name, as text"))
        else:
            try:
                base, base_known = variants.get(given), True
            except BackAlleyError:
                known = ", ".join(variants.names())
                why = f"there is no variant {given!r}; give one of {known} "
                out.append(_at("$.base", why + known_once_imported("variant")))
    parts = base.parts()
    every_part = True
    for part in (key for key in data if key in PART_NAMES):  # in the file's order
        policy = read_part(part, data[part], f"$.{part}", parts[part] if base_known else None, out)
        if policy is None:
            every_part = False
        else:
            parts[part] = policy
    if every_part and base_known:  # the fit of the parts, once each could be read
        try:
            RuleSet(**parts, name=name)
        except RuleSetError as exc:
            out.extend(Problem("$", problem) for problem in exc.problems)
    return out


def read_part(part: str, value: Any, path: str, base: Any | None, out: list[Problem]) -> Any:
    """The policy of part ``part`` that the table ``value`` (at ``path``)
    describes, or ``None`` with its problems added to ``out``.

    ``base`` is the part the table overrides: a table without ``type`` (or
    of the base's type) changes only the options it gives; ``None`` when the
    base is not known (then a table without ``type`` is not read).
    """
    if not isinstance(value, dict):
        return _refuse(out, path, f"got {_show(value)}; give a table of {part} keys ([{part}])")
    kinds = table_types(part)
    tag = value.get("type", None if base is None else base.tag)
    if tag is None:
        return None
    if not isinstance(tag, str) or tag not in kinds:
        return _refuse(out, f"{path}.type", _unknown_type(part, tag, kinds))
    kind = kinds[tag]
    start = (
        dict(base.options()) if base is not None and not kind.is_form and base.tag == tag else {}
    )
    given: dict[str, Any] = {}
    found = len(out)
    for key, item in value.items():
        if key == "type":
            continue
        option = kind.key(key)
        if option is None:
            out.append(_at(f"{path}.{key}", _unknown_option(key, kind)))
            continue
        try:
            given[key] = option.kind.read(item, f"{path}.{key}")
        except SerializationError as exc:
            out.append(_at(*_reworded(exc.path, exc.message)))
            continue
        if not kind.is_form:
            why = _refusal_alone(kind, key, given[key], item)
            if why is not None:
                out.append(_at(f"{path}.{key}", why))
    for option in kind.keys:
        if option.required and option.name not in value and option.name not in start:
            out.append(
                _at(
                    f"{path}.{option.name}",
                    f"missing; the {part} type {tag!r} needs {option.name} = {option.words}",
                )
            )
    if len(out) > found:
        return None
    try:
        return kind.build(**{**start, **given})
    except RuleSetError as exc:
        for problem in exc.problems:
            text = problem if problem.startswith(part) else f"{part}: {problem}"
            out.append(Problem(path, text))
        return None


def _refuse(out: list[Problem], path: str, message: str) -> None:
    out.append(_at(path, message))
    return None


def _refusal_alone(kind: TableType, key: str, value: Any, raw: Any) -> str | None:
    """Why the part's own validator of option ``key`` refuses ``value``, asked
    of that option alone (so that every bad option of a part is named, not
    only the first); ``None`` when it takes it, or cannot be asked alone."""
    cls: Any = kind.build
    if not isinstance(cls, type) or not attrs.has(cls):
        return None
    field = next(f for f in attrs.fields(cls) if f.name == key)
    if field.validator is None:
        return None
    try:
        bare = cls.__new__(cls)
        converter = field.converter
        if converter is not None and callable(converter) and not _takes_self(converter):
            value = converter(value)
        field.validator(bare, field, value)
    except RuleSetError as exc:
        return _reworded_validator(exc.problems[0], key, raw)
    except (AttributeError, TypeError):  # it reads the other options: asked with them, later
        return None
    return None


def _takes_self(converter: Any) -> bool:
    converter_class = getattr(attrs, "Converter", None)
    return converter_class is not None and isinstance(converter, converter_class)


_EXPECTED = re.compile(r"^expected (?P<what>.+?)[,;] got (?P<got>.+)$", re.DOTALL)
_MUST_BE = re.compile(r"^(?:[\w .-]+: )?(?P<key>\w+) must be (?P<what>.+), got (?P<got>.+)$")
_RANGE = re.compile(
    r"^a whole number (?:from (?P<low>-?\d+) to (?P<high>-?\d+)|>= (?P<min>-?\d+)|<= (?P<max>-?\d+))$"
)


def _reworded(path: str, message: str) -> tuple[str, str]:
    """A reader's ``expected X, got Y`` as ``got Y; give X``, and a structured
    option's refused field (``Rainbow: hand_size must be ...``) at its own key;
    other messages as they are."""
    match = _EXPECTED.match(message)
    if match is not None:
        return path, f"got {match['got']}; give {match['what']}"
    match = _MUST_BE.match(message)
    if match is not None:
        got = match["got"]
        raw = int(got) if re.fullmatch(r"-?\d{1,20}", got) else None
        return f"{path}.{match['key']}", _wrong(got, raw, match["what"])
    return path, message


def _reworded_validator(problem: str, key: str, raw: Any) -> str:
    """A validator's ``part: key must be X, got Y`` as ``Y is below L; give X``
    (a number out of its range) or ``got Y; give X``."""
    match = _MUST_BE.match(problem)
    if match is None or match["key"] != key:
        return problem
    return _wrong(_show(raw), raw, match["what"])


def _wrong(shown: str, raw: Any, what: str) -> str:
    """``-1 is below 0; give WHAT`` for a number out of the range ``what``
    names, else ``got SHOWN; give WHAT``."""
    bounds = _RANGE.match(what)
    if bounds is not None and type(raw) is int:
        low = bounds["low"] or bounds["min"]
        high = bounds["high"] or bounds["max"]
        if low is not None and raw < int(low):
            return f"{shown} is below {low}; give {what}"
        if high is not None and raw > int(high):
            return f"{shown} is above {high}; give {what}"
    return f"got {shown}; give {what}"


_close = did_you_mean


def _unknown(key: str, known: Any, where: str) -> str:
    return f"unknown key {key!r}{_close(key, known)} in {where}; its keys are {', '.join(known)}"


def _unknown_option(key: str, kind: TableType) -> str:
    names = [k.name for k in kind.keys]
    what = f"the {kind.part} type {kind.name!r}"
    keys = f"its keys are type, {', '.join(names)}" if names else "it has no key but type"
    return f"unknown key {key!r}{_close(key, names)} for {what}; {keys}"


def _unknown_type(part: str, tag: Any, kinds: dict[str, TableType]) -> str:
    close = _close(tag, kinds) if isinstance(tag, str) else ""
    known = ", ".join(repr(k) for k in kinds)
    return (
        f"there is no {part} type {_show(tag)}{close}; give one of {known} " + known_once_imported()
    )
