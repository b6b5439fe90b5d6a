"""``backalley show FILE``: draw a position of a game record (SVG, or text).

The seats are named by the rules (North, East, South, West, or the rule set's
own), with the record's players beside them; the legal cards of the seat to
act are marked unless ``--no-legal``.  ``--deal N`` and ``--move K`` count from
1: ``--move K`` is the position after the first K moves (of the game, or of
deal N), 0 the position before any.  ``--seat`` takes a seat's name
(``south``, ``s``) or the library's number.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    show = sub.add_parser(
        "show",
        help="draw a position of a game record (SVG, or text)",
        description="Draw a position of a game record (JSON, as 'play --record' writes it, "
        "or the record notation, .bar): "
        "the seats with their players, bids, tricks and cards, the trick on the table and "
        "the legal cards of the seat to act. By default the position at the end of the "
        "record, as SVG; --deal and --move choose another, --seat draws what one seat sees.",
    )
    show.add_argument(
        "file", help="a game record (JSON, as 'play --record' writes it, or text: .bar)"
    )
    show.add_argument(
        "--deal", type=int, default=None, metavar="N", help="the start of deal N (from 1)"
    )
    show.add_argument(
        "--move", type=int, default=None, metavar="K",
        help="after K moves (moves count from 1; 0: before any), of the game or of --deal N",
    )  # fmt: skip
    show.add_argument(
        "--seat", default=None, metavar="SEAT",
        help="draw what this seat sees: north, east, south, west (n, e, s, w), "
        "'seat 1'.. in a game of numbered seats, or 0..n-1",
    )  # fmt: skip
    show.add_argument(
        "--no-legal", dest="legal", action="store_false",
        help="do not mark the legal cards of the seat to act",
    )  # fmt: skip
    show.add_argument("--text", action="store_true", help="a text diagram instead of SVG")
    show.add_argument(
        "--output", "-o", default=None, metavar="FILE", help="file to write (default: stdout)"
    )
    show.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    from backalley.cli.arguments import seat_option, writable_path
    from backalley.io.notation import load_record
    from backalley.render.show import show_record

    if args.output not in (None, "-"):
        writable_path(args.output, "--output")
    record = load_record(Path(args.file))
    seat = None if args.seat is None else seat_option(record.rules, args.seat, "--seat")
    return show_record(
        record, out, deal=args.deal, move=args.move, seat=seat, text=args.text,
        legal=args.legal, output=args.output,
    )  # fmt: skip
