"""Speed of the double-dummy solver: 13-card deals at the first lead.

    python benchmarks/solver.py [--deals N] [--seeds K,...] [--variant NAME] [--size N]
                                [--limit S] [--clock wall|cpu] [--json FILE]

For deal k = 0..N-1: ``new_game(rules, seed=k)`` with the variant's rules
reduced to one deal of ``--size`` cards (``Schedule(hand_sizes=(size,))``),
every seat making its first legal numeric bid (else its first legal call),
then ``backalley.solver.solve`` of the first lead, timed.  Prints one line per
deal and the median, mean and worst times (the targets on ``gamerules``:
median < 1 s, worst < 30 s over 50 deals).  ``--limit`` skips the rest of the
deals once one deal took longer than S seconds (reported as such).
``--seeds 41,42`` times only the listed deals (instead of ``0..N-1``).

Public API only: ``new_game``, ``legal_moves``, ``apply`` and
``backalley.solver.solve``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(ROOT))  # measure this working tree's solver

import backalley as ba  # noqa: E402
from backalley.solver import solve  # noqa: E402

CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def first_lead(rules: ba.RuleSet, seed: int) -> ba.GameState:
    """The first lead of deal ``seed``: each seat bids its first legal number."""
    state = ba.new_game(rules, seed=seed)
    while state.phase is not ba.Phase.PLAYING:
        moves = state.legal_moves()
        numbers = [m for m in moves if isinstance(m, ba.Bid)]
        state = state.apply(numbers[0] if numbers else moves[0])
    return state


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seeds", default=None, help="comma-separated deals (default 0..N-1)")
    parser.add_argument("--variant", default="gamerules")
    parser.add_argument("--size", type=int, default=13)
    parser.add_argument("--limit", type=float, default=None)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    clock = CLOCKS[args.clock]
    rules = ba.variants.get(args.variant)
    rules = rules.replace(schedule=ba.rules.Schedule(hand_sizes=(args.size,)))
    times: list[float] = []
    rows = []
    if args.seeds is not None:
        seeds = [int(k) for k in args.seeds.split(",") if k.strip()]
        which = ",".join(map(str, seeds))
    else:
        seeds = list(range(args.deals))
        which = f"0..{args.deals - 1}"
    print(
        f"solver: {args.variant}, {args.size}-card deals at the first lead, "
        f"seeds {which}, {args.clock} clock"
    )
    for seed in seeds:
        state = first_lead(rules, seed)
        t0 = clock()
        tricks = solve(state)
        took = clock() - t0
        times.append(took)
        rows.append({"seed": seed, "tricks": tricks, "seconds": took})
        trump = state.trump or "none"
        print(
            f"  seed {seed:3d}  trump {trump}  seat {state.to_act}: {tricks:2d} tricks  {took:8.3f} s"
        )
        sys.stdout.flush()
        if args.limit is not None and took > args.limit:
            print(f"  stopped: seed {seed} took more than {args.limit} s")
            break
    median = statistics.median(times)
    print(
        f"deals {len(times)}  median {median:.3f} s  mean {statistics.fmean(times):.3f} s  "
        f"worst {max(times):.3f} s  total {sum(times):.1f} s"
    )
    if args.variant == "gamerules" and args.size == 13:
        ok_median = "PASS" if median < 1.0 else "FAIL"
        ok_worst = "PASS" if max(times) < 30.0 else "FAIL"
        print(f"  [{ok_median}] median < 1 s   [{ok_worst}] worst < 30 s")
    if args.json is not None:
        args.json.write_text(json.dumps({"deals": rows, "median": median, "worst": max(times)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
