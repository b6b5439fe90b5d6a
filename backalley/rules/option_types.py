"""The types a rule part's options may have, each described once.

An option's Python type (with the bounds its validator declares, see
:mod:`backalley.rules.validators`) is described, when its class is
registered, by one :class:`OptionType`; that one description then

- reads the option from a document (:meth:`~OptionType.read`: plain data in,
  the value out, a :class:`~backalley.SerializationError` with the path of a
  value that is not one),
- writes it (:meth:`~OptionType.write`: the value out as plain data),
- says in words what a house-rules file gives (:meth:`~OptionType.words`),
- states it in JSON Schema (:meth:`~OptionType.schema`), and
- shows a value on a rules sheet (:meth:`~OptionType.text`).

The types a document carries (and reads back equal) are ``bool``, ``int``,
``str``, a :class:`~backalley.Suit`, a :class:`~backalley.Rank`, an enum
whose values are text or whole numbers, ``frozenset[Rank]``,
``tuple[T, ...]`` and ``T | None`` of these, and an attrs class of such
options (a *table*, such as a scoring's rainbow bonus); :func:`describe`
refuses any other with the reason and the cure.

It is one job, though over 500 lines: each kind of option type is a short class
answering the same five questions, and they are read side by side.
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from backalley.cards import Rank, Suit
from backalley.errors import NotationError, RuleSetError
from backalley.plain import fail, read_bool, read_int, read_list, read_object, read_text, show
from backalley.rules.validators import Boolean, OneOf, Whole, WholeNumbers, declared

__all__ = [
    "MAX_OPTION_ITEMS",
    "OPTION_TYPES_TEXT",
    "Choice",
    "Flag",
    "ListOf",
    "Maybe",
    "OptionType",
    "OptionTypeError",
    "RankOption",
    "RankSet",
    "SuitOption",
    "Table",
    "Text",
    "WholeNumber",
    "describe",
    "inherited_kinds",
    "kinds_of",
    "remember",
    "required_options",
]

MAX_OPTION_ITEMS = 1000
"""The most items of a list option of a rule part in a document (a deck's
ranks, a schedule's hand sizes, a board's multipliers, at any depth): the
longest list a built-in part takes, a schedule of a thousand deals (the
schedule's ``MAX_DEALS`` is this bound).  A longer
list is refused at its length, before any item is read, and is not written
either."""

OPTION_TYPES_TEXT = (
    "bool, int, str, a Suit, a Rank, an enum whose values are text or whole numbers, "
    "frozenset[Rank], tuple[T, ...] or T | None of these, or an attrs class of such options"
)
"""The option types a registered part may declare (in words, for messages)."""

Schema = dict[str, Any]

_RANK_LETTERS = '"2" .. "9", "T" or "10", "J", "Q", "K", "A"'
_RANK_SCHEMA: Schema = {
    "anyOf": [
        {"enum": ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]},
        {"type": "integer", "minimum": 2, "maximum": 14},
    ]
}


class OptionTypeError(Exception):
    """Why a type cannot be an option's (a rules document could not carry it):
    ``tp``, the type (at any depth) at fault, and ``why``."""

    def __init__(self, tp: Any, why: str) -> None:
        super().__init__(why)
        self.tp = tp
        self.why = why


@attrs.frozen
class OptionType:
    """How one option type is read, written, said, typed and shown."""

    def read(self, value: Any, path: str) -> Any:
        """The option's value from plain data at ``path``."""
        raise NotImplementedError

    def write(self, value: Any) -> Any:
        """The option's ``value`` as plain data."""
        return value

    def words(self, plural: bool = False) -> str:
        """What a file writes for such a value, in words."""
        raise NotImplementedError

    def schema(self, seen: frozenset[type] = frozenset()) -> Schema:
        """The JSON Schema of the value as a document writes it (``seen``:
        the tables being stated around it, which a table that holds itself
        states once)."""
        raise NotImplementedError

    def text(self, value: Any) -> str:
        """The value as a rules sheet shows it."""
        return str(value)

    def tables(self) -> Iterator[type]:
        """The attrs classes (tables) this type holds, at any depth."""
        return iter(())


@attrs.frozen
class Flag(OptionType):
    """``bool``: on or off."""

    def read(self, value: Any, path: str) -> bool:
        return read_bool(value, path)

    def words(self, plural: bool = False) -> str:
        return "true or false values" if plural else "true or false"

    def schema(self, seen: frozenset[type] = frozenset()) -> Schema:
        return {"type": "boolean"}

    def text(self, value: Any) -> str:
        return "on" if value else "off"


@attrs.frozen
class WholeNumber(OptionType):
    """``int``, within the bounds (or among the choices) its validator
    declares; the validator refuses the others when the part is made."""

    low: int | None = None
    high: int | None = None
    choices: tuple[int, ...] | None = None

    def read(self, value: Any, path: str) -> int:
        return read_int(value, path)

    def words(self, plural: bool = False) -> str:
        return "whole numbers" if plural else "a whole number"

    def schema(self, seen: frozenset[type] = frozenset()) -> Schema:
        if self.choices is not None:
            return {"enum": list(self.choices)}
        out: Schema = {"type": "integer"}
        if self.low is not None:
            out["minimum"] = self.low
        if self.high is not None:
            out["maximum"] = self.high
        return out


@attrs.frozen
class Text(OptionType):
    """``str``."""

    def read(self, value: Any, path: str) -> str:
        return read_text(value, path)

    def words(self, plural: bool = False) -> str:
        return "texts" if plural else "text"

    def schema(self, seen: frozenset[type] = frozenset()) -> Schema:
        return {"type": "string"}


@attrs.frozen
class SuitOption(OptionType):
    """A :class:`~backalley.Suit`, written as its letter."""

    def read(self, value: Any, path: str) -> Suit:
        if not isinstance(value, str):
            raise fail(path, f"expected a suit letter C, D, H or S, got {show(value)}")
        try:
            return Suit.parse(value)
        except NotationError as exc:
            raise fail(path, str(exc)) from None

    def write(self, value: Any) -> Any:
        return value.value

    def words(self, plural: bool = False) -> str:
        return "suit letters" if plural else 'a suit letter: "C", "D", "H" or "S"'

    def schema(self, seen: frozenset[type] = frozenset()) -> Schema:
        return {"$ref": "#/$defs/suit"}

    def text(self, value: Any) -> str:
        return str(value.letter)


@attrs.frozen
class RankOption(OptionType):
    """A plain :class:`~backalley.Rank`, written as its letter; read as a
    letter (``"Q"``, ``"T"`` or ``"10"``) or a whole number from 2 to 14."""

    def read(self, value: Any, path: str) -> Rank:
        if isinstance(value, str):
            try:
                return Rank.parse(value)
            except NotationError as exc:
                raise fail(path, str(exc)) from None
        return Rank(read_int(value, path, 2, 14))

    def write(self, value: Any) -> Any:
        return value.letter

    def words(self, plural: bool = False) -> str:
        return "ranks" if plural else f"a rank: {_RANK_LETTERS}"

    def schema(self, seen: frozenset[type] = frozenset()) -> Schema:
        return dict(_RANK_SCHEMA)

    def text(self, value: Any) -> str:
        return str(value.letter)


@attrs.frozen
class Choice(OptionType):
    """A member of an enum whose values are text or whole numbers, written as its value."""

    enum_type: type[enum.Enum]

    def read(self, value: Any, path: str) -> Any:
        choices = [m.value for m in self.enum_type]
        if value not in choices:
            raise fail(path, f"expected one of {', '.join(map(str, choices))}; got {show(value)}")
        return self.enum_type(value)

    def write(self, value: Any) -> Any:
        return value.value

    def words(self, plural: bool = False) -> str:
        choices = ", ".join(_toml(m.value) for m in self.enum_type)
        return f"values among {choices}" if plural else f"one of {choices}"

    def schema(self, seen: frozenset[type] = frozenset()) -> Schema:
        return {"enum": [m.value for m in self.enum_type]}

    def text(self, value: Any) -> str:
        letter = getattr(value, "letter", None)
        return letter if isinstance(letter, str) else str(value.value)


def _toml(value: object) -> str:
    """An enum's value as a house-rules file writes it (``"any-time"``, ``3``)."""
    return f'"{value}"' if isinstance(value, str) else str(value)


def _checked_length(value: Any, path: str) -> list[Any]:
    return read_list(value, path, most=MAX_OPTION_ITEMS)


def _writable(value: tuple[Any, ...] | frozenset[Any]) -> None:
    """A list option is written only if a document can hold it."""
    if len(value) > MAX_OPTION_ITEMS:
        raise fail("$", f"{len(value)} items; a rules document holds at most {MAX_OPTION_ITEMS}")


def _items_text(item: OptionType, items: Any) -> str:
    texts = [f"({item.text(v)})" if isinstance(item, Table) else item.text(v) for v in items]
    return ", ".join(texts) if texts else "none"


@attrs.frozen
class ListOf(OptionType):
    """``tuple[T, ...]``: a list of any length (at most
    :data:`MAX_OPTION_ITEMS`) of one type; ``at_least_one`` when its
    validator asks for one or more."""

    item: OptionType
    at_least_one: bool = False

    def read(self, value: Any, path: str) -> tuple[Any, ...]:
        items = _checked_length(value, path)
        read = self.item.read
        return tuple(read(v, f"{path}[{i}]") for i, v in enumerate(items))

    def write(self, value: Any) -> Any:
        _writable(value)
        return [self.item.write(v) for v in value]

    def words(self, plural: bool = False) -> str:
        return f"a list of {self.item.words(plural=True)}"

    def schema(self, seen: frozenset[type] = frozenset()) -> Schema:
        out: Schema = {"type": "array", "items": self.item.schema(seen)}
        if self.at_least_one:
            out["minItems"] = 1
        return out

    def text(self, value: Any) -> str:
        return _items_text(self.item, value)

    def tables(self) -> Iterator[type]:
        return self.item.tables()


@attrs.frozen
class RankSet(OptionType):
    """``frozenset[Rank]``: a list of ranks, written lowest first."""

    def read(self, value: Any, path: str) -> frozenset[Rank]:
        items = _checked_length(value, path)
        rank = RankOption().read
        return frozenset(rank(v, f"{path}[{i}]") for i, v in enumerate(items))

    def write(self, value: Any) -> Any:
        _writable(value)
        return [r.letter for r in sorted(value)]

    def words(self, plural: bool = False) -> str:
        return f"a list of ranks ({_RANK_LETTERS})"

    def schema(self, seen: frozenset[type] = frozenset()) -> Schema:
        return {"type": "array", "items": dict(_RANK_SCHEMA), "uniqueItems": True}

    def text(self, value: Any) -> str:
        return _items_text(RankOption(), sorted(value))


@attrs.frozen
class Maybe(OptionType):
    """``T | None``: a value of ``T``, or none (``null``; in TOML left out)."""

    inner: OptionType

    def read(self, value: Any, path: str) -> Any:
        return None if value is None else self.inner.read(value, path)

    def write(self, value: Any) -> Any:
        return None if value is None else self.inner.write(value)

    def words(self, plural: bool = False) -> str:
        return f"{self.inner.words(plural=plural)}, or none (null; in TOML leave it out)"

    def schema(self, seen: frozenset[type] = frozenset()) -> Schema:
        inner = self.inner.schema(seen)
        if set(inner) <= {"type", "minimum", "maximum"} and isinstance(inner.get("type"), str):
            return {**inner, "type": [inner["type"], "null"]}
        if set(inner) == {"enum"}:
            return {"enum": [*inner["enum"], None]}
        return {"anyOf": [inner, {"type": "null"}]}

    def text(self, value: Any) -> str:
        return "none" if value is None else self.inner.text(value)

    def tables(self) -> Iterator[type]:
        return self.inner.tables()


_KINDS: dict[type, dict[str, OptionType]] = {}
"""The described options of every registered class and of every table
(attrs class) they hold, by class and option name: filled when a class is
registered (:func:`remember`)."""


@attrs.frozen
class Table(OptionType):
    """An attrs class held in an option (a *table* of its own options, those
    without a default required), such as a scoring's rainbow bonus."""

    cls: type

    def fields(self) -> Mapping[str, OptionType]:
        return kinds_of(self.cls)

    def read(self, value: Any, path: str) -> Any:
        fields = self.fields()
        required = required_options(self.cls)
        keys = {name: name in required for name in fields}
        obj = read_object(value, path, keys, f"a {self.cls.__name__} table")
        kwargs = {k: fields[k].read(v, f"{path}.{k}") for k, v in obj.items()}
        try:
            return self.cls(**kwargs)
        except RuleSetError as exc:
            raise fail(path, "; ".join(exc.problems)) from None

    def write(self, value: Any) -> Any:
        return {name: kind.write(getattr(value, name)) for name, kind in self.fields().items()}

    def words(self, plural: bool = False) -> str:
        inner = ", ".join(f"{k} = {kind.words()}" for k, kind in self.fields().items())
        return f"tables {{{inner}}}" if plural else f"a table {{{inner}}}"

    def schema(self, seen: frozenset[type] = frozenset()) -> Schema:
        if self.cls in seen:  # a table that holds itself: any table, once deep
            return {"type": "object"}
        fields = self.fields()
        inside = seen | {self.cls}
        return {
            "type": "object",
            "properties": {k: kind.schema(inside) for k, kind in fields.items()},
            "required": [k for k in fields if k in required_options(self.cls)],
            "additionalProperties": False,
        }

    def text(self, value: Any) -> str:
        return ", ".join(
            f"{name}={kind.text(getattr(value, name))}" for name, kind in self.fields().items()
        )

    def tables(self) -> Iterator[type]:
        yield self.cls


def required_options(cls: type) -> frozenset[str]:
    """The options of ``cls`` (an attrs class) without a default: a document must give them."""
    return frozenset(a.name for a in attrs.fields(cls) if a.default is attrs.NOTHING)


def remember(cls: type, kinds: Mapping[str, OptionType]) -> None:
    """Keep the described options of ``cls`` (the registry calls it)."""
    _KINDS[cls] = dict(kinds)


def kinds_of(cls: type) -> Mapping[str, OptionType]:
    """The described options of a registered class (or of a table one of
    them holds), by name (a read-only view); any other class raises
    :class:`~backalley.RuleSetError`."""
    table = _KINDS.get(cls)
    if table is None:
        name = getattr(cls, "__qualname__", repr(cls))
        raise RuleSetError([f"{name} is not a registered rule part (nor an option one holds)"])
    return types.MappingProxyType(table)


def inherited_kinds(cls: type) -> Mapping[str, OptionType] | None:
    """The described options of ``cls`` or, for a class not registered itself
    (a subclass used as it is), of the nearest class it inherits them from
    with the same options; ``None`` when there is none."""
    names = {a.name for a in attrs.fields(cls)} if attrs.has(cls) else set()
    for base in cls.__mro__:
        table = _KINDS.get(base)
        if table is not None and set(table) == names:
            return types.MappingProxyType(table)
    return None


def describe(tp: Any, validator: Any = None) -> OptionType:
    """The description of the option type ``tp`` (checked by ``validator``,
    whose declared bounds it keeps); a type a document cannot carry raises
    :class:`OptionTypeError` saying why."""
    if isinstance(tp, type) and attrs.has(tp):
        return Table(tp)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        at_least_one = any(isinstance(v, WholeNumbers) for v in declared(validator))
        return ListOf(describe(args[0], _item_checks(validator)), at_least_one)
    if origin in (typing.Union, types.UnionType):
        kept = [a for a in args if a is not type(None)]
        if len(kept) == 1 and len(args) == 2:
            return Maybe(describe(kept[0], validator))
    return _plain(tp, validator)


def _item_checks(validator: Any) -> Any:
    """The bounds a list's validator declares for each item (a list of whole numbers)."""
    found = [v for v in declared(validator) if isinstance(v, WholeNumbers)]
    return Whole(found[0].low) if found else None


def _plain(tp: Any, validator: Any) -> OptionType:
    """The description of a plain type (not a tuple, union or attrs class)."""
    checks = declared(validator)
    origin = typing.get_origin(tp) or tp
    if tp is bool:
        return Flag()
    if tp is int:
        return _whole(checks)
    if tp is str:
        return Text()
    if tp is Suit:
        return SuitOption()
    if tp is Rank:
        return RankOption()
    if origin is frozenset and typing.get_args(tp) == (Rank,):
        return RankSet()
    if origin is frozenset:
        raise OptionTypeError(tp, "a set option is a set of ranks: use frozenset[Rank]")
    if tp is float:
        raise OptionTypeError(
            tp, "a number with a fraction does not load back exactly; use an int (hundredths, say)"
        )
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        if issubclass(tp, enum.Flag):
            raise OptionTypeError(
                tp, "a combination of flags is not one of its members; use an enum"
            )
        if all(type(m.value) in (str, int) for m in tp):
            return Choice(tp)
        raise OptionTypeError(tp, "its values must be text or whole numbers")
    if origin is tuple:
        raise OptionTypeError(
            tp, "a tuple option is a list of any length of one type: use tuple[T, ...]"
        )
    if origin in (typing.Union, types.UnionType):
        raise OptionTypeError(tp, "a union option is one type or None: use T | None")
    raise OptionTypeError(tp, "a rules document cannot carry it")


def _whole(checks: tuple[Any, ...]) -> WholeNumber:
    """A whole number within the bounds (or among the choices) ``checks`` declare."""
    low = high = None
    choices = None
    for check in checks:
        if isinstance(check, Whole):
            low, high = check.low, check.high
        elif isinstance(check, OneOf) and all(type(c) is int for c in check.choices):
            choices = tuple(typing.cast(int, c) for c in check.choices)
        elif isinstance(check, Boolean):  # pragma: no cover - a bool check on an int
            continue
    return WholeNumber(low, high, choices)
