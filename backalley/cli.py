"""The ``backalley`` command (also ``python -m backalley``).

Subcommands:

- ``backalley play [--variant NAME|FILE] [--seed N] [--record FILE]``: a whole
  game between random legal players, printed deal by deal.
- ``backalley rules [NAME|FILE]``, ``backalley rules --diff A B``: the rules
  sheet generated from a rule set, or how two rule sets differ.
- ``backalley variants``: the registered variant names.
- ``backalley check FILE``: replay a game record; exit 1 at the first illegal move.
- ``backalley vectors``: conformance vectors for other implementations.
- ``backalley show FILE [--deal N] [--move K] [--seat S] [--text] [-o out.svg]``:
  draw a position of a game record.

Players are chosen by name (``--players random,random,random,random``) from
:mod:`backalley.bots`, so new bots fit without changing the command.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from backalley import variants
from backalley.errors import BackAlleyError
from backalley.rules.ruleset import RuleSet
from backalley.rules.sheet import diff_rules, rules_sheet
from backalley.state import GameState

__all__ = ["main"]


def load_rules(spec: str) -> RuleSet:
    """A rule set from a variant name, or from a house-rules file (``.toml``/``.json``)."""
    path = Path(spec)
    if spec.endswith((".toml", ".json")) or path.is_file():
        from backalley.houserules import load

        return load(path)
    return variants.get(spec)


def _cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    from backalley.bots import make_bot
    from backalley.game import new_game
    from backalley.report import describe_deal

    rules = load_rules(args.variant)
    names = [n.strip() for n in args.players.split(",")] if args.players else ["random"]
    if len(names) == 1:
        names = names * rules.players
    if len(names) != rules.players:
        raise SystemExit(f"backalley: --players needs {rules.players} names, got {len(names)}")
    state = new_game(rules, seed=args.seed)
    bots = [make_bot(name, seed=(state.seed, seat)) for seat, name in enumerate(names)]
    start: GameState = state
    moves = []
    print(
        f"{rules.name or 'custom rules'}: seed {state.seed}, first dealer seat {state.dealer}",
        file=out,
    )
    shown = 0
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        move = bots[seat].choose(state.view(seat))
        moves.append(move)
        state = state.apply(move)
        while shown < state.deals_played:
            print(
                describe_deal(rules, state.deal_results[shown], state_scores(state, shown)),
                file=out,
            )
            shown += 1
    teams = "team" if len(rules.teams) < rules.players else "seat"
    if state.winner is None:
        print(f"Final scores {list(state.scores)}: a draw.", file=out)
    else:
        print(f"Final scores {list(state.scores)}: {teams} {state.winner} wins.", file=out)
    if args.record:
        from backalley.record import GameRecord
        from backalley.serialize import to_json

        record = GameRecord.from_game(start, moves, final=state)
        Path(args.record).write_text(to_json(record), encoding="utf-8")
        print(f"Record written to {args.record}", file=out)
    return 0


def state_scores(state: GameState, upto: int) -> tuple[int, ...]:
    """Cumulative scores after deal ``upto`` (0-based) of ``state``'s results."""
    results = state.deal_results
    totals = [0] * len(results[0].points)
    for result in results[: upto + 1]:
        totals = [a + b for a, b in zip(totals, result.points)]
    return tuple(totals)


def _cmd_rules(args: argparse.Namespace, out: TextIO) -> int:
    if args.diff:
        a, b = (load_rules(x) for x in args.diff)
        lines = diff_rules(a, b)
        label_a, label_b = (r.name or x for r, x in zip((a, b), args.diff))
        if not lines:
            print(f"{label_a} and {label_b} have the same rules.", file=out)
        else:
            print(f"{label_a} -> {label_b}:", file=out)
            for line in lines:
                print(f"  {line}", file=out)
        return 0
    print(rules_sheet(load_rules(args.name)), file=out, end="")
    return 0


def _cmd_variants(args: argparse.Namespace, out: TextIO) -> int:
    for name in variants.names():
        print(name, file=out)
    return 0


def _cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    from backalley.serialize.record_file import check_record_file

    return check_record_file(Path(args.file), out)


def _cmd_vectors(args: argparse.Namespace, out: TextIO) -> int:
    from backalley.vectors import write_vectors

    rules = load_rules(args.variant)
    if args.output in (None, "-"):
        write_vectors(rules, games=args.games, seed=args.seed, out=sys.stdout)
        return 0
    with open(args.output, "w", encoding="utf-8") as target:
        count = write_vectors(rules, games=args.games, seed=args.seed, out=target)
    print(f"{count} lines written to {args.output}", file=out)
    return 0


def _cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    from backalley.show import show_file

    return show_file(
        Path(args.file), out, deal=args.deal, move=args.move, seat=args.seat,
        text=args.text, output=args.output,
    )  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="backalley", description="The rules of Back Alley: play, print and check games."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play a whole game between bots and print it")
    play.add_argument("--variant", default="gamerules", help="variant name or house-rules file")
    play.add_argument("--seed", type=int, default=None, help="seed for all chance")
    play.add_argument(
        "--players", default=None, help="bot names per seat, comma separated (default: random)"
    )
    play.add_argument("--record", default=None, help="write the game record (JSON) to this file")
    play.set_defaults(run=_cmd_play)

    rules = sub.add_parser("rules", help="print a rules sheet, or the differences of two rule sets")
    rules.add_argument(
        "name", nargs="?", default="gamerules", help="variant name or house-rules file"
    )
    rules.add_argument(
        "--diff", nargs=2, metavar=("A", "B"), help="list the parts in which A and B differ"
    )
    rules.set_defaults(run=_cmd_rules)

    names = sub.add_parser("variants", help="list the registered variants")
    names.set_defaults(run=_cmd_variants)

    check = sub.add_parser("check", help="replay a game record and report the first illegal move")
    check.add_argument("file")
    check.set_defaults(run=_cmd_check)

    vectors = sub.add_parser("vectors", help="write conformance vectors (JSON Lines)")
    vectors.add_argument("--variant", default="gamerules")
    vectors.add_argument("--games", type=int, default=10)
    vectors.add_argument("--seed", type=int, default=0)
    vectors.add_argument("--output", "-o", default=None, help="file to write (default: stdout)")
    vectors.set_defaults(run=_cmd_vectors)

    show = sub.add_parser("show", help="draw a position of a game record (SVG, or text)")
    show.add_argument("file", help="a game record (JSON), as 'play --record' writes it")
    show.add_argument("--deal", type=int, default=None, help="the start of deal N (from 1)")
    show.add_argument("--move", type=int, default=None, help="K moves in (into --deal N)")
    show.add_argument("--seat", type=int, default=None, help="draw what this seat sees")
    show.add_argument("--text", action="store_true", help="a text diagram instead of SVG")
    show.add_argument("--output", "-o", default=None, help="file to write (default: stdout)")
    show.set_defaults(run=_cmd_show)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args, out or sys.stdout))
    except BackAlleyError as exc:
        print(f"backalley: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"backalley: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
