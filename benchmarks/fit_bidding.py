"""Fit the heuristic bot's trick table from double-dummy results, or from
the bots' own play.

    python3 benchmarks/fit_bidding.py [--budget CPU_SECONDS] [--seed N] [--solve-limit S]
                                      [--outcomes solver|play] [--cap N]
                                      [--samples FILE] [--refit FILE] [--out FILE]
                                      [--table tricks|exact] [--rounds N] [--format module|json]

Deals random hands of every size for each kind of table (four players in two
partnerships, and three, four or five players each alone), reads each seat's
hand features (:func:`backalley.bots.hand_reading.hand_features`, from the
seat's view before the bidding), picks a random seat to lead (it makes the
highest call, every other seat the quietest), and asks
:func:`backalley.solver.solve` how many tricks the leader's side takes at
the first lead.  With partnerships that gives both sides' tricks (the other
side takes the rest); without, the leader's only.  With ``--outcomes play``
the tricks are instead those the leader's side takes when heuristic bots
make every call (the leader is the one their bidding names) and play the
deal out: a table the bots bid from that is fitted to how they play, not to
best play by every seat.  ``--cap`` bounds the deals of a kind of table and
hand size (1200 by default; bot play is fast, so more fit in a budget).

``--table exact`` fits the other table the bot bids from
(``backalley/bots/_tricks_exact.py``): four players each alone under a
scoring where a trick beyond one's bid costs points (plain Oh Hell, built in
``benchmarks/calls_vs_tricks.py``, and the ``exact-bid`` preset), from the
tricks every seat takes when heuristic bots bid and play the deal out.  There
a seat's tricks are not the fewest the other three together can hold it to
(the solver's answer alone) but what it takes while each of them plays for
its own bid.  As the bots' tricks follow their bids, the play and the fit
are repeated ``--rounds`` times, each round's bots bidding from the table
the round before fitted (the first round's from the trick table's rows for
players alone), from seeds ``--seed``, ``--seed + 1``, ...

It then fits, for each kind of table and hand size, by least squares with
every weight but the constant and the lead kept non-negative (so more or
higher trumps, more masters, more ruffs never mean fewer tricks) and the
samples of the neighbouring hand sizes weighed in at 0.3:

- the *pair* weights: a side's tricks as the sum of its seats' weighted
  features (what each seat adds: its share);
- the *solo* weights: a side's tricks from one seat's features alone (the
  partners' hands unknown);

with the root mean square of the residuals of each (``sigma``), and the mean
share of a seat.  The table is written as a Python module
(``backalley/bots/_tricks_table.py``) with a header saying how it was made;
with ``--format json``, as a trick model's data file
(:mod:`backalley.bots.trick_model`; the learned model
``backalley/bots/data/tricks_selfplay.json`` is fitted so, from samples of
the bots' own play, by ``benchmarks/selfplay_tricks.py``).

The run is bounded in CPU time (``--budget``, split over the kinds of table
and the hand sizes; the large deals, whose solves are slow, get the larger
shares) and each solve in CPU seconds (``--solve-limit``: a deal whose
solve takes longer is skipped and counted).  ``--samples FILE`` keeps the
raw samples (JSON lines) and ``--refit FILE`` fits again from them without
solving.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import signal
import sys
import textwrap
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # fit this working tree's bot

import backalley as ba  # noqa: E402
from backalley.bots import HeuristicBot, _tricks_exact, trick_model  # noqa: E402
from backalley.bots.hand_reading import FEATURES, features_of, unseen_bits  # noqa: E402
from backalley.bots.match import one_deal  # noqa: E402
from backalley.engine import lowlevel  # noqa: E402
from backalley.solver import solve  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from calls_vs_tricks import OH_HELL  # noqa: E402  (benchmarks/calls_vs_tricks.py)

CELLS: tuple[tuple[str, int, bool, ba.RuleSet, int, float], ...] = (
    # name, players, partnered, rules, largest hand size, share of the budget
    ("partners-4", 4, True, ba.variants.GAMERULES, 13, 0.55),
    ("alone-3", 3, False, ba.variants.get("cutthroat-3"), 13, 0.15),
    ("alone-4", 4, False, ba.variants.GAMERULES.replace(seating=ba.rules.Cutthroat(4)), 13, 0.15),
    ("alone-5", 5, False, ba.variants.get("cutthroat-5"), 10, 0.15),
)

EXACT_CELLS: tuple[tuple[str, int, bool, ba.RuleSet, int, float], ...] = (
    # each alone, where a trick beyond one's bid costs points: fitted to the bots' own play
    ("exact-4", 4, False, OH_HELL, 12, 0.75),
    ("exact-bid-4", 4, False, ba.variants.EXACT_BID, 13, 0.25),
)
"""The kinds of table of ``--table exact`` (plain Oh Hell and the ``exact-bid``
preset: four players each alone, scored on exact bids), whose samples make
one table of four players alone (:mod:`backalley.bots._tricks_exact`)."""

ALL_CELLS = CELLS + EXACT_CELLS

TITLES = {
    "tricks": "The heuristic bot's trick table: expected tricks by hand features.",
    "exact": (
        "The heuristic bot's trick table where each player is alone and a trick\n"
        "beyond one's bid costs points: expected tricks by hand features, fitted to\n"
        "the bots' own play."
    ),
}
"""The first line of each table module's docstring (``--table``)."""

CAP = 1200
"""The most deals of one kind of table and hand size."""

MIN_DEALS = 20
"""Fewer deals of a hand size make no row (the bot uses the nearest size)."""

NEIGHBOUR = 0.3
"""The weight of the samples of the neighbouring hand sizes in a fit."""

RIDGE = 0.05
"""A small pull of every weight but the constant towards zero (per fit)."""

FREE = (0, 1)
"""The weights that may be negative: the constant and the lead."""


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Timeout


def _size_shares(largest: int) -> list[float]:
    """The share of a cell's budget of each hand size 1..largest: the large
    deals solve slowly, so they get more."""
    raw = [1.0 + max(0, h - 7) ** 2 * 0.6 for h in range(1, largest + 1)]
    total = sum(raw)
    return [r / total for r in raw]


def _played_shares(largest: int) -> list[float]:
    """The share of a cell's budget of each hand size 1..largest when the
    deals are played out: in proportion to the hand size."""
    total = largest * (largest + 1) / 2
    return [h / total for h in range(1, largest + 1)]


def _deal(
    rules: ba.RuleSet, h: int, seed: int, leader: int, bots: bool = False
) -> tuple[list[tuple[int, int, int]], int, ba.GameState] | None:
    """Each seat's (hand, unseen cards, trump), the leader and the state at
    the first lead, or ``None`` when the bidding does not get the deal played.
    ``leader`` makes the highest call and every other seat the quietest; with
    ``bots``, heuristic bots make every call instead (and the leader is the
    one the bidding names)."""
    one = one_deal(rules, h)
    state = ba.new_game(one, seed=seed)
    seen = []
    for s in range(one.players):
        view = state.view(s)
        trump = view.trump  # a sample file keeps a suit's letter, or null for no trump
        seen.append((lowlevel.hand_bits(view, view.seat), unseen_bits(view), trump and trump.value))
    while state.phase is ba.Phase.BIDDING:
        moves = state.legal_moves()
        numbers = [m for m in moves if isinstance(m, ba.Bid)]
        if bots:
            seat = state.to_act
            assert seat is not None
            move = HeuristicBot((seed, seat)).choose(state.view(seat))
        elif state.to_act == leader:
            move = max(numbers, key=lambda m: m.tricks) if numbers else moves[-1]
        elif ba.Pass() in moves:
            move = ba.Pass()
        else:
            move = min(numbers, key=lambda m: m.tricks) if numbers else moves[0]
        state = state.apply(move)
    if state.phase is not ba.Phase.PLAYING or state.deals_played:
        return None
    assert state.to_act is not None
    return seen, state.to_act, state


def played(state: ba.GameState, seed: int) -> tuple[int, ...]:
    """The tricks each side takes when heuristic bots play the deal of
    ``state`` (at its first lead) out."""
    rules = state.rules
    leader = state.to_act
    assert leader is not None
    bots = [HeuristicBot((seed, "play", s)) for s in range(rules.players)]
    while not state.deal_results:
        seat = state.to_act
        assert seat is not None
        state = state.apply(bots[seat].choose(state.view(seat)))
    return tuple(state.deal_results[0].tricks)


def collect(
    budget: float,
    seed: int,
    limit: float,
    out: Path | None,
    cells: Sequence[str] | None = None,
    sizes: Sequence[int] | None = None,
    outcomes: str = "solver",
    cap: int = CAP,
) -> list[dict[str, object]]:
    """Deal and solve (``outcomes = "solver"``) or play out between heuristic
    bots (``"play"``) within ``budget`` CPU seconds (split over ``cells``
    and ``sizes``, all by default; at most ``cap`` deals of a kind of table
    and hand size); the samples."""
    chosen = [c for c in ALL_CELLS if (c in CELLS if cells is None else c[0] in cells)]
    total_share = sum(c[5] for c in chosen)
    signal.signal(signal.SIGVTALRM, _alarm)
    samples: list[dict[str, object]] = []
    sink = out.open("w") if out else None
    rng = random.Random(seed)
    skipped = 0
    for name, players, partnered, rules, largest, share in chosen:
        share /= total_share
        # the solves of large deals take longest; a deal played out, time in
        # proportion to its cards
        shares = _size_shares(largest) if outcomes == "solver" else _played_shares(largest)
        wanted = [h for h in range(1, largest + 1) if sizes is None or h in sizes]
        total_size = sum(shares[h - 1] for h in wanted)
        for h in wanted:
            size_share = shares[h - 1] / total_size
            allowed = budget * share * size_share
            start = time.process_time()
            count = 0
            while count < cap and time.process_time() - start < allowed:
                deal_seed = rng.randrange(1 << 30)
                leader = rng.randrange(players)
                got = _deal(rules, h, deal_seed, leader, bots=outcomes == "play")
                if got is None:
                    continue
                feats, lead, state = got
                signal.setitimer(signal.ITIMER_VIRTUAL, limit)
                sides: tuple[int, ...] = ()
                try:
                    if outcomes == "play":
                        sides = played(state, deal_seed)
                        tricks = sides[rules.seat_teams[lead]]
                    else:
                        tricks = solve(state)
                except _Timeout:
                    skipped += 1
                    continue
                finally:
                    signal.setitimer(signal.ITIMER_VIRTUAL, 0)
                row = {
                    "cell": name,
                    "players": players,
                    "partnered": partnered,
                    "h": h,
                    "seed": deal_seed,
                    "leader": lead,
                    "tricks": tricks,
                    "seats": feats,
                }
                if sides and not partnered:
                    row["seat_tricks"] = list(
                        sides
                    )  # every player's tricks, not the leader's alone
                samples.append(row)
                if sink:
                    sink.write(json.dumps(row) + "\n")
                count += 1
            print(
                f"{name:11s} h={h:2d}: {count:4d} deals in {time.process_time() - start:6.1f} s CPU",
                file=sys.stderr,
                flush=True,
            )
    if sink:
        sink.close()
    print(f"skipped {skipped} deals whose solve took more than {limit} s", file=sys.stderr)
    return samples


# ------------------------------------------------------------------ fitting


def _trump(saved: object) -> ba.Suit | None:
    """A seat's trump as a sample file keeps it: a suit's letter or null (an
    older file: a number 0..3, C D H S, or 4 for no trump)."""
    if isinstance(saved, int):
        return None if saved == 4 else list(ba.Suit)[saved]
    return None if saved is None else ba.Suit(saved)


def _equations(
    rows: Sequence[dict[str, object]],
) -> Iterator[tuple[str, list[float], float, list[float]]]:
    """(kind, features, tricks, one seat's features) for the pair and solo fits."""
    for row in rows:
        rules = next(c[3] for c in ALL_CELLS if c[0] == row["cell"])
        feats = [
            list(features_of(hand, unseen, lowlevel.card_order(rules, _trump(t))))
            for hand, unseen, t in row["seats"]  # type: ignore[attr-defined]
        ]
        n = int(row["players"])  # type: ignore[call-overload]
        h = int(row["h"])  # type: ignore[call-overload]
        leader = int(row["leader"])  # type: ignore[call-overload]
        tricks = int(row["tricks"])  # type: ignore[call-overload]
        if row["partnered"]:
            for side, value in ((0, tricks), (1, h - tricks)):
                seats = [(leader + side + 2 * k) % n for k in range(n // 2)]
                lead = 1.0 if side == 0 else 0.0
                summed = [0.0] * len(FEATURES)
                for s in seats:
                    f = feats[s]
                    f[1] = lead
                    summed = [a + b for a, b in zip(summed, f)]
                    yield "solo", list(f), float(value), f
                yield "pair", summed, float(value), []
        elif "seat_tricks" in row:  # played out: every player's tricks
            for s, value in enumerate(row["seat_tricks"]):  # type: ignore[arg-type]
                f = feats[s]
                f[1] = 1.0 if s == leader else 0.0
                yield "solo", f, float(value), f
                yield "pair", f, float(value), f
        else:
            f = feats[leader]
            f[1] = 1.0
            yield "solo", f, float(tricks), f
            yield "pair", f, float(tricks), f


def _normal_equations(
    xs: Sequence[Sequence[float]], ys: Sequence[float], ws: Sequence[float]
) -> tuple[list[list[float]], list[float]]:
    """The weighted normal equations (X'WX, X'Wy) of a least-squares fit, with
    NumPy where it is installed (the same sums, faster), else in Python."""
    m = len(FEATURES)
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - NumPy is in the dev environment
        np = None
    if np is not None and xs:
        x = np.asarray(xs, dtype=float)
        wx = x * np.asarray(ws, dtype=float)[:, None]
        return (wx.T @ x).tolist(), (wx.T @ np.asarray(ys, dtype=float)).tolist()
    gram = [[0.0] * m for _ in range(m)]
    rhs = [0.0] * m
    for x_row, y, w in zip(xs, ys, ws):
        for i in range(m):
            if x_row[i]:
                wx_i = w * x_row[i]
                rhs[i] += wx_i * y
                row = gram[i]
                for j in range(m):
                    row[j] += wx_i * x_row[j]
    return gram, rhs


def nnls(
    xs: Sequence[Sequence[float]], ys: Sequence[float], ws: Sequence[float], fixed: set[int]
) -> list[float]:
    """Weighted least squares with every weight outside ``FREE`` kept >= 0 and
    the weights in ``fixed`` kept at 0 (coordinate descent on the normal
    equations, with a small ridge)."""
    m = len(FEATURES)
    gram, rhs = _normal_equations(xs, ys, ws)
    for i in range(m):
        if i not in FREE:
            gram[i][i] += RIDGE
    beta = [0.0] * m
    for _ in range(4000):
        delta = 0.0
        for i in range(m):
            if i in fixed or gram[i][i] <= 1e-12:
                continue
            r = rhs[i] - sum(gram[i][j] * beta[j] for j in range(m) if j != i)
            new = r / gram[i][i]
            if i not in FREE:
                new = max(0.0, new)
            delta = max(delta, abs(new - beta[i]))
            beta[i] = new
        if delta < 1e-9:
            break
    return beta


def _rms(beta: Sequence[float], xs: Sequence[Sequence[float]], ys: Sequence[float]) -> float:
    if not xs:
        return 1.0
    err = sum((y - sum(b * x for b, x in zip(beta, row))) ** 2 for row, y in zip(xs, ys))
    return math.sqrt(err / len(xs))


def fit(samples: Sequence[dict[str, object]]) -> list[tuple[object, ...]]:
    """The table's rows: (players, partnered, hand size, deals, pair weights,
    pair sigma, solo weights, solo sigma, mean share)."""
    by_cell: dict[tuple[int, bool], dict[int, list[dict[str, object]]]] = {}
    for row in samples:
        key = (int(row["players"]), bool(row["partnered"]))  # type: ignore[call-overload]
        by_cell.setdefault(key, {}).setdefault(int(row["h"]), []).append(row)  # type: ignore[call-overload]
    out: list[tuple[object, ...]] = []
    for (players, partnered), sizes in sorted(by_cell.items()):
        # alone, the lead's weight is fitted only from samples of every player
        every = all("seat_tricks" in row for rows in sizes.values() for row in rows)
        fixed = set() if partnered or every else {1}
        # each hand size's equations, read once (a size is weighed in its neighbours' fits too)
        eqs = {h: list(_equations(rows)) for h, rows in sizes.items()}
        for h in sorted(sizes):
            if len(sizes[h]) < MIN_DEALS:
                continue
            fits: dict[str, tuple[list[float], float]] = {}
            for kind in ("pair", "solo"):
                xs: list[list[float]] = []
                ys: list[float] = []
                ws: list[float] = []
                own_x: list[list[float]] = []
                own_y: list[float] = []
                for hh, weight in ((h, 1.0), (h - 1, NEIGHBOUR), (h + 1, NEIGHBOUR)):
                    for k, x, y, _seat in eqs.get(hh, ()):
                        if k != kind:
                            continue
                        xs.append(x)
                        ys.append(y)
                        ws.append(weight)
                        if hh == h:
                            own_x.append(x)
                            own_y.append(y)
                beta = nnls(xs, ys, ws, fixed)
                fits[kind] = (beta, _rms(beta, own_x, own_y))
            pair, pair_sigma = fits["pair"]
            solo, solo_sigma = fits["solo"]
            seats = [seat for k, _x, _y, seat in eqs[h] if k == "solo"]
            lead_share = 1.0 / (players // 2 if partnered else players)
            share = sum(
                sum(b * x for b, x in zip(pair, [*s[:1], lead_share, *s[2:]])) for s in seats
            ) / len(seats)
            out.append(
                (
                    players,
                    partnered,
                    h,
                    len(sizes[h]),
                    tuple(round(b, 4) for b in pair),
                    round(pair_sigma, 4),
                    tuple(round(b, 4) for b in solo),
                    round(solo_sigma, 4),
                    round(share, 4),
                )
            )
    return out


def write(
    rows: Sequence[tuple[object, ...]], path: Path, how: str, title: str = TITLES["tricks"]
) -> None:
    """The table as a module (lines within the project's 100 columns)."""
    lines = [
        '"""' + title,
        "",
        "GENERATED by benchmarks/fit_bidding.py - do not edit; run the script again.",
        "",
        *(textwrap.fill(par, 79) for par in how.split("\n\n")),
        "",
        "Each row: players, partnered, hand size, deals, the pair weights (a",
        "seat's share of its side's tricks, one weight per feature of",
        ":data:`backalley.bots.hand_reading.FEATURES`, in its order), their residual",
        "sigma, the solo weights (the side's tricks from one seat's hand, the partners",
        "unknown), their residual sigma, and the mean share of a seat.  The features",
        'are defined once, in the bidding model; a change to them needs a refit.\n"""',
        "",
        "from __future__ import annotations",
        "",
        "Row = tuple[int, bool, int, int, tuple[float, ...], float, tuple[float, ...], float, float]",
        "",
        "# fmt: off",
        "ROWS: tuple[Row, ...] = (",
    ]
    for row in rows:
        head = ", ".join(repr(x) for x in row[:4])
        lines.append(f"    (  # {head}")
        lines.append(f"        {head},")
        for x in row[4:]:
            if isinstance(x, tuple):
                lines.append("        (")
                for k in range(0, len(x), 7):
                    lines.append("            " + ", ".join(repr(v) for v in x[k : k + 7]) + ",")
                lines.append("        ),")
            else:
                lines.append(f"        {x!r},")
        lines.append("    ),")
    lines.append(")")
    lines.append("# fmt: on")
    path.write_text("\n".join(lines) + "\n")


def write_json(rows: Sequence[tuple[object, ...]], path: Path, how: str, **more: object) -> None:
    """The rows as a trick model's data file (:mod:`backalley.bots.trick_model`),
    ``how`` (and ``more``) in its header; the file is read back and checked."""
    made_with = {"how": " ".join(how.split()), "python": platform.python_version(), **more}
    doc = trick_model.model_document(list(rows), made_with)  # type: ignore[arg-type]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n")
    trick_model.rows_from_document(json.loads(path.read_text()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=900.0, help="CPU seconds in all")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--solve-limit", type=float, default=8.0, help="CPU seconds a solve")
    parser.add_argument("--samples", type=Path, default=None, help="keep the samples here")
    parser.add_argument(
        "--cells", default=None, help="kinds of table, comma-separated (default: all)"
    )
    parser.add_argument("--sizes", default=None, help="hand sizes, e.g. 1-9,11 (default: all)")
    parser.add_argument(
        "--refit", default=None, help="fit from kept samples (files, comma-separated)"
    )
    parser.add_argument(
        "--outcomes",
        choices=("solver", "play"),
        default="solver",
        help="the tricks fitted: double-dummy (solver) or the heuristic bots' own play",
    )
    parser.add_argument(
        "--cap", type=int, default=CAP, help="the most deals of a kind of table and hand size"
    )
    parser.add_argument("--note", default="", help="a paragraph for the table's header")
    parser.add_argument(
        "--table",
        choices=("tricks", "exact"),
        default="tricks",
        help="exact: the table of players alone under a scoring where an overtrick costs, "
        "fitted to the bots' own play (its kinds of table, play outcomes, --rounds)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="with --table exact: play and fit this many times, each round's bots bidding "
        "from the table the round before fitted (the first from none: the trick table's rows)",
    )
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--format",
        choices=("module", "json"),
        default="module",
        help="json: the rows as a trick model's data file (backalley.bots.trick_model; "
        "needs --out), e.g. backalley/bots/data/tricks_selfplay.json",
    )
    args = parser.parse_args(argv)
    if args.format == "json" and args.out is None:
        parser.error("--format json needs --out")
    exact = args.table == "exact"
    if args.out is None:
        args.out = ROOT / (
            "backalley/bots/_tricks_exact.py" if exact else "backalley/bots/_tricks_table.py"
        )
    if exact:
        args.outcomes = "play"
    t0 = time.process_time()
    cells = args.cells.split(",") if args.cells else None
    if exact and cells is None:
        cells = [c[0] for c in EXACT_CELLS]
    if args.refit:
        files = [Path(f) for f in args.refit.split(",")]
        samples = [json.loads(line) for f in files for line in f.read_text().splitlines() if line]
        seed_text = "refit from " + ", ".join(f.name for f in files)
        rows = fit(samples)
    else:
        sizes = None
        if args.sizes:
            sizes = []
            for part in args.sizes.split(","):
                lo, _, hi = part.partition("-")
                sizes.extend(range(int(lo), int(hi or lo) + 1))
        rounds = args.rounds if exact else 1
        if exact:
            _tricks_exact.ROWS = ()  # the first round bids from the trick table's rows
        for r in range(rounds):
            samples = collect(
                args.budget / rounds,
                args.seed + r,
                args.solve_limit,
                args.samples,
                cells,
                sizes,
                args.outcomes,
                args.cap,
            )
            rows = fit(samples)
            if exact:
                _tricks_exact.ROWS = tuple(rows)  # type: ignore[assignment]
                print(f"round {r + 1}: {len(samples)} deals, {len(rows)} rows", file=sys.stderr)
        seed_text = f"seed {args.seed}, budget {args.budget:.0f} CPU s, {args.outcomes} outcomes"
        if rounds > 1:
            seed_text += f", {rounds} rounds (seeds {args.seed}..{args.seed + rounds - 1})"
    cpu = time.process_time() - t0
    words = list(sys.argv[1:] if argv is None else argv)
    if "--note" in words:  # the note follows as a paragraph of its own
        at = words.index("--note")
        words[at : at + 2] = ["--note ..."]
    # the sample files by name alone: their folder is the machine's
    for at, word in enumerate(words[:-1]):
        if word in ("--samples", "--refit"):
            words[at + 1] = ",".join(Path(p).name for p in words[at + 1].split(","))
    command = " ".join(words)
    how = (
        f"Made with: python3 benchmarks/fit_bidding.py {command}\n"
        f"({seed_text}; {len(samples)} deals {'played' if args.outcomes == 'play' else 'solved'}; {cpu:.0f} s CPU on "
        f"Python {platform.python_version()})."
    )
    if args.note:
        how += "\n\n" + args.note
    if args.format == "json":
        write_json(rows, args.out, how)
    else:
        write(rows, args.out, how, TITLES[args.table])
    print(f"{len(samples)} deals, {len(rows)} rows -> {args.out} ({cpu:.0f} s CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
