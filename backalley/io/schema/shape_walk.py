"""The schema of a document shape (:mod:`backalley.io.shapes`), by one walk
over its attrs fields: each field's type becomes its schema, and the field's
metadata adds to it.

The types are the library's values and the named kinds of
:mod:`backalley.io.shapes` (each a leaf: see :data:`LEAVES`), ``bool``,
``int``, ``str``, ``T | None``, ``tuple[T, ...]``, ``dict[str, T]`` and
another shape (a ``$ref`` to its definition, or, for a shape without a
``schema_name``, its object inline).  The metadata: ``"schema"`` (keywords
merged into the field's schema, or into its non-null part), ``"item_schema"``
(merged into the items of a list), ``"const"`` (the field's one value),
``"ref"`` (the field is that definition), ``"output"`` (never required) and
``"written"`` (required though it has a default).

One job: a shape class in, its object schema out.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Iterator
from typing import Any

import attrs

from backalley.cards import Card, Suit
from backalley.io import shapes
from backalley.io.schema.leaves import CALL, CARD, MOVE, SUIT, nullable, ref
from backalley.moves import Move
from backalley.rules.ruleset import RuleSet
from backalley.values import Phase

__all__ = [
    "LEAVES",
    "ShapeError",
    "description",
    "held_shapes",
    "is_required",
    "schema_name",
    "shape_schema",
]

Schema = dict[str, Any]


def _integer(minimum: int | None = None, maximum: int | None = None) -> Schema:
    out: Schema = {"type": "integer"}
    if minimum is not None:
        out["minimum"] = minimum
    if maximum is not None:
        out["maximum"] = maximum
    return out


LEAVES: dict[Any, Schema] = {
    bool: {"type": "boolean"},
    int: {"type": "integer"},
    str: {"type": "string"},
    float: {"type": "number"},
    Any: {},
    shapes.Seat: _integer(0, shapes.MAX_SEAT),
    shapes.Count: _integer(0),
    shapes.Positive: _integer(1),
    shapes.Seed: {
        **_integer(-(2**64) + 1, 2**64 - 1),
        "description": "A seed: smaller than 2**64 in size.",
    },
    Card: CARD,
    Suit: SUIT,
    Move: MOVE,
    Phase: ref("phase"),
    shapes.ReasonName: ref("reason"),
    RuleSet: ref("ruleset"),
    shapes.RulesInput: ref("ruleset_input"),
}
"""The schema of each leaf type of the shapes."""


class ShapeError(TypeError):
    """A shape's field whose type the walk cannot state (a new kind of leaf
    needs its schema in :data:`LEAVES`)."""


def schema_name(cls: type) -> str:
    """The name of a shape's definition (``""``: none, the shape is written inline)."""
    return str(getattr(cls, "schema_name", ""))


def description(cls: type) -> str:
    """A class's docstring as one line of text."""
    return " ".join((inspect.getdoc(cls) or "").split())


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, vars(shapes), include_extras=True)


def _is_shape(tp: Any) -> bool:
    return isinstance(tp, type) and attrs.has(tp) and hasattr(tp, "schema_name")


def _merge(schema: Schema, more: Schema) -> Schema:
    """``more`` merged into ``schema``, or into its non-null part."""
    if not more:
        return schema
    if "anyOf" in schema and schema["anyOf"][-1] == {"type": "null"}:
        return {**schema, "anyOf": [_merge(schema["anyOf"][0], more), {"type": "null"}]}
    return {**schema, **more}


def _schema_of(tp: Any, item_schema: Schema, where: str) -> Schema:
    """The schema of the type ``tp`` (``item_schema`` merged into a list's items)."""
    if typing.get_origin(tp) is typing.Annotated:
        base, *marks = typing.get_args(tp)
        if base == Move and shapes.CALL in marks:
            return dict(CALL)
        return _schema_of(base, item_schema, where)
    if _is_shape(tp):
        name = schema_name(tp)
        return ref(name) if name else shape_schema(tp)
    leaf = LEAVES.get(tp) if _hashable(tp) else None
    if leaf is not None:
        return dict(leaf)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        inner = rest[0] if len(rest) == 1 else typing.Union[tuple(rest)]  # noqa: UP007
        return nullable(_schema_of(inner, item_schema, where))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        items = _merge(_schema_of(args[0], {}, where), item_schema)
        return {"type": "array", "items": items}
    if origin is dict and len(args) == 2 and args[0] is str:
        return {"type": "object", "additionalProperties": _schema_of(args[1], {}, where)}
    raise ShapeError(f"{where}: the schema cannot state the type {tp!r}")


def _hashable(tp: Any) -> bool:
    try:
        hash(tp)
    except TypeError:
        return False
    return True


def field_schema(cls: type, field: attrs.Attribute[Any], tp: Any) -> Schema:
    """The schema of one field of a shape."""
    meta = field.metadata
    if "ref" in meta:
        return ref(meta["ref"])
    if "const" in meta:
        return {"const": meta["const"]}
    where = f"{cls.__qualname__}.{field.name}"
    return _merge(_schema_of(tp, meta.get("item_schema", {}), where), meta.get("schema", {}))


def is_required(field: attrs.Attribute[Any]) -> bool:
    """A key every document gives: no default (or one the library always
    writes), and not one a loader works out itself."""
    meta = field.metadata
    if meta.get("output"):
        return False
    return field.default is attrs.NOTHING or bool(meta.get("written"))


def shape_schema(cls: type, head: Schema | None = None) -> Schema:
    """The closed object of a shape's fields (``head``, such as a top-level
    document's ``format`` and ``version``, first and optional), described by
    its docstring."""
    hints = _hints(cls)
    fields = attrs.fields(cls)
    out: Schema = {
        "type": "object",
        "properties": {
            **(head or {}),
            **{f.name: field_schema(cls, f, hints[f.name]) for f in fields},
        },
        "required": [f.name for f in fields if is_required(f)],
        "additionalProperties": False,
    }
    text = description(cls)
    if text:
        out["description"] = text
    return out


def _shapes_in(tp: Any) -> Iterator[type]:
    if _is_shape(tp):
        yield tp
    for arg in typing.get_args(tp):
        yield from _shapes_in(arg)


def held_shapes(classes: tuple[type, ...]) -> set[type]:
    """The shapes that another of ``classes`` holds in a field (nested
    objects: in a document of their own they carry ``format`` and ``version``;
    held, they may not)."""
    held: set[type] = set()
    for cls in classes:
        hints = _hints(cls)
        for field in attrs.fields(cls):
            if "ref" not in field.metadata:
                held.update(_shapes_in(hints[field.name]))
    return held
