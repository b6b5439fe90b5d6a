"""The ``backalley`` command (also ``python -m backalley``).

Subcommands, one module each:

- ``backalley play``: watch a whole game between bots, told deal by deal and
  trick by trick, or play in it (``--human SEAT``) (:mod:`backalley.cli.play`);
- ``backalley simulate``: many games between bots, locally or on Ray, with a
  results table per side (:mod:`backalley.cli.simulate`);
- ``backalley rules [NAME|FILE]``, ``backalley rules --diff A B``: the rules
  sheet generated from a rule set, or how two rule sets differ;
- ``backalley variants``: the registered variants with what each changes;
- ``backalley check FILE``: replay a game record;
- ``backalley vectors``: conformance vectors for other implementations;
- ``backalley show FILE``: draw a position of a game record (SVG, or text).

Exit status, the same for every command: 0 done; 1 an illegal move (or
results the moves do not produce) in a checked record; 2 bad usage or
unreadable input, reported on one line of standard error.  Output cut short by
its reader (``backalley play | head -1``) ends quietly with status 0.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from backalley.cli import check, play, rules, show, variants, vectors
from backalley.cli import simulate as simulate_command
from backalley.cli.common import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, load_rules
from backalley.errors import BackAlleyError

__all__ = ["build_parser", "load_rules", "main"]


def _version() -> str:
    from backalley import __version__

    return __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="backalley",
        description="The rules of Back Alley: watch, play, simulate, print and check games.",
        epilog="Exit status: 0 done, 1 an illegal move in a checked record, "
        "2 bad usage or unreadable input.",
    )
    parser.add_argument("--version", action="version", version=f"backalley {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in (play, simulate_command, rules, variants, check, vectors, show):
        command.add_parser(sub)
    return parser


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, inp: TextIO | None = None
) -> int:
    """Run the command; returns the exit status (see the module docstring).

    ``out`` receives the command's output (default: standard output) and
    ``inp`` is where a person at the table types (default: standard input).
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version (0) or a usage error (2)
        return int(exc.code or 0)
    target = out or sys.stdout
    try:
        return int(args.run(args, target, inp or sys.stdin))
    except BackAlleyError as exc:
        print(f"backalley: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("backalley: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence(target)
        return EXIT_OK
    except OSError as exc:
        print(f"backalley: {exc}", file=sys.stderr)
        return EXIT_USAGE


def _silence(out: TextIO) -> None:
    """The reader of ``out`` has gone (``| head``): point it at the null device,
    so that flushing it at exit raises nothing."""
    try:
        fileno = out.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fileno)
    os.close(devnull)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
