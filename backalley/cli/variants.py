"""``backalley variants``: the registered variants, each with what it is."""

from __future__ import annotations

import argparse
from typing import TextIO

from backalley import variants
from backalley.cli.common import EXIT_OK

__all__ = ["DESCRIPTIONS", "add_parser", "run"]

DESCRIPTIONS: dict[str, str] = {
    "gamerules": "The default game: 13..1..13 cards, turn-up trump, bids once around, boards.",
    "vietnam": "The Vietnam-era game: two 13-card games, an ascending auction with counters; "
    "the declarer names trump and leads.",
    "vietnam-no-jokers": "Vietnam with a plain 52-card deck (so no blooper rules).",
    "vietnam-42": "Vietnam on the 42-card deck (2s, 3s, 4s removed, jokers kept): 10 cards each.",
    "vietnam-spades": "Vietnam with spades always trump: the declarer names nothing.",
    "vietnam-cutthroat": "Vietnam without partnerships: each player scores alone.",
}
"""What each seed variant is (the presets are described by ``variants.PRESET_NOTES``)."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    names = sub.add_parser(
        "variants",
        help="list the registered variants, each with what it changes",
        description="List the registered variants (use a name with --variant or rules).",
    )
    names.set_defaults(run=run)


def describe(name: str) -> str:
    """A variant's one-paragraph description (empty for one registered without)."""
    return variants.PRESET_NOTES.get(name) or DESCRIPTIONS.get(name, "")


def run(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    names = variants.names()
    width = max(len(n) for n in names)
    for name in names:
        print(f"{name:<{width}}  {describe(name)}".rstrip(), file=out)
    return EXIT_OK
