"""A bot that is a program of its own, in any language, speaking the bot
protocol (JSON lines on its standard input and output; see
:mod:`backalley.io.bot_protocol` and the protocol page of the docs).

:class:`ExternalBot` runs the program (its command split as a shell would,
never run through a shell), says hello, tells it each game, and for every
decision sends the seat's view document and takes the move it answers -
checked by the rules like any move.  What the program does wrong has a
bounded outcome, and the game goes on:

- a move that is not legal is refused with its reason and sentence, and the
  program answers the turn again; after ``max_refusals`` refusals the
  heuristic makes the move;
- no answer in the decision's time, a line that is not a move message, or
  a late answer: the heuristic makes the move;
- after ``max_failures`` such decisions in a row, the heuristic plays the
  seat for the rest of the game and the program is stopped;
- a program that cannot start, never answers the handshake, exits, or
  writes a line longer than ``max_line`` bytes is stopped at once and the
  heuristic plays the seat for the rest of the game.

Each of these is noted (:attr:`ExternalBot.notes`);
:func:`~backalley.bots.bot_notes` puts
the notes in a game record's metadata.  Nothing waits without a time limit,
and the program sees only its seat's view.

One job: one program as one bot (its process is
:mod:`backalley.bots.program_process`).
"""

from __future__ import annotations

import shlex
import time
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from backalley.bots.heuristic import HeuristicBot
from backalley.bots.program_process import BotProcess, ProgramGone, stop_process
from backalley.engine.views import PlayerView
from backalley.errors import IllegalMoveError, SerializationError, SetupError
from backalley.io.bot_protocol import (
    deal_end_message,
    error_message,
    game_end_message,
    game_message,
    hello_message,
    read_bot_message,
    refused_message,
    turn_message,
)
from backalley.io.protocol_shapes import BotHelloShape, MoveShape
from backalley.moves import Move

__all__ = ["ExternalBot", "ExternalProgram"]


def _command(value: str | Sequence[str]) -> tuple[str, ...]:
    """A command as its words: text is split as a POSIX shell splits it."""
    if isinstance(value, str):
        try:
            words = shlex.split(value)
        except ValueError as exc:
            raise SetupError(f"cannot split the bot command {value!r}: {exc}") from None
    else:
        words = list(value)
    if not words or not all(isinstance(w, str) and w for w in words):
        raise SetupError(f"a bot command is a program and its arguments, not {value!r}")
    return tuple(words)


def _seconds(name: str, low: float = 0.001) -> Any:
    def check(_instance: Any, _attribute: Any, value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float) or not value >= low:
            raise SetupError(f"{name} is a number of seconds, at least {low}, not {value!r}")

    return check


def _count(name: str, low: int) -> Any:
    def check(_instance: Any, _attribute: Any, value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise SetupError(f"{name} is a whole number, at least {low}, not {value!r}")

    return check


def _options(
    value: Mapping[str, Any] | tuple[tuple[str, Any], ...] | None,
) -> tuple[tuple[str, Any], ...]:
    """Options as pairs: from a table, or pairs already (as ``attrs.evolve`` gives them)."""
    if value is None:
        return ()
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, tuple) and all(isinstance(p, tuple) and len(p) == 2 for p in value):
        pairs = list(value)
    else:
        raise SetupError(f"a bot's options are a table of names and values, not {value!r}")
    out = []
    for key, item in pairs:
        if not isinstance(key, str) or not isinstance(item, bool | int | float | str | None):
            raise SetupError(
                f"a bot option is a name and a flag, number, text or None, not {key!r}={item!r}"
            )
        out.append((key, item))
    return tuple(out)


@attrs.frozen
class ExternalProgram:
    """A bot program and how it is run: a bot factory (called with a seed it
    makes an :class:`ExternalBot`), so that :func:`~backalley.bots.register_bot`
    can give it a name.  A plain value: it travels to worker processes.

    ``command`` is the program and its arguments (text is split as a shell
    would split it); ``options`` are given to the program in the ``game``
    message; ``move_time`` is the seconds a decision may take and
    ``game_time`` the seconds of the whole game (``None``: no limit but each
    decision's); ``handshake_time`` the seconds the program has to answer
    ``hello`` and ``game``; ``max_refusals`` the illegal moves it may try in
    one decision; ``max_failures`` the failed decisions in a row before the
    heuristic takes the seat over; ``max_line`` the longest line, in bytes,
    it may write; ``stderr`` a file the program's standard error is appended
    to (``None``: discarded); ``cwd`` the folder it runs in."""

    command: tuple[str, ...] = attrs.field(converter=_command)
    options: tuple[tuple[str, Any], ...] = attrs.field(default=None, converter=_options)
    move_time: float = attrs.field(default=5.0, validator=_seconds("move_time"))
    game_time: float | None = attrs.field(
        default=None, validator=attrs.validators.optional(_seconds("game_time"))
    )
    handshake_time: float = attrs.field(default=10.0, validator=_seconds("handshake_time"))
    max_refusals: int = attrs.field(default=3, validator=_count("max_refusals", 1))
    max_failures: int = attrs.field(default=3, validator=_count("max_failures", 1))
    max_line: int = attrs.field(default=1 << 20, validator=_count("max_line", 1024))
    stderr: str | None = None
    cwd: str | None = None

    def __call__(self, seed: object = None) -> ExternalBot:
        return ExternalBot(self, seed=seed)


class ExternalBot:
    """A bot program speaking the bot protocol (see the module docstring).

    ``program`` is an :class:`ExternalProgram`, or a command (text, split
    as a shell would, or a list of words) with the program's settings as
    keywords (``move_time``, ``options``, ...).  ``seed`` seeds the
    heuristic that stands in for the program.  The program starts at the
    first decision; :meth:`game_over` tells it the game ended and
    :meth:`close` stops it (also when the bot is garbage-collected, and on
    leaving a ``with`` block)."""

    def __init__(
        self,
        program: ExternalProgram | str | Sequence[str],
        *,
        seed: object = None,
        **settings: Any,
    ) -> None:
        if not isinstance(program, ExternalProgram):
            program = ExternalProgram(program, **settings)
        elif settings:
            program = attrs.evolve(program, **settings)
        self.program = program
        self.notes: list[str] = []
        """What went wrong, in order (empty when nothing did)."""
        self.name: str | None = None
        """The name the program gave in its hello (``None`` before it)."""
        self.author: str | None = None
        self.program_options: dict[str, Any] = {}
        """The options the program said it takes, with their defaults."""
        self._seed = seed
        self._fallback = HeuristicBot(seed)
        self._process: BotProcess | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._replaced = False
        self._in_game = False
        self._seat = -1
        self._deals_told = 0
        self._turn = 0
        self._failures = 0
        self._game_left: float | None = program.game_time

    # ----------------------------------------------------------- the bot

    @property
    def replaced(self) -> bool:
        """Whether the heuristic plays the seat for the rest of this game."""
        return self._replaced

    def choose(self, view: PlayerView) -> Move:
        """The program's move for ``view`` (the heuristic's, where the program fails)."""
        if self._in_game and view.deals_played < self._deals_told:
            self._end_game()  # a new game without game_over: the last one is over
        if self._in_game and view.seat != self._seat:
            raise SetupError(
                f"this bot plays seat {self._seat} in this game, not seat {view.seat}: "
                "give each seat a bot of its own"
            )
        if self._replaced:
            return self._fallback.choose(view)
        try:
            if not self._in_game:
                self._begin(view)
            self._tell_deals(view)
            move = self._decide(view)
        except ProgramGone as exc:
            self._replace(f"turn {self._turn}: {exc}")
            move = None
        self._turn += 1
        return self._fallback.choose(view) if move is None else move

    def game_over(self, view: PlayerView) -> None:
        """Tell the program the game is over (the deals it has not heard of,
        the final scores and the winner); the next decision begins a new game."""
        if self._in_game and not self._replaced and self._process is not None:
            try:
                self._tell_deals(view)
                self._process.send(game_end_message(view.scores, view.winner))
            except ProgramGone as exc:
                self._replace(f"game end: {exc}")
        self._end_game()

    def close(self) -> None:
        """Stop the program (``quit``, then killed after a second)."""
        process, self._process = self._process, None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if process is not None:
            process.stop(grace=1.0)

    def with_budget(self, budget: float) -> ExternalBot:
        """This bot with a decision of at most ``budget`` seconds (and its
        program at most that, or two seconds, to say hello), as a server
        bounds its bots' decisions; a fresh bot, its program not started."""
        move_time = min(self.program.move_time, budget)
        handshake = min(self.program.handshake_time, max(budget, 2.0))
        program = attrs.evolve(self.program, move_time=move_time, handshake_time=handshake)
        return ExternalBot(program, seed=self._seed)

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ExternalBot({shlex.join(self.program.command)!r})"

    # ------------------------------------------------------- the protocol

    def _end_game(self) -> None:
        self._in_game = False
        self._deals_told = 0
        self._turn = 0
        self._failures = 0
        self._game_left = self.program.game_time
        self._replaced = False  # the next game starts the program again

    def _started(self) -> BotProcess:
        if self._process is not None:
            return self._process
        process = BotProcess(
            self.program.command,
            max_line=self.program.max_line,
            stderr=self.program.stderr,
            cwd=self.program.cwd,
        )
        self._process = process
        self._finalizer = weakref.finalize(self, stop_process, process.popen, 0.0)
        process.send(hello_message())
        hello = self._answer(process, "hello", self.program.handshake_time)
        assert isinstance(hello, BotHelloShape)
        self.name, self.author = hello.name, hello.author
        self.program_options = dict(hello.options)
        return process

    def _begin(self, view: PlayerView) -> None:
        process = self._started()
        options = {**self.program_options, **dict(self.program.options)}
        game_ms = None if self._game_left is None else max(1, round(self._game_left * 1000))
        process.send(
            game_message(
                view.seat, view.rules, options, max(1, round(self.program.move_time * 1000)),
                game_ms,
            )
        )  # fmt: skip
        self._answer(process, "ready", self.program.handshake_time)
        self._in_game = True
        self._seat = view.seat
        self._deals_told = len(view.deal_results)

    def _answer(self, process: BotProcess, expected: str, seconds: float) -> object:
        """The program's ``expected`` answer within ``seconds``; any other is fatal."""
        line = process.receive(seconds)
        if line is None:
            raise ProgramGone(f"no {expected!r} answer within {seconds:g} s")
        try:
            return read_bot_message(line, expected)
        except SerializationError as exc:
            process.send(error_message(None, str(exc)))
            raise ProgramGone(f"its {expected!r} answer was refused: {exc}") from None

    def _tell_deals(self, view: PlayerView) -> None:
        assert self._process is not None
        for result in view.deal_results[self._deals_told :]:
            self._process.send(deal_end_message(result, view.scores))
        self._deals_told = len(view.deal_results)

    def _decide(self, view: PlayerView) -> Move | None:
        """The program's legal move, or ``None`` when it failed this decision."""
        process = self._process
        assert process is not None
        turn = self._turn
        allowed = self.program.move_time
        if self._game_left is not None:
            allowed = min(allowed, self._game_left)
        began = time.monotonic()
        deadline = began + allowed
        process.drain()
        process.send(turn_message(turn, view, max(0, round(allowed * 1000))))
        refusals = 0
        failure = ""
        while not failure:
            line = process.receive(deadline - time.monotonic())
            if line is None:
                failure = f"no move within {allowed:g} s"
                break
            try:
                message = read_bot_message(line, "move")
            except SerializationError as exc:
                process.send(error_message(turn, str(exc)))
                failure = f"an answer that is not a move message ({exc})"
                break
            assert isinstance(message, MoveShape)
            if message.id is not None and message.id != turn:
                continue  # the answer to an earlier turn, come too late
            try:
                view.check(message.move)
            except IllegalMoveError as exc:
                refusals += 1
                left = self.program.max_refusals - refusals
                process.send(refused_message(turn, message.move, exc.reason.name, str(exc), left))
                if left <= 0:
                    failure = f"{refusals} illegal moves (the last {message.move}: {exc})"
                continue
            self._spent(began)
            self._failures = 0
            return message.move
        self._spent(began)
        self._fail(f"turn {turn}: {failure}; the heuristic moved")
        return None

    def _spent(self, began: float) -> None:
        if self._game_left is not None:
            self._game_left = max(0.0, self._game_left - (time.monotonic() - began))

    def _fail(self, note: str) -> None:
        self.notes.append(note)
        self._failures += 1
        if self._failures >= self.program.max_failures:
            self._replace(
                f"{self._failures} failed decisions in a row: "
                "the heuristic plays the seat for the rest of the game"
            )

    def _replace(self, note: str) -> None:
        if not note.endswith("the rest of the game"):
            note += "; the heuristic plays the seat for the rest of the game"
        self.notes.append(note)
        self._replaced = True
        self.close()
