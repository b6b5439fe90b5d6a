"""Game records as text people read (the record notation, files ``.bar``),
after the idea of PBN for bridge: tag pairs, then each deal's hands, calls
and tricks, many games to a file.

A game is its tags, one a line, ``[Name value]`` with a JSON value::

    [Variant "gamerules"]
    [Seed "9787"]
    [Dealer "South"]
    [North "Ann"]
    [East "Bob"]
    [South "Cy"]
    [West "Di"]
    [Result "N-S 160, E-W 240"]
    [date "2026-12-07"]

then its deals::

    deal 1  dealer South  cards 13  turn-up 9C  trump C
      North  2C 4C 5D 8D 3H 6H 9H QH 2S 4S 7S KS AS
      ...
      calls  West bid 1  North bid 4  East bid 3  South bid 2
      trick 1  West leads 6H  North 2H  East 4H  South AH  South wins
      ...
      result  tricks N-S 10 E-W 3  points N-S 26 E-W -30

The tags: ``Variant`` (a registered variant's name) or ``Rules`` (a rule set
of its own, its JSON document on one line); ``Seed``; one ``Deck`` per deck
order the record gives (its cards in order); ``Dealer`` (the first dealer);
each seat's player under the seat's label (``North``, ``Seat1``); ``Result``,
the scores after the recorded deal results, when the record has results;
and the record's metadata, each key whose name starts with a small letter
as a tag of that name (``[date "..."]``), any other as ``[Meta ["key", "value"]]``.

The moves are the record: the calls (bids, passes, counters, a named trump)
and the plays of each deal, each after the label of its seat.  Everything
else (the deal's heading, the hands as dealt, who leads, who wins a trick,
a deal's result, the game's ``Result``) is what the replay gives, written
for people to read; a reader may leave it out, and what it writes is
compared with the replay.  A deal's ``result`` line stands for the record's
result of that deal: the record's results are those of the deals that have
one.  A line whose first character (after spaces) is ``%`` is a comment.
A game starts with a tag after a deal (or at the top): games are separated
as PBN separates them, by a new tag section.

Reading replays the game (:func:`backalley.replay`); a word that cannot be
read, a card not held, a trick that is not one or a forged result is refused
with a :class:`RecordNotationError` giving the line and column of the word.

:func:`load_record` and :func:`save_record` choose JSON or this text by the
file's suffix (``.bar`` text, else JSON).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from backalley import variants
from backalley.errors import SerializationError
from backalley.io.notation_lines import (
    DealPlayed,
    RecordNotationError,
    deal_heading,
    deals_of,
    hand_words,
    is_metadata_tag,
    result_words,
    scores_after,
    scores_text,
    seat_labels,
)
from backalley.io.notation_read import records_from_text
from backalley.io.record import GameRecord
from backalley.io.serialize import common
from backalley.io.serialize.common import read_at_most
from backalley.io.serialize.convert import from_json, to_json
from backalley.io.serialize.rules_doc import rules_to_data
from backalley.rules.ruleset import RuleSet

__all__ = [
    "TEXT_SUFFIX",
    "RecordNotationError",
    "load_record",
    "load_records",
    "record_file_text",
    "record_from_text",
    "record_to_text",
    "records_from_text",
    "records_to_text",
    "save_record",
    "write_whole",
]

TEXT_SUFFIX = ".bar"
"""The suffix of a record file in the notation (any other is JSON)."""


def record_to_text(record: GameRecord, *, rules_document: bool = False) -> str:
    """The record in the notation (see the module's docstring), ending with a
    line end.  The record is replayed to write it: one that does not replay
    raises :class:`~backalley.ReplayError`.

    A registered variant, as registered, is written by its name
    (``[Variant "gamerules"]``), which a reader finds in its own registry;
    with ``rules_document`` the rule set is written whole (``[Rules {...}]``),
    as JSON records hold it, so that the text keeps its rules whatever a
    later version registers under the name."""
    deals, _ = deals_of(record)
    lines = _tags(record, deals, rules_document)
    rules = record.rules
    labels = seat_labels(rules)
    width = max(map(len, labels))
    scored = 0
    recorded = len(record.results or ())
    numbered = list(_numbered(deals))
    for k, (number, deal) in enumerate(numbered):
        if k and numbered[k - 1][0] == number:
            lines.append("  % thrown in: dealt again")
        lines.append("")
        heading = "  ".join(f"{k} {v}" for k, v in deal_heading(rules, number, deal.start))
        lines.append(f"deal {number}  {heading}")
        for seat, label in enumerate(labels):
            lines.append(f"  {label:<{width}}  {' '.join(hand_words(deal.start, seat))}".rstrip())
        if deal.calls:
            calls = "  ".join(f"{labels[seat]} {move}" for seat, move, _ in deal.calls)
            lines.append(f"  calls  {calls}")
        for count, trick in enumerate(deal.tricks, 1):
            plays = [
                f"{labels[seat]} {'leads ' if k == 0 else ''}{card}"
                for k, (seat, card, _) in enumerate(trick.plays)
            ]
            if trick.winner is not None:
                plays.append(f"{labels[trick.winner]} wins")
            lines.append(f"  trick {count:<2}  {'  '.join(plays)}")
        if deal.result is not None:
            scored += 1
            if scored <= recorded:
                result = " ".join(result_words(rules, deal.result))
                lines.append("  " + result.replace(" ", "  ", 1).replace(" points", "  points"))
    return "\n".join(lines) + "\n"


def records_to_text(records: Iterable[GameRecord], *, rules_document: bool = False) -> str:
    """Many records in the notation, one after another, a blank line between
    (``rules_document``: see :func:`record_to_text`)."""
    return "\n".join(record_to_text(r, rules_document=rules_document) for r in records)


def record_from_text(text: str) -> GameRecord:
    """The one game record of ``text`` (see :func:`records_from_text`);
    :class:`RecordNotationError` when it holds none or more than one."""
    records = records_from_text(text)
    if len(records) != 1:
        raise RecordNotationError(f"expected one game, the text holds {len(records)}", 1, 1)
    return records[0]


def load_records(path: str | Path) -> list[GameRecord]:
    """The game records in the file at ``path``: the notation when its name
    ends ``.bar``, one JSON record when it ends ``.json``; any other file is
    JSON when its first character is ``{`` (or it is not UTF-8), else the
    notation.  :class:`~backalley.SerializationError` naming the file when it
    cannot be read (:class:`RecordNotationError` with the line and column for
    a text), as :func:`~backalley.io.serialize.record_file.read_record_file`."""
    text = Path(path).suffix == TEXT_SUFFIX
    data = read_at_most(
        path, common.MAX_DOCUMENT_SIZE, "a record's text" if text else "a JSON document"
    )
    if not text and Path(path).suffix != ".json":
        try:
            text = data.decode("utf-8-sig").lstrip()[:1] not in ("{", "\x00")
        except UnicodeDecodeError:
            text = False
    if not text:
        try:
            return [from_json(data, GameRecord)]
        except SerializationError as exc:
            raise SerializationError(f"not a game record: {exc}", str(path)) from None
    try:
        return records_from_text(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise SerializationError(f"not UTF-8 text: {exc.reason}", str(path)) from None
    except RecordNotationError as exc:
        raise RecordNotationError(exc.message, exc.line, exc.column, str(path)) from None
    except SerializationError as exc:  # a limit on the size of a game
        raise SerializationError(str(exc), str(path)) from None


def load_record(path: str | Path) -> GameRecord:
    """The one game record in the file at ``path``, JSON or the notation
    (see :func:`load_records`)."""
    records = load_records(path)
    if len(records) != 1:
        raise SerializationError(f"expected one game, the file holds {len(records)}", str(path))
    return records[0]


def record_file_text(path: str | Path, record: GameRecord) -> str:
    """What a file named ``path`` holds of ``record``: the notation when its
    name ends ``.bar``, else the JSON document."""
    if Path(path).suffix == TEXT_SUFFIX:
        return record_to_text(record)
    return to_json(record) + "\n"


def save_record(path: str | Path, record: GameRecord) -> None:
    """Write ``record`` to ``path``: the notation when its name ends ``.bar``,
    else JSON (:func:`record_file_text`), the file replaced as a whole
    (:func:`write_whole`)."""
    write_whole(Path(path), record_file_text(path, record))


def write_whole(path: Path, text: str) -> None:
    """Put ``text`` in the file ``path`` all at once: written beside it, then
    renamed over it, so that an interrupted write leaves the file as it was
    (a device or a pipe, which cannot be renamed over, is written in place).
    An ``OSError`` is the caller's."""
    target = Path(os.path.realpath(path))
    if target.exists() and not target.is_file():
        target.write_text(text, encoding="utf-8")
        return
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(name, target)
    finally:  # nothing left behind when the write or the rename fails
        Path(name).unlink(missing_ok=True)


def _numbered(deals: list[DealPlayed]) -> Iterable[tuple[int, DealPlayed]]:
    """Each deal with its number: the deals scored before it, plus one (a
    thrown-in deal and its redeal share a number)."""
    for deal in deals:
        yield deal.start.deals_played + 1, deal


def _tags(record: GameRecord, deals: list[DealPlayed], rules_document: bool) -> list[str]:
    rules = record.rules
    lines = [_rules_tag(rules, rules_document)]
    if record.seed is not None:
        lines.append(_tag("Seed", str(record.seed)))
    lines += [_tag("Deck", " ".join(deck)) for deck in record.decks]
    lines.append(_tag("Dealer", seat_labels(rules)[record.first_dealer]))
    if record.players is not None:
        lines += [_tag(label, name) for label, name in zip(seat_labels(rules), record.players)]
    if record.results is not None:
        lines.append(_tag("Result", scores_text(rules, scores_after(record, deals))))
    for key, value in record.metadata.items():
        if is_metadata_tag(key):
            lines.append(_tag(key, value))
        else:
            lines.append(f"[Meta {json.dumps([key, value], ensure_ascii=False)}]")
    return lines


def _tag(name: str, value: str) -> str:
    return f"[{name} {json.dumps(value, ensure_ascii=False)}]"


def _rules_tag(rules: RuleSet, whole: bool) -> str:
    """``[Variant "name"]`` for a registered variant as registered (unless
    ``whole``), else the rule set's document: ``[Rules {...}]``."""
    data = rules_to_data(rules)
    name = rules.name
    registered = not whole and name in variants.names()
    if registered and rules_to_data(variants.get(str(name))) == data:
        return _tag("Variant", str(name))
    return f"[Rules {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}]"
