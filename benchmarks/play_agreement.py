"""How often a bot's cards are the heuristic's: the agreement the cards-played
inference counts on.

    python3 benchmarks/play_agreement.py [--bot pimc] [--budget 0.1] [--deals 40]
                                         [--seed 7] [--rules gamerules] [--json FILE]

The ``pimc`` bot's inference from the cards played (``play_weight``) weighs a
layout by whether each card another seat played is the ``heuristic`` bot's
card, or one of its group of equivalent cards
(:func:`backalley.bots.layouts.card_groups`), with that seat's hand in the
layout.  That reads the other seats right as far as they play as the
heuristic would.  This script measures how far that is: ``--deals`` first
deals of games of ``--rules`` (deal ``k`` dealt from seed ``seed * 1000 +
k``), every seat played by ``--bot`` (``pimc`` and ``montecarlo`` with
``budget=--budget`` seconds of CPU a decision), and for each of its plays
with more than one group of legal cards, whether its card falls in the
heuristic's group for the same view.  Plays are counted apart where the
bot's solver scores them (at most ``solver_cards``, 9, cards left in each
hand) and where rollouts do.  ``--bot heuristic`` is the check: 100 %.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import backalley as ba
from backalley.bots import HeuristicBot, MonteCarloBot, PimcBot
from backalley.bots._base import Bot
from backalley.bots.layouts import card_groups
from backalley.moves import Play

SOLVER_CARDS = 9
"""Plays with at most this many cards left in each hand count as solved (pimc's default)."""


def make(name: str, seed: object, budget: float) -> Bot:
    """The bot ``name`` with ``budget`` seconds of CPU a decision where it searches."""
    if name == "pimc":
        return PimcBot(seed, budget=budget)
    if name == "montecarlo":
        return MonteCarloBot(seed, budget=budget)
    if name == "heuristic":
        return HeuristicBot(seed)
    raise SystemExit(f"play_agreement.py: no bot {name!r} (pimc, montecarlo, heuristic)")


def measure(rules: ba.RuleSet, bot: str, budget: float, deals: int, seed: int) -> dict[str, Any]:
    """The plays counted and agreeing, solved and rolled out apart."""
    heuristic = HeuristicBot()
    counts = {"solved": [0, 0, 0], "rolled out": [0, 0, 0]}  # plays, agreeing, groups
    for k in range(deals):
        state = ba.new_game(rules, seed=seed * 1000 + k)
        bots = [make(bot, (seed, k, s), budget) for s in range(rules.players)]
        while not state.is_over and state.deals_played == 0:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            move = bots[seat].choose(view)
            legal = 0
            for m in view.legal_moves():
                if isinstance(m, Play):
                    legal |= 1 << m.card.index
            groups = card_groups(view, legal) if isinstance(move, Play) else []
            if len(groups) > 1:
                model = heuristic.choose(view)
                assert isinstance(move, Play) and isinstance(model, Play)
                mine = next(g for g in groups if g >> move.card.index & 1)
                kind = "solved" if len(view.hand) <= SOLVER_CARDS else "rolled out"
                row = counts[kind]
                row[0] += 1
                row[1] += bool(mine >> model.card.index & 1)
                row[2] += len(groups)
            state = state.apply(move)
    return {
        kind: {
            "plays": n,
            "agree": round(a / n, 4) if n else None,
            "mean_groups": round(g / n, 2) if n else None,
        }
        for kind, (n, a, g) in counts.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="pimc", help="pimc, montecarlo or heuristic")
    parser.add_argument("--budget", type=float, default=0.1, help="CPU seconds a decision")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rules", default="gamerules", help="a variant's name")
    parser.add_argument("--json", type=Path, default=None, help="keep the figures here")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.budget <= 0:
        parser.error("--deals must be at least 1 and --budget above 0")
    try:
        rules = ba.variants.get(args.rules)
    except ba.UnknownVariantError as exc:
        parser.error(str(exc))
    t0 = time.process_time()
    figures = measure(rules, args.bot, args.budget, args.deals, args.seed)
    cpu = time.process_time() - t0
    for kind, row in figures.items():
        if row["plays"]:
            print(
                f"{kind:>10}: {row['plays']} plays, {100 * row['agree']:.1f} % in the "
                f"heuristic's group ({row['mean_groups']} groups a play)"
            )
    print(
        f"{args.bot} at {args.budget} s, {args.deals} deals of {args.rules} (seed {args.seed}); {cpu:.0f} s CPU"
    )
    if args.json is not None:
        args.json.write_text(json.dumps({"args": vars(args) | {"json": None}, **figures}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
