"""The ``backalley`` command (also ``python -m backalley``).

Subcommands, one module each (``<command>_command.py``):

- ``backalley play``: watch a whole game between bots, told deal by deal and
  trick by trick, or play in it (``--human SEAT``) (:mod:`backalley.cli.play_command`);
- ``backalley simulate``: many games between bots, locally or on Ray, with a
  results table per side (:mod:`backalley.cli.simulate_command`);
- ``backalley rules [NAME|FILE]``, ``backalley rules --diff A B``: the rules
  sheet generated from a rule set, or how two rule sets differ;
- ``backalley variants``: the registered variants with what each changes;
- ``backalley check FILE``: replay a game record;
- ``backalley vectors``: conformance vectors for other implementations;
- ``backalley show FILE``: draw a position of a game record (SVG, or text);
- ``backalley record convert IN OUT``: a game record from JSON to text
  people read (``.bar``) or back (:mod:`backalley.cli.record_command`);
- ``backalley serve``: the table server, to play in a browser (the extra
  ``server``) (:mod:`backalley.cli.serve_command`);
- ``backalley build-web DIR``: the rules in the browser, a folder for any
  static host (:mod:`backalley.cli.build_web_command`).

Before any command runs, the installed plug-ins (entry points of the group
``backalley.plugins``) are loaded, then every ``--import MODULE`` (given
before or after the command's name), so that the rules, bots and variants they
register can be named (:mod:`backalley.plugins`); ``--no-plugins`` skips the
installed ones.

Exit status, the same for every command: 0 done; 1 an illegal move (or
results the moves do not produce) in a checked record; 2 bad usage or
unreadable input (a plug-in that cannot be loaded among them), reported on
one line of standard error (a house-rules file with several problems: one
line each).  Output cut short by its reader (``backalley play | head -1``)
ends quietly with status 0.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from backalley import plugins
from backalley.cli import (
    build_web_command,
    check_command,
    play_command,
    record_command,
    rules_command,
    serve_command,
    show_command,
    simulate_command,
    variants_command,
    vectors_command,
)
from backalley.cli.arguments import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    load_rules,
    register_external,
)
from backalley.cli.output import silence
from backalley.errors import BackAlleyError
from backalley.plugins import ENTRY_POINT_GROUP

__all__ = ["build_parser", "load_plugins", "load_rules", "main"]


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
    _add_loading_options(parser, "")
    parser.add_argument(
        "--no-plugins",
        dest="plugins",
        action="store_false",
        help=f"do not load the installed plug-ins (entry points {ENTRY_POINT_GROUP!r})",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in (
        play_command,
        simulate_command,
        rules_command,
        variants_command,
        check_command,
        vectors_command,
        show_command,
        record_command,
        serve_command,
        build_web_command,
    ):
        command.add_parser(sub)
    for command_parser in sub.choices.values():  # also after the command's name
        _add_loading_options(command_parser, "command_")
    return parser


def _add_loading_options(parser: argparse.ArgumentParser, prefix: str) -> None:
    """The repeatable options that load what a command may name, given before
    the command's name (``prefix`` empty) or after it (``"command_"``): their
    values are ``<prefix>imports`` and ``<prefix>externals`` (see :func:`_given`)."""
    parser.add_argument(
        "--import",
        dest=f"{prefix}imports",
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE (a module name or a .py file) before the command runs, so that "
        "the rules, bots and variants it registers can be used; may be repeated",
    )
    parser.add_argument(
        "--external",
        dest=f"{prefix}externals",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="a bot called NAME that is a program of its own speaking the bot protocol "
        "(JSON lines on its standard input and output): COMMAND is split as a shell would "
        "split it, never run through a shell; usable wherever a bot is named; may be repeated",
    )


def _given(args: argparse.Namespace, name: str) -> list[str]:
    """The values of a loading option, before the command's name then after it."""
    return [*getattr(args, name, []), *getattr(args, f"command_{name}", [])]


def load_plugins(args: argparse.Namespace) -> None:
    """Before a command runs: the installed plug-ins (unless ``--no-plugins``),
    then every ``--import MODULE``, in the order given (see :mod:`backalley.plugins`),
    then every ``--external NAME=COMMAND``."""
    if getattr(args, "plugins", True):
        plugins.load_plugins()
    for module in _given(args, "imports"):
        plugins.import_plugin(module)
    register_external(_given(args, "externals"))


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
        load_plugins(args)
        return int(args.run(args, target, inp or sys.stdin))
    except BackAlleyError as exc:
        for line in str(exc).splitlines() or [type(exc).__name__]:
            print(f"backalley: {line}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("backalley: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        silence(target)
        return EXIT_OK
    except OSError as exc:
        print(f"backalley: {exc}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
