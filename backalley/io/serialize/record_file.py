"""Game record files: reading one, bounded (:func:`read_document`,
:func:`read_record_file`), and checking it (``backalley check FILE``,
:func:`check_record_file`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TextIO

import attrs

from backalley.engine.state import GameState
from backalley.errors import SerializationError
from backalley.io.record import GameRecord, ReplayError, replay
from backalley.io.serialize import common
from backalley.io.serialize.convert import from_json
from backalley.rules.ruleset import RuleSet
from backalley.rules.seats import seat_name, side_names

__all__ = ["check_record_file", "read_document", "read_record_file", "third_person"]


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
    recorded results, if any), 1 at the first illegal move or when the moves
    do not produce the recorded results; one line on ``out`` either way.

    Seats and sides are named (North, ``N-S``; see
    :func:`~backalley.seat_name`), deals and moves counted from 1::

        game.json: OK, 90 moves, game over, scores N-S 160, E-W 240
        game.json: ILLEGAL at move 6 (deal 1, East: play 6S): NOT_IN_HAND: East does not hold 6S
        game.json: RESULTS DIFFER: deal 3: the record has tricks N-S 7, E-W 6; the moves give ...

    A file that cannot be read or is not a record raises
    :class:`~backalley.SerializationError` (see :func:`read_record_file`).
    """
    record = read_record_file(path)
    last: GameState | None = None
    try:
        for state in replay(record):
            last = state
    except ReplayError as exc:
        print(f"{path}: {_replay_failure(record, exc)}", file=out)
        return 1
    assert last is not None
    rules = last.rules
    if last.is_over:
        status = "game over"
    else:
        scored = last.deals_played
        status = f"deal {scored + 1} {last.phase.value}, {scored} deal{'s' * (scored != 1)} scored"
    moves = len(record.moves)
    print(
        f"{path}: OK, {moves} move{'s' * (moves != 1)}, {status}, "
        f"scores {_per_side(rules, last.scores)}",
        file=out,
    )
    return 0


def _replay_failure(record: GameRecord, exc: ReplayError) -> str:
    """What went wrong: ``RESULTS DIFFER: ...`` or
    ``ILLEGAL at move K (deal D, SEAT: move): REASON: why``, the refusal told
    of the seat by name."""
    state = exc.state
    if exc.index is None:
        return f"RESULTS DIFFER: {_results_difference(record, state)}"
    rules = state.rules
    if state.is_over:
        where = "after the last deal"
    else:
        where = f"deal {state.deals_played + 1}"
    seat = exc.seat if exc.seat is not None else state.to_act
    name = None if seat is None else seat_name(rules, seat)
    if name is not None:
        where += f", {name}"
    message = exc.message
    prefix = f"move {exc.index} ({exc.move}): "
    if message.startswith(prefix):
        message = message[len(prefix) :]
    if name is not None:
        message = third_person(message, name)
    return f"ILLEGAL at move {exc.index + 1} ({where}: {exc.move}): {exc.reason.name}: {message}"


def _results_difference(record: GameRecord, state: GameState) -> str:
    """Which recorded deal the moves do not reproduce, and how: its sides'
    tricks and points as recorded and as played (or the other facts that differ)."""
    recorded = record.results or ()
    played = state.deal_results
    rules = state.rules
    for number, (want, got) in enumerate(zip(recorded, played), 1):
        if want == got:
            continue
        shown = [
            (field, getattr(want, field), getattr(got, field))
            for field in ("tricks", "points")
            if getattr(want, field) != getattr(got, field)
        ]
        if shown:
            said = " and ".join(f"{f} {_per_side(rules, w)}" for f, w, _ in shown)
            given = " and ".join(f"{f} {_per_side(rules, g)}" for f, _, g in shown)
            return f"deal {number}: the record has {said}; the moves give {given}"
        fields = [
            a.name
            for a in attrs.fields(type(want))
            if getattr(want, a.name) != getattr(got, a.name)
        ]
        return f"deal {number}: the record's {', '.join(fields)} differ from what the moves give"
    return f"the record has the results of {len(recorded)} deals; its moves score {len(played)}"


def _per_side(rules: RuleSet, values: tuple[int, ...]) -> str:
    """``N-S 160, E-W 240``: one number per side, by the side's name."""
    return ", ".join(f"{side} {value}" for side, value in zip(side_names(rules), values))


_VERBS = {"are": "is", "do": "does", "have": "has", "hold": "holds", "bid": "bids"}
_YOU = re.compile(r"\b(?:you(?:rs?)?)\b(?: (\w+))?", re.IGNORECASE)


def third_person(message: str, seat: str) -> str:
    """A refusal that speaks to the player (``you do not hold 6S``) told of
    ``seat`` instead (``East does not hold 6S``): "you" becomes the seat's
    name, "your"/"yours" its possessive, and the verb after it agrees."""

    def told(match: re.Match[str]) -> str:
        word, verb = match.group(0).split(" ")[0].lower(), match.group(1)
        if word in ("your", "yours"):
            said = f"{seat}'s"
            return said if verb is None else f"{said} {verb}"
        if verb is None:
            return seat
        return f"{seat} {_VERBS.get(verb, verb)}"

    return _YOU.sub(told, message)
