"""Checking a game record file: ``backalley check FILE``."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from backalley.engine.state import GameState
from backalley.errors import SerializationError
from backalley.io.record import GameRecord, ReplayError, replay
from backalley.io.serialize.common import MAX_DOCUMENT_SIZE
from backalley.io.serialize.convert import from_json

__all__ = ["check_record_file", "read_document"]


def read_document(path: Path) -> bytes:
    """The bytes of a JSON document file (at most the largest document size);
    :class:`~backalley.SerializationError` when it cannot be read."""
    try:
        with Path(path).open("rb") as f:
            return f.read(MAX_DOCUMENT_SIZE + 1)
    except OSError as exc:
        raise SerializationError(f"cannot read {path}: {exc.strerror}", "$") from None


def check_record_file(path: Path, out: TextIO) -> int:
    """``backalley check FILE``: 0 when the record replays cleanly, 1 at the
    first illegal move (reported with its index and reason), 2 for a file
    that is not a record.

    A file that cannot be read or is not a record (not JSON, not UTF-8, -16
    or -32 text) raises :class:`~backalley.SerializationError`.
    """
    record = from_json(read_document(path), GameRecord)
    last: GameState | None = None
    try:
        for state in replay(record):
            last = state
    except ReplayError as exc:
        where = "results" if exc.index is None else f"move {exc.index} ({exc.move})"
        print(f"{path}: ILLEGAL at {where}: {exc.reason.name}: {exc}", file=out)
        return 1
    assert last is not None
    status = (
        "game over" if last.is_over else f"{last.phase.value}, {last.deals_played} deals scored"
    )
    print(f"{path}: OK, {len(record.moves)} moves, {status}, scores {list(last.scores)}", file=out)
    return 0
