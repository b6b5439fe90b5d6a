"""``backalley check FILE``: replay a game record through the rules.

Exit status 0 when the record replays (to its recorded results, if any), 1
at the first illegal move or when the moves do not produce the recorded
results, 2 when the file cannot be read or is not a game record.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from backalley.cli.arguments import UsageError
from backalley.errors import SerializationError
from backalley.io.serialize.record_file import check_record_file

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
    """Check the record (see :func:`~backalley.io.serialize.record_file.check_record_file`);
    a file that cannot be read, is too large or is not a record is a usage error."""
    try:
        return check_record_file(Path(args.file), out)
    except SerializationError as exc:
        raise UsageError(str(exc)) from None
