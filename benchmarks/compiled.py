"""Checked random games per CPU second of one interpreter's installed
``backalley``, or of several side by side: how the optional compiled build
(mypyc, ``docs/performance.rst``) compares with the pure-Python package.

    python benchmarks/compiled.py [--games N] [--rounds R] [--variant NAME]
    python benchmarks/compiled.py --python PURE/bin/python --python COMPILED/bin/python

A *checked game* is the suite's (``run.py``'s *checked* figure): from
``new_game(rules, seed=k)``, ``legal_moves()`` and then ``apply()`` of a
``random.Random(1).choice`` of them, to the game's end.  A round plays the
games of seeds ``0 .. N-1`` (the same games every round and in every
interpreter), after the same games once outside the timing (so that every
round finds the rule set's plan as warm), and times them
with ``time.process_time`` (this process's CPU only, steadier on a shared
machine); garbage collection stays on.

Alone, the file measures the interpreter that runs it, with whatever
``backalley`` that interpreter imports (run it as ``VENV/bin/python
benchmarks/compiled.py``: this folder, not the project's root, is first on
``sys.path``), and prints each round's games/s and the median.  With
``--python`` (twice or more) it runs each round in each interpreter in turn,
one fresh process per round, the first interpreter first in odd rounds and
last in even ones (so a drift of the machine favours no side), and prints
each interpreter's median games/s and the median over rounds of the per-round
ratio to the first interpreter.  Each worker reports where its ``backalley``
came from and which engine modules are compiled extension modules.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from typing import Any, NoReturn

ENGINE = (
    "backalley.engine.kernel",
    "backalley.engine.state",
    "backalley.engine.lowlevel._playout",
    "backalley.rules.plan",
    "backalley.rules.calltree",
    "backalley.solver._search",
)
"""The modules whose form (``.so`` or ``.py``) each worker reports."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """A bad argument: refused in one line of standard error, exit status 2."""
        self.exit(2, f"{self.prog}: {message}\n")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def one_round(rules: Any, games: int) -> dict[str, float]:
    """Play the checked games of seeds ``0 .. games-1``; their CPU seconds and decisions."""
    import backalley as ba

    new_game = ba.new_game
    choice = random.Random(1).choice
    decisions = 0
    t0 = time.process_time()
    for seed in range(games):
        s = new_game(rules, seed=seed)
        while not s.is_over:
            s = s.apply(choice(s.legal_moves()))
            decisions += 1
    seconds = time.process_time() - t0
    return {"games": games, "decisions": decisions, "seconds": seconds}


def _warm(rules: Any, games: int) -> None:
    """The round's games once outside the timing: the rule set's plan then
    remembers what these games ask of the parts, in every round alike."""
    one_round(rules, games)


def describe() -> dict[str, Any]:
    """This interpreter, where its ``backalley`` is from, and the engine modules' form."""
    import backalley as ba

    forms = {}
    for name in ENGINE:
        path = str(importlib.import_module(name).__file__)
        forms[name] = "compiled" if path.endswith((".so", ".pyd")) else "python"
    return {
        "python": sys.executable,
        "interpreter": f"{platform.python_implementation()} {platform.python_version()}",
        "backalley": str(ba.__file__),
        "modules": forms,
    }


def measure(variant: str, games: int, rounds: int) -> dict[str, Any]:
    """``rounds`` rounds in this process (warm first), with the description."""
    import backalley as ba

    rules = ba.variants.get(variant)
    _warm(rules, games)
    out = describe()
    out["rounds"] = [one_round(rules, games) for _ in range(rounds)]
    return out


def _rate(r: dict[str, float]) -> float:
    return r["games"] / r["seconds"]


def _show(info: dict[str, Any]) -> str:
    compiled = [n for n, form in info["modules"].items() if form == "compiled"]
    return (
        f"{info['interpreter']} ({info['python']})\n"
        f"  backalley from {info['backalley']}\n"
        f"  compiled: {', '.join(compiled) or 'none (pure Python)'}"
    )


def alone(variant: str, games: int, rounds: int) -> None:
    info = measure(variant, games, rounds)
    print(_show(info))
    rates = [_rate(r) for r in info["rounds"]]
    for k, (r, rate) in enumerate(zip(info["rounds"], rates), 1):
        print(
            f"  round {k}: {rate:8.2f} games/s  "
            f"({r['decisions'] / r['seconds']:,.0f} decisions/s, {r['seconds']:.2f} s CPU)"
        )
    print(f"{variant}, seeds 0-{games - 1}: median {statistics.median(rates):.2f} games/s")


def side_by_side(pythons: list[str], variant: str, games: int, rounds: int) -> int:
    here = __file__
    rates: list[list[float]] = [[] for _ in pythons]
    infos: list[dict[str, Any]] = [{} for _ in pythons]
    for k in range(rounds):
        order = list(range(len(pythons)))
        if k % 2:
            order.reverse()
        for i in order:
            args = [pythons[i], here, "--worker", "--variant", variant, "--games", str(games)]
            done = subprocess.run(args, capture_output=True, text=True)
            if done.returncode:
                print(f"{pythons[i]}: the worker failed:\n{done.stderr}", file=sys.stderr)
                return 1
            infos[i] = json.loads(done.stdout)
            rates[i].append(_rate(infos[i]["rounds"][0]))
        print(
            f"round {k + 1}: " + "  ".join(f"{r[-1]:.2f}" for r in rates) + " games/s",
            file=sys.stderr,
        )
    print(f"checked random games of {variant}, seeds 0-{games - 1}, {rounds} rounds, CPU time")
    for i, info in enumerate(infos):
        median = statistics.median(rates[i])
        spread = (max(rates[i]) - min(rates[i])) / median
        print(f"[{i + 1}] {_show(info)}")
        line = f"  median {median:.2f} games/s (spread {spread:.0%})"
        if i:
            ratios = [b / a for a, b in zip(rates[0], rates[i])]
            line += (
                f"; ÷ [1]: median x{statistics.median(ratios):.2f} "
                f"(rounds x{min(ratios):.2f} .. x{max(ratios):.2f})"
            )
        print(line)
    return 0


def main(argv: list[str] | None = None) -> int:
    p = _Parser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="gamerules", help="a registered variant (gamerules)")
    p.add_argument("--games", type=_positive, default=20, help="games a round: seeds 0..N-1 (20)")
    p.add_argument("--rounds", type=_positive, default=5, help="rounds (5)")
    p.add_argument(
        "--python",
        action="append",
        metavar="PYTHON",
        help="an interpreter to measure (twice or more: side by side, alternating rounds)",
    )
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.python is not None and len(args.python) < 2:
        p.error("--python: give two interpreters or more to compare (or none, for this one)")
    if args.worker:
        print(json.dumps(measure(args.variant, args.games, 1)))
        return 0
    ba: Any
    try:
        import backalley as ba
    except ImportError:  # side by side from an interpreter without the library: the workers check
        ba = None
    if ba is not None:
        try:
            ba.variants.get(args.variant)
        except ba.UnknownVariantError:
            p.error(f"--variant: no variant {args.variant!r} (see `backalley variants`)")
    if args.python:
        return side_by_side(args.python, args.variant, args.games, args.rounds)
    if ba is None:
        p.error("this interpreter has no backalley to measure (or give --python twice)")
    alone(args.variant, args.games, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
