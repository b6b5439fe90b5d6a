"""The learned trick model: fit it from self-play, draw its learning curve,
and weigh it against the trick table over duplicate deals.

    python3 benchmarks/selfplay_tricks.py --samples FILE [--holdout K] [--curve N,N,...]
                                         [--seed N] [--deals N] [--final-deals N]
                                         [--match-seed N] [--spread X] [--out FILE] [--json FILE]

The samples are deals of the ``gamerules`` table (four players in two
partnerships), every hand size 1..13 alike, bid and played out by heuristic
bots, as ``benchmarks/fit_bidding.py`` keeps them::

    python3 benchmarks/fit_bidding.py --cells partners-4 --outcomes play --cap 4300 \\
        --budget 3000 --seed 4848 --samples FILE --out /tmp/unused.py

Every ``--holdout``-th deal (11 by default) is held out; the others are
shuffled (``--seed``) and the first N of them fitted (``fit_bidding.fit``:
per hand size, the pair weights - a side's tricks as the sum of its seats'
shares - and the solo weights - a side's tricks from one hand) for each N
of ``--curve`` and for all of them.  For each fit, and for the trick table
the heuristic bids from today (:mod:`backalley.bots._tricks_table`), the
mean absolute error over the held-out deals of

- *pair*: each side's tricks as the sum of its seats' shares (the lead as it
  fell), each share at least 0, as the heuristic reads them;
- *solo*: each side's tricks from each of its seats' hands alone (0..hand
  size),

and the duplicate points (:func:`backalley.bots.match.duplicate_match`,
``--deals`` deals of the ``gamerules`` schedule from ``--match-seed``; the
fit on all the deals over ``--final-deals``) of a heuristic bot calling from
the fit (``HeuristicBot(tricks="selfplay")``) against one calling from the
table, both playing every card the heuristic's way: the mean points a deal,
the fit's side less the table's, over both tables, with its 95 % interval.
``--deals 0`` plays the final fit only.

``--spread`` (1.3 for the shipped model) scales the spreads the fit writes
(the pair and solo sigmas, which the bidding reads as the spread of the
side's tricks) from the residuals' root mean square.  Fitted to the bots'
own play the residuals are 5 to 35 % smaller than the trick table's (with
which the bidding's settings were tuned), and the bidder took them for more
certainty than a call has: with the fitted spreads the learned weights were
level with the table, -0.15 points a deal (-0.46 .. +0.15 over 6,000
duplicate deals, match seed 4850); scaled by 1.3 (chosen on 2,000 deals of
seeds 5000 and 5001: +0.42 and +0.79), +0.65 (+0.34 .. +0.97) over 6,000
fresh deals (match seed 4851).

``--out`` writes the fit on all the training deals as the learned model's
data file (``backalley/bots/data/tricks_selfplay.json``), its header saying
how it was made and what it measured; ``--json`` keeps the figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from fit_bidding import _trump, fit, write_json  # noqa: E402  (benchmarks/fit_bidding.py)

import backalley as ba  # noqa: E402
from backalley.bots import HeuristicBot, trick_model  # noqa: E402
from backalley.bots.bidding_model import is_auction, table_row  # noqa: E402
from backalley.bots.hand_reading import features_of  # noqa: E402
from backalley.bots.match import duplicate_match  # noqa: E402
from backalley.engine import lowlevel  # noqa: E402

Sample = dict[str, Any]
RULES = ba.variants.GAMERULES


def _dot(w: Sequence[float], f: Sequence[float]) -> float:
    return sum(a * b for a, b in zip(w, f))


def errors(rows: Sequence[Any] | None, held: Sequence[Sample]) -> tuple[float, float]:
    """The mean absolute errors (pair, solo) of ``rows`` over the held-out
    deals (``None``: the trick table's rows)."""
    by_size = {r[2]: r for r in rows} if rows is not None else {}
    pair_err = solo_err = 0.0
    pair_n = solo_n = 0
    for s in held:
        h = int(s["h"])
        row = by_size.get(h) or table_row(4, True, h)
        pair, solo = row[4], row[6]
        leader = int(s["leader"])
        tricks = int(s["tricks"])
        feats = [
            list(features_of(hand, unseen, lowlevel.card_order(RULES, _trump(t))))
            for hand, unseen, t in s["seats"]
        ]
        for side, value in ((0, tricks), (1, h - tricks)):
            seats = [(leader + side + 2 * k) % 4 for k in range(2)]
            total = 0.0
            for seat in seats:
                f = feats[seat]
                f[1] = 1.0 if side == 0 else 0.0
                total += max(0.0, _dot(pair, f))
                solo_err += abs(value - min(float(h), max(0.0, _dot(solo, f))))
                solo_n += 1
            pair_err += abs(value - total)
            pair_n += 1
    return pair_err / pair_n, solo_err / solo_n


def match(
    rows: Sequence[Any] | None, deals: int, seed: int, rules: ba.RuleSet = RULES
) -> dict[str, float]:
    """Duplicate deals of ``rules``: a heuristic calling from ``rows`` (``None``:
    the shipped model's) against one calling from the trick table, both
    playing the heuristic's cards."""
    if rows is not None:
        # the learned rows the bidding model reads while a bot bids from
        # "selfplay": this fit's, written to a file of its own
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(trick_model.model_document(list(rows), {}), f)
        trick_model.SELFPLAY_PATH = Path(f.name)
    t0 = time.process_time()
    result = duplicate_match(
        rules,
        lambda seed: HeuristicBot(seed, tricks="selfplay"),
        lambda seed: HeuristicBot(seed, tricks="table"),
        deals=deals,
        seed=seed,
    )
    lo, hi = result.interval
    return {
        "deals": deals,
        "seed": seed,
        "mean": round(result.mean, 3),
        "low": round(lo, 3),
        "high": round(hi, 3),
        "cpu": round(time.process_time() - t0, 1),
    }


def compare(names: Sequence[str], deals: int, seed: int) -> int:
    """The shipped model against the trick table on each named variant: its
    kind of table and bidding, whether the learned rows are read there, and
    the duplicate points (a row of JSON each)."""
    for name in names:
        rules = ba.variants.get(name)
        game = ba.new_game(rules, seed=seed)
        view = game.view(game.to_act)
        partnered = any(len(team) > 1 for team in rules.teams)
        with trick_model.using("selfplay"):
            read = bool(
                trick_model.learned_rows(
                    rules.players,
                    partnered,
                    rules.plan.overtricks_cost(view.hand_size),
                    is_auction(view),
                )
            )
        point: dict[str, Any] = {"variant": name, "learned_rows_read": read}
        if read:
            point["match"] = match(None, deals, seed, rules)
        print(json.dumps(point), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=Path, help="JSON lines of fit_bidding.py")
    parser.add_argument(
        "--compare",
        default="",
        metavar="NAMES",
        help="no fit: the shipped model against the table on these variants (comma-separated)",
    )
    parser.add_argument("--holdout", type=int, default=11, help="hold out every K-th deal")
    parser.add_argument("--curve", default="5000,10000,25000", help="training sizes besides all")
    parser.add_argument("--seed", type=int, default=4849, help="the shuffle of the training deals")
    parser.add_argument("--deals", type=int, default=2000, help="duplicate deals a curve's fit")
    parser.add_argument(
        "--final-deals", type=int, default=2000, help="duplicate deals, all deals' fit"
    )
    parser.add_argument("--match-seed", type=int, default=4850)
    parser.add_argument("--note", default="", help="how the samples were made, for the header")
    parser.add_argument("--spread", type=float, default=1.0, help="scale the fitted sigmas")
    parser.add_argument("--out", type=Path, default=None, help="the learned model's data file")
    parser.add_argument("--json", type=Path, default=None, help="keep the figures here")
    args = parser.parse_args(argv)
    if args.compare:
        return compare(args.compare.split(","), args.deals, args.match_seed)
    if args.samples is None:
        parser.error("give --samples FILE to fit, or --compare NAMES")
    t0 = time.process_time()
    samples = [
        s
        for line in args.samples.read_text().splitlines()
        if line and (s := json.loads(line))["cell"] == "partners-4"
    ]
    held = [s for i, s in enumerate(samples) if i % args.holdout == args.holdout - 1]
    train = [s for i, s in enumerate(samples) if i % args.holdout != args.holdout - 1]
    random.Random(args.seed).shuffle(train)
    sizes = [int(n) for n in args.curve.split(",") if n and int(n) < len(train)] + [len(train)]
    print(f"{len(samples)} deals: {len(train)} to fit, {len(held)} held out", flush=True)
    table_pair, table_solo = errors(None, held)
    print(f"table          : pair MAE {table_pair:.3f}, solo MAE {table_solo:.3f}", flush=True)
    curve: list[dict[str, Any]] = []
    rows: list[Any] = []
    for n in sizes:
        rows = [
            (*r[:5], round(r[5] * args.spread, 4), r[6], round(r[7] * args.spread, 4), r[8])
            for r in fit(train[:n])
        ]
        pair, solo = errors(rows, held)
        point: dict[str, Any] = {"deals": n, "pair_mae": round(pair, 4), "solo_mae": round(solo, 4)}
        deals = args.final_deals if n == len(train) else args.deals
        if deals:
            point["match"] = match(rows, deals, args.match_seed)
        curve.append(point)
        print(json.dumps(point), flush=True)
    cpu = time.process_time() - t0
    figures = {
        "samples": str(args.samples.name),
        "deals": len(samples),
        "trained": len(train),
        "held_out": len(held),
        "table": {"pair_mae": round(table_pair, 4), "solo_mae": round(table_solo, 4)},
        "curve": curve,
        "cpu": round(cpu, 1),
        "python": platform.python_version(),
    }
    words = list(sys.argv[1:] if argv is None else argv)
    if "--note" in words:
        at = words.index("--note")
        words[at : at + 2] = ["--note ..."]
    if args.out is not None:
        how = (
            f"Made with: python3 benchmarks/selfplay_tricks.py {' '.join(words)} "
            f"({len(train)} deals fitted, {len(held)} held out; {cpu:.0f} s CPU)."
        )
        if args.note:
            how += " " + args.note
        final = curve[-1]
        write_json(
            rows,
            args.out,
            how,
            seed=args.seed,
            deals=len(train),
            spread=args.spread,
            held_out={"deals": len(held), "table": figures["table"], "fit": final},
        )
        print(f"-> {args.out}")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    print(f"{cpu:.0f} s CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
