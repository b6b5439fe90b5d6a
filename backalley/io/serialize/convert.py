"""The one cattrs converter behind :func:`to_json` and :func:`from_json`:
every document type registered with its writer and reader, on the
converter that reads the documents' shapes
(:mod:`backalley.io.serialize.structure`)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, cast

from backalley.cards import Card
from backalley.engine.state import GameState
from backalley.engine.views import PlayerView
from backalley.errors import BackAlleyError, RuleSetError, SerializationError
from backalley.io.record import GameRecord
from backalley.io.serialize.common import (
    FORMAT_VERSION,
    MAX_DOCUMENT_SIZE,
    RulesDocumentError,
    _card,
    _fail,
    _move,
    _show,
)
from backalley.io.serialize.record_doc import record_from_data, record_to_data
from backalley.io.serialize.results_doc import (
    contract_document,
    contract_to_data,
    deal_result_from_data,
    deal_result_to_data,
)
from backalley.io.serialize.rules_doc import (
    policy_from_data,
    policy_to_data,
    rules_from_data,
    rules_to_data,
)
from backalley.io.serialize.state_doc import state_from_data, state_to_data, state_to_text
from backalley.io.serialize.structure import shape_converter
from backalley.io.serialize.view_doc import view_from_data, view_to_data
from backalley.moves import MOVE_TYPES, Move
from backalley.rules.registry import claims_part, registered_parts, tag_of
from backalley.rules.ruleset import RuleSet
from backalley.values import Contract, DealResult

__all__ = ["converter", "from_data", "from_json", "to_data", "to_json"]

T = TypeVar("T")


converter = shape_converter
"""The one converter: ``converter.unstructure(x)`` gives plain data for any
document type, ``converter.structure(data, cls)`` reads it back (raising
:class:`~backalley.SerializationError`); the documents' shapes
(:mod:`backalley.io.shapes`) are read by the same converter."""


class Kind(NamedTuple):
    """A document type: its ``format`` name, its writer and its reader."""

    name: str
    dump: Callable[[Any], Any]
    load: Callable[[Any, str], Any]


_KINDS: dict[type, Kind] = {}
"""The registry of document types (filled once, and as rule parts are registered)."""
_LOCK = threading.Lock()
_READY = False
"""Set once every hook is registered: threads never see a half-filled converter."""


def _ensure_registered() -> None:
    global _READY
    if not _READY:
        with _LOCK:
            if not _READY:
                _register_all()
                _READY = True


def _register(
    cls: type, kind: str, dump: Callable[[Any], Any], load: Callable[[Any, str], Any]
) -> None:
    """Register a document type: :func:`to_data` and :func:`from_data` call
    its writer and reader directly, the converter's hooks call the same."""
    _KINDS[cls] = Kind(kind, dump, load)
    # predicate hooks: cattrs need not resolve the classes' type annotations
    converter.register_unstructure_hook_func(lambda t: t is cls, dump)
    converter.register_structure_hook_func(lambda t: t is cls, lambda data, _t: load(data, "$"))


def _register_all() -> None:
    _register(Card, "card", str, _card)
    for move_type in MOVE_TYPES:
        _register(move_type, "move", str, _move_loader(move_type))
    _register(RuleSet, "rules", rules_to_data, rules_from_data)
    _register(GameState, "state", state_to_data, state_from_data)
    _register(PlayerView, "view", view_to_data, view_from_data)
    _register(GameRecord, "record", record_to_data, record_from_data)
    _register(DealResult, "deal-result", deal_result_to_data, deal_result_from_data)
    _register(Contract, "contract", contract_to_data, contract_document)
    for part, table in registered_parts().items():
        for cls in table.values():
            _register(cls, "policy", policy_to_data, _policy_loader(part, cls))
    converter.register_structure_hook_func(lambda t: t == Move, lambda data, _t: _move(data, "$"))


def _move_loader(cls: type) -> Callable[[Any, str], Any]:
    def load(data: Any, path: str) -> Any:
        move = _move(data, path)
        if not isinstance(move, cls):
            raise _fail(path, f"{move} is not a {getattr(cls, 'kind', cls.__name__)} move")
        return move

    return load


def _policy_loader(part: str, cls: type) -> Callable[[Any, str], Any]:
    def load(data: Any, path: str) -> Any:
        return _exact(policy_from_data(part, data, path), cls, path)

    return load


def _exact(value: Any, cls: type, path: str) -> Any:
    if not isinstance(value, cls):
        expected = tag_of(cls)
        raise _fail(f"{path}.type", f"expected a {expected!r} policy, got {tag_of(type(value))!r}")
    return value


def to_data(value: Any) -> Any:
    """Plain data (dicts, lists, text, numbers) for any document type.

    Top-level documents carry ``format`` and ``version``.
    """
    _ensure_registered()
    kind = _kind_of(value)
    data = kind.dump(value)
    if isinstance(data, dict):
        return {"format": f"backalley/{kind.name}", "version": FORMAT_VERSION, **data}
    return data


_document = to_data


def _kind_of(value: Any) -> Kind:
    kind = _KINDS.get(type(value))
    if kind is not None:
        return kind
    with _LOCK:
        _register_new_parts()
    kind = _KINDS.get(type(value))
    if kind is not None:
        return kind
    if claims_part(value):
        raise SerializationError(
            f"cannot write {type(value).__qualname__}: it is not a registered rule part "
            "(decorate the class with @backalley.rules.register, with a tag of its own)",
            "$",
        )
    raise SerializationError(f"cannot write a {type(value).__name__} as JSON", "$")


def _register_new_parts() -> None:
    """Register the converter hooks of rule parts registered since the last call."""
    for part, table in registered_parts().items():
        for cls in table.values():
            if cls not in _KINDS:
                _register(cls, "policy", policy_to_data, _policy_loader(part, cls))


def from_data(data: Any, cls: type[T]) -> T:
    """Read plain data written by :func:`to_data` back as a ``cls`` value."""
    _ensure_registered()
    if cls not in _KINDS:
        with _LOCK:
            _register_new_parts()
    found = _KINDS.get(cls) if isinstance(cls, type) else None
    if cast(Any, cls) == Move:  # the union of the move types
        return _guarded(_move, data, "$")  # type: ignore[no-any-return]
    if found is None:
        raise SerializationError(f"cannot read a {getattr(cls, '__name__', cls)!r} from JSON", "$")
    kind = found.name
    if isinstance(data, dict) and kind not in ("card", "move"):
        data = dict(data)
        if "format" in data:
            fmt = data.pop("format")
            if fmt != f"backalley/{kind}":
                shown = repr(fmt) if isinstance(fmt, str) and len(fmt) <= 60 else _show(fmt)
                raise _fail("$.format", f"this is a {shown} document, not 'backalley/{kind}'")
        if "version" in data:
            _check_version(data.pop("version"))
    return _guarded(found.load, data, "$")  # type: ignore[no-any-return]


def _check_version(version: Any) -> None:
    """Refuse a document of another format version than :data:`FORMAT_VERSION`."""
    if type(version) is int and version == FORMAT_VERSION:
        return
    if type(version) is int and 1 <= version < FORMAT_VERSION:
        raise _fail(
            "$.version",
            f"format version {version} is no longer read; this library reads format version "
            f"{FORMAT_VERSION} (load the document with the release that wrote it and write "
            "it again, or replay its game)",
        )
    raise _fail(
        "$.version",
        f"format version {_show(version)} is not supported (only {FORMAT_VERSION})",
    )


def _guarded(read: Callable[..., Any], *args: Any) -> Any:
    """``read(*args)``, the library's other errors raised as a
    :class:`~backalley.SerializationError` (a rule set's problems as one that
    is also a :class:`~backalley.RuleSetError`)."""
    try:
        return read(*args)
    except SerializationError:
        raise
    except RuleSetError as exc:
        raise RulesDocumentError(exc.problems, "$") from None
    except BackAlleyError as exc:
        raise SerializationError(str(exc), "$") from None
    except RecursionError:
        raise SerializationError("the document is nested too deeply", "$") from None


def to_json(value: Any, *, indent: int | None = None) -> str:
    """JSON text for a state, view, move, card, rule set, record or deal result
    (compact; ``indent=2`` for text meant for people)."""
    try:
        if indent is None and type(value) is GameState:
            return state_to_text(value)  # the same text, put together directly
        return json.dumps(to_data(value), indent=indent, ensure_ascii=False)
    except SerializationError:
        raise
    except ValueError as exc:  # a number too long to write
        raise SerializationError(f"cannot write the value: {exc}", "$") from None


def from_json(text: str | bytes, cls: type[T]) -> T:
    """Read JSON text as a ``cls`` value; malformed or inconsistent input raises
    :class:`~backalley.SerializationError` with the path of the offending field."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise SerializationError(f"expected JSON text, got {type(text).__name__}", "$")
    if len(text) > MAX_DOCUMENT_SIZE:
        raise SerializationError(
            f"the document is {len(text)} long; documents are at most {MAX_DOCUMENT_SIZE}", "$"
        )
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise SerializationError(f"not valid JSON: {exc}", "$") from None
    return from_data(data, cls)
