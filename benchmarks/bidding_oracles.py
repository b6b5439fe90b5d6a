"""The bots' calls against oracles: duplicate points a deal, the same play.

    python3 benchmarks/bidding_oracles.py [--rows par,par-1,par-2,par-3,partner,pimc]
                                          [--deals N] [--start K] [--seed S] [--size H]
                                          [--partner-samples N] [--solve-limit S]
                                          [--verbose] [--rst]
    python3 benchmarks/bidding_oracles.py --combine LOG [LOG ...] [--rst]

Each row's caller makes the calls (the bids) of side A, the ``heuristic``
bot those of side B, and the heuristic bot plays every card at every seat,
so that only the calls differ.  Each deal is played twice, the sides
swapped, as :func:`backalley.bots.match.duplicate_match` does; the figure is
A's points less B's over both tables, a deal, with a 95 % confidence
interval (:class:`~backalley.bots.match.MatchResult`), then the same by band
of hand sizes (1-3, 4-6, 7-9, 10-13 cards).  Deal ``k`` is dealt exactly as
``benchmarks/strength_table.py --seed S`` deals it (``duplicate_match`` with
seed ``S * 100_000 + k``, one deal, the ``k``-th hand size of the rule set's
schedule with ``--size 0``, the default), so the rows compare with its rows.

The callers (``--rows``):

- ``heuristic``: the heuristic bot's own calls (against itself: 0 on every
  deal, a check of the set-up);
- ``par``, ``par-1``, ``par-2``, ``par-3``: an oracle that knows every hand.
  Its side's par ``T`` is the tricks the side takes double dummy
  (:func:`backalley.solver.solve`) from the first lead that the heuristic's
  calls at every seat produce (the heuristic's calls stand in for the
  oracle's own to find who leads, and whether trumps may be led at once: the
  oracle's own calls may move the lead, so ``T`` is the par of the
  heuristic's auction, not always of the one played).  It makes its side's
  contract ``max(0, T - s)`` for ``par-s``; with ``s = 0`` and ``T`` every
  trick it makes the contract of every trick its calls reach that the
  scoring gives most when made: a ``board`` where board is a call and the
  made board scores at least the made number, claimed by both partners
  where every claim raises the deal's multiplier (gamerules), as the
  heuristic's calls do.  Should the heuristic's calls throw
  the deal in (everyone passes), the oracle's first speaker is taken to make
  its lowest contracting call instead, to find the lead;
- ``partner``: an oracle that sees its own hand and its partner's, not the
  other side's.  At its side's first call it deals the unseen cards to the
  other side ``--partner-samples`` times at random (each seat as many cards
  as it holds, from the cards it may hold: the turn-up and discards are
  known to all and never dealt; :func:`backalley.engine.lowlevel.sample_hands`
  with the partner's hand fixed), finds each layout's first lead as the par
  oracle does (the heuristic's calls from there on), solves it double dummy
  for its side's tricks, and aims at the contract whose mean over the
  layouts of its side's points less the other side's (the rule set's
  scoring part, :func:`backalley.engine.lowlevel.deal_points`, the other side
  holding the contract the heuristic's calls gave it on that layout) is
  best, the lower contract on a tie;
- ``pimc``: :class:`~backalley.bots.PimcBot` with ``--samples``,
  ``--call-weight`` and a ``--budget`` of CPU seconds a decision making the
  calls, the heuristic playing the cards (``pimc+heuristic`` of
  ``strength_table.py``, its :class:`strength_table.Split`).

**Reaching the aimed contract.**  An oracle sits at both seats of its side,
so its two seats share the aim, chosen at the side's first call of the deal.
At each of its calls the oracle asks the rule set's bidding part
(:meth:`Plan.bidding_context <backalley.rules.plan.Plan.bidding_context>`,
``legal_calls``, ``bidding_outcome``) which contract of its side each of its
legal calls leaves, its partner's later calls tried in turn and the other
side making its quietest calls (a pass): the first speaker makes the call
from which the aimed contract is reached with the largest share of its own
(the whole of it if one call can), the second completes it.  A board is
aimed at with its multiplier (a board claimed by both partners is another
contract than one claimed once): the first speaker claims it itself, the
second passes or claims again as the aim says.  A contract no calls reach
is replaced by the nearest one that they do (a board counting as half a
trick above the number of every trick, then the nearest multiplier).

**Solves** are bounded by ``--solve-limit`` CPU seconds (the solver's
``deadline``).  Every deal's par solve (the heuristic's calls at every seat)
is made whatever rows are asked; a deal whose par solve runs past the limit
is left out of every row, and counted, so the rows stay on the same deals.
A partner layout whose solve runs past it is left out of the oracle's mean,
and counted.  A deal that is thrown in (everyone passes) is dealt again as
in ``duplicate_match``; an oracle reads the new deal's hands afresh.

Per row the script prints its line (the mean and its interval, the deals,
the CPU time of its tables: the calls, the oracle's layouts and solves, the
play; the par solves shared by the par rows are counted once, on a line of
their own), the means by band and, with ``--rst``, a
reST list-table row.  ``--verbose`` prints each deal's difference for every
row; ``--combine`` reads such logs (say, two halves of a run, ``--start 0
--deals 100`` and ``--start 100 --deals 100``) and prints the rows of all
their deals together, the CPU times added.  Rule sets of two sides of
partners with the once-around bidding (gamerules) only.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength_table import Split

import backalley as ba
from backalley.bots import HeuristicBot, PimcBot
from backalley.bots._base import Bot, check_throw_ins
from backalley.bots.match import MatchResult, one_deal
from backalley.cards import CARDS, Card
from backalley.engine import lowlevel
from backalley.errors import BackAlleyError
from backalley.moves import Bid, Move, Pass
from backalley.solver import SearchLimitError, solve
from backalley.values import Contract

BANDS = ((1, 3), (4, 6), (7, 9), (10, 13))
ROWS = "par,par-1,par-2,par-3,partner,pimc"
ORACLE_SHIFTS = {"par": 0, "par-1": 1, "par-2": 2, "par-3": 3}
HEURISTIC = HeuristicBot()

Aim = tuple[int, bool, int]
"""A side's contract as an aim: (tricks, board, multiplier)."""


class Skip(Exception):
    """A par solve ran past the limit: the deal is left out of every row."""


# ------------------------------------------------------------------ the deals


@attrs.frozen
class Deal:
    """Deal ``k`` as ``duplicate_match`` deals it from ``seed``: its rule set
    of one deal, deck order and dealer."""

    k: int
    size: int
    rules: ba.RuleSet
    order: tuple[Card, ...]
    dealer: int
    seed: int


def deals(rules: ba.RuleSet, seed: int, start: int, count: int, size: int) -> Iterator[Deal]:
    """The deals ``start .. start + count - 1``, dealt as
    ``duplicate_match(rules, ..., deals=1, seed=seed * 100_000 + k,
    hand_sizes=[sizes[k % len(sizes)]])`` deals them (``strength_table.py``)."""
    sizes = [size] if size else list(rules.schedule.hand_sizes)
    deck = [CARDS[i] for i in range(54) if rules.plan.deck_mask >> i & 1]
    for k in range(start, start + count):
        deal_seed = seed * 100_000 + k
        rng = random.Random(deal_seed)
        h = sizes[k % len(sizes)]
        order = deck[:]
        rng.shuffle(order)
        dealer = rng.randrange(rules.players)
        yield Deal(k, h, one_deal(rules, h), tuple(order), dealer, deal_seed)


def band(h: int) -> str:
    for lo, hi in BANDS:
        if lo <= h <= hi:
            return f"{lo}-{hi}"
    return str(h)


# ------------------------------------------------------- what calls contract


def _side(state: ba.GameState | ba.PlayerView, seat: int) -> int:
    return state.rules.seat_teams[seat]


def _size(call: Move) -> int:
    return call.tricks if isinstance(call, Bid) else 1000


def aim_of(contract: Contract | None) -> Aim:
    if contract is None:
        return (0, False, 1)
    return (contract.tricks, contract.board, contract.multiplier)


def _value(aim: Aim) -> tuple[float, int]:
    return (aim[0] + (0.5 if aim[1] else 0.0), aim[2])


def reachable(view: ba.PlayerView) -> dict[Aim, tuple[Contract | None, Move]]:
    """The contracts the seat's side can still reach, each with the seat's
    call that leads to it: the bidding part's outcome for every legal call of
    the seat, its partner's later calls tried in turn, the other side making
    its quietest calls (a pass where offered, else the lowest bid).  A
    contract is its tricks, whether it is a board, and its multiplier (where
    every claim raises the deal's multiplier, a board claimed by both
    partners is another contract than one claimed once).  Of the calls that
    reach a contract, the seat's is the one that reaches it without a call
    of its partner, else the largest (a number; the smallest for a board, so
    that a partner's board stands alone)."""
    plan = view.rules.plan
    deal = lowlevel.deal_context(view)
    side = _side(view, view.seat)
    out: dict[Aim, tuple[Contract | None, Move]] = {}
    rank: dict[Aim, tuple[bool, int]] = {}

    def walk(calls: tuple[Move, ...], first: Move, helped: bool) -> None:
        ctx = plan.bidding_context(deal, calls)
        legal = plan.legal_calls(ctx)
        if not legal:
            contract = plan.bidding_outcome(ctx).contracts[side]
            aim = aim_of(contract)
            size = _size(first) if not isinstance(first, Pass) else 0
            key = (helped, size if aim[1] else -size)
            if aim not in rank or key < rank[aim]:
                rank[aim] = key
                out[aim] = (contract, first)
            return
        if _side(view, ctx.seat) == side:
            for call in legal:
                walk((*calls, call), first, helped or not isinstance(call, Pass))
        else:
            walk((*calls, Pass() if Pass() in legal else min(legal, key=_size)), first, helped)

    for call in view.legal_moves():
        walk((*view.calls, call), call, False)
    return out


def call_for(view: ba.PlayerView, aim: Aim) -> Move:
    """The seat's call towards its side's aimed contract (the nearest that
    the calls reach when they cannot reach it)."""
    options = reachable(view)
    if aim in options:
        return options[aim][1]
    goal = _value(aim)
    near = min(
        options,
        key=lambda a: (abs(_value(a)[0] - goal[0]), abs(_value(a)[1] - goal[1]), _value(a)),
    )
    return options[near][1]


def side_points(playing: ba.GameState, side: int, contract: Contract | None, tricks: int) -> int:
    """The side's points less the other side's when it takes ``tricks`` of
    the deal with ``contract``, the other side keeping the contract of
    ``playing``'s bidding: the rule set's scoring part."""
    outcome = lowlevel.deal_context(playing).outcome
    assert outcome is not None
    contracts = tuple(contract if s == side else c for s, c in enumerate(outcome.contracts))
    h = playing.hand_size
    pts = lowlevel.deal_points(
        playing,
        [tricks if s == side else h - tricks for s in range(2)],
        attrs.evolve(outcome, contracts=contracts),
    )
    return pts[side] - pts[1 - side]


# --------------------------------------------------------------- the oracles


def _heuristic_calls(state: ba.GameState) -> ba.GameState | None:
    """The state at the first lead once every call still to make is the
    heuristic's; ``None`` when those calls throw the deal in."""
    before = lowlevel.deals_over(state)
    while state.phase is not ba.Phase.PLAYING:
        seat = state.to_act
        assert seat is not None
        state = state.apply(HEURISTIC.choose(state.view(seat)))
        if lowlevel.deals_over(state) > before:
            return None
    return state


def first_lead(state: ba.GameState) -> ba.GameState:
    """The state at the first lead once every seat still to call makes the
    heuristic's call; if those calls would throw the deal in, the seat to
    call makes its lowest contracting call instead."""
    done = _heuristic_calls(state)
    if done is None:
        lowest = min((m for m in state.legal_moves() if not isinstance(m, Pass)), key=_size)
        done = _heuristic_calls(state.apply(lowest))
    assert done is not None, "a contracting call leaves a contract"
    return done


def _position_key(state: ba.GameState) -> object:
    return (state.hands, state.calls, state.to_act, state.trump, state.dealer, state.hand_size)


class Solves:
    """Double-dummy solves bounded in CPU time, remembered for the deal."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.known: dict[object, int] = {}
        self.cpu = 0.0

    def tricks(self, playing: ba.GameState, side: int) -> int:
        """The side's tricks double dummy; :class:`SearchLimitError` past the limit."""
        key = _position_key(playing)
        got = self.known.get(key)
        if got is None:
            start = time.process_time()
            try:
                got = self.known[key] = solve(playing, deadline=self.limit)
            finally:
                self.cpu += time.process_time() - start
        leader = playing.to_act
        assert leader is not None
        return got if _side(playing, leader) == side else playing.hand_size - got


class Oracle:
    """A caller that sits at both seats of its side and is given the whole
    state (the driver's :func:`play_table` hands it over); it plays the
    cards as the heuristic bot does.  Subclasses choose the aim."""

    def __init__(self) -> None:
        self.aims: dict[int, Aim] = {}

    def choose_in(self, state: ba.GameState) -> Move:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        if state.phase is not ba.Phase.BIDDING:
            return HEURISTIC.choose(view)
        deal = lowlevel.deals_over(state)
        if deal not in self.aims:
            self.aims[deal] = self.aim(state, seat)
        return call_for(view, self.aims[deal])

    def aim(self, state: ba.GameState, seat: int) -> Aim:
        raise NotImplementedError


class ParOracle(Oracle):
    """Knows every hand; aims at its side's par less ``shift`` (see the
    module docstring)."""

    def __init__(self, shift: int, solves: Solves) -> None:
        super().__init__()
        self.shift = shift
        self.solves = solves
        self.pars: list[int] = []

    def aim(self, state: ba.GameState, seat: int) -> Aim:
        side = _side(state, seat)
        playing = first_lead(state)
        try:
            par = self.solves.tricks(playing, side)
        except SearchLimitError:
            raise Skip from None
        self.pars.append(par)
        h = state.hand_size
        if self.shift == 0 and par == h:
            # every trick: the contract of every trick (a number, or a board
            # at each multiplier the side's calls reach) that scores best
            options = reachable(state.view(seat))
            full = [(a, c) for a, (c, _) in options.items() if a[0] == h]
            if full:
                best = max(full, key=lambda ac: (side_points(playing, side, ac[1], h), -ac[0][2]))
                return best[0]
        return (max(0, par - self.shift), False, 1)


class PartnerOracle(Oracle):
    """Sees its side's two hands; aims at the contract with the best mean
    points over ``samples`` layouts of the other side's hands, solved double
    dummy (see the module docstring)."""

    def __init__(self, samples: int, solves: Solves, seed: object) -> None:
        super().__init__()
        self.samples = samples
        self.solves = solves
        self.rng = random.Random(repr(seed))
        self.layouts_solved = 0
        self.layouts_over = 0
        self.layouts_failed = 0

    def layouts(self, state: ba.GameState, seat: int) -> list[list[int]]:
        """``samples`` random layouts (hands as bit sets, per seat) that keep
        the side's two hands and deal the other cards unseen by it to the
        other side."""
        view = state.view(seat)
        partner = next(s for s in state.rules.teams[_side(state, seat)] if s != seat)
        mine = lowlevel.hand_bits(state, partner)

        def possible(v: ba.PlayerView, s: int) -> int:
            return mine if s == partner else lowlevel.possible_bits(v, s) & ~mine

        out = []
        for _ in range(self.samples):
            hands = lowlevel.sample_hands(view, self.rng, possible=possible)
            if hands is None:  # pragma: no cover - the true deal is such a layout
                self.layouts_failed += 1
                continue
            out.append(hands)
        return out

    def aim(self, state: ba.GameState, seat: int) -> Aim:
        side = _side(state, seat)
        view = state.view(seat)
        options = {a: c for a, (c, _) in reachable(view).items() if a[0] <= state.hand_size}
        totals = dict.fromkeys(options, 0.0)
        scored = 0
        for hands in self.layouts(state, seat):
            try:
                layout = lowlevel.determinise(view, hands)
            except BackAlleyError:  # pragma: no cover - sampled from the view
                self.layouts_failed += 1
                continue
            playing = first_lead(layout)
            try:
                tricks = self.solves.tricks(playing, side)
            except SearchLimitError:
                self.layouts_over += 1
                continue
            self.layouts_solved += 1
            scored += 1
            for a, contract in options.items():
                totals[a] += side_points(playing, side, contract, tricks)
        if not scored:  # every layout past the limit: the heuristic's own aim
            return aim_of(lowlevel.deal_context(first_lead(state)).outcome.contracts[side])  # type: ignore[union-attr]
        return max(totals, key=lambda a: (totals[a], tuple(-v for v in _value(a))))


# ---------------------------------------------------------------- the tables

Player = Bot | Oracle
SideMaker = Callable[[Deal, int], Callable[[int], Player]]
"""(deal, A's side) -> (seat -> the caller-and-player of A's side at that seat)."""


def play_table(deal: Deal, players: Sequence[Player]) -> ba.GameState:
    """Play the deal once (as ``match._deal_points`` does: a one-deal game,
    thrown-in deals dealt again from a fixed seed) and return the state once
    it is scored; an :class:`Oracle` is handed the state, a bot its view."""
    state = ba.new_game(deal.rules, seed=deal.dealer, dealer=deal.dealer, decks=[deal.order])
    while not state.deal_results:
        seat = state.to_act
        assert seat is not None
        player = players[seat]
        if isinstance(player, Oracle):
            move = player.choose_in(state)
        else:
            move = player.choose(state.view(seat))
        state = state.apply(move)
        check_throw_ins(state)
    return state


def duplicate(deal: Deal, side_a: SideMaker) -> float:
    """A's points less B's (the heuristic bot) over the deal's two tables."""
    rules = deal.rules
    diff = 0.0
    for a_side in (0, 1):
        make = side_a(deal, a_side)
        players: list[Player] = [
            make(s) if rules.seat_teams[s] == a_side else HeuristicBot((deal.seed, 0, a_side, s))
            for s in range(rules.players)
        ]
        points = play_table(deal, players).deal_results[0].points
        diff += points[a_side] - points[1 - a_side]
    return diff


def side_makers(args: argparse.Namespace, solves: Solves) -> dict[str, SideMaker]:
    """Side A's callers by row name."""

    def bots(make: Callable[[object], Bot]) -> SideMaker:
        return lambda deal, a_side: lambda s: make((deal.seed, 0, a_side, s))

    def oracle(build: Callable[[Deal, int], Oracle]) -> SideMaker:
        def side(deal: Deal, a_side: int) -> Callable[[int], Player]:
            one = build(deal, a_side)  # both seats of the side
            return lambda s: one

        return side

    out: dict[str, SideMaker] = {
        "heuristic": bots(HeuristicBot),
        "pimc": bots(
            lambda seed: Split(
                PimcBot(
                    seed, samples=args.samples, budget=args.budget, call_weight=args.call_weight
                ),
                HeuristicBot(seed),
            )
        ),
        "partner": oracle(
            lambda deal, a_side: PartnerOracle(
                args.partner_samples, solves, (deal.seed, "partner", a_side)
            )
        ),
    }

    def par(shift: int) -> Callable[[Deal, int], Oracle]:
        return lambda deal, a_side: ParOracle(shift, solves)

    for name, shift in ORACLE_SHIFTS.items():
        out[name] = oracle(par(shift))
    return out


def par_solve(deal: Deal, solves: Solves) -> None:
    """The deal's par solve, the heuristic's calls at every seat (a deal
    they throw in has none): :class:`Skip` past the limit."""
    state = ba.new_game(deal.rules, seed=deal.dealer, dealer=deal.dealer, decks=[deal.order])
    playing = _heuristic_calls(state)
    if playing is None:
        return
    try:
        solves.tricks(playing, 0)
    except SearchLimitError:
        raise Skip from None


# ---------------------------------------------------------------- reporting


@attrs.define
class Row:
    name: str
    diffs: list[tuple[int, int, float]] = attrs.Factory(list)
    """(deal number, hand size, difference)."""
    cpu: float = 0.0


def what(size: int) -> str:
    return f"{size}-card" if size else "schedule (in turn)"


def report(rules_name: str, rows: Iterable[Row], args: argparse.Namespace, start: int) -> None:
    """Each row's line, its bands and (``--rst``) its table row."""
    for row in rows:
        result = MatchResult(rules_name, len(row.diffs), tuple(d for _, _, d in row.diffs))
        lo, hi = result.interval
        print(
            f"{rules_name}: {row.name} vs heuristic calls, {result.deals} duplicate "
            f"{what(args.size)} deals (seed {args.seed}, from deal {start}): "
            f"{result.mean:+.2f} points per deal (95% CI {lo:+.2f} .. {hi:+.2f}); "
            f"{row.cpu:.0f} s CPU ({row.cpu / max(1, result.deals):.1f} s a deal)",
            flush=True,
        )
        parts = []
        for lo_h, hi_h in BANDS:
            sel = tuple(d for _, h, d in row.diffs if lo_h <= h <= hi_h)
            if sel:
                b = MatchResult(rules_name, len(sel), sel)
                blo, bhi = b.interval
                parts.append(
                    f"{lo_h}-{hi_h}: {b.mean:+.2f} ({blo:+.1f} .. {bhi:+.1f}, {b.deals} deals)"
                )
        print(f"    by hand size: {'; '.join(parts)}", flush=True)
        if args.rst:
            print(
                f"   * - {row.name} vs heuristic calls\n     - {result.deals}\n"
                f"     - {result.mean:+.1f} ({lo:+.1f} .. {hi:+.1f})\n     - {row.cpu:.0f} s",
                flush=True,
            )


def run(args: argparse.Namespace, rules: ba.RuleSet, names: list[str]) -> None:
    solves = Solves(args.solve_limit)
    makers = side_makers(args, solves)
    rows = [Row(name) for name in names]
    skipped: list[int] = []
    par_cpu = 0.0
    for deal in deals(rules, args.seed, args.start, args.deals, args.size):
        solves.known.clear()
        start = time.process_time()
        try:
            par_solve(deal, solves)
            par_cpu += time.process_time() - start
            got = []
            for row in rows:
                t0 = time.process_time()
                got.append(duplicate(deal, makers[row.name]))
                row.cpu += time.process_time() - t0
        except Skip:
            skipped.append(deal.k)
            if args.verbose:
                print(f"  deal {deal.k} ({deal.size} cards): skipped", flush=True)
            continue
        for row, diff in zip(rows, got):
            row.diffs.append((deal.k, deal.size, diff))
        if args.verbose:
            each = " ".join(f"{row.name}={diff:+.0f}" for row, diff in zip(rows, got))
            print(f"  deal {deal.k} ({deal.size} cards): {each}", flush=True)
    print(
        f"par solves (every deal, the heuristic's calls): {par_cpu:.0f} s CPU; "
        f"deals skipped (a solve past {args.solve_limit:g} s): {len(skipped)}"
        + (f" ({', '.join(map(str, skipped))})" if skipped else ""),
        flush=True,
    )
    report(rules.name or "custom", rows, args, args.start)


_DEAL = re.compile(r"^  deal (\d+) \((\d+) cards\): (.*)$")
_LINE = re.compile(r"^\S+: (\S+) vs heuristic calls, .*; (\d+) s CPU")
_HEAD = re.compile(r"; seed (\d+), size (\d+)$")


def combine(args: argparse.Namespace, logs: list[Path]) -> None:
    """The rows of the deals of ``--verbose`` logs, taken together."""
    rows: dict[str, Row] = {}
    seen: dict[int, str] = {}
    skipped = 0
    for log in logs:
        for line in log.read_text().splitlines():
            m = _DEAL.match(line)
            if m:
                k, h, rest = int(m[1]), int(m[2]), m[3]
                if k in seen:
                    sys.exit(f"deal {k} is in {seen[k]} and in {log}")
                seen[k] = str(log)
                if rest == "skipped":
                    skipped += 1
                    continue
                for item in rest.split():
                    name, _, value = item.partition("=")
                    rows.setdefault(name, Row(name)).diffs.append((k, h, float(value)))
                continue
            m = _LINE.match(line)
            if m:
                rows.setdefault(m[1], Row(m[1])).cpu += float(m[2])
                continue
            m = _HEAD.search(line)
            if m:
                args.seed, args.size = int(m[1]), int(m[2])
    print(f"{len(seen)} deals from {len(logs)} logs, {skipped} skipped", flush=True)
    report("gamerules" if args.rules == "gamerules" else args.rules, rows.values(), args,
           min(seen, default=0))  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", default="gamerules")
    parser.add_argument("--rows", default=ROWS, help="callers of side A, comma-separated")
    parser.add_argument("--deals", type=int, default=50, help="duplicate deals")
    parser.add_argument("--start", type=int, default=0, help="the first deal's number")
    parser.add_argument(
        "--size", type=int, default=0, help="cards a hand (0: the rule set's schedule, in turn)"
    )
    parser.add_argument("--seed", type=int, default=7171)
    parser.add_argument(
        "--partner-samples", type=int, default=8, help="the partner oracle's layouts a call"
    )
    parser.add_argument(
        "--solve-limit", type=float, default=60.0, help="CPU seconds a double-dummy solve"
    )
    parser.add_argument("--budget", type=float, default=0.1, help="pimc's CPU seconds a call")
    parser.add_argument("--samples", type=int, default=100_000, help="pimc's samples cap")
    parser.add_argument(
        "--call-weight", type=float, default=1.0, help="pimc's call_weight (how far calls count)"
    )
    parser.add_argument("--rst", action="store_true", help="also print reST table rows")
    parser.add_argument("--verbose", action="store_true", help="each deal's differences")
    parser.add_argument(
        "--combine", type=Path, nargs="+", default=None, help="--verbose logs to take together"
    )
    args = parser.parse_args(argv)
    if args.combine:
        for log in args.combine:
            if not log.is_file():
                parser.error(f"--combine: there is no log {str(log)!r}")
        combine(args, args.combine)
        return
    for name, value, low in (
        ("--deals", args.deals, 1),
        ("--start", args.start, 0),
        ("--size", args.size, 0),
        ("--partner-samples", args.partner_samples, 1),
        ("--samples", args.samples, 1),
    ):
        if value < low:
            parser.error(f"{name} must be a whole number >= {low}, not {value}")
    if not 0 <= args.call_weight < math.inf:
        parser.error(f"--call-weight must be a number >= 0, not {args.call_weight}")
    for name, seconds in (("--solve-limit", args.solve_limit), ("--budget", args.budget)):
        if not seconds > 0:
            parser.error(f"{name} must be a number of seconds > 0, not {seconds}")
    try:
        rules = ba.variants.get(args.rules)
    except ba.BackAlleyError as error:
        parser.error(str(error))
    if len(rules.teams) != 2 or any(len(t) != 2 for t in rules.teams):
        parser.error("the oracles need two sides of two partners")
    names = args.rows.split(",")
    known = {"heuristic", "pimc", "partner", *ORACLE_SHIFTS}
    if any(n not in known for n in names):
        parser.error(f"a row is one of {', '.join(sorted(known))}, not {args.rows!r}")
    print(
        f"{sys.implementation.name} {sys.version.split()[0]}; {args.rules}, "
        f"{what(args.size)} deals; side B: the heuristic's calls; every card played by the "
        f"heuristic; partner oracle {args.partner_samples} layouts a call; pimc "
        f"{args.budget:g} s CPU a call, call_weight {args.call_weight:g}; seed {args.seed}, size {args.size}",
        flush=True,
    )
    run(args, rules, names)


if __name__ == "__main__":
    main()
