"""``backalley show``: a position of a game record, as a picture or a text table.

:func:`position_of_record` finds the position; :func:`record_picture` draws
it as the SVG (:func:`backalley.render.svg.board`) or the text diagram
(:func:`backalley.render.diagram.diagram`), the seats named by the rules with
the record's players beside them and the legal cards of the seat to act
marked; :func:`show_record` and :func:`show_file` (a record file, JSON, as
``backalley play --record`` writes it) write it out: the command.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from backalley.engine.state import GameState
from backalley.engine.views import PlayerView
from backalley.errors import SetupError
from backalley.io.record import GameRecord, replay
from backalley.io.serialize.record_file import read_record_file
from backalley.render.diagram import diagram
from backalley.render.svg import board

__all__ = ["position_of_record", "record_picture", "show_file", "show_record"]


def _count(value: int | None, what: str, least: int) -> None:
    if value is not None and (
        isinstance(value, bool) or not isinstance(value, int) or value < least
    ):
        raise SetupError(f"{what} is a whole number from {least}, not {value!r}")


def position_of_record(
    record: GameRecord, deal: int | None = None, move: int | None = None
) -> GameState:
    """A position of the recorded game.

    Deals and moves count from 1, and ``K`` moves in is the position after
    moves 1 to ``K``, just before move ``K + 1``:

    - neither: the last position (after every move of the record);
    - ``move=K``: the position after the record's first ``K`` moves (calls,
      trump namings and cards alike; 0: the new game);
    - ``deal=N``: the start of deal ``N`` (1 is the first deal; a thrown-in
      deal does not count, so this is its first dealing);
    - both: the position ``K`` moves into deal ``N`` (after its first ``K``
      moves; its last move starts the next deal, so ``K`` stops one short).

    Raises :class:`~backalley.SetupError` when the record does not reach the
    position, and :class:`~backalley.ReplayError` for an illegal move on the way.
    """
    _count(deal, "deal", 1)
    _count(move, "move", 0)
    states = replay(record)
    state = next(states)
    if deal is not None:
        while state.deals_played < deal - 1 and not state.is_over:
            following = next(states, None)
            if following is None:
                break
            state = following
        if state.deals_played != deal - 1 or state.is_over:
            played = state.deals_played + (0 if state.is_over else 1)
            raise SetupError(f"the record does not reach deal {deal}; it has {played} deal(s)")
    if move is None:
        if deal is not None:
            return state
        for state in states:  # noqa: B007 - the last one is wanted
            pass
        return state
    for done in range(move):
        following = next(states, None)
        if following is None:
            where = "the record has" if deal is None else f"the record ends after deal {deal}'s"
            raise SetupError(f"{where} {done} move(s), not {move}")
        if deal is not None and following.deals_played != deal - 1:
            raise SetupError(
                f"deal {deal} has {done + 1} moves and its last one ends it: "
                f"give 0 to {done} moves into it, not {move}"
            )
        state = following
    return state


def record_picture(
    record: GameRecord,
    *,
    deal: int | None = None,
    move: int | None = None,
    seat: int | None = None,
    text: bool = False,
    legal: bool = True,
) -> str:
    """The picture (SVG) of a position of ``record`` (see
    :func:`position_of_record`), or with ``text`` its text diagram (ending in a
    new line).  With ``seat`` (the library's seat number), as that seat sees
    it.  The seats are named by the rules, the record's players beside them
    (``North (heuristic)``); with ``legal`` (the default) the legal cards of
    the seat to act are marked (in a view of another seat, none are)."""
    state = position_of_record(record, deal=deal, move=move)
    position: GameState | PlayerView = state if seat is None else state.view(seat)
    if text:
        return diagram(position, players=record.players, legal=legal) + "\n"
    return board(position, players=record.players, legal=legal)


def show_record(
    record: GameRecord,
    out: TextIO,
    *,
    deal: int | None = None,
    move: int | None = None,
    seat: int | None = None,
    text: bool = False,
    legal: bool = True,
    output: str | None = None,
) -> int:
    """Draw a position of ``record`` (:func:`record_picture`) to ``output`` (a
    file name; ``-`` or ``None`` is ``out``); returns the exit status, 0."""
    picture = record_picture(record, deal=deal, move=move, seat=seat, text=text, legal=legal)
    if output is None or output == "-":
        out.write(picture)
        return 0
    Path(output).write_text(picture, encoding="utf-8")
    print(f"{'Diagram' if text else 'Picture'} written to {output}", file=out)
    return 0


def show_file(
    path: Path,
    out: TextIO,
    *,
    deal: int | None = None,
    move: int | None = None,
    seat: int | None = None,
    text: bool = False,
    legal: bool = True,
    output: str | None = None,
) -> int:
    """Draw a position of the record in ``path`` (see :func:`show_record`).

    The record is read bounded (see
    :func:`~backalley.io.serialize.record_file.read_record_file`): a file that
    cannot be read, is too large or is not a record raises
    :class:`~backalley.SerializationError` naming the file."""
    record = read_record_file(path)
    return show_record(
        record, out, deal=deal, move=move, seat=seat, text=text, legal=legal, output=output
    )
