"""The ``pimc`` bot against ``montecarlo`` and ``heuristic``: duplicate deals,
and its bidding against the double-dummy par.

Duplicate deals (:func:`backalley.bots.match.duplicate_match`, one deal at a
time so that a run can stop on its CPU-time limit): every pair of bots named
by ``--pairs`` plays the same deals, and the script prints bot A's mean
points per deal less bot B's, with a 95 % confidence interval.

``--par N`` bids N deals of 10 to 13 cards (``--par-sizes``) with every seat
played by each bot in turn, and compares each side's contract with the tricks
the side takes double-dummy from the first lead (:func:`backalley.solver.solve`
on the deal as bid): the mean distance in tricks, the mean of bid - par (a
board counts as every trick, a pass as none), and the share of contracts
within one trick of it.  13-card deals take the solver seconds each.

Run from the project root, e.g.::

    python3 benchmarks/pimc_vs.py --deals 20 --size 5
    python3 benchmarks/pimc_vs.py --deals 200 --pairs pimc:montecarlo --max-seconds 7200
    python3 benchmarks/pimc_vs.py --deals 0 --par 8

Every bot runs on a sample budget (no time limit), so a run is reproducible;
``--max-seconds`` bounds each pair's CPU time (the deals done are reported).
``benchmarks/strength_table.py`` plays the same pairs (and ISMCTS) with the
same CPU time a decision for every search bot instead.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import backalley as ba
from backalley.bots import HeuristicBot, MonteCarloBot, PimcBot
from backalley.bots._base import Bot, check_throw_ins
from backalley.bots.match import MatchResult, duplicate_match, one_deal
from backalley.solver import solve


def factories(args: argparse.Namespace) -> dict[str, Callable[[object], Bot]]:
    return {
        "pimc": lambda seed: PimcBot(
            seed, samples=args.samples, bid_reach=args.bid_reach, call_weight=args.call_weight
        ),
        "montecarlo": lambda seed: MonteCarloBot(seed, samples=args.mc_samples, budget=None),
        "heuristic": lambda seed: HeuristicBot(seed),
    }


def duplicate(args: argparse.Namespace, rules: ba.RuleSet, a: str, b: str) -> None:
    bots = factories(args)
    sizes = [args.size] if args.size else list(rules.schedule.hand_sizes)
    diffs: list[float] = []
    start = time.process_time()
    for k in range(args.start, args.start + args.deals):
        size = sizes[k % len(sizes)]
        r = duplicate_match(
            rules, bots[a], bots[b], deals=1, seed=args.seed * 100_000 + k, hand_sizes=[size]
        )
        diffs.extend(r.differences)
        if args.verbose:
            print(f"  deal {k} ({size} cards): {r.differences[0]:+.0f}", flush=True)
        if args.max_seconds and time.process_time() - start > args.max_seconds:
            break
    result = MatchResult(rules.name or "custom", len(diffs), tuple(diffs))
    lo, hi = result.interval
    what = f"{args.size}-card" if args.size else "schedule"
    print(
        f"{rules.name}: {a} vs {b}, {result.deals} duplicate {what} deals: "
        f"{result.mean:+.2f} points per deal (95% CI {lo:+.2f} .. {hi:+.2f}), "
        f"{time.process_time() - start:.0f} s CPU",
        flush=True,
    )


def par(args: argparse.Namespace, rules: ba.RuleSet) -> None:
    sizes = [int(s) for s in args.par_sizes.split(",")]
    for name, factory in factories(args).items():
        start = time.process_time()
        distances: list[int] = []
        signed: list[int] = []
        for k in range(args.par):
            size = sizes[k % len(sizes)]
            state = ba.new_game(one_deal(rules, size), seed=args.seed * 1000 + k)
            bots = [factory((args.seed, k, s)) for s in range(rules.players)]
            while state.phase is not ba.Phase.PLAYING:  # a deal thrown in is dealt again
                seat = state.to_act
                assert seat is not None
                state = state.apply(bots[seat].choose(state.view(seat)))
                check_throw_ins(state)
            contracts = state.contracts
            assert contracts is not None
            actor = state.to_act
            assert actor is not None
            mine = rules.seat_teams[actor]
            dd = solve(state)
            for side, contract in enumerate(contracts):
                tricks = dd if side == mine else size - dd
                bid = 0 if contract is None else contract.tricks
                distances.append(abs(bid - tricks))
                signed.append(bid - tricks)
        if not distances:
            continue
        mean = sum(distances) / len(distances)
        within = sum(d <= 1 for d in distances) / len(distances)
        print(
            f"{rules.name}: {name} bidding, {len(distances)} contracts on {args.par_sizes}-card "
            f"deals: {mean:.2f} tricks from the double-dummy tricks on average "
            f"(bid - par {sum(signed) / len(signed):+.2f}), "
            f"{100 * within:.0f} % within one trick, {time.process_time() - start:.0f} s CPU",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", default="gamerules")
    parser.add_argument("--deals", type=int, default=20, help="duplicate deals per pair")
    parser.add_argument("--start", type=int, default=0, help="the first deal's number")
    parser.add_argument("--size", type=int, default=0, help="hand size (0: the schedule's)")
    parser.add_argument("--pairs", default="pimc:montecarlo,pimc:heuristic,montecarlo:heuristic")
    parser.add_argument("--samples", type=int, default=20, help="pimc's samples a decision")
    parser.add_argument("--bid-reach", type=int, default=1, help="pimc's bid_reach")
    parser.add_argument("--call-weight", type=float, default=1.0, help="pimc's call_weight")
    parser.add_argument("--mc-samples", type=int, default=40)
    parser.add_argument("--max-seconds", type=float, default=0.0, help="CPU seconds per pair")
    parser.add_argument("--par", type=int, default=0, help="deals bid against the par")
    parser.add_argument("--par-sizes", default="10,11,12,13")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    rules = ba.variants.get(args.rules)
    if args.deals:
        for pair in args.pairs.split(","):
            a, b = pair.split(":")
            duplicate(args, rules, a, b)
    if args.par:
        par(args, rules)


if __name__ == "__main__":
    main()
