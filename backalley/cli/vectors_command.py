"""``backalley vectors``: conformance vectors for other implementations."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from backalley.cli.arguments import EXIT_OK, load_rules, positive_count, writable_path

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    vectors = sub.add_parser(
        "vectors",
        help="write conformance vectors (JSON Lines)",
        description="Write conformance vectors: every position of random games with its exact "
        "legal moves and sample refusals with their reasons, as JSON Lines.",
    )
    vectors.add_argument(
        "--variant",
        default="gamerules",
        metavar="NAME|FILE",
        help="variant name or house-rules file",
    )
    vectors.add_argument(
        "--games", type=positive_count, default=10, metavar="N", help="how many games (default 10)"
    )
    vectors.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="S",
        help="seed of the first game; game k uses seed + k",
    )
    vectors.add_argument(
        "--output", "-o", default=None, metavar="FILE", help="file to write (default: stdout)"
    )
    vectors.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    from backalley.io.vectors import write_vectors

    rules = load_rules(args.variant)
    if args.output in (None, "-"):
        write_vectors(rules, games=args.games, seed=args.seed, out=sys.stdout)
        return EXIT_OK
    path = writable_path(args.output, "--output")
    with path.open("w", encoding="utf-8") as target:
        lines = write_vectors(rules, games=args.games, seed=args.seed, out=target)
    print(f"{lines} lines written to {args.output}", file=out)
    return EXIT_OK
