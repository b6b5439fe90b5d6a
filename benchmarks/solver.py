"""Speed of the double-dummy solver: 13-card deals at the first lead.

    python benchmarks/solver.py [--set NAME] [--deals N] [--seeds K,...] [--variant NAME]
                                [--size N] [--limit S] [--clock wall|cpu] [--dds] [--json FILE]

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
``--dds`` the median and worst ratio of the positions.  ``--limit S`` gives
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

import backalley as ba  # noqa: E402
from backalley.solver import SearchLimitError, Solver  # noqa: E402
from tests.bridge import bridge_rules, pbn  # noqa: E402

CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
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
    args = parser.parse_args(argv)
    clock: Callable[[], float] = CLOCKS[args.clock]
    seeds = None
    if args.seeds is not None:
        seeds = [int(k) for k in args.seeds.split(",") if k.strip()]
    if args.dds and not args.set.startswith("bridge"):
        parser.error("--dds needs a bridge-like set (bridge-nt, bridge-trump)")
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
