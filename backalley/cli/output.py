"""Where a played game goes: the lines told, to an output whose reader may
leave (``backalley play | head``), and the record file, written whole every
time so that it is never lost.

An :class:`Output` whose reader has gone drops the rest of its lines and says
so in :attr:`Output.closed`, instead of raising: the game can still be played
to its end (or stopped) and its record written.  A :class:`RecordFile` is
replaced as a whole (a new file renamed over the old one), so that an
interrupted write leaves the previous record, never half of one.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TextIO

from backalley import GameRecord, GameState, Move
from backalley.io.notation import record_file_text, write_whole

__all__ = ["Output", "RecordFile", "silence"]


def silence(out: TextIO) -> None:
    """The reader of ``out`` has gone (``| head``): point it at the null device,
    so that writing or flushing it later raises nothing."""
    try:
        fileno = out.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fileno)
    os.close(devnull)


class Output:
    """Lines written to ``out`` (flushed at once when ``flush``, for a person
    at the table), until its reader goes away."""

    def __init__(self, out: TextIO, *, flush: bool = False) -> None:
        self.out = out
        self.flush = flush
        self.closed = False
        """Whether the reader of ``out`` has gone (the lines since were dropped)."""

    def line(self, text: str) -> None:
        """Write ``text`` and a line end (nothing once the reader has gone)."""
        self.raw(text + "\n")

    def raw(self, text: str) -> None:
        """Write ``text`` as it is (nothing once the reader has gone)."""
        if self.closed:
            return
        try:
            self.out.write(text)
            if self.flush:
                self.out.flush()
        except BrokenPipeError:
            self.close()

    def close(self) -> None:
        """The reader has gone: drop every later line."""
        self.closed = True
        silence(self.out)

    def finish(self) -> None:
        """Flush what is still held (the reader may have gone meanwhile)."""
        if self.closed:
            return
        try:
            self.out.flush()
        except BrokenPipeError:
            self.close()


class RecordFile:
    """The record of the game played from ``start`` by ``players``, kept in
    the file ``path``: JSON, or the record notation where the file's name
    ends ``.bar``."""

    def __init__(self, path: Path, start: GameState, players: Sequence[str]) -> None:
        self.path = path
        self.start = start
        self.players = tuple(players)

    def save(
        self, state: GameState, moves: Sequence[Move], notes: Mapping[str, str] | None = None
    ) -> None:
        """Write the record of ``moves`` (which took the game to ``state``),
        replacing the file as a whole; ``notes`` (what went wrong with a bot,
        :func:`~backalley.bots.bot_notes`) go in its metadata.  An ``OSError``
        is the caller's to report."""
        record = GameRecord.from_game(
            self.start,
            moves,
            final=state,
            players=self.players,
            metadata={"program": "backalley play", **(notes or {})},
        )
        write_whole(self.path, record_file_text(self.path, record))


