"""``backalley record convert IN OUT``: a game record from JSON to the
record notation (text people read, ``.bar``) or back.

The form written is chosen by ``--to text|json``, else by OUT's suffix
(``.bar`` text, ``.json`` JSON); ``-`` is standard input (IN, JSON or text,
told by its first character) or standard output (OUT, with ``--to``).  A
text file may hold many games; JSON holds one.  Whatever cannot be read, or
does not replay, is a usage error (exit status 2) on one line: the file, and
for text the line and column at fault.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from backalley.cli.arguments import EXIT_OK, UsageError, writable_path
from backalley.errors import IllegalMoveError, SerializationError

if TYPE_CHECKING:
    from backalley.io.record import GameRecord

__all__ = ["add_parser", "run"]

_FORMS = {".bar": "text", ".json": "json"}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    record = sub.add_parser(
        "record",
        help="convert a game record between JSON and text (.bar)",
        description="Game records: 'convert' writes a record as JSON or as the record "
        "notation (text people read, .bar), each read back to the same game.",
    )
    actions = record.add_subparsers(dest="action", required=True, metavar="ACTION")
    convert = actions.add_parser(
        "convert",
        help="a record from JSON to text (.bar) or back",
        description="Convert a game record: JSON to the record notation (.bar) or back. "
        "The form written is --to, else OUT's suffix (.bar text, .json JSON). "
        "'-' reads standard input or writes standard output.",
    )
    convert.add_argument("input", metavar="IN", help="the record (JSON or .bar text), or -")
    convert.add_argument("output", metavar="OUT", help="the file to write (.bar or .json), or -")
    convert.add_argument(
        "--to", choices=("text", "json"), default=None, help="the form to write (default: OUT's)"
    )
    convert.add_argument(
        "--rules-document",
        action="store_true",
        help="in text, write the rule set whole ([Rules {...}]), not a variant's name",
    )
    convert.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    from backalley.io.notation import records_to_text
    from backalley.io.serialize.convert import to_json

    form = args.to or _FORMS.get(Path(args.output).suffix if args.output != "-" else "")
    if form is None:
        raise UsageError(f"{args.output}: say which form to write with --to text or --to json")
    target = None if args.output == "-" else writable_path(args.output, "OUT")
    records = _read(args.input, inp)
    if form == "json" and len(records) != 1:
        raise UsageError(f"{args.input}: holds {len(records)} games; a JSON record holds one")
    try:
        if form == "text":
            text = records_to_text(records, rules_document=args.rules_document)
        else:
            text = to_json(records[0]) + "\n"
    except IllegalMoveError as exc:
        raise UsageError(f"{args.input}: the record does not replay: {exc}") from None
    if target is None:
        out.write(text)
    else:
        target.write_text(text, encoding="utf-8")
    return EXIT_OK


def _read(name: str, inp: TextIO) -> list[GameRecord]:
    from backalley.io.notation import load_records, records_from_text
    from backalley.io.record import GameRecord
    from backalley.io.serialize.convert import from_json

    try:
        if name != "-":
            return load_records(name)
        text = inp.read()
        if text.lstrip().startswith("{"):
            return [from_json(text, GameRecord)]
        return records_from_text(text)
    except SerializationError as exc:
        where = "" if name != "-" else "standard input: "
        raise UsageError(f"{where}{exc}") from None
