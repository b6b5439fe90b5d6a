"""The Python side of ``backalley.js``: what the JavaScript API asks the
library when it runs in Pyodide.

``backalley.js`` loads Pyodide, unpacks the wheels and imports this module;
each method of its objects is one call of a function here.  Nothing here
knows a rule: every answer is the library's own (a rule set, a document, a
check, a bot's move), so the pure-Python library stays the one source of the
rules.  Arguments and answers are JSON text, library values (a rule set, a
state, a view, a bot: JavaScript holds them as proxies) or small plain values
(a seat, a move's text), so the same calls run under CPython, where the test
suite calls them, and in Pyodide alike.

A function marked *answers* never raises the library's errors: it returns an
:class:`Answer`, holding either the value or the error as JSON text
(:func:`error_data`), which ``backalley.js`` throws as a ``BackAlleyError``
carrying the library's kind, ``reason`` and sentence.
"""

from __future__ import annotations

import collections
import functools
import json
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

import backalley as ba
from backalley.bots import Bot, make_bot
from backalley.bots import bot_names as _bot_names
from backalley.errors import BackAlleyError
from backalley.io import houserules
from backalley.render.facts import deal_end as _deal_end
from backalley.render.facts import table_facts

__all__ = [
    "Answer",
    "apply",
    "bot_move",
    "bot_names",
    "check",
    "deal_end",
    "document",
    "error_data",
    "facts",
    "legal_moves",
    "library_version",
    "make_bot_named",
    "new_game",
    "record",
    "resume",
    "rules",
    "rules_summary",
    "summary",
    "variant_names",
    "view",
]

Game = ba.GameState | ba.PlayerView
"""What a JavaScript ``Game`` holds: a full state, or one seat's view."""

T = TypeVar("T")


@attrs.frozen
class Answer:
    """A call's outcome: ``value``, or ``error`` (JSON text of
    :func:`error_data`) when the library refused the call."""

    value: Any = None
    error: str | None = None


def error_data(exc: BackAlleyError) -> dict[str, Any]:
    """The library's error as JSON data: ``kind`` (the exception's class,
    e.g. ``"IllegalMoveError"``), ``message`` (the sentence), ``reason`` (a
    :class:`~backalley.Reason` name, for a refused move), ``move`` and
    ``seat`` (the move refused and who tried it), ``problems`` (a rule set's
    or house rules' problems, one sentence each) and ``path`` (where in a
    document a reader stopped)."""
    data: dict[str, Any] = {
        "kind": type(exc).__name__,
        "message": str(exc),
        "reason": None,
        "move": None,
        "seat": None,
        "problems": [],
        "path": None,
    }
    if isinstance(exc, ba.IllegalMoveError):
        data["message"] = exc.message
        data["reason"] = exc.reason.name
        data["move"] = None if exc.move is None else str(exc.move)
        data["seat"] = exc.seat
    if isinstance(exc, ba.RuleSetError):
        data["problems"] = list(exc.problems)
    if isinstance(exc, ba.SerializationError):
        data["path"] = exc.path
    if isinstance(exc, ba.UnknownVariantError):
        data["message"] = str(exc).strip("\"'")
    return data


def _answers(function: Callable[..., T]) -> Callable[..., Answer]:
    """``function``'s value as an :class:`Answer`, or the library's error."""

    @functools.wraps(function)
    def call(*args: Any) -> Answer:
        try:
            return Answer(value=function(*args))
        except BackAlleyError as exc:
            return Answer(error=json.dumps(error_data(exc), ensure_ascii=False))

    return call


# -- the library ---------------------------------------------------------------------


def library_version() -> str:
    """The library's version."""
    return ba.__version__


def variant_names() -> str:
    """The registered variants' names (JSON list)."""
    return json.dumps(list(ba.variants.names()))


def bot_names() -> str:
    """The registered bots' names (JSON list)."""
    return json.dumps(list(_bot_names()))


# -- rule sets -----------------------------------------------------------------------


@_answers
def rules(text: str, format: str = "auto") -> ba.RuleSet:
    """A rule set from a variant's name (``format="name"``), a rules or
    house-rules document as JSON text (``"json"``) or house rules as TOML
    text (``"toml"``).  ``"auto"`` reads text that starts with ``{`` as JSON,
    one line without ``=`` as a name, and anything else as TOML."""
    if not isinstance(text, str):
        raise ba.SetupError(f"rules are given as text, not {type(text).__name__}")
    if format == "auto":
        stripped = text.strip()
        if stripped.startswith("{"):
            format = "json"
        elif "=" not in stripped and "\n" not in stripped:
            format = "name"
        else:
            format = "toml"
    if format == "name":
        return ba.variants.get(text.strip())
    if format in ("json", "toml"):
        return houserules.loads(text, format=format)
    raise ba.SetupError(f"unknown rules format {format!r:.40}; use 'name', 'json' or 'toml'")


def rules_summary(rule_set: ba.RuleSet) -> str:
    """The rule set's name (``null`` when it has none), its number of players
    and its ``backalley/rules`` document (JSON)."""
    return json.dumps(
        {
            "name": rule_set.name,
            "players": rule_set.players,
            "document": json.loads(ba.to_json(rule_set)),
        },
        ensure_ascii=False,
    )


# -- games ---------------------------------------------------------------------------


def _seed(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip()
        if not text.lstrip("-").isdigit() or len(text) > 24:
            raise ba.SetupError(f"seed: a seed is a whole number, not {value!r:.40}")
        return int(text)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ba.SetupError(f"seed: a seed is a whole number, not {type(value).__name__}")


@_answers
def new_game(rule_set: ba.RuleSet, options: str = "{}") -> ba.GameState:
    """A new game (:func:`~backalley.new_game`); ``options`` is a JSON object
    with ``seed`` (a whole number, or its decimal text: JavaScript's numbers
    keep only 53 bits; none for 63 random bits), ``dealer`` and ``decks``
    (deck orders, lists of card texts)."""
    try:
        given = json.loads(options)
    except ValueError as exc:
        raise ba.SetupError(f"the options are not JSON: {exc}") from None
    if not isinstance(given, dict):
        raise ba.SetupError("the options are an object: {seed, dealer, decks}")
    unknown = sorted(set(given) - {"seed", "dealer", "decks"})
    if unknown:
        raise ba.SetupError(
            f"unknown option {unknown[0]!r:.40}; the options are seed, dealer, decks"
        )
    decks = given.get("decks")
    if decks is not None and not (
        isinstance(decks, list) and all(isinstance(deck, list) for deck in decks)
    ):
        raise ba.SetupError("decks: a list of deck orders, each a list of card texts")
    return ba.new_game(
        rule_set, seed=_seed(given.get("seed")), dealer=given.get("dealer"), decks=decks
    )


_KINDS: dict[str, type[ba.GameState] | type[ba.PlayerView] | type[ba.GameRecord]] = {
    "backalley/state": ba.GameState,
    "backalley/view": ba.PlayerView,
    "backalley/record": ba.GameRecord,
}


@_answers
def resume(text: str) -> Game:
    """A game from a ``backalley/state`` document, a seat's
    ``backalley/view`` document (it answers that seat's questions; it cannot
    move on) or a ``backalley/record`` (replayed to its last move), as JSON
    text."""
    if not isinstance(text, str):
        raise ba.SerializationError(f"expected JSON text, got {type(text).__name__}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None  # the reader below says what is wrong with the text
    kind = data.get("format") if isinstance(data, dict) else None
    if data is None:
        ba.from_json(text, ba.GameState)  # raises the reader's own message for the text
    if kind not in _KINDS:
        raise ba.SerializationError(
            "a game is resumed from a state, view or record document "
            f"(format {', '.join(_KINDS)}), not {kind!r:.60}"
        )
    found = ba.from_json(text, _KINDS[kind])
    if isinstance(found, ba.GameRecord):
        last = collections.deque(ba.replay(found), maxlen=1)  # the new game, then each move's
        return last[0]
    return found


def summary(game: Game) -> str:
    """What a ``Game`` object shows without asking again (JSON): ``kind``
    (``"state"`` or ``"view"``), ``seat`` (a view's seat), ``phase``,
    ``to_act``, ``is_over``, ``dealer``, ``hand_size``, ``scores``,
    ``winner``, ``deals_played``, ``players`` and ``moves`` (how many moves a
    state has had; ``null`` for a view)."""
    is_view = isinstance(game, ba.PlayerView)
    return json.dumps(
        {
            "kind": "view" if is_view else "state",
            "seat": game.seat if isinstance(game, ba.PlayerView) else None,
            "phase": game.phase.value,
            "to_act": game.to_act,
            "is_over": game.phase is ba.Phase.GAME_OVER,
            "dealer": game.dealer,
            "hand_size": game.hand_size,
            "scores": list(game.scores),
            "winner": game.winner,
            "deals_played": game.deals_played,
            "players": game.rules.players,
            "moves": None if isinstance(game, ba.PlayerView) else len(game.moves),
        }
    )


def document(game: Game) -> str:
    """The game's own document: a state's ``backalley/state`` (seed and
    moves: never for a player's eyes) or a view's ``backalley/view``."""
    return ba.to_json(game)


def _seat(seat: object) -> int | None:
    """A seat given by JavaScript: a whole number, or none."""
    if seat is None or (isinstance(seat, int) and not isinstance(seat, bool)):
        return seat
    if isinstance(seat, float) and seat.is_integer():  # a JavaScript number
        return int(seat)
    raise ba.SetupError(f"a seat is a whole number, not {seat!r:.40}")


def _seen_by(game: Game, seat: object) -> ba.PlayerView:
    seat = _seat(seat)
    if isinstance(game, ba.PlayerView):
        if seat is not None and seat != game.seat:
            raise ba.SetupError(f"this is seat {game.seat}'s view, not seat {seat}'s")
        return game
    if seat is None:
        if game.to_act is None:
            raise ba.SetupError("the game is over: name the seat whose view to show")
        seat = game.to_act
    return game.view(seat)


@_answers
def view(game: Game, seat: object = None) -> str:
    """A seat's ``backalley/view`` document (the seat to act's by default):
    its hand, the public facts, its legal moves and an answer for each of its
    cards (``cards``) and for each call (``call_answers``)."""
    return ba.to_json(_seen_by(game, seat))


@_answers
def facts(game: Game, seat: object = None) -> str:
    """The table's names and status line as the server sends them beside a
    seat's view (:func:`backalley.render.facts.table_facts`)."""
    return json.dumps(table_facts(_seen_by(game, seat)), ensure_ascii=False)


def legal_moves(game: Game) -> str:
    """The legal moves of the seat to act, as move texts (JSON list; none
    in a view when it is not the seat's turn)."""
    return json.dumps([str(move) for move in game.legal_moves()])


@_answers
def check(game: Game, text: str, seat: object = None) -> str:
    """The answer to a move (JSON): ``move`` (its canonical text), ``legal``,
    and for a refused move ``reason`` and ``message``.  Text that is not a
    move is an error (``NotationError``), not a refusal."""
    move = ba.parse_move(text)
    answer: dict[str, Any] = {"move": str(move), "legal": True, "reason": None, "message": None}
    try:
        game.check(move, seat=_seat(seat))
    except ba.IllegalMoveError as exc:
        answer.update(legal=False, reason=exc.reason.name, message=exc.message)
    return json.dumps(answer, ensure_ascii=False)


@_answers
def apply(game: Game, text: str, seat: object = None) -> ba.GameState:
    """The state after the move (text), checked for ``seat`` when one is
    given; refused with an ``IllegalMoveError``.  A view does not move on:
    its seat sends the move to whoever holds the game."""
    if isinstance(game, ba.PlayerView):
        raise ba.SetupError(
            "a view cannot move on: send the move to whoever holds the game (the server), "
            "which answers the next view"
        )
    move = ba.parse_move(text)
    if seat is not None:
        game.check(move, seat=_seat(seat))
    return game.apply(move)


@_answers
def deal_end(before: Game, text: str, after: Game) -> str:
    """The end of the deal the move (text) made in ``before`` scored,
    reaching ``after``, as JSON (:func:`backalley.render.facts.deal_end`:
    ``deal``, ``last_trick``, ``made``), or ``null`` when it scored none."""
    if not isinstance(before, ba.GameState) or not isinstance(after, ba.GameState):
        raise ba.SetupError("the end of a deal is read from two states, not from views")
    return json.dumps(_deal_end(before, ba.parse_move(text), after))


@_answers
def record(game: Game, options: str = "{}") -> str:
    """The ``backalley/record`` of the game so far (JSON text; ``backalley
    check`` replays it); ``options`` is a JSON object with ``players`` (one
    name per seat) and ``metadata`` (text by text)."""
    if isinstance(game, ba.PlayerView):
        raise ba.SetupError("a view has no record: only the full game's state has one")
    try:
        given = json.loads(options)
    except ValueError as exc:
        raise ba.SetupError(f"the options are not JSON: {exc}") from None
    if not isinstance(given, dict) or set(given) - {"players", "metadata"}:
        raise ba.SetupError("the options are an object: {players, metadata}")
    made = ba.GameRecord.from_state(
        game, players=given.get("players"), metadata=given.get("metadata")
    )
    return ba.to_json(made, indent=2)


# -- bots ----------------------------------------------------------------------------


@_answers
def make_bot_named(name: str, seed: object = None) -> Bot:
    """A registered bot (:func:`~backalley.bots.make_bot`), reproducible from
    ``seed`` (any text or number; none: a fresh one)."""
    return make_bot(name, seed)


@_answers
def bot_move(bot: Bot, game: Game, seat: object = None) -> str:
    """The move ``bot`` chooses for ``seat`` (the seat to act by default),
    seeing only that seat's view."""
    seen = _seen_by(game, seat)
    if not seen.legal_moves():
        raise ba.SetupError(f"seat {seen.seat} has no move to make now")
    return str(bot.choose(seen))
