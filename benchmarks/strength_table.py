"""The strength table: duplicate deals between the bots at equal CPU per decision.

Every pair of ``--pairs`` (``A:B``) plays ``--deals`` duplicate deals of
``--size`` cards (:func:`backalley.bots.match.duplicate_match`, one deal at
a time, deal ``k`` dealt from seed ``seed * 100_000 + k``; ``--size 0``:
deal ``k`` has the ``k``-th hand size of the rule set's schedule, in turn): each deal twice
from the same cards, the bots' sides swapped.  The figure is bot A's mean
points per deal less bot B's (both tables counted), with a 95 % confidence
interval.

The search bots get the same CPU time a decision, ``--budget`` seconds of
the process's CPU time (:func:`time.process_time`):

- ``montecarlo`` and ``pimc`` run with ``budget=`` on their default CPU
  clock and a ``samples`` cap (``--samples``) that the budget always reaches
  first, so the budget alone ends their sampling;
- ``ismcts`` is OpenSpiel's information-set MCTS with random rollouts,
  through the library's OpenSpiel adapter and its ``resample_from_infostate``
  (``benchmarks/ismcts_vs.py``), its simulations bounded by the same CPU
  time (:class:`ismcts_vs.TimedISMCTS`: the search loop stops once the
  decision's CPU time - building the seat's OpenSpiel state included - is
  past the budget);
- ``pimc-calls`` is ``pimc`` weighing its layouts by the calls alone
  (``play_weight=0``: the bot before issue 48's inference from the cards
  played), at the same budget; ``--play-weight`` sets ``pimc``'s;
- ``pimc-10x`` is the in-house reference: the ``pimc`` bot with ten times
  the budget (``--budget`` times :data:`REFERENCE_CPU`), the same ``samples``
  cap; a bot that plays level with it uses its CPU ten times better;
- ``heuristic`` and ``random`` play at their natural speed.

Each bot finishes the sample (simulation) that is running when its budget
runs out, so a decision takes a little more than the budget; the script
measures and prints what each bot really took a decision (a decision being
a ``choose`` with more than one legal move), and how many samples
(simulations) fitted in.  A CPU-time budget cuts sampling at about the same
sample from run to run, not exactly, so a rerun gives close figures, not
the same.

Run from the project root, one pair at a time, e.g.::

    python3 benchmarks/strength_table.py --pairs pimc:montecarlo --deals 50
    python3 benchmarks/strength_table.py --pairs heuristic:random --deals 200
    python3 benchmarks/strength_table.py --deals 50 --rst   # every pair, table rows
    python3 benchmarks/strength_table.py --pairs heuristic+pimc:heuristic  # pimc's play only

A bot named ``X+Y`` calls as X and plays its cards as Y (:class:`Split`), to
tell a bot's bidding from its play.

``--max-seconds`` bounds a pair's CPU time (the deals done are reported);
``--start`` continues a run from a later deal.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import backalley as ba
from backalley.bots import HeuristicBot, MonteCarloBot, PimcBot, RandomBot
from backalley.bots._base import Bot
from backalley.bots.match import MatchResult, duplicate_match

PAIRS = (
    "pimc:montecarlo,pimc:heuristic,montecarlo:heuristic,"
    "ismcts:heuristic,ismcts:montecarlo,heuristic:random"
)


REFERENCE_CPU = 10
"""How many times the search bots' budget the ``pimc-10x`` reference gets."""


class Metered:
    """A bot with a meter: the CPU time of each of its decisions (a
    ``choose`` with more than one legal move), the bot's own choice unchanged."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.times: list[float] = []
        self.counts: tuple[int, int] | None = None

    def release(self) -> None:
        """Keep the counts, let the bot go once its deal is played: a search
        bot's solver tables and memos kept for every deal of a run would grow
        the heap, and the garbage collector's full passes over it would land
        in later decisions' CPU time (a 0.1 s decision measured at 0.5 s)."""
        if self.bot is not None:
            self.counts = self.samples()
            self.bot = None

    def choose(self, view: ba.PlayerView) -> ba.Move:
        if len(view.legal_moves()) < 2:
            return self.bot.choose(view)  # type: ignore[no-any-return]
        start = time.process_time()
        move = self.bot.choose(view)
        self.times.append(time.process_time() - start)
        return move  # type: ignore[no-any-return]

    def samples(self) -> tuple[int, int]:
        """(sampled decisions, samples or simulations in all) of a search bot."""
        if self.counts is not None:
            return self.counts
        bot = self.bot
        if getattr(bot, "stats", None) is not None:
            return bot.stats.decisions, bot.stats.samples
        if hasattr(bot, "simulations_run"):
            return bot.decisions, bot.simulations_run
        return 0, 0


class Split:
    """A bot that calls (bids, names trump) as one bot and plays its cards as
    another: ``heuristic+pimc`` bids like the heuristic and plays like pimc,
    to tell a bot's bidding from its play."""

    def __init__(self, calls: Any, plays: Any) -> None:
        self.calls = calls
        self.plays = plays

    def choose(self, view: ba.PlayerView) -> ba.Move:
        bot = self.plays if view.phase is ba.Phase.PLAYING else self.calls
        return bot.choose(view)  # type: ignore[no-any-return]

    @property
    def stats(self) -> Any:
        """The sampling counts of whichever half searches (``None``: neither)."""
        for bot in (self.plays, self.calls):
            if hasattr(bot, "stats"):
                return bot.stats
        return None


def bot_factory(known: dict[str, Callable[[object], Any]], name: str) -> Callable[[object], Any]:
    """The factory of ``name``: a bot of :func:`factories`, or ``X+Y`` (calls
    by X, plays by Y, :class:`Split`)."""
    if "+" in name:
        calls, plays = (known[part] for part in name.split("+"))
        return lambda seed: Split(calls(seed), plays(seed))
    return known[name]


def factories(args: argparse.Namespace) -> dict[str, Callable[[object], Any]]:
    """Bot factories by name, each bot as the table runs it."""
    budget = args.budget

    def ismcts(seed: object) -> Any:
        from ismcts_vs import IsmctsBot  # needs open_spiel and numpy: only when asked for

        return IsmctsBot(seed, simulations=args.simulations, uct_c=args.uct_c, budget=budget)

    weight = {} if args.play_weight is None else {"play_weight": args.play_weight}
    return {
        "pimc": lambda seed: PimcBot(seed, samples=args.samples, budget=budget, **weight),
        "pimc-calls": lambda seed: PimcBot(
            seed, samples=args.samples, budget=budget, play_weight=0.0
        ),
        "pimc-10x": lambda seed: PimcBot(
            seed, samples=args.samples, budget=REFERENCE_CPU * budget, **weight
        ),
        "montecarlo": lambda seed: MonteCarloBot(seed, samples=args.samples, budget=budget),
        "ismcts": ismcts,
        "heuristic": lambda seed: HeuristicBot(seed),
        "random": lambda seed: RandomBot(seed),
    }


def describe(name: str, bots: list[Metered]) -> str:
    """One bot's decisions in a pair: how many, CPU each, samples each."""
    times = [t for b in bots for t in b.times]
    if not times:
        return f"{name}: no decisions"
    decided = sum(b.samples()[0] for b in bots)
    samples = sum(b.samples()[1] for b in bots)
    what = "simulations" if name == "ismcts" else "samples"
    per = f", {samples / decided:.1f} {what} each" if decided else ""
    return (
        f"{name}: {len(times)} decisions, CPU mean {1000 * statistics.fmean(times):.1f} ms, "
        f"median {1000 * statistics.median(times):.1f} ms, max {1000 * max(times):.0f} ms{per}"
    )


def what(args: argparse.Namespace) -> str:
    """The deals played, in words."""
    return f"{args.size}-card" if args.size else "schedule (in turn)"


def run_pair(args: argparse.Namespace, rules: ba.RuleSet, a: str, b: str) -> None:
    """Play one pair's duplicate deals and print its line (and table row)."""
    made: dict[str, list[Metered]] = {a: [], b: []}
    known = factories(args)

    def metered(name: str) -> Callable[[object], Bot]:
        def make(seed: object) -> Bot:
            bot = Metered(bot_factory(known, name)(seed))
            made[name].append(bot)
            return bot

        return make

    bot_a, bot_b = metered(a), metered(b)
    diffs: list[float] = []
    start = time.process_time()
    wall = time.perf_counter()
    sizes = [args.size] if args.size else list(rules.schedule.hand_sizes)
    for k in range(args.start, args.start + args.deals):
        r = duplicate_match(
            rules,
            bot_a,
            bot_b,
            deals=1,
            seed=args.seed * 100_000 + k,
            hand_sizes=[sizes[k % len(sizes)]],
        )
        diffs.extend(r.differences)
        for bots in made.values():
            for bot in bots:
                bot.release()
        if args.verbose:
            print(f"  deal {k}: {r.differences[0]:+.0f}", flush=True)
        if args.max_seconds and time.process_time() - start > args.max_seconds:
            break
    cpu = time.process_time() - start
    result = MatchResult(rules.name or "custom", len(diffs), tuple(diffs))
    lo, hi = result.interval
    print(
        f"{rules.name}: {a} vs {b}, {result.deals} duplicate {what(args)} deals "
        f"(seed {args.seed}, from deal {args.start}): {result.mean:+.2f} points per deal "
        f"(95% CI {lo:+.2f} .. {hi:+.2f}); {cpu:.0f} s CPU "
        f"({cpu / max(1, result.deals):.1f} s a deal), {time.perf_counter() - wall:.0f} s wall",
        flush=True,
    )
    for name in dict.fromkeys((a, b)):
        print(f"    {describe(name, made[name])}", flush=True)
    if args.rst:
        print(
            f"   * - {a} vs {b}\n     - {result.deals}\n"
            f"     - {result.mean:+.1f} ({lo:+.1f} .. {hi:+.1f})\n     - {cpu:.0f} s",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", default="gamerules")
    parser.add_argument("--pairs", default=PAIRS, help="A:B pairs, comma-separated")
    parser.add_argument("--deals", type=int, default=50, help="duplicate deals per pair")
    parser.add_argument("--start", type=int, default=0, help="the first deal's number")
    parser.add_argument(
        "--size", type=int, default=5, help="cards a hand (0: the rule set's schedule, in turn)"
    )
    parser.add_argument(
        "--budget", type=float, default=0.1, help="CPU seconds a decision for the search bots"
    )
    parser.add_argument(
        "--samples", type=int, default=100_000, help="montecarlo's and pimc's samples cap"
    )
    parser.add_argument(
        "--simulations", type=int, default=1_000_000, help="ISMCTS's simulations cap"
    )
    parser.add_argument(
        "--uct-c", type=float, default=20.0, help="ISMCTS's UCT exploration (in points)"
    )
    parser.add_argument(
        "--play-weight",
        type=float,
        default=None,
        help="pimc's play_weight (default: the bot's; pimc-calls always 0)",
    )
    parser.add_argument("--max-seconds", type=float, default=0.0, help="CPU seconds per pair")
    parser.add_argument("--seed", type=int, default=4417)
    parser.add_argument("--rst", action="store_true", help="also print reST table rows")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    rules = ba.variants.get(args.rules)
    known = factories(args)
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
    for pair in pairs:
        if len(pair) != 2 or any(part not in known for n in pair for part in n.split("+")):
            parser.error(
                f"a pair is two of {', '.join(known)} (or X+Y: calls by X, plays by Y) "
                f"as A:B, not {':'.join(pair)!r}"
            )
    print(
        f"{sys.implementation.name} {sys.version.split()[0]}; {args.rules}, "
        f"{what(args)} deals; search bots {args.budget:g} s CPU a decision",
        flush=True,
    )
    for a, b in pairs:
        run_pair(args, rules, a, b)


if __name__ == "__main__":
    main()
