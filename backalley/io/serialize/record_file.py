"""Game record files: reading one, bounded (:func:`read_document`,
:func:`read_record_file`), and checking it (``backalley check FILE``,
:func:`check_record_file`)."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from backalley.engine.state import GameState
from backalley.errors import SerializationError
from backalley.io.record import GameRecord, ReplayError, replay
from backalley.io.serialize import common
from backalley.io.serialize.convert import from_json

__all__ = ["check_record_file", "read_document", "read_record_file"]


def read_document(path: str | Path) -> bytes:
    """The bytes of a JSON document file, of at most
    :data:`~backalley.io.serialize.common.MAX_DOCUMENT_SIZE` bytes (never more
    is read); :class:`~backalley.SerializationError` naming the file when it
    cannot be read or is larger (see
    :func:`~backalley.io.serialize.common.read_at_most`)."""
    return common.read_at_most(path, common.MAX_DOCUMENT_SIZE, "a JSON document")


def read_record_file(path: str | Path) -> GameRecord:
    """The game record in the file at ``path`` (JSON in UTF-8, -16 or -32).

    A file that cannot be read, is too large (see :func:`read_document`) or is
    not a game record raises :class:`~backalley.SerializationError`, its
    message one line that names the file once.
    """
    data = read_document(path)
    try:
        return from_json(data, GameRecord)
    except SerializationError as exc:
        raise SerializationError(f"not a game record: {exc}", str(path)) from None


def check_record_file(path: str | Path, out: TextIO) -> int:
    """``backalley check FILE``: 0 when the record replays cleanly (to its
    recorded results, if any), 1 at the first illegal move (reported with its
    index and reason) or when the moves do not produce the recorded results.

    A file that cannot be read or is not a record raises
    :class:`~backalley.SerializationError` (see :func:`read_record_file`).
    """
    record = read_record_file(path)
    last: GameState | None = None
    try:
        for state in replay(record):
            last = state
    except ReplayError as exc:
        print(f"{path}: {_replay_failure(exc)}", file=out)
        return 1
    assert last is not None
    status = (
        "game over" if last.is_over else f"{last.phase.value}, {last.deals_played} deals scored"
    )
    print(f"{path}: OK, {len(record.moves)} moves, {status}, scores {list(last.scores)}", file=out)
    return 0


def _replay_failure(exc: ReplayError) -> str:
    """What went wrong: ``RESULTS DIFFER: ...`` or ``ILLEGAL at move K (m): REASON: why``."""
    if exc.index is None:
        return f"RESULTS DIFFER: {exc}"
    where = f"move {exc.index} ({exc.move})"
    message = str(exc)
    if message.startswith(f"{where}: "):
        message = message[len(where) + 2 :]
    return f"ILLEGAL at {where}: {exc.reason.name}: {message}"
