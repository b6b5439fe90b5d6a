"""Speed of the double-dummy solver: 13-card deals at the first lead.

    python benchmarks/solver.py [--set NAME] [--deals N] [--seeds K,...] [--variant NAME]
                                [--size N] [--limit S] [--clock wall|cpu] [--dds] [--json FILE]
                                [--baseline DIR] [--rounds R]

Each *set* is a list of deals, each solved at its first lead by
``backalley.solver.Solver().solve`` and timed (CPU time of the process by
default):

- ``gamerules`` (the default; ``--variant`` picks another variant): deal k
  is ``new_game(rules, seed=k)`` with the rules reduced to one deal of
  ``--size`` cards, every seat making its first legal numeric bid (else its
  first legal call); the turned-up card decides trump, so a few deals are
  without trump (a joker turned up);
- ``joker-nt``: the ``gamerules`` deals whose turn-up is a joker (no trump),
  the first N of the seeds 0, 1, 2, ...;
- ``vietnam-nt``: ``vietnam`` with the declarer allowed to call no trump,
  and calling it;
- ``bridge-nt`` and ``bridge-trump``: bridge-like deals (52 cards, no
  jokers, no trump or spades, trump led at any time, no blooper rules),
  the deals of the ``endplay`` checks; with ``--dds`` (needs the ``endplay``
  package) each deal is also solved by endplay's DDS, and the positions
  each solver searched are compared: DDS's node count is the positions at
  the start of a trick it reached by playing a trick, and ours counted the
  same way (``trick_nodes``), with our positions of every card beside it.

Prints one line per deal and the median, mean and worst times, and for
``--dds`` the median and worst ratio of the positions.

``--baseline DIR`` compares this tree's solver with another checkout's (DIR
holds its ``backalley`` package, e.g. ``git worktree add /tmp/base
8c9e317``): two worker processes (``--worker TREE``), each solving the
deals with one tree's library, take turns deal by deal (``--rounds R``
times over, the order swapped each round; each deal's fastest round
counts), so that the machine's drift falls on both alike.  Each line gives
both times, the positions searched and the microseconds a position, and
the ratio baseline / this tree; the summary gives the medians, the worst,
the totals, positions a second and the ratios (of the totals, and the
median and geometric mean of the per-deal ratios).  ``--limit S`` gives
every deal a deadline of S CPU seconds (a deal past it is reported as such,
with the bounds the solver had proved).  ``--seeds 41,42`` times only the
listed deals.  The targets are in ``docs/performance.rst``.

Public API only: ``new_game``, ``legal_moves``, ``apply``, and
``backalley.solver.Solver`` and ``SearchLimitError``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(ROOT))  # measure this working tree's solver
if "--worker" in sys.argv[:-1]:  # a worker of --baseline: that tree's library first
    sys.path.insert(0, str(Path(sys.argv[sys.argv.index("--worker") + 1]).resolve()))

import backalley as ba  # noqa: E402
from backalley.solver import SearchLimitError, Solver  # noqa: E402
from tests.bridge import bridge_rules, pbn  # noqa: E402

CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
HERE = Path(__file__).resolve()
SETS = ("gamerules", "joker-nt", "vietnam-nt", "bridge-nt", "bridge-trump")


def first_lead(rules: ba.RuleSet, seed: int, no_trump: bool = False) -> ba.GameState:
    """The first lead of deal ``seed``: each seat bids its first legal number
    (a declarer names no trump when ``no_trump``, else its first choice)."""
    state = ba.new_game(rules, seed=seed)
    while state.phase is not ba.Phase.PLAYING:
        moves = state.legal_moves()
        numbers = [m for m in moves if isinstance(m, ba.Bid)]
        if no_trump and state.phase is ba.Phase.NAMING_TRUMP:
            numbers = [m for m in moves if isinstance(m, ba.NameTrump) and m.suit is None]
        state = state.apply(numbers[0] if numbers else moves[0])
    return state


def deals(
    name: str, variant: str, size: int, seeds: list[int] | None, count: int
) -> Iterator[tuple[int, ba.GameState]]:
    """The (seed, first lead) of the set's deals."""
    schedule = ba.rules.Schedule(hand_sizes=(size,))
    if name == "gamerules":
        rules = ba.variants.get(variant).replace(schedule=schedule)
        for seed in seeds if seeds is not None else range(count):
            yield seed, first_lead(rules, seed)
    elif name == "joker-nt":
        rules = ba.variants.GAMERULES.replace(schedule=schedule)
        if seeds is not None:
            for seed in seeds:
                yield seed, first_lead(rules, seed)
            return
        found = 0
        seed = 0
        while found < count:
            state = first_lead(rules, seed)
            if state.trump is None:
                found += 1
                yield seed, state
            seed += 1
    elif name == "vietnam-nt":
        base = ba.variants.get("vietnam")
        rules = base.replace(
            schedule=schedule, trump=ba.rules.DeclarerNamesTrump(allow_no_trump=True)
        )
        for seed in seeds if seeds is not None else range(count):
            yield seed, first_lead(rules, seed, no_trump=True)
    else:
        trump = None if name == "bridge-nt" else ba.Suit.SPADES
        rules = bridge_rules(trump, size)
        for seed in seeds if seeds is not None else range(count):
            yield seed, first_lead(rules, seed)


def dds_nodes(state: ba.GameState) -> tuple[int, int]:
    """(tricks, nodes) of endplay's DDS for the first lead of a bridge-like deal."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    # a different deal first, so that DDS starts this one with an empty table
    other = Deal("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
    solve_board(other, SolveMode.OptimalOne)
    deal = Deal(pbn(tuple(tuple(state.hands[s]) for s in range(4))))
    assert state.to_act is not None
    deal.first = (Player.north, Player.east, Player.south, Player.west)[state.to_act]
    trump = state.trump
    deal.trump = (
        Denom.nt
        if trump is None
        else {"S": Denom.spades, "H": Denom.hearts}.get(
            trump.letter, Denom.diamonds if trump.letter == "D" else Denom.clubs
        )
    )
    solved = solve_board(deal, SolveMode.OptimalOne)
    return max(score for _card, score in solved), solved._data.nodes


def worker(args: argparse.Namespace, seeds: list[int]) -> int:
    """``--worker TREE``: solve the deal of each seed read from stdin with
    this process's library (TREE's, put first on the path before the
    imports), printing ``[seed, tricks, seconds, positions]`` as JSON."""
    clock: Callable[[], float] = CLOCKS[args.clock]
    states = dict(deals(args.set, args.variant, args.size, seeds, len(seeds)))
    print(json.dumps(str(Path(ba.__file__).resolve().parent)), flush=True)
    for line in sys.stdin:
        seed = int(line)
        solver = Solver()
        t0 = clock()
        tricks = solver.solve(states[seed])
        print(json.dumps([seed, tricks, clock() - t0, solver.nodes]), flush=True)
    return 0


def compare(args: argparse.Namespace, seeds: list[int]) -> int:
    """``--baseline DIR``: this tree against DIR, deal by deal (see the module's description)."""
    import subprocess

    trees = {"baseline": Path(args.baseline).resolve(), "this tree": ROOT}
    common = ["--set", args.set, "--variant", args.variant, "--size", str(args.size)]
    common += ["--clock", args.clock, "--seeds", ",".join(map(str, seeds))]
    procs = {
        name: subprocess.Popen(
            [sys.executable, str(HERE), "--worker", str(tree), *common],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name, tree in trees.items()
    }
    for name, proc in procs.items():
        assert proc.stdout is not None
        print(f"{name}: {json.loads(proc.stdout.readline())}")
    found: dict[str, dict[int, tuple[int, float, int]]] = {name: {} for name in procs}
    order = list(procs)
    for r in range(args.rounds):
        for seed in seeds:
            for name in order if r % 2 == 0 else order[::-1]:
                proc = procs[name]
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write(f"{seed}\n")
                proc.stdin.flush()
                _seed, tricks, took, nodes = json.loads(proc.stdout.readline())
                best = found[name].get(seed)
                if best is None or took < best[1]:
                    found[name][seed] = (tricks, took, nodes)
            if r == args.rounds - 1:
                (t0, s0, n0), (t1, s1, n1) = found["baseline"][seed], found["this tree"][seed]
                if t0 != t1:
                    raise SystemExit(f"seed {seed}: the baseline says {t0} tricks, this tree {t1}")
                print(
                    f"  seed {seed:3d}: {t1:2d} tricks  baseline {s0:7.3f} s {n0:8d} positions "
                    f"{1e6 * s0 / max(n0, 1):5.1f} us  this tree {s1:7.3f} s {n1:8d} positions "
                    f"{1e6 * s1 / max(n1, 1):5.1f} us  ratio {s0 / s1:5.2f}"
                )
                sys.stdout.flush()
    for proc in procs.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    summary: dict[str, object] = {}
    for name, rows in found.items():
        times = [took for _t, took, _n in rows.values()]
        nodes = sum(n for _t, _s, n in rows.values())
        print(
            f"{name}: median {statistics.median(times):.3f} s  worst {max(times):.3f} s  "
            f"total {sum(times):.2f} s  {nodes / sum(times):,.0f} positions/s  "
            f"{1e6 * sum(times) / nodes:.1f} us a position"
        )
        summary[name] = {"median": statistics.median(times), "worst": max(times),
                         "total": sum(times), "positions": nodes}  # fmt: skip
    ratios = [found["baseline"][k][1] / found["this tree"][k][1] for k in seeds]
    total = sum(r[1] for r in found["baseline"].values()) / sum(
        r[1] for r in found["this tree"].values()
    )
    print(
        f"baseline / this tree: total {total:.2f}  median per deal "
        f"{statistics.median(ratios):.2f}  geometric mean {statistics.geometric_mean(ratios):.2f}"
    )
    summary.update(ratio_total=total, ratio_median=statistics.median(ratios))
    if args.json is not None:
        args.json.write_text(json.dumps(summary))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=SETS, default="gamerules")
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seeds", default=None, help="comma-separated deals (default 0..N-1)")
    parser.add_argument("--variant", default="gamerules")
    parser.add_argument("--size", type=int, default=13)
    parser.add_argument("--limit", type=float, default=None, help="a deadline (CPU s) per deal")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    parser.add_argument("--dds", action="store_true", help="compare with endplay's DDS")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--baseline", default=None, help="another checkout to compare with")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of --baseline")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    clock: Callable[[], float] = CLOCKS[args.clock]
    seeds = None
    if args.seeds is not None:
        seeds = [int(k) for k in args.seeds.split(",") if k.strip()]
    if args.dds and not args.set.startswith("bridge"):
        parser.error("--dds needs a bridge-like set (bridge-nt, bridge-trump)")
    if args.worker is not None:
        return worker(args, seeds if seeds is not None else list(range(args.deals)))
    if args.baseline is not None:
        if seeds is None:
            seeds = [
                seed for seed, _state in deals(args.set, args.variant, args.size, None, args.deals)
            ]
        return compare(args, seeds)
    label = args.variant if args.set == "gamerules" else args.set
    print(
        f"solver: {label}, {args.size}-card deals at the first lead, "
        f"{len(seeds) if seeds is not None else args.deals} deals, {args.clock} clock"
    )
    times: list[float] = []
    ratios: list[float] = []
    rows = []
    for seed, state in deals(args.set, args.variant, args.size, seeds, args.deals):
        solver = Solver()
        t0 = clock()
        try:
            tricks: int | str = solver.solve(state, deadline=args.limit)
        except SearchLimitError as error:
            tricks = f"{error.lower}..{error.upper}"
        took = clock() - t0
        times.append(took)
        row: dict[str, object] = {
            "seed": seed,
            "trump": state.trump.letter if state.trump else None,
            "tricks": tricks,
            "seconds": took,
            "nodes": solver.nodes,
            "trick_nodes": solver.trick_nodes,
        }
        trump = state.trump or "none"
        line = (
            f"  seed {seed:3d}  trump {trump}  seat {state.to_act}: {tricks!s:>5} tricks  "
            f"{took:8.3f} s  positions {solver.nodes:8d} (at a trick's start {solver.trick_nodes:7d})"
        )
        if args.dds:
            value, nodes = dds_nodes(state)
            if isinstance(tricks, int) and value != tricks:
                raise SystemExit(f"seed {seed}: DDS says {value} tricks, the solver {tricks}")
            ratio = solver.trick_nodes / max(nodes, 1)
            ratios.append(ratio)
            row.update(dds_nodes=nodes, ratio=ratio)
            line += f"  DDS {nodes:7d}  ratio {ratio:5.2f}"
        rows.append(row)
        print(line)
        sys.stdout.flush()
    median = statistics.median(times)
    print(
        f"deals {len(times)}  median {median:.3f} s  mean {statistics.fmean(times):.3f} s  "
        f"worst {max(times):.3f} s  total {sum(times):.1f} s"
    )
    summary: dict[str, object] = {"deals": rows, "median": median, "worst": max(times)}
    if ratios:
        print(
            f"positions against DDS's (at a trick's start): median {statistics.median(ratios):.2f}x"
            f"  worst {max(ratios):.2f}x"
        )
        summary.update(ratio_median=statistics.median(ratios), ratio_worst=max(ratios))
    if args.json is not None:
        args.json.write_text(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
