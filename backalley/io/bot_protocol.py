"""The bot protocol's messages as JSON lines: the library's written, the
bot's read (their shapes are :mod:`backalley.io.protocol_shapes`).

A bot program reads one JSON object per line on its standard input and
writes one per line on its standard output.  The library writes every
message with :func:`encode`; what the bot wrote is read by
:func:`read_bot_message`, which refuses a line that is not JSON, not an
object, not the message expected now or not of its shape with a
:class:`~backalley.SerializationError` in words the bot's author can act on
(the library sends that sentence back in an ``error`` message).

The view a turn carries is the seat's view document, the same one
:func:`backalley.to_json` writes for a :class:`~backalley.PlayerView`: the
bot learns nothing its seat may not know.

One job: the messages as data, both ways.
"""

from __future__ import annotations

import json
from typing import Any

from backalley import variants
from backalley.engine.views import PlayerView
from backalley.errors import SerializationError
from backalley.io.protocol_shapes import (
    BOT_MESSAGES,
    PROTOCOL,
    PROTOCOL_VERSION,
    BotHelloShape,
    MoveShape,
    ReadyShape,
)
from backalley.io.serialize import to_data
from backalley.io.serialize.results_doc import deal_result_to_data
from backalley.io.serialize.rules_doc import rules_to_data
from backalley.io.serialize.structure import structure
from backalley.moves import Move
from backalley.rules.ruleset import RuleSet
from backalley.values import DealResult

__all__ = [
    "BotMessage",
    "deal_end_message",
    "encode",
    "error_message",
    "game_end_message",
    "game_message",
    "hello_message",
    "quit_message",
    "read_bot_message",
    "refused_message",
    "turn_message",
    "variant_name",
]

BotMessage = BotHelloShape | ReadyShape | MoveShape
"""A message a bot sends."""

_SCALARS = (bool, int, float, str, type(None))


def encode(message: dict[str, Any]) -> bytes:
    """A message as one line of JSON (UTF-8, ending in a newline)."""
    return (json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def hello_message() -> dict[str, Any]:
    """The library's first message."""
    return {"type": "hello", "protocol": PROTOCOL, "version": PROTOCOL_VERSION}


def variant_name(rules: RuleSet) -> str | None:
    """The name of the registered variant ``rules`` is (``None`` when it is none)."""
    name = rules.name
    if name is None or name not in variants.names():
        return None
    return name if variants.get(name) == rules else None


def game_message(
    seat: int,
    rules: RuleSet,
    options: dict[str, Any],
    move_ms: int,
    game_ms: int | None,
) -> dict[str, Any]:
    """A game begins for the bot at ``seat``."""
    return {
        "type": "game",
        "seat": seat,
        "variant": variant_name(rules),
        "rules": rules_to_data(rules),
        "options": dict(options),
        "move_ms": move_ms,
        "game_ms": game_ms,
    }


def turn_message(turn: int, view: PlayerView, time_left_ms: int) -> dict[str, Any]:
    """Decision number ``turn`` of the game: the seat's view document."""
    return {"type": "turn", "id": turn, "view": to_data(view), "time_left_ms": time_left_ms}


def refused_message(
    turn: int, move: Move, reason: str, message: str, refusals_left: int
) -> dict[str, Any]:
    """The bot's ``move`` at turn ``turn`` is not legal."""
    return {
        "type": "refused",
        "id": turn,
        "move": str(move),
        "reason": reason,
        "message": message,
        "refusals_left": refusals_left,
    }


def error_message(turn: int | None, message: str) -> dict[str, Any]:
    """The bot's answer could not be taken."""
    return {"type": "error", "id": turn, "message": message}


def deal_end_message(result: DealResult, scores: tuple[int, ...]) -> dict[str, Any]:
    """A deal was scored."""
    return {"type": "deal_end", "result": deal_result_to_data(result), "scores": list(scores)}


def game_end_message(scores: tuple[int, ...], winner: int | None) -> dict[str, Any]:
    """The game is over."""
    return {"type": "game_end", "scores": list(scores), "winner": winner}


def quit_message() -> dict[str, Any]:
    """The last message: the bot exits."""
    return {"type": "quit"}


def read_bot_message(line: bytes | str, expected: str) -> BotMessage:
    """The message a bot wrote on one line, which must be an ``expected``
    one (``"hello"``, ``"ready"`` or ``"move"``).  Raises
    :class:`~backalley.SerializationError`."""
    try:
        value = json.loads(line)
    except (UnicodeDecodeError, ValueError) as exc:
        raise SerializationError(f"not a JSON line ({exc})", "$") from None
    if not isinstance(value, dict):
        raise SerializationError(f"expected a JSON object, got {type(value).__name__}", "$")
    kind = value.get("type")
    if kind != expected:
        known = "" if kind in BOT_MESSAGES else f" (a bot sends {', '.join(BOT_MESSAGES)})"
        raise SerializationError(f"expected a {expected!r} message, got {kind!r}{known}", "$.type")
    message: BotMessage = structure(value, BOT_MESSAGES[expected], "$")
    if isinstance(message, BotHelloShape):
        _check_hello(message)
    return message


def _check_hello(hello: BotHelloShape) -> None:
    if hello.protocol != PROTOCOL:
        raise SerializationError(f"expected protocol {PROTOCOL!r}", "$.protocol")
    if hello.version != PROTOCOL_VERSION:
        raise SerializationError(
            f"this library speaks version {PROTOCOL_VERSION} of the protocol, not {hello.version}",
            "$.version",
        )
    if not hello.name.strip():
        raise SerializationError("a bot's name may not be empty", "$.name")
    for key, value in hello.options.items():
        if not isinstance(value, _SCALARS):
            raise SerializationError(
                "an option's default is a flag, a number, a text or null", f"$.options.{key}"
            )
