"""The messages of the bot protocol, as shapes: JSON lines between the
library and a bot program, in both directions (see :mod:`backalley.io.bot_protocol`).

Each message is one JSON object on one line, its ``type`` first.  The
library sends ``hello`` (the protocol and its version), ``game`` (the bot's
seat, the rule set - by variant name where it is a registered variant, and
always as a document -, the options the bot is given and its time), one
``turn`` per decision (the seat's view document and the time left),
``refused`` (a move that is not legal, with the rule's reason and
sentence), ``error`` (an answer that could not be read), ``deal_end`` and
``game_end`` notices, and ``quit``.  The bot answers ``hello`` with its own
``hello`` (its name, author and options), ``game`` with ``ready`` and each
``turn`` (or ``refused``) with a ``move``.

The shapes are read by the one converter
(:func:`backalley.io.serialize.structure.structure`) and give the
protocol's part of the generated JSON Schema (``bot_message`` and
``library_message``).  Times are whole milliseconds.

One job: what each message holds.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from backalley.io.shapes import Count, DealResultShape, Positive, ReasonName, Seat, ViewShape
from backalley.moves import Move
from backalley.rules.ruleset import RuleSet

__all__ = [
    "BOT_MESSAGES",
    "LIBRARY_MESSAGES",
    "PROTOCOL",
    "PROTOCOL_VERSION",
    "BotHelloShape",
    "DealEndShape",
    "ErrorShape",
    "GameEndShape",
    "GameShape",
    "HelloShape",
    "MoveShape",
    "QuitShape",
    "ReadyShape",
    "RefusedShape",
    "TurnShape",
]

PROTOCOL = "backalley-bot"
"""The protocol's name, in both ``hello`` messages."""
PROTOCOL_VERSION = 1
"""The protocol's version: a bot answers ``hello`` with the version it speaks."""


def _type(name: str) -> Any:
    """The ``type`` field of a message: its one value."""
    return attrs.field(default=name, metadata={"const": name, "written": True})


_OPTIONS = {
    "schema": {
        "additionalProperties": {"type": ["boolean", "integer", "number", "string", "null"]},
        "maxProperties": 100,
    }
}
"""A table of options: each a name and a plain value (a flag, a number, a text or null)."""

_NAME = {"schema": {"minLength": 1, "maxLength": 200}}


@attrs.frozen(kw_only=True)
class HelloShape:
    """The library's first message: the protocol it speaks and its version."""

    what: ClassVar[str] = "a hello"
    schema_name: ClassVar[str] = "protocol_hello"

    type: str = _type("hello")
    protocol: str = attrs.field(default=PROTOCOL, metadata={"const": PROTOCOL, "written": True})
    version: Positive = attrs.field(default=Positive(PROTOCOL_VERSION), metadata={"written": True})


@attrs.frozen(kw_only=True)
class BotHelloShape:
    """The bot's answer to ``hello``: the protocol version it speaks, its
    name, its author and the options it takes (each with its default)."""

    what: ClassVar[str] = "a bot's hello"
    schema_name: ClassVar[str] = "bot_hello"

    type: str = _type("hello")
    protocol: str = attrs.field(metadata={"const": PROTOCOL})
    version: Positive
    name: str = attrs.field(metadata=_NAME)
    author: str | None = None
    options: dict[str, Any] = attrs.field(factory=dict, metadata=_OPTIONS)


@attrs.frozen(kw_only=True)
class GameShape:
    """A game begins: the bot's seat, the rule set (``variant``, its name
    when it is a registered variant, else ``null``; ``rules``, the rule set
    document either way), the options given to the bot (its defaults for the
    others), the time a decision may take and the time of the whole game
    (``null``: no limit but the decision's)."""

    what: ClassVar[str] = "a game message"
    schema_name: ClassVar[str] = "protocol_game"

    type: str = _type("game")
    seat: Seat
    variant: str | None
    rules: RuleSet
    options: dict[str, Any] = attrs.field(metadata=_OPTIONS)
    move_ms: Positive
    game_ms: Positive | None


@attrs.frozen(kw_only=True)
class ReadyShape:
    """The bot's answer to ``game``: it is ready to play."""

    what: ClassVar[str] = "a ready message"
    schema_name: ClassVar[str] = "bot_ready"

    type: str = _type("ready")


@attrs.frozen(kw_only=True)
class TurnShape:
    """A decision: the seat's view document (its hand, the public facts, its
    legal moves and why each other card or call is refused), its number in
    the game (``id``, from 0, which the bot's ``move`` echoes) and the time
    left for it."""

    what: ClassVar[str] = "a turn message"
    schema_name: ClassVar[str] = "protocol_turn"

    type: str = _type("turn")
    id: Count
    view: ViewShape = attrs.field(metadata={"ref": "view"})
    time_left_ms: Count


@attrs.frozen(kw_only=True)
class MoveShape:
    """The bot's answer to ``turn`` or ``refused``: a move in the library's
    move text (``bid 3``, ``play QS``), and the ``id`` of the turn it answers
    (an answer to an earlier turn is set aside)."""

    what: ClassVar[str] = "a move message"
    schema_name: ClassVar[str] = "bot_move"

    type: str = _type("move")
    move: Move
    id: Count | None = None


@attrs.frozen(kw_only=True)
class RefusedShape:
    """The bot's move is not legal: the rule that refuses it (a reason name)
    and why.  The bot answers the same turn again."""

    what: ClassVar[str] = "a refused message"
    schema_name: ClassVar[str] = "protocol_refused"

    type: str = _type("refused")
    id: Count
    move: Move
    reason: ReasonName
    message: str
    refusals_left: Count


@attrs.frozen(kw_only=True)
class ErrorShape:
    """The bot's answer could not be taken (not JSON, not a move, too late);
    ``id`` is the turn it was for (``null`` outside a turn)."""

    what: ClassVar[str] = "an error message"
    schema_name: ClassVar[str] = "protocol_error"

    type: str = _type("error")
    id: Count | None
    message: str


@attrs.frozen(kw_only=True)
class DealEndShape:
    """A notice: a deal was scored (its result), and the scores after it."""

    what: ClassVar[str] = "a deal-end notice"
    schema_name: ClassVar[str] = "protocol_deal_end"

    type: str = _type("deal_end")
    result: DealResultShape
    scores: tuple[int, ...]


@attrs.frozen(kw_only=True)
class GameEndShape:
    """A notice: the game is over; the final scores and the winning side (or
    seat, in a cutthroat game; ``null`` for a draw)."""

    what: ClassVar[str] = "a game-end notice"
    schema_name: ClassVar[str] = "protocol_game_end"

    type: str = _type("game_end")
    scores: tuple[int, ...]
    winner: Count | None


@attrs.frozen(kw_only=True)
class QuitShape:
    """The last message: the bot exits."""

    what: ClassVar[str] = "a quit message"
    schema_name: ClassVar[str] = "protocol_quit"

    type: str = _type("quit")


BOT_MESSAGES: dict[str, type] = {
    "hello": BotHelloShape,
    "ready": ReadyShape,
    "move": MoveShape,
}
"""What a bot may send, by ``type``."""

LIBRARY_MESSAGES: dict[str, type] = {
    "hello": HelloShape,
    "game": GameShape,
    "turn": TurnShape,
    "refused": RefusedShape,
    "error": ErrorShape,
    "deal_end": DealEndShape,
    "game_end": GameEndShape,
    "quit": QuitShape,
}
"""What the library sends, by ``type``."""
