"""``backalley rules``: a rules sheet, how two rule sets differ, or the keys
of a house-rules file (``--keys``)."""

from __future__ import annotations

import argparse
from typing import TextIO

from backalley.cli.arguments import EXIT_OK, UsageError, load_rules
from backalley.rules.sheet import diff_rules, rules_sheet

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rules = sub.add_parser(
        "rules",
        help="print a rules sheet, or the differences of two rule sets",
        description="Print the rules sheet generated from a rule set (default: gamerules), "
        "with --diff A B the options in which two rule sets differ, or with --keys every key "
        "a house-rules file may hold.",
    )
    rules.add_argument("name", nargs="?", default=None, help="variant name or house-rules file")
    rules.add_argument(
        "--diff", nargs=2, metavar=("A", "B"), help="list the parts in which A and B differ"
    )
    rules.add_argument(
        "--keys",
        action="store_true",
        help="list every key a house-rules file may hold: each part's types, their keys, "
        "value types and defaults (plug-ins' parts included)",
    )
    rules.add_argument(
        "--no-settings",
        dest="settings",
        action="store_false",
        help="leave out the closing block of settings for software (the parts' tags and options)",
    )
    rules.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    """Print the sheet, the differences (``--diff``) or the house-rules keys (``--keys``)."""
    if args.keys:
        if args.diff or args.name is not None:
            raise UsageError("rules --keys lists the keys of every part; give no rule set with it")
        from backalley.io.houserule_keys import reference_text

        print(reference_text(), file=out, end="")
        return EXIT_OK
    if args.diff:
        if args.name is not None:
            raise UsageError(
                f"rules --diff compares two rule sets, A and B; {args.name!r} would be a third"
            )
        a, b = (load_rules(x) for x in args.diff)
        lines = diff_rules(a, b)
        label_a, label_b = (r.name or x for r, x in zip((a, b), args.diff))
        if not lines:
            print(f"{label_a} and {label_b} have the same rules.", file=out)
        else:
            print(f"{label_a} -> {label_b}:", file=out)
            for line in lines:
                print(f"  {line}", file=out)
        return EXIT_OK
    sheet = rules_sheet(load_rules(args.name or "gamerules"), settings=args.settings)
    print(sheet, file=out, end="")
    return EXIT_OK
