"""CPU time per decision of each bot (the decision-time table in docs/players.rst).

    python3 benchmarks/decision_times.py [--rules NAME] [--hand-size N] [--games N]
                                         [--seed N] [--budget S]
                                         [--bots heuristic,random,montecarlo,pimc]
                                         [--decisions N] [--seconds S] [--load N]
                                         [--json FILE]

The positions: ``--games`` seeded games of the rule set (seeds ``--seed``,
``--seed + 1``, ...) played by ``heuristic`` bots at every seat - the rule
set's own schedule, or with ``--hand-size N`` one deal of ``N`` cards a
game; every decision with more than one legal move is a candidate (a forced
move costs no bot anything).  From them ``--decisions`` calls and as many
plays are drawn at random (seeded: every bot meets the same positions, calls
and plays in turn).

Each bot, built by ``make_bot(name, seed)`` with its defaults - or, with
``--budget S``, the sampling bots (``montecarlo``, ``pimc``) with a budget
of ``S`` seconds of CPU a decision and no limit on their samples, so that
the budget alone stops them - chooses a move from the seat's view of each
position; the CPU time of the process (:func:`time.process_time`, which
other work on the machine does not add to) around that one ``choose`` is
the decision's time.  A bot stops early once its decisions have taken
``--seconds`` of CPU in all, and the table says how many it made.  Reported
per bot, for the calls, the plays and both: the decisions timed, the median,
the 95th and 99th percentiles (nearest rank) and the largest, in
milliseconds (with a budget, the median, the 99th percentile and the
largest as multiples of it, and the decisions left to the heuristic's move:
those whose budget ran out before a sample was scored, and the fallbacks,
with their share of the decisions; for ``pimc``, the decisions it planned
cheaper to fit the budget); then the same rows as a reStructuredText
list-table, with the interpreter and the machine.  Public API only.

``--load N`` measures on a loaded machine: N processes of this interpreter,
each spinning on a core (``while True: pass``), are started before the
positions are built and stopped at the end (the budgets are CPU time, so
the load does not lengthen them; it slows the CPU each decision gets, and
what it costs shows).  ``--load 2`` on two cores is issue 48's acceptance
run: ``--budget 0.1 --bots pimc --load 2``, with ``--hand-size 13`` and
without.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # measure this working tree's bots

import backalley as ba  # noqa: E402
from backalley.bots import HeuristicBot, MonteCarloBot, PimcBot, bot_names, make_bot  # noqa: E402
from backalley.bots._base import Bot  # noqa: E402

KINDS = ("calls", "plays")
UNBOUNDED = 100_000
"""The samples a sampling bot may take a decision under ``--budget`` (the budget stops it first)."""


def build(name: str, seed: object, budget: float | None) -> Bot:
    """The bot ``name``: its defaults, or a sampling bot with ``budget`` CPU seconds a decision."""
    if budget is not None and name == "montecarlo":
        return MonteCarloBot(seed, samples=UNBOUNDED, budget=budget)
    if budget is not None and name == "pimc":
        return PimcBot(seed, samples=UNBOUNDED, budget=budget)
    return make_bot(name, seed)


def positions(rules: ba.RuleSet, games: int, seed: int) -> dict[str, list[ba.PlayerView]]:
    """The views of every decision with a choice in ``games`` heuristic games, by kind."""
    out: dict[str, list[ba.PlayerView]] = {kind: [] for kind in KINDS}
    for g in range(games):
        state = ba.new_game(rules, seed=seed + g)
        bots = [HeuristicBot((seed + g, s)) for s in range(rules.players)]
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            if len(view.legal_moves()) > 1:
                kind = "plays" if view.phase is ba.Phase.PLAYING else "calls"
                out[kind].append(view)
            state = state.apply(bots[seat].choose(view))
    return out


def pick(
    found: dict[str, list[ba.PlayerView]], decisions: int, seed: int
) -> list[tuple[str, ba.PlayerView]]:
    """``decisions`` views of each kind drawn at random, calls and plays in turn."""
    rng = random.Random(f"decision-times {seed}")
    drawn = {kind: rng.sample(views, min(decisions, len(views))) for kind, views in found.items()}
    out: list[tuple[str, ba.PlayerView]] = []
    for i in range(max(len(v) for v in drawn.values())):
        for kind in KINDS:
            if i < len(drawn[kind]):
                out.append((kind, drawn[kind][i]))
    return out


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q`` percentile of ``values`` (0 < q <= 100)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def time_bot(
    name: str,
    chosen: list[tuple[str, ba.PlayerView]],
    seconds: float,
    seed: int,
    budget: float | None = None,
) -> tuple[dict[str, list[float]], dict[str, int]]:
    """The CPU seconds of each of the bot's decisions, by kind, within
    ``seconds`` in all; and what its statistics counted: the decisions whose
    budget ran out before a sample was scored (``out_of_time``), those left
    to the heuristic for want of a sample (``fallbacks``), and those planned
    cheaper to fit the budget (``planned``, pimc's)."""
    bot = build(name, (seed, name), budget)
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    spent = 0.0
    for kind, view in chosen:
        if spent >= seconds:
            break
        t0 = time.process_time()
        move = bot.choose(view)
        took = time.process_time() - t0
        if move not in view.legal_moves():  # pragma: no cover - a bot's own bug
            raise SystemExit(f"{name} chose {move}, which is not legal")
        times[kind].append(took)
        spent += took
    stats = getattr(bot, "stats", None)
    counts = {k: int(getattr(stats, k, 0)) for k in ("out_of_time", "fallbacks", "planned")}
    return times, counts


def start_load(n: int) -> list[subprocess.Popen[bytes]]:
    """``n`` processes of this interpreter, each keeping a core busy."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def stop_load(busy: list[subprocess.Popen[bytes]]) -> None:
    """Stop the processes of :func:`start_load`."""
    for p in busy:
        p.terminate()
    for p in busy:
        p.wait()


def rows_of(name: str, times: dict[str, list[float]]) -> list[dict[str, Any]]:
    """The table's rows of one bot: its calls, its plays and both."""
    out: list[dict[str, Any]] = []
    for kind in (*KINDS, "all"):
        values = times[kind] if kind != "all" else [t for k in KINDS for t in times[k]]
        if not values:
            continue
        out.append(
            {
                "bot": name,
                "kind": kind,
                "decisions": len(values),
                "median_ms": 1000 * statistics.median(values),
                "p95_ms": 1000 * percentile(values, 95),
                "p99_ms": 1000 * percentile(values, 99),
                "max_ms": 1000 * max(values),
            }
        )
    return out


def _ms(value: float) -> str:
    if value < 1:
        return f"{value:.3f}"
    if value < 100:
        return f"{value:.1f}"
    return f"{value:.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="gamerules")
    parser.add_argument(
        "--hand-size", type=int, default=0, help="one deal of N cards a game (0: the schedule)"
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=0.0,
        help="CPU seconds a sampling bot's decision (0: defaults)",
    )
    parser.add_argument("--games", type=int, default=2, help="seeded games to draw positions from")
    parser.add_argument("--seed", type=int, default=4100)
    parser.add_argument("--bots", default="heuristic,random,montecarlo,pimc")
    parser.add_argument("--decisions", type=int, default=40, help="calls and as many plays a bot")
    parser.add_argument("--seconds", type=float, default=120.0, help="CPU seconds a bot at most")
    parser.add_argument(
        "--load", type=int, default=0, help="busy processes (one a core) during the run"
    )
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    for n in names:
        if n.lower() not in bot_names():
            print(f"unknown bot {n!r}; known bots: {', '.join(bot_names())}", file=sys.stderr)
            return 2
    if args.games < 1 or args.decisions < 1 or not args.seconds > 0 or args.load < 0:
        print(
            "--games and --decisions must be >= 1, --seconds > 0 and --load >= 0",
            file=sys.stderr,
        )
        return 2
    try:
        rules = ba.variants.get(args.rules)
        if args.hand_size:
            rules = rules.replace(schedule=ba.rules.Schedule((args.hand_size,)))
    except ba.BackAlleyError as error:
        print(error, file=sys.stderr)
        return 2
    budget = args.budget or None
    if args.budget < 0:
        print("--budget must be >= 0", file=sys.stderr)
        return 2
    busy = start_load(args.load)
    try:
        return run(args, rules, budget)
    finally:
        stop_load(busy)


def run(args: argparse.Namespace, rules: ba.RuleSet, budget: float | None) -> int:
    """The measurement of :func:`main`, with its arguments checked."""
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    found = positions(rules, args.games, args.seed)
    chosen = pick(found, args.decisions, args.seed)
    machine = (
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()} {platform.processor() or platform.platform()}, "
        f"{os.cpu_count()} CPUs"
    )
    deals = f"one {args.hand_size}-card deal a game" if args.hand_size else "the schedule"
    bots = "defaults" if budget is None else f"sampling bots {budget:g} s CPU a decision"
    if args.load:
        bots += f"; {args.load} busy processes beside"
    print(
        f"decision times: {args.rules} ({deals}), positions from {args.games} heuristic games "
        f"from seed {args.seed} ({len(found['calls'])} calls and {len(found['plays'])} plays "
        f"with a choice), {args.decisions} of each a bot, at most {args.seconds:g} s CPU a bot; "
        f"{bots}; {machine}",
        flush=True,
    )
    rows: list[dict[str, Any]] = []
    for name in names:
        t0 = time.process_time()
        times, counts = time_bot(name, chosen, args.seconds, args.seed, budget)
        got = rows_of(name, times)
        rows.extend(got)
        sampling = budget is not None and name in ("montecarlo", "pimc")
        for r in got:
            r["budget_s"] = budget if sampling else None
            over = ""
            if sampling:
                assert budget is not None
                r.update({q: r[f"{q}_ms"] / 1000 / budget for q in ("median", "p99", "max")})
                over = f"  budget x: median {r['median']:.2f} p99 {r['p99']:.2f} max {r['max']:.2f}"
            print(
                f"{name:>10} {r['kind']:>5} {r['decisions']:>4} decisions  "
                f"median {_ms(r['median_ms']):>7} ms  p95 {_ms(r['p95_ms']):>7} ms  "
                f"p99 {_ms(r['p99_ms']):>7} ms  max {_ms(r['max_ms']):>7} ms{over}",
                flush=True,
            )
        if sampling:
            rows[-1].update(counts)
            total = rows[-1]["decisions"]
            left = counts["out_of_time"] + counts["fallbacks"]
            print(
                f"{'':>10} {counts['out_of_time']} out of time and {counts['fallbacks']} "
                f"fallbacks: {left} decisions ({100 * left / total:.1f} %) the heuristic's "
                f"move; {counts['planned']} planned cheaper to fit the budget"
            )
        print(f"{'':>10} ({time.process_time() - t0:.0f} s CPU)", flush=True)
    print("\n.. list-table::\n   :header-rows: 1\n")
    print("   * - bot\n     - decisions\n     - timed\n     - median (ms)\n     - p99 (ms)\n"
          "     - max (ms)")  # fmt: skip
    for r in rows:
        print(
            f"   * - {r['bot']}\n     - {r['kind']}\n     - {r['decisions']}\n"
            f"     - {_ms(r['median_ms'])}\n     - {_ms(r['p99_ms'])}\n"
            f"     - {_ms(r['max_ms'])}"
        )
    if args.json:
        args.json.write_text(
            json.dumps(
                {"machine": machine, "rules": args.rules, "hand_size": args.hand_size,
                 "budget": budget, "load": args.load, "rows": rows},
                indent=1,
            )
        )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
