"""Rule sets as plain data: each part a table tagged by its registered
``type``, read back through the open registry (so a user's own registered
rules load like the built-in ones)."""

from __future__ import annotations

import enum
import types
import typing
from typing import Any

import attrs

from backalley import variants
from backalley.cards import Rank, Suit
from backalley.errors import BackAlleyError, NotationError, RuleSetError, SerializationError
from backalley.io.serialize.common import (
    RulesDocumentError,
    _expect,
    _fail,
    _int,
    _list,
    _object,
    _show,
    _suit,
    known_once_imported,
    same_data,
)
from backalley.rules.registry import PART_NAMES, option_types, part_classes
from backalley.rules.ruleset import RuleSet
from backalley.rules.schedule import MAX_DEALS

MAX_OPTION_ITEMS = MAX_DEALS
"""The most items of a list option of a rule part in a document (a deck's
ranks, a schedule's hand sizes, a board's multipliers, at any depth): the
longest list a built-in part takes, a schedule of :data:`MAX_DEALS` deals.  A
longer list is refused at its length, before any item is read, and is not
written either."""

_PLAIN = frozenset({str, int, bool, type(None)})


def _unstructure_param(value: Any) -> Any:
    if type(value) in _PLAIN:
        return value
    if isinstance(value, Rank):
        return value.letter
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (frozenset, tuple)):
        _writable_list(value)
        items = sorted(value) if isinstance(value, frozenset) else value
        return [_unstructure_param(v) for v in items]
    if attrs.has(type(value)):  # a structured option (e.g. a rainbow bonus): its fields
        return {
            a.name: _unstructure_param(getattr(value, a.name)) for a in attrs.fields(type(value))
        }
    return value


def _writable_list(value: tuple[Any, ...] | frozenset[Any]) -> None:
    """A list option is written only if a document can hold it (at most
    :data:`MAX_OPTION_ITEMS` items)."""
    if len(value) > MAX_OPTION_ITEMS:
        raise _fail("$", f"{len(value)} items; a rules document holds at most {MAX_OPTION_ITEMS}")


def policy_to_data(policy: Any) -> dict[str, Any]:
    """A policy as plain data: ``{"type": tag, <parameter>: <value>, ...}``;
    an option a rules document cannot hold raises
    :class:`~backalley.SerializationError` naming it."""
    data: dict[str, Any] = {"type": policy.tag}
    for name, value in policy.options().items():
        try:
            data[name] = _unstructure_param(value)
        except SerializationError as exc:
            raise _fail(
                "$", f"cannot write the {policy.part} option {name!r}: {exc.message}"
            ) from None
    return data


def _param(value: Any, tp: Any, path: str) -> Any:
    if tp is bool:
        return _expect(value, bool, path, "true or false")
    if tp is str:
        return _expect(value, str, path, "text")
    if tp is int:
        return _int(value, path)
    if tp is Suit:
        suit = _suit(value, path)
        if suit is None:
            raise _fail(path, "expected a suit letter C, D, H or S, got null")
        return suit
    if tp is Rank:
        return _rank(value, path)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        choices = [m.value for m in tp]
        if value not in choices:
            raise _fail(path, f"expected one of {', '.join(map(str, choices))}; got {_show(value)}")
        return tp(value)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is tuple:
        items = _list(value, path, most=MAX_OPTION_ITEMS)
        return tuple(_param(v, args[0], f"{path}[{i}]") for i, v in enumerate(items))
    if origin is frozenset:
        items = _list(value, path, most=MAX_OPTION_ITEMS)
        return frozenset(_rank(v, f"{path}[{i}]") for i, v in enumerate(items))
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        if value is None:
            return None
        inner = next(a for a in args if a is not type(None))
        return _param(value, inner, path)
    if isinstance(tp, type) and attrs.has(tp):
        return _structured(value, tp, path)
    raise _fail(path, f"cannot read a value of type {tp}")  # pragma: no cover


def _rank(value: Any, path: str) -> Rank:
    """A plain rank, as a letter (``"Q"``, ``"T"`` or ``"10"``) or a whole
    number from 2 to 14 (the jokers are not plain ranks)."""
    if isinstance(value, str):
        try:
            return Rank.parse(value)
        except NotationError as exc:
            raise _fail(path, str(exc)) from None
    return Rank(_int(value, path, 2, 14))


def _structured(value: Any, tp: type, path: str) -> Any:
    """A structured option (an attrs class held in an option): a table of its
    fields, those without a default required."""
    fields = option_types(tp)
    needed = _required(tp)
    keys = {name: name in needed for name in fields}
    obj = _object(value, path, keys, f"a {tp.__name__} table")
    kwargs = {k: _param(v, fields[k], f"{path}.{k}") for k, v in obj.items()}
    try:
        return tp(**kwargs)
    except RuleSetError as exc:
        raise _fail(path, "; ".join(exc.problems)) from None


def _required(cls: type) -> frozenset[str]:
    """The options of ``cls`` without a default: a document must give them."""
    return frozenset(a.name for a in attrs.fields(cls) if a.default is attrs.NOTHING)


def policy_from_data(part: str, value: Any, path: str, base: Any | None = None) -> Any:
    """A policy of rule part ``part`` from plain data; with ``base``, missing
    parameters come from ``base`` when the type (tag) is the same."""
    classes: dict[str, Any] = part_classes(part)
    if not isinstance(value, dict):
        raise _fail(path, f"expected a table for the {part} part, got {_show(value)}")
    tag = value.get("type", base.tag if base is not None else None)
    if tag is None:
        if len(classes) == 1:
            tag = next(iter(classes))
        else:
            raise _fail(f"{path}.type", f"missing key 'type'; one of: {', '.join(classes)}")
    if not isinstance(tag, str) or tag not in classes:
        raise _fail(
            f"{path}.type",
            f"unknown {part} type {tag!r}; known: {', '.join(classes)} {known_once_imported()}",
        )
    cls = classes[tag]
    params = option_types(cls)
    kwargs: dict[str, Any] = {}
    if base is not None and base.tag == tag:
        kwargs.update(base.options())
    for key, item in value.items():
        if key == "type":
            continue
        if key not in params:
            known = ", ".join(params) or "none"
            raise _fail(
                f"{path}.{key}", f"unknown option {key!r} for {part} type {tag!r}; known: {known}"
            )
        kwargs[key] = _param(item, params[key], f"{path}.{key}")
    missing = sorted(_required(cls) - kwargs.keys())
    if missing:
        raise _fail(
            f"{path}.{missing[0]}", f"missing option {missing[0]!r} for {part} type {tag!r}"
        )
    try:
        return cls(**kwargs)
    except RuleSetError as exc:
        raise _fail(path, "; ".join(exc.problems)) from None


def rules_to_data(rules: RuleSet) -> dict[str, Any]:
    """A rule set as plain data: ``name`` and one table per part."""
    data: dict[str, Any] = {"name": rules.name}
    for name, part in rules.parts().items():
        data[name] = policy_to_data(part)
    return data


_RULES_KEYS = {"name": False, "base": False, **{p: False for p in PART_NAMES}}


def rules_from_data(value: Any, path: str = "$", *, allow_base: bool = True) -> RuleSet:
    """A rule set from plain data.  ``base`` names a registered variant to start
    from; each part table then overrides that part (its parameters only, when
    the ``type`` is unchanged).  Parts not given keep their default (or the
    base's).  A registered variant written in full is that variant (the same
    object, whose plan its games share)."""
    obj = _object(value, path, _RULES_KEYS, "a rule set")
    if "base" in obj and not allow_base:
        raise _fail(f"{path}.base", "'base' is not allowed here")
    name = obj.get("name")
    if type(name) is str and "base" not in obj and name in variants.names():
        variant = variants.get(name)
        if same_data(obj, rules_to_data(variant)):
            return variant
    return _rules_from_object(obj, path, allow_base)


def _rules_from_object(obj: dict[str, Any], path: str, allow_base: bool) -> RuleSet:
    base = RuleSet()
    if "base" in obj:
        if not allow_base:
            raise _fail(f"{path}.base", "'base' is not allowed here")
        name = obj["base"]
        if not isinstance(name, str):
            raise _fail(f"{path}.base", f"expected a variant name, got {_show(name)}")
        try:
            base = variants.get(name)
        except BackAlleyError as exc:
            raise _fail(f"{path}.base", f"{exc} {known_once_imported('variant')}") from None
    parts = base.parts()
    for part in PART_NAMES:
        if part in obj:
            parts[part] = policy_from_data(part, obj[part], f"{path}.{part}", base=parts[part])
    name = obj.get("name")
    if name is not None and not isinstance(name, str):
        raise _fail(f"{path}.name", f"expected text, got {_show(name)}")
    try:
        return RuleSet(**parts, name=name)
    except RuleSetError as exc:
        raise RulesDocumentError([f"{path}: {p}" for p in exc.problems], path) from None
