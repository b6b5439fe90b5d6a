"""``backalley check FILE``: replay a game record through the rules.

Exit status 0 when the record replays (to its recorded results, if any), 1
at the first illegal move or when the moves do not produce the recorded
results, 2 when the file cannot be read or is not a game record.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from backalley import GameRecord, GameState, ReplayError, from_json, replay
from backalley.cli.common import EXIT_ILLEGAL, EXIT_OK, UsageError
from backalley.errors import SerializationError

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    check = sub.add_parser(
        "check",
        help="replay a game record and report the first illegal move",
        description="Replay a game record (JSON) through the rules. Exit status: 0 it replays, "
        "1 an illegal move or results the moves do not produce, 2 not a readable record.",
    )
    check.add_argument("file", help="the game record (JSON), as written by play --record")
    check.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise UsageError(f"{path}: cannot read the record: {reason}") from None
    try:
        record = from_json(text, GameRecord)
    except SerializationError as exc:
        raise UsageError(f"{path}: not a game record: {exc}") from None
    last: GameState | None = None
    try:
        for state in replay(record):
            last = state
    except ReplayError as exc:
        if exc.index is None:
            print(f"{path}: RESULTS DIFFER: {exc}", file=out)
        else:
            where = f"move {exc.index} ({exc.move})"
            message = str(exc)
            if message.startswith(f"{where}: "):
                message = message[len(where) + 2 :]
            print(f"{path}: ILLEGAL at {where}: {exc.reason.name}: {message}", file=out)
        return EXIT_ILLEGAL
    assert last is not None
    status = (
        "game over" if last.is_over else f"{last.phase.value}, {last.deals_played} deals scored"
    )
    print(f"{path}: OK, {len(record.moves)} moves, {status}, scores {list(last.scores)}", file=out)
    return EXIT_OK
