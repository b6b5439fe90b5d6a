"""Rule sets as plain data: each part a table tagged by its registered
``type``, read back through the open registry (so a user's own registered
rules load like the built-in ones).  Each option is read and written by the
description of its type, made once when its class was registered
(:mod:`backalley.rules.option_types`)."""

from __future__ import annotations

from typing import Any

from backalley import variants
from backalley.errors import BackAlleyError, RuleSetError, SerializationError
from backalley.io.serialize.common import (
    RulesDocumentError,
    _fail,
    _object,
    _show,
    known_once_imported,
)
from backalley.plain import same_data
from backalley.rules.option_types import MAX_OPTION_ITEMS, required_options
from backalley.rules.registry import PART_NAMES, option_kinds, part_classes
from backalley.rules.ruleset import RuleSet

__all__ = [
    "MAX_OPTION_ITEMS",
    "policy_from_data",
    "policy_to_data",
    "rules_from_data",
    "rules_to_data",
]


def policy_to_data(policy: Any) -> dict[str, Any]:
    """A policy as plain data: ``{"type": tag, <parameter>: <value>, ...}``;
    an option a rules document cannot hold raises
    :class:`~backalley.SerializationError` naming it."""
    data: dict[str, Any] = {"type": policy.tag}
    kinds = option_kinds(type(policy))
    for name, value in policy.options().items():
        try:
            data[name] = kinds[name].write(value)
        except SerializationError as exc:
            raise _fail(
                "$", f"cannot write the {policy.part} option {name!r}: {exc.message}"
            ) from None
    return data


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
    params = option_kinds(cls)
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
        kwargs[key] = params[key].read(item, f"{path}.{key}")
    missing = sorted(required_options(cls) - kwargs.keys())
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
