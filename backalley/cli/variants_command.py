"""``backalley variants``: the registered variants, each with what it is
(the description it was registered with, :func:`backalley.variants.description`)."""

from __future__ import annotations

import argparse
from typing import TextIO

from backalley import variants
from backalley.cli.arguments import EXIT_OK

__all__ = ["add_parser", "describe", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    names = sub.add_parser(
        "variants",
        help="list the registered variants, each with what it changes",
        description="List the registered variants (use a name with --variant or rules).",
    )
    names.set_defaults(run=run)


def describe(name: str) -> str:
    """A variant's one-paragraph description (empty for one registered without)."""
    return variants.description(name)


def run(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    names = variants.names()
    width = max(len(n) for n in names)
    for name in names:
        print(f"{name:<{width}}  {describe(name)}".rstrip(), file=out)
    return EXIT_OK
