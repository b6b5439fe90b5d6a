"""What every command reads its arguments with: a rule set, seats, players,
output files and counts; the usage error and the exit statuses; and whether
the output is a terminal (and the optional ``rich`` library for it).

Exit statuses, the same for every command: 0 done; 1 an illegal move (or
results the moves do not produce) in a checked record; 2 bad usage or
unreadable input.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path
from typing import Any, TextIO

from backalley import RuleSet, parse_seat, variants
from backalley.bots import ExternalProgram, bot_factory, bot_names, make_bot, register_bot
from backalley.errors import BackAlleyError, UnknownVariantError
from backalley.io.serialize.common import known_once_imported

__all__ = [
    "EXIT_ILLEGAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "UsageError",
    "default_bot",
    "external_bot",
    "is_terminal",
    "load_rules",
    "player_names",
    "register_external",
    "rich_console",
    "seat_option",
    "utf8",
    "writable_path",
]

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
"""Ctrl-C: the conventional status of a command stopped by an interrupt."""


class UsageError(BackAlleyError):
    """A command line that cannot be run as given (exit status 2)."""


def load_rules(spec: str) -> RuleSet:
    """A rule set from a variant name, or from a house-rules file (``.toml``/``.json``)."""
    path = Path(spec)
    if spec.endswith((".toml", ".json")) or path.is_file():
        from backalley.io.houserules import load

        return load(path)
    try:
        return variants.get(spec)
    except UnknownVariantError as exc:
        raise UsageError(f"{exc} {known_once_imported('variant')}") from None


def seat_option(rules: RuleSet, text: str, option: str) -> int:
    """The seat a command-line option names: ``north``/``n`` .. ``west``/``w``
    (or ``seat 1`` .. in a game of numbered seats), or the library's number
    0 .. n-1 (see :func:`backalley.parse_seat`); a :class:`UsageError` naming
    the option otherwise."""
    try:
        return parse_seat(rules, text)
    except BackAlleyError as exc:
        raise UsageError(f"{option}: {exc}") from None


def default_bot() -> str:
    """The strongest bot that decides fast: ``heuristic`` where it exists, else ``random``."""
    return "heuristic" if "heuristic" in bot_names() else "random"


def player_names(
    spec: str | None,
    players: int,
    *,
    option: str = "--players",
    teams: tuple[tuple[int, ...], ...] = (),
) -> list[str]:
    """One bot name per seat from ``A,B,C,D``: one name alone fills every
    seat, and where the seats play in sides (``teams``, each a side's seats,
    of at least two), one name per side fills that side's seats (``A,B``).

    Unknown names are refused here, before anything is played.
    """
    names = [n.strip() for n in spec.split(",")] if spec else [default_bot()]
    by_side = len(teams) > 1 and len(teams) < players
    if len(names) == 1:
        names = names * players
    elif by_side and len(names) == len(teams):
        per_seat = [""] * players
        for name, seats in zip(names, teams):
            for seat in seats:
                per_seat[seat] = name
        names = per_seat
    if len(names) != players:
        sides = f", {len(teams)} (one per side)" if by_side else ""
        raise UsageError(
            f"{option} needs one name{sides} or {players} names (one per seat), "
            f"got {len(names)}"
        )
    for name in dict.fromkeys(names):
        try:
            make_bot(name, seed=0)
        except BackAlleyError as exc:
            unknown = name.strip().lower() not in bot_names()  # as make_bot reads a name
            hint = f" {known_once_imported('bot')}" if unknown and name.strip() else ""
            raise UsageError(f"{option}: {exc}{hint}") from None
    return names


def external_bot(spec: str) -> tuple[str, ExternalProgram]:
    """``NAME=COMMAND`` (``--external``): a bot called NAME that runs COMMAND,
    split as a shell would split it (never run through a shell).  The program
    must exist (a path, or a name found on ``PATH``); NAME must be new."""
    name, sep, command = spec.partition("=")
    name = name.strip()
    if not sep or not name or not command.strip():
        raise UsageError(f"--external expects NAME=COMMAND, not {spec!r}")
    if name.lower() in bot_names() and not isinstance(bot_factory(name), ExternalProgram):
        raise UsageError(f"--external {name}: a bot named {name.lower()!r} exists already")
    try:
        program = ExternalProgram(command)
    except BackAlleyError as exc:
        raise UsageError(f"--external {name}: {exc}") from None
    first = program.command[0]
    found = os.access(first, os.X_OK) if os.sep in first else shutil.which(first) is not None
    if not found:
        raise UsageError(f"--external {name}: no program {first!r} to run")
    return name, program


def register_external(specs: list[str]) -> None:
    """Register the bot of each ``--external NAME=COMMAND``."""
    for spec in specs:
        name, program = external_bot(spec)
        register_bot(name, program, replace=True)  # another --external's, run before


def writable_path(text: str, option: str) -> Path:
    """``text`` as a file the command may write, checked before any work is done."""
    path = Path(text)
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise UsageError(f"{option} {text}: is a directory, not a file")
    if not parent.is_dir():
        raise UsageError(f"{option} {text}: there is no directory {parent}")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"{option} {text}: not writable")
    return path


def is_terminal(out: TextIO) -> bool:
    """Whether ``out`` is an interactive terminal (progress bars only there)."""
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False


def rich_console(out: TextIO) -> Any | None:
    """A ``rich`` console writing to ``out`` when ``rich`` is installed and
    ``out`` is a terminal; ``None`` otherwise (plain text is written then)."""
    if not is_terminal(out):
        return None
    try:
        from rich.console import Console
    except ImportError:
        return None
    return Console(file=out)


def utf8(out: TextIO) -> bool:
    """Whether ``out`` can show the suit symbols."""
    encoding = getattr(out, "encoding", None) or sys.getdefaultencoding()
    return "utf" in encoding.lower().replace("-", "")


def positive_count(text: str) -> int:
    """A whole number of at least 1 (an argparse ``type``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: give at least 1")
    return value
