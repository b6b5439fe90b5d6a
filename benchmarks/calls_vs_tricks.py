"""Do the heuristic bot's calls match the tricks it takes?

    python3 benchmarks/calls_vs_tricks.py [--rules NAME] [--deals N] [--seed N] [--json FILE]

Whole games between four heuristic bots, from seeds ``--seed``,
``--seed + 1``, ..., until ``--deals`` deals have been scored (10,000 by
default).  ``--rules`` is a registered variant's name, or ``oh-hell`` (the
default): plain Oh Hell, built here from the ``exact-bid`` preset - a
52-card deck without jokers, the player left of the dealer leads, trump may
be led at any time, hands of 12 cards down to 1 and back up, each player
alone, exact-bid scoring (1 point a trick, +10 for taking exactly one's bid).

Reported per hand size and overall, per side's contract (a side with no
contract, or a thrown-in deal, is left out): the mean contract (for a board,
every trick), the mean tricks the side takes, their difference, the share
of contracts taken exactly and the share made (at least the contract), and
the mean points a side scores a deal.  The same seeds give the same deals,
so two versions of the bot are compared on the same games.  Public API only
(the bots choose from views).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # measure this working tree's bot

import backalley as ba  # noqa: E402
from backalley.bots import HeuristicBot  # noqa: E402
from backalley.rules import Deck, FirstLead, LeadPolicy, Schedule, TrumpLead  # noqa: E402

OH_HELL: ba.RuleSet = ba.variants.EXACT_BID.replace(
    deck=Deck(jokers=0),
    lead=LeadPolicy(first_lead=FirstLead.LEFT_OF_DEALER, trump_lead=TrumpLead.ANY_TIME),
    schedule=Schedule.down_and_up(12, 1),
    name="oh-hell",
)
"""Plain Oh Hell: the ``exact-bid`` preset without jokers, the player left of
the dealer leading, trump led at any time, hands 12 down to 1 and back up."""


def rules_named(name: str) -> ba.RuleSet:
    """``oh-hell`` (built here) or a registered variant."""
    return OH_HELL if name == "oh-hell" else ba.variants.get(name)


def play(rules: ba.RuleSet, deals: int, seed: int) -> list[ba.DealResult]:
    """The scored deals of whole games between heuristic bots, from seeds
    ``seed``, ``seed + 1``, ... until ``deals`` deals are scored."""
    results: list[ba.DealResult] = []
    game = seed
    while len(results) < deals:
        state = ba.new_game(rules, seed=game)
        bots = [HeuristicBot((game, s)) for s in range(rules.players)]
        while not state.is_over and len(results) + len(state.deal_results) < deals:
            seat = state.to_act
            assert seat is not None
            state = state.apply(bots[seat].choose(state.view(seat)))
        results.extend(state.deal_results)
        game += 1
    return results[:deals]


def figures(results: list[ba.DealResult]) -> dict[str, dict[str, float]]:
    """Per hand size (and ``all``): contracts counted, mean contract, mean
    tricks, their difference, exact and made shares, mean points a side."""
    rows: dict[str, list[tuple[int, int, int]]] = {}
    for r in results:
        for contract, tricks, points in zip(r.contracts, r.tricks, r.points):
            if contract is None:
                continue
            called = r.hand_size if contract.board else contract.tricks
            for key in (str(r.hand_size), "all"):
                rows.setdefault(key, []).append((called, tricks, points))
    out: dict[str, dict[str, float]] = {}
    for key in sorted(rows, key=lambda k: (k == "all", int(k) if k != "all" else 0)):
        got = rows[key]
        n = len(got)
        call = sum(c for c, _, _ in got) / n
        took = sum(t for _, t, _ in got) / n
        out[key] = {
            "contracts": n,
            "call": round(call, 3),
            "tricks": round(took, 3),
            "diff": round(call - took, 3),
            "exact": round(sum(c == t for c, t, _ in got) / n, 4),
            "made": round(sum(t >= c for c, t, _ in got) / n, 4),
            "points": round(sum(p for _, _, p in got) / n, 3),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="oh-hell", help="oh-hell (default) or a variant name")
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args(argv)
    rules = rules_named(args.rules)
    t0 = time.process_time()
    results = play(rules, args.deals, args.seed)
    table = figures(results)
    cpu = time.process_time() - t0
    print(f"{args.rules}: {len(results)} deals, seed {args.seed}, {cpu:.0f} s CPU")
    print(
        f"{'hand':>4} {'n':>6} {'call':>6} {'tricks':>6} {'diff':>6} {'exact':>6} {'made':>6} {'pts':>6}"
    )
    for key, row in table.items():
        print(
            f"{key:>4} {row['contracts']:6.0f} {row['call']:6.2f} {row['tricks']:6.2f} "
            f"{row['diff']:+6.2f} {row['exact']:6.1%} {row['made']:6.1%} {row['points']:6.2f}"
        )
    if args.json:
        args.json.write_text(json.dumps({"rules": args.rules, "seed": args.seed, "figures": table}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
