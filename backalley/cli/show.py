"""``backalley show FILE``: draw a position of a game record (SVG, or text)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    show = sub.add_parser("show", help="draw a position of a game record (SVG, or text)")
    show.add_argument("file", help="a game record (JSON), as 'play --record' writes it")
    show.add_argument(
        "--deal", type=int, default=None, metavar="N", help="the start of deal N (from 1)"
    )
    show.add_argument(
        "--move", type=int, default=None, metavar="K", help="K moves in (into --deal N)"
    )
    show.add_argument(
        "--seat", type=int, default=None, metavar="S", help="draw what this seat sees"
    )
    show.add_argument("--text", action="store_true", help="a text diagram instead of SVG")
    show.add_argument(
        "--output", "-o", default=None, metavar="FILE", help="file to write (default: stdout)"
    )
    show.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    from backalley.render.show import show_file

    return show_file(
        Path(args.file), out, deal=args.deal, move=args.move, seat=args.seat,
        text=args.text, output=args.output,
    )  # fmt: skip
