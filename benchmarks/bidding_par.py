"""The heuristic bot's bidding against double-dummy par.

    python3 benchmarks/bidding_par.py [--rules NAME] [--deals N] [--seed N] [--sizes 1-13]
                                      [--solve-limit S] [--bot-file PATH] [--json FILE]

For deal k = 0..N-1 a hand size is drawn in turn from each band (1-3, 4-6,
7-9, 10-13 cards, as far as ``--sizes`` and the rule set allow), the deal is
dealt from seed ``--seed + k``, heuristic bots make every call, and
:func:`backalley.solver.solve` gives at the first lead the tricks of the
leader's side with every hand known and best play: its *par*.  With
partnerships the other side's par is the rest of the tricks; without, only
the leader's seat is measured (the others' par would need a solve each).
Then the bots play the deal out.

Reported per band, for each side measured: the mean of its contract less its
par (a board counts as every trick, a pass as none), the share of contracts
three or more tricks short of par, the contracts made (of those above 0),
the boards bid and made, and the points a side scored a deal against what it
would score bidding its par (its par as a number, or board when par is
every trick and the rules offer a board).

``--bound`` adds, per band, what a bidder that maximises its expected points
would bid against par if it knew the trick table's shares
(:func:`backalley.bots.bidding_model.estimate`) of its side's two hands, or of all
four hands (the mean of its side's shares and the tricks the other side's
shares leave), with the spread those estimates really have over the band:
how far under par the scoring's risk puts the best bid that the table's
estimate allows (partnerships of two sides only); and, per band, the bid -
par of a points-maximising bidder whose estimate is unbiased with a spread
of 0.5 to 2 tricks (the scoring alone: how far under any estimate of that
spread the best bid lies).

``--bot-file PATH`` measures the ``HeuristicBot`` of another copy of
``heuristic.py`` (say, the one before a change) on the same deals.  Each
solve is bounded in CPU seconds (``--solve-limit``; a deal whose solve takes
longer is skipped and counted).  Public API, the bots' adapter and the solver
only.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import signal
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # measure this working tree's bot

import backalley as ba  # noqa: E402
from backalley.bots import HeuristicBot  # noqa: E402
from backalley.bots._base import Bot  # noqa: E402
from backalley.bots.bidding_model import estimate, side_distribution  # noqa: E402
from backalley.bots.match import one_deal  # noqa: E402
from backalley.engine import lowlevel  # noqa: E402
from backalley.solver import solve  # noqa: E402
from backalley.values import BiddingOutcome, Contract  # noqa: E402

BANDS = ((1, 3), (4, 6), (7, 9), (10, 13))


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Timeout


def _sizes(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def _band(h: int) -> str:
    for lo, hi in BANDS:
        if lo <= h <= hi:
            return f"{lo}-{hi}"
    return f"{h}"


def _load_bot(path: Path | None) -> Callable[[object], Bot]:
    if path is None:
        return HeuristicBot
    spec = importlib.util.spec_from_file_location("baseline_heuristic", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cls: Callable[[object], Bot] = module.HeuristicBot
    return cls


def _par_points(state: ba.GameState, pars: list[int], board: bool) -> tuple[int, ...]:
    """The points of each side of ``state``'s deal bidding its par (every side at once)."""
    h = state.hand_size
    contracts = tuple(
        Contract(h, board=True) if board and p == h else Contract(min(p, h)) for p in pars
    )
    return lowlevel.deal_points(state, pars, BiddingOutcome(contracts))


def measure(
    rules: ba.RuleSet, deals: int, seed: int, sizes: list[int], limit: float,
    make: Callable[[object], Bot],
) -> dict[str, object]:  # fmt: skip
    signal.signal(signal.SIGVTALRM, _alarm)
    bands = [[h for h in sizes if lo <= h <= hi] for lo, hi in BANDS]
    bands = [b for b in bands if b]
    teams = rules.teams
    partnered = any(len(t) > 1 for t in teams)
    rows: list[dict[str, object]] = []
    skipped = 0
    solve_cpu = 0.0
    for k in range(deals):
        band = bands[k % len(bands)]
        h = band[(k // len(bands)) % len(band)]
        one = one_deal(rules, h)
        state = ba.new_game(one, seed=seed + k)
        shares = [estimate(state.view(s)).share for s in range(one.players)]
        bots = [make((seed + k, s)) for s in range(one.players)]
        for _ in range(50 * one.players):  # thrown-in deals are dealt again
            if state.phase is ba.Phase.PLAYING:
                break
            seat = state.to_act
            assert seat is not None
            state = state.apply(bots[seat].choose(state.view(seat)))
        if state.phase is not ba.Phase.PLAYING:
            skipped += 1
            continue
        board_offered = ba.BoardBid() in one.plan.opening_node(h, 0).legal
        contracts = state.contracts
        assert contracts is not None
        leader = state.to_act
        assert leader is not None
        signal.setitimer(signal.ITIMER_VIRTUAL, limit)
        t0 = time.process_time()
        try:
            par = solve(state)
        except _Timeout:
            skipped += 1
            continue
        finally:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
            solve_cpu += time.process_time() - t0
        lead_side = one.seat_teams[leader]
        if partnered and len(teams) == 2:
            pars = {lead_side: par, 1 - lead_side: h - par}
        else:
            pars = {lead_side: par}
        played = state
        deals_before = played.deals_played
        while not played.is_over and played.deals_played == deals_before:
            seat = played.to_act
            assert seat is not None
            played = played.apply(bots[seat].choose(played.view(seat)))
        result = played.deal_results[-1]
        par_all = [pars.get(s, 0) for s in range(len(teams))]
        par_pts = _par_points(state, par_all, board_offered) if len(pars) == len(teams) else None
        for side, p in pars.items():
            c = contracts[side]
            bid = 0 if c is None else (h if c.board else c.tricks)
            rows.append(
                {
                    "h": h,
                    "side": side,
                    "bid": bid,
                    "board": bool(c is not None and c.board),
                    "par": p,
                    "tricks": result.tricks[side],
                    "made": result.tricks[side] >= bid,
                    "points": result.points[side],
                    "par_points": None if par_pts is None else par_pts[side],
                    "shares": sum(shares[x] for x in teams[side]),
                    "other_shares": sum(
                        shares[x] for t, team in enumerate(teams) if t != side for x in team
                    ),
                }
            )
    return {"rows": rows, "skipped": skipped, "solve_cpu": solve_cpu}


def report(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    out = []
    for name in [f"{lo}-{hi}" for lo, hi in BANDS] + ["all"]:
        sel = [r for r in rows if name == "all" or _band(int(r["h"])) == name]  # type: ignore[call-overload]
        if not sel:
            continue
        diffs = [int(r["bid"]) - int(r["par"]) for r in sel]  # type: ignore[call-overload]
        bid = [r for r in sel if int(r["bid"]) > 0]  # type: ignore[call-overload]
        boards = [r for r in sel if r["board"]]
        par_pts = [r["par_points"] for r in sel if r["par_points"] is not None]
        out.append(
            {
                "band": name,
                "sides": len(sel),
                "bid_minus_par": statistics.fmean(diffs),
                "short_3": sum(d <= -3 for d in diffs) / len(diffs),
                "made": sum(bool(r["made"]) for r in bid) / len(bid) if bid else float("nan"),
                "boards": len(boards),
                "boards_made": sum(bool(r["made"]) for r in boards),
                "par_boards": sum(int(r["par"]) == int(r["h"]) for r in sel),  # type: ignore[call-overload]
                "points": statistics.fmean(float(r["points"]) for r in sel),  # type: ignore[arg-type]
                "par_points": statistics.fmean(par_pts) if par_pts else float("nan"),  # type: ignore[arg-type]
            }
        )
    return out


def _band_rows(rows: list[dict[str, object]]) -> Iterator[tuple[str, list[dict[str, object]]]]:
    """Each hand-size band that has rows: its name and its rows."""
    for name in [f"{lo}-{hi}" for lo, hi in BANDS]:
        sel = [r for r in rows if _band(int(r["h"])) == name]  # type: ignore[call-overload]
        if sel:
            yield name, sel


class BestBid:
    """The bid that maximises a side's expected points over a distribution of
    its tricks, under the rule set's scoring (its points per bid and tricks
    remembered per hand size)."""

    def __init__(self, rules: ba.RuleSet) -> None:
        self.rules = rules
        self.points: dict[int, list[list[int]]] = {}

    def __call__(self, dist: list[float], h: int) -> int:
        """The best bid 0..h (the lowest of equals) for ``dist`` over 0..h tricks."""
        table = self.points.get(h)
        if table is None:
            opening = ba.new_game(one_deal(self.rules, h), seed=0)  # the deal's context
            sides = len(self.rules.teams)
            table = self.points[h] = [
                [
                    lowlevel.deal_points(opening, (t,) * sides, BiddingOutcome((c,) * sides))[0]
                    for t in range(h + 1)
                    for c in [Contract(b) if b else None]
                ]
                for b in range(h + 1)
            ]
        return max(range(h + 1), key=lambda b: sum(p * table[b][t] for t, p in enumerate(dist)))


def bound(rules: ba.RuleSet, rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """Per band, the mean bid less par of a points-maximising bidder that knows
    the table's shares of its side's hands (``two``) or of all four (``four``),
    with each estimate's root mean square error over the band as its spread."""
    best_bid = BestBid(rules)
    out = []
    for name, sel in _band_rows(rows):
        line: dict[str, object] = {"band": name}
        for label in ("two", "four"):

            def mean_of(r: dict[str, object], label: str = label) -> float:
                own, other, h = float(r["shares"]), float(r["other_shares"]), int(r["h"])  # type: ignore[arg-type, call-overload]
                return own if label == "two" else (own + h - other) / 2

            sigma = statistics.fmean((mean_of(r) - int(r["par"])) ** 2 for r in sel) ** 0.5  # type: ignore[call-overload]
            diffs = []
            for r in sel:
                h = int(r["h"])  # type: ignore[call-overload]
                best = best_bid(side_distribution(mean_of(r), sigma, h), h)
                diffs.append(best - int(r["par"]))  # type: ignore[call-overload]
            line[f"{label}_sigma"] = sigma
            line[f"{label}_bid_minus_par"] = statistics.fmean(diffs)
        out.append(line)
    return out


SPREADS = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0)
"""The spreads of :func:`scoring_bound`."""


def scoring_bound(rules: ba.RuleSet, rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """Per band and for each spread ``sigma`` of :data:`SPREADS`: the mean bid
    less par of a points-maximising bidder whose estimate of its side's tricks
    is unbiased with that spread (it misses par by a normal error of spread
    ``sigma``, and knows it), the points from the rule set's scoring.  The
    scoring alone decides it: how far under its own estimate the best bid
    lies, whatever the estimate."""
    grid = [i / 4 for i in range(-12, 13)]  # the error, in spreads
    weights = [2.718281828 ** (-(z * z) / 2) for z in grid]
    total = sum(weights)
    weights = [w / total for w in weights]
    best_bid = BestBid(rules)
    out = []
    for name, sel in _band_rows(rows):
        line: dict[str, object] = {"band": name}
        for sigma in SPREADS:
            diffs = []
            for r in sel:
                h, par_ = int(r["h"]), int(r["par"])  # type: ignore[call-overload]
                expected = 0.0
                for z, w in zip(grid, weights):
                    expected += w * best_bid(side_distribution(par_ + z * sigma, sigma, h), h)
                diffs.append(expected - par_)
            line[f"{sigma:g}"] = statistics.fmean(diffs)
        out.append(line)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="gamerules")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--sizes", default="1-13")
    parser.add_argument("--solve-limit", type=float, default=20.0)
    parser.add_argument("--bot-file", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--bound", action="store_true", help="the best bid the table allows")
    args = parser.parse_args(argv)
    rules = ba.variants.get(args.rules)
    largest = max(rules.schedule.hand_sizes)
    sizes = [h for h in _sizes(args.sizes) if h <= largest]
    t0 = time.process_time()
    got = measure(rules, args.deals, args.seed, sizes, args.solve_limit, _load_bot(args.bot_file))
    rows = got["rows"]
    assert isinstance(rows, list)
    table = report(rows)
    who = args.bot_file or "backalley/bots/heuristic.py"
    print(
        f"bidding against par: {args.rules}, {args.deals} deals from seed {args.seed}, "
        f"sizes {args.sizes}, bot {who}; skipped {got['skipped']}; "
        f"{time.process_time() - t0:.0f} s CPU ({got['solve_cpu']:.0f} s solving), "
        f"Python {sys.version.split()[0]}"
    )
    print(
        f"{'band':>6} {'sides':>5} {'bid-par':>8} {'>=3 short':>9} {'made':>6} "
        f"{'boards':>10} {'par boards':>10} {'points':>7} {'par pts':>7}"
    )
    for r in table:
        print(
            f"{r['band']:>6} {r['sides']:>5} {r['bid_minus_par']:>+8.2f} "
            f"{100 * r['short_3']:>8.0f}% {100 * r['made']:>5.0f}% "  # type: ignore[operator]
            f"{r['boards']:>4} ({r['boards_made']} made) {r['par_boards']:>10} "
            f"{r['points']:>7.1f} {r['par_points']:>7.1f}"
        )
    limits: list[dict[str, object]] = []
    if args.bound and len(rules.teams) == 2:
        limits = bound(rules, rows)
        print("points-maximising bid - par, knowing the table's shares (spread = their rms error):")
        for line in limits:
            print(
                f"{line['band']:>6}  two hands {line['two_bid_minus_par']:>+6.2f} "
                f"(spread {line['two_sigma']:.2f})  all four {line['four_bid_minus_par']:>+6.2f} "
                f"(spread {line['four_sigma']:.2f})"
            )
    scoring: list[dict[str, object]] = []
    if args.bound:
        scoring = scoring_bound(rules, rows)
        print(
            "points-maximising bid - par of an unbiased estimate with spread "
            + ", ".join(f"{s:g}" for s in SPREADS)
            + " tricks (the scoring alone):"
        )
        for line in scoring:
            print(f"{line['band']:>6}  " + "  ".join(f"{line[f'{s:g}']:+.2f}" for s in SPREADS))
    if args.json:
        args.json.write_text(
            json.dumps(
                {"table": table, "rows": rows, "bound": limits, "scoring_bound": scoring},
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
