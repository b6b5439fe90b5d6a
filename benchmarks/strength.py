"""Strength of the bots, measured (the table in docs/players.rst).

Rows:

- ``heuristic`` vs ``random``: whole games (win rate of the heuristic side);
- ``heuristic`` vs ``random`` and ``montecarlo`` vs ``heuristic``: duplicate
  deals (mean points per deal, A less B, with a 95 % confidence interval).

Run from the project root, e.g.::

    python3 benchmarks/strength.py --rules gamerules --games 100 --random-deals 200 \\
        --deals 200 --mc-samples 40 --mc-budget 0

Each rule set is one run (they can go side by side in the background); the
output is one line of the table per measurement, in reStructuredText.  The
bots' decision times are measured by ``benchmarks/decision_times.py``; the
strength table of ``pimc``, ``montecarlo``, ISMCTS, heuristic and random at
equal CPU per decision by ``benchmarks/strength_table.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import backalley as ba
from backalley.bots import MonteCarloBot, make_bot
from backalley.bots._base import Bot
from backalley.bots.match import duplicate_match, play_games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="gamerules")
    parser.add_argument("--games", type=int, default=100, help="whole games, heuristic vs random")
    parser.add_argument("--random-deals", type=int, default=200)
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals, MC vs heuristic")
    parser.add_argument("--mc-samples", type=int, default=40)
    parser.add_argument(
        "--mc-budget",
        type=float,
        default=0.0,
        help="seconds a decision (0: no limit, reproducible)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rules = ba.variants.get(args.rules)

    def heuristic(seed: object) -> Bot:
        return make_bot("heuristic", seed)

    def rnd(seed: object) -> Bot:
        return make_bot("random", seed)

    def mc(seed: object) -> Bot:
        return MonteCarloBot(seed, samples=args.mc_samples, budget=args.mc_budget or None)

    name = args.rules
    if args.games:
        t0 = time.perf_counter()
        g = play_games(rules, heuristic, rnd, games=args.games, seed=args.seed)
        print(
            f"   * - {name}\n     - heuristic vs random, whole games\n     - {g.games}\n"
            f"     - {100 * g.win_rate:.1f} % won ({g.wins}-{g.losses}-{g.draws}), "
            f"mean margin {g.mean_difference:+.0f}\n"
            f"     - {time.perf_counter() - t0:.0f} s",
            flush=True,
        )
    if args.random_deals:
        t0 = time.perf_counter()
        r = duplicate_match(rules, heuristic, rnd, deals=args.random_deals, seed=args.seed)
        lo, hi = r.interval
        print(
            f"   * - {name}\n     - heuristic vs random, duplicate deals\n     - {r.deals}\n"
            f"     - {r.mean:+.1f} ({lo:+.1f} .. {hi:+.1f})\n"
            f"     - {time.perf_counter() - t0:.0f} s",
            flush=True,
        )
    if args.deals:
        t0 = time.perf_counter()
        m = duplicate_match(rules, mc, heuristic, deals=args.deals, seed=args.seed)
        lo, hi = m.interval
        print(
            f"   * - {name}\n     - montecarlo ({args.mc_samples} samples) vs heuristic, "
            f"duplicate deals\n     - {m.deals}\n"
            f"     - {m.mean:+.1f} ({lo:+.1f} .. {hi:+.1f})\n"
            f"     - {time.perf_counter() - t0:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
