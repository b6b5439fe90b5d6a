"""The one cattrs converter that reads plain data into the documents'
shapes (:mod:`backalley.io.shapes`), with detailed validation.

Each leaf is read by the library's own reader (a card by its text, a move
by its notation, a whole number only as a whole number: ``true`` and
``"3"`` are refused, not coerced), each object checks its keys first (an
unknown key or a missing one is named), each list is a JSON list; cattrs
builds the shapes and says where a value was refused.  The first refusal
becomes the :class:`~backalley.SerializationError` the library raises, at
its ``$.a[0]`` path (:func:`cattrs.transform_error` finds it) and in the
reader's own words::

    structure({"leader": 0, "cards": ["QS", 7], "winner": 1}, TrickShape, "$.tricks[0]")
    # SerializationError: $.tricks[0].cards[1]: expected a card like "QS", got 7
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, override

from backalley.cards import Card, Suit
from backalley.errors import BackAlleyError, RuleSetError, SerializationError
from backalley.io.protocol_shapes import BOT_MESSAGES, LIBRARY_MESSAGES
from backalley.io.serialize.common import (
    CARD_OF_TEXT,
    MOVE_OF_TEXT,
    RulesDocumentError,
    _card,
    _move,
    _phase,
    _seed,
    _suit,
    distinct,
)
from backalley.io.serialize.rules_doc import rules_from_data
from backalley.io.shapes import (
    SHAPES,
    Count,
    Positive,
    ReasonName,
    RefusedMoveShape,
    RulesInput,
    Seat,
    Seed,
)
from backalley.moves import Move
from backalley.plain import (
    MAX_NUMBER,
    check_length,
    fail,
    read_bool,
    read_int,
    read_object,
    read_text,
    show,
)
from backalley.rules.ruleset import RuleSet
from backalley.values import Phase

__all__ = ["read_keys", "shape_converter", "structure"]

S = TypeVar("S")

shape_converter = cattrs.Converter(detailed_validation=True)
"""The converter of the documents' shapes (strict: see the module's text)."""

_SEP = "\x1f"
"""Joins a leaf refusal's own path to its sentence while cattrs carries it up."""


def _leaf(read: Callable[[Any, str], Any]) -> Callable[[Any, Any], Any]:
    """A structure hook of one leaf, read at ``$`` (cattrs knows where)."""
    return lambda value, _type: read(value, "$")


def _whole(value: Any, _type: Any) -> int:
    """A whole number (at most :data:`~backalley.plain.MAX_NUMBER` in size)."""
    if type(value) is int and -MAX_NUMBER <= value <= MAX_NUMBER:
        return value
    return read_int(value, "$")


def _rules(value: Any, _type: Any) -> RuleSet:
    """A rule set as a document writes it (parts left out keep their
    defaults; no ``base``); one already read passes."""
    return value if isinstance(value, RuleSet) else rules_from_data(value, "$", allow_base=False)


def _rules_input(value: Any, _type: Any) -> RuleSet:
    """A rule set as a user gives it: a ``base`` variant allowed."""
    return value if isinstance(value, RuleSet) else rules_from_data(value, "$")


def _table_of_text(value: Any, _type: Any) -> dict[str, str]:
    """A table of text values (a record's metadata), refused as a whole."""
    if not isinstance(value, dict) or not all(
        type(k) is str and type(v) is str for k, v in value.items()
    ):
        raise fail("$", f"expected a table of text values, got {show(value)}")
    return dict(value)


def _object_of_any(value: Any, _type: Any) -> dict[str, Any]:
    """An object, read by its own document later (a vectors line's view)."""
    if not isinstance(value, dict):
        raise fail("$", f"expected an object, got {show(value)}")
    return value


def _is_tuple_of(tp: Any) -> bool:
    args = typing.get_args(tp)
    return typing.get_origin(tp) is tuple and len(args) == 2 and args[1] is Ellipsis


_BY_TEXT: dict[Any, dict[str, Any]] = {Card: CARD_OF_TEXT, Move: MOVE_OF_TEXT}
"""The leaves a list reads by their canonical text in one look-up each."""
_WHOLE = frozenset({int, Seat, Count, Positive})
"""The whole-number leaves a list reads at once when each item is one."""


def _leaf_of(item: Any) -> tuple[Any, bool]:
    """The leaf type of a list's items (its mark taken off), and whether an
    item may be null."""
    args = typing.get_args(item)
    optional = type(None) in args and len(args) == 2
    if optional:
        item = next(a for a in args if a is not type(None))
    if typing.get_origin(item) is Annotated:
        item = typing.get_args(item)[0]
    return item, optional


def _tuple_hook(tp: Any) -> Callable[[Any, Any], tuple[Any, ...]]:
    """A list of one type: a JSON list (a text or an object is not one), each
    item read by its type's hook; a refused item is named by its index."""
    item = typing.get_args(tp)[0]
    read_item = shape_converter.get_structure_hook(item)
    bare, optional = _leaf_of(item)
    table = _BY_TEXT.get(bare)
    whole = bare in _WHOLE and not optional
    if table is not None and optional:  # null, or a canonical text
        table = {**table, None: None}  # type: ignore[dict-item]

    def read(value: Any, _type: Any) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise fail("$", f"expected a list, got {show(value)}")
        if table is not None:  # canonical texts: one look-up each
            try:
                return tuple(map(table.__getitem__, value))
            except (KeyError, TypeError):
                pass  # read one by one, for the refusal
        elif whole and all(type(v) is int and -MAX_NUMBER <= v <= MAX_NUMBER for v in value):
            return tuple(value)
        out = []
        for index, entry in enumerate(value):
            try:
                out.append(read_item(entry, item))
            except (BackAlleyError, cattrs.BaseValidationError) as exc:
                note = cattrs.IterableValidationNote(
                    f"Structuring {tp} @ index {index}", index, item
                )
                exc.__notes__ = [*getattr(exc, "__notes__", []), note]  # type: ignore[union-attr]
                raise cattrs.IterableValidationError(
                    f"While structuring {tp!r}", [exc], tp
                ) from None
        return tuple(out)

    return read


def read_keys(value: Any, shape: type, path: str) -> dict[str, Any]:
    """``value`` as an object with the keys of ``shape`` (those without a
    default required); an unknown key or a missing one is refused by name,
    in the words of the reader (``missing key 'seat' in a player view``)."""
    keys = _KEYS_OF.get(shape) or _keys(shape)
    return read_object(value, path, keys, getattr(shape, "what", shape.__name__))


def _keys(shape: type) -> dict[str, bool]:
    """The keys of ``shape``, each ``True`` when a document must give it."""
    return {f.name: f.default is attrs.NOTHING for f in attrs.fields(shape)}


_KEYS_OF = {shape: _keys(shape) for shape in (*SHAPES, RefusedMoveShape)}
"""The keys of every shape, worked out once."""


def _shape_hook(cls: type) -> Callable[[Any, Any], Any]:
    """A shape: an object whose keys are checked first (:func:`read_keys`),
    then its fields read; the keys a loader works out itself (``output``)
    are left to it."""
    fields = attrs.fields(cls)
    omitted = {f.name: override(omit=True) for f in fields if f.metadata.get("output")}
    build: Callable[[Any, Any], Any] = make_dict_structure_fn(
        cls,
        shape_converter,
        **omitted,  # type: ignore[arg-type]
    )

    most = {f.name: f.metadata["most"] for f in fields if "most" in f.metadata}
    unique = [f.name for f in fields if f.metadata.get("schema", {}).get("uniqueItems")]

    def read(value: Any, _type: Any) -> Any:
        obj = read_keys(value, cls, "$")
        for key, bound in most.items():  # the lengths first: nothing longer is read
            items = obj.get(key)
            if isinstance(items, list):
                check_length(items, f"$.{key}", bound)
        built = build(obj, cls)
        for key in unique:  # the schema's uniqueItems, as it says
            distinct(getattr(built, key), f"$.{key}")
        return built

    return read


def _register() -> None:
    conv = shape_converter
    for kind in (int, Seat, Count, Positive):
        conv.register_structure_hook(kind, _whole)
    conv.register_structure_hook(Seed, _leaf(_seed))
    conv.register_structure_hook(bool, _leaf(read_bool))
    conv.register_structure_hook(str, _leaf(read_text))
    conv.register_structure_hook(ReasonName, _leaf(read_text))
    conv.register_structure_hook(Card, _leaf(_card))
    conv.register_structure_hook(Suit, _leaf(_suit))
    conv.register_structure_hook(Phase, _leaf(_phase))
    conv.register_structure_hook_func(lambda t: t == Move, _leaf(_move))
    conv.register_structure_hook(RuleSet, _rules)
    conv.register_structure_hook(RulesInput, _rules_input)
    conv.register_structure_hook_func(lambda t: t == dict[str, str], _table_of_text)
    conv.register_structure_hook_func(lambda t: t == dict[str, Any], _object_of_any)
    conv.register_structure_hook_factory(_is_tuple_of, _tuple_hook)
    for cls in (*SHAPES, RefusedMoveShape, *BOT_MESSAGES.values(), *LIBRARY_MESSAGES.values()):
        conv.register_structure_hook(cls, _shape_hook(cls))


_register()


def _encoded(exc: BaseException, _type: Any) -> str:
    """A refusal as ``relative-path<SEP>sentence`` (the reader's own words)."""
    if isinstance(exc, SerializationError):
        return f"{exc.path}{_SEP}{exc.message}"
    if isinstance(exc, BackAlleyError):
        return f"${_SEP}{exc}"
    return f"${_SEP}{cattrs.v.format_exception(exc, _type)}"


def first_refusal(exc: BaseException, path: str) -> SerializationError:
    """The first refusal cattrs found in reading a document at ``path``, as
    the library's error at its full path (a rule set whose parts do not fit
    together stays a :class:`~backalley.RuleSetError` too)."""
    leaf = _first_leaf(exc)
    text = cattrs.transform_error(exc, path=path, format_exception=_encoded)[0]
    encoded, _, where = text.rpartition(" @ ")
    inner, _, message = encoded.partition(_SEP)
    full = where + inner[1:] if inner.startswith("$") else where
    if isinstance(leaf, RuleSetError):
        problems = [full + p[1:] if p.startswith("$") else p for p in leaf.problems]
        return RulesDocumentError(problems, full)
    return SerializationError(message, full)


def _first_leaf(exc: BaseException) -> BaseException:
    """The first exception at the bottom of cattrs' groups."""
    inner = getattr(exc, "exceptions", None)
    while inner:
        exc = inner[0]
        inner = getattr(exc, "exceptions", None)
    return exc


def structure(value: Any, shape: type[S], path: str = "$") -> S:
    """Read ``value`` (plain data) as a ``shape`` (a class of
    :mod:`backalley.io.shapes`); the first refusal raises
    :class:`~backalley.SerializationError` at its path below ``path``."""
    try:
        return shape_converter.structure(value, shape)
    except SerializationError as exc:  # refused before cattrs took a path: at the top
        raise SerializationError(exc.message, path + exc.path[1:]) from None
    except RecursionError:
        raise SerializationError("the document is nested too deeply", path) from None
    except (BackAlleyError, cattrs.BaseValidationError) as exc:
        raise first_refusal(exc, path) from None
