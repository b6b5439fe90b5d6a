"""Reading plain data (what JSON, TOML and Python literals give): the checks
of its texts, numbers, lists and objects, each refusal a
:class:`~backalley.SerializationError` with the path of the value
(``$.rules.deck.ranks[2]``) and a sentence saying what was expected.

These are the leaves every reader stands on: the rule parts' options
(:mod:`backalley.rules.option_types`) and the documents
(:mod:`backalley.io.serialize`) both read through them, so a value is
refused in the same words wherever it appears.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sized
from typing import Any

from backalley.errors import SerializationError

__all__ = [
    "MAX_NUMBER",
    "check_length",
    "fail",
    "read_bool",
    "read_int",
    "read_list",
    "read_object",
    "read_text",
    "same_data",
    "show",
]

MAX_NUMBER = 2**53 - 1
"""The largest size of a number in a document (besides a seed): every JSON
reader keeps whole numbers up to this exactly."""


def fail(path: str, message: str) -> SerializationError:
    """The refusal of the value at ``path``, saying ``message``."""
    return SerializationError(message, path)


def show(value: Any) -> str:
    """A value as JSON text for a message, cut to 60 characters."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def read_bool(value: Any, path: str) -> bool:
    """``true`` or ``false`` (not ``1``, not ``"true"``)."""
    if type(value) is not bool:
        raise fail(path, f"expected true or false, got {show(value)}")
    return value


def read_text(value: Any, path: str) -> str:
    """A text (a JSON string)."""
    if type(value) is not str:
        raise fail(path, f"expected text, got {show(value)}")
    return value


def read_int(value: Any, path: str, low: int | None = None, high: int | None = None) -> int:
    """A whole number in ``low..high`` (each bound at most :data:`MAX_NUMBER`
    in size); ``true`` and ``1.0`` are not whole numbers."""
    if type(value) is not int:
        raise fail(path, f"expected a whole number, got {show(value)}")
    lo = -MAX_NUMBER if low is None else low
    hi = MAX_NUMBER if high is None else high
    if not lo <= value <= hi:
        shown = value if -MAX_NUMBER <= value <= MAX_NUMBER else "the number"
        raise fail(path, f"{shown} is out of range {lo}..{hi}")
    return value


def read_list(value: Any, path: str, what: str = "a list", most: int | None = None) -> list[Any]:
    """A list (of at most ``most`` items, refused at its length before any
    item is read)."""
    if not isinstance(value, list):
        raise fail(path, f"expected {what}, got {show(value)}")
    if most is not None and len(value) > most:
        raise fail(path, f"{len(value)} items; at most {most} fit here")
    return value


def check_length(items: Sized, path: str, most: int) -> None:
    """Refuse a list (already read) of more than ``most`` items, in the words
    of :func:`read_list`."""
    if len(items) > most:
        raise fail(path, f"{len(items)} items; at most {most} fit here")


def read_object(value: Any, path: str, keys: Mapping[str, bool], what: str) -> dict[str, Any]:
    """An object with the given keys (``True``: required); unknown keys are refused."""
    if not isinstance(value, dict):
        raise fail(path, f"expected {what} (an object), got {show(value)}")
    for key in value:
        if key not in keys:
            known = ", ".join(keys)
            raise fail(f"{path}.{key}", f"unknown key {key!r} in {what}; known keys: {known}")
    for key, required in keys.items():
        if required and key not in value:
            raise fail(f"{path}.{key}", f"missing key {key!r} in {what}")
    return value


def same_data(a: Any, b: Any) -> bool:
    """Whether two pieces of plain data are equal (``1``, ``1.0`` and ``true`` differ)."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return a.keys() == b.keys() and all(same_data(a[k], b[k]) for k in a)
    if type(a) is list:
        return len(a) == len(b) and all(map(same_data, a, b))
    return bool(a == b)
