"""A person at the table: shows what the seat may know and reads a move.

The seat sees its hand sorted by suit, the trick so far, the calls and
contracts, and the score; it types a move (``QS``, ``Q♠``, ``10h``,
``bid 3``, ``pass``, ``board``, ``counter``, ``trump H``), ``?`` for the
legal moves, or ``hint`` for the heuristic bot's choice.  A move the rules
refuse is refused with their reason and asked for again.  Input that is not a
terminal is read a bounded line at a time: a line longer than
:data:`MAX_LINE` characters ends the input, like its end.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from backalley import Move, Phase, PlayerView, parse_move
from backalley.bots import bot_names, make_bot
from backalley.cli.common import is_terminal
from backalley.cli.text import Table, normalize_input
from backalley.errors import IllegalMoveError, NotationError

__all__ = ["EndOfInput", "HumanPlayer"]

HELP = (
    "Type a card (QS, Q\u2660, 10h), a call (bid 3, pass, board, counter, trump H), "
    "'?' for your legal moves, 'hint' for a suggestion, 'quit' to stop."
)


MAX_LINE = 4096
"""The longest line a person's input may have, in characters (a move is a few)."""


class EndOfInput(Exception):
    """The player closed the input (end of file, Ctrl-C or ``quit``)."""


class HumanPlayer:
    """Asks a person for the moves of one seat, through ``read`` and ``write``."""

    def __init__(
        self,
        table: Table,
        read: Callable[[str], str | None],
        write: Callable[[str], None],
        *,
        seed: object = None,
    ) -> None:
        self.table = table
        self.read = read
        self.write = write
        self.seed = seed

    def show(self, view: PlayerView) -> None:
        """What the seat may know now."""
        t = self.table
        me = t.seat(view.seat)
        self.write("")
        self.write(f"  {me}, your hand: {t.hand(view.hand, view.trump)}")
        trump = t.suit(view.trump) if view.phase is not Phase.NAMING_TRUMP else "not named yet"
        if view.turn_up is not None:
            trump = f"{trump} (turn-up {t.card(view.turn_up)})"
        self.write(f"  Trump: {trump}")
        calls = [f"{t.seat(s)} {t.move(c)}" for s, c in enumerate(view.bids) if c is not None]
        if view.phase is Phase.BIDDING:
            self.write("  Bids so far: " + (", ".join(calls) if calls else "none"))
        else:
            contracts = view.contracts or ()
            parts = [f"{t.side(s)} {t.contract(c)}" for s, c in enumerate(contracts)]
            self.write("  Contracts: " + ", ".join(parts))
            won = [f"{t.side(s)} {n}" for s, n in enumerate(self._side_tricks(view))]
            self.write("  Tricks: " + ", ".join(won))
        if view.phase is Phase.PLAYING:
            trick = ", ".join(f"{t.seat(s)} {t.card(c)}" for s, c in view.trick)
            self.write("  Trick so far: " + (trick or "you lead"))
        self.write(f"  Score: {t.scores(view.scores)}")

    def _side_tricks(self, view: PlayerView) -> list[int]:
        won = view.tricks_won
        return [sum(won[s] for s in team) for team in self.table.teams]

    def choose(self, view: PlayerView) -> Move:
        """The seat's move, asked for until the rules accept it."""
        t = self.table
        self.show(view)
        prompt = f"{t.seat(view.seat)}> "
        while True:
            text = self.read(prompt)
            if text is None:
                raise EndOfInput
            text = normalize_input(text).strip()
            word = text.lower()
            if not word:
                continue
            if word in ("quit", "exit"):
                raise EndOfInput
            if word in ("?", "moves", "legal"):
                self.write("  Legal: " + ", ".join(t.move(m) for m in view.legal_moves()))
                continue
            if word in ("help", "h"):
                self.write("  " + HELP)
                continue
            if word in ("show", "hand"):
                self.show(view)
                continue
            if word == "hint":
                self.write("  " + self.hint(view))
                continue
            try:
                move = parse_move(text)
                view.check(move)
            except NotationError as exc:
                self.write(f"  Not a move: {exc}. Type '?' for your legal moves.")
                continue
            except IllegalMoveError as exc:
                self.write(f"  Refused: {exc}")
                continue
            return move

    def hint(self, view: PlayerView) -> str:
        """What the heuristic bot would play here."""
        if "heuristic" not in bot_names():
            return "No hint: the heuristic bot is not available."
        bot = make_bot("heuristic", seed=self.seed)
        return f"The heuristic bot would play: {self.table.move(bot.choose(view))}"


def line_reader(stream: TextIO, out: TextIO) -> Callable[[str], str | None]:
    """Reads a line from ``stream`` after writing the prompt to ``out``
    (``None`` at the end of input; Ctrl-C raises ``KeyboardInterrupt``).

    From a stream that is not a terminal a line is read bounded (see
    :func:`read_line`): a line longer than :data:`MAX_LINE` characters, or
    bytes that are not text in the stream's encoding, end the input (said
    on ``out``), so ``< /dev/zero`` stops the game instead of filling memory."""

    if stream is sys.stdin and is_terminal(stream) and is_terminal(out):

        def read_terminal(prompt: str) -> str | None:
            try:
                return input(prompt)
            except EOFError:
                out.write("\n")
                return None
            except UnicodeDecodeError:  # asked again: the empty line is skipped
                out.write("  That was not text in the terminal's encoding.\n")
                return ""

        return read_terminal

    def read(prompt: str) -> str | None:
        out.write(prompt)
        out.flush()
        try:
            line = read_line(stream)
        except UnicodeDecodeError:
            _input_ends(out, "The input is not text")
            return None
        if line is None:
            out.write("\n")
            return None
        if len(line) > MAX_LINE:
            _input_ends(out, f"A line of more than {MAX_LINE} characters")
            return None
        return line

    return read


def _input_ends(out: TextIO, why: str) -> None:
    """Say on ``out`` why the input ends here."""
    out.write(f"\n  {why}: the input ends here.\n")


def read_line(stream: TextIO) -> str | None:
    """The next line of ``stream`` without its line end (``None`` at the end
    of input), reading at most :data:`MAX_LINE` ``+ 1`` characters: a line
    longer than ``MAX_LINE`` comes back as its first ``MAX_LINE + 1``
    characters (so longer than ``MAX_LINE``), the rest left unread."""
    line = stream.readline(MAX_LINE + 1)
    if not line:
        return None
    return line[:-1] if line.endswith("\n") else line
