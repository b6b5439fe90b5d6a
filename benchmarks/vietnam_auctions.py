"""The Vietnam auction as heuristic bots bid it: do the contracts spread, and
do counters come only when they pay?

    python3 benchmarks/vietnam_auctions.py [--rules NAME] [--deals N] [--seed N] [--dd]
                                           [--dd-deadline S] [--json FILE]

Whole games of ``--rules`` (``vietnam`` by default) between four heuristic
bots, from seeds ``--seed``, ``--seed + 1``, ..., until ``--deals`` deals
have been scored.  Reported: the share of the most common call sequence (the
calls from the first speaker on, the same words whoever speaks them), the
contracts' numbers and how many distinct ones there are, how often a deal
is countered and how the countered contracts fare (made or set, and the
points of the side that countered first less those of the side holding the
contract, a mean over the deals where the counter left the contract with
the other side), the share of all contracts their declarers make, the
thrown-in deals, and the time taken.  Seed ``s`` plays the games of seeds
``s``, ``s + 1``, ... (give two seeds 1000 apart for two samples that share no
game).

With ``--dd`` each contract is also held against the double-dummy solver
(:mod:`backalley.solver`): the tricks the declarer's side takes with every
hand known, the trump the declarer named and the declarer leading (the
deal's first position of play), and the share of the contracts whose number
is more than two tricks above them (``dd_jumps_over_2``), the mean of the
number less those tricks, and the share of the contracts the side's hands
make double dummy.  Each solve is given ``--dd-deadline`` CPU seconds; one
cut short counts by the bounds it proved, and where those cannot tell
whether the number is more than two above, as undecided (reported; the
share's upper bound counts them as jumps).

Under the earlier reading of the counters (``--rules`` a house-rules file
with ``counter_holder = "countering-side"``, or ``--countering-side``) the
last side to speak takes every deal: "bid 1, counter, counter, counter" in
nearly every deal.  Public API only (the bots choose from views).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import attrs

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # measure this working tree's bot

import backalley as ba  # noqa: E402
from backalley import lowlevel  # noqa: E402
from backalley.bots import HeuristicBot  # noqa: E402
from backalley.rules import Auction, CounterHolder  # noqa: E402
from backalley.solver import SearchLimitError, solve  # noqa: E402
from backalley.values import BiddingOutcome  # noqa: E402


def deal_calls(result: ba.DealResult, players: int) -> tuple[str, ...]:
    """The calls of a scored deal from its first speaker on (seats that did not speak left out)."""
    first = (result.dealer + 1) % players
    order = [result.bids[(first + i) % players] for i in range(players)]
    return tuple(str(call) for call in order if call is not None)


def counter_gains(
    position: ba.GameState, outcome: BiddingOutcome, tricks: tuple[int, ...]
) -> list[float]:
    """What each counter step of the bidding that ended in ``outcome`` (at
    ``position``, its deal's first position after the bidding) gained the side
    that called it, the deal having been played to ``tricks`` per side: its
    points less the other side's (the contract's holder, or for the holder's
    own counter the side that countered first) at the step's multiplier,
    against the same one step lower (a counter that names its multiplier:
    against the contract without it) - every figure the scoring part's answer
    (through the bots' adapter).  Empty when no counter was called, or when a
    counter took the contract over."""
    rules = position.rules
    n = rules.players
    holders = [s for s, c in enumerate(outcome.contracts) if c is not None]
    if len(holders) != 1:
        return []
    side = holders[0]
    contract = outcome.contracts[side]
    assert contract is not None
    first = position.first_bidder
    seats = [(first + i) % n for i in range(len(position.calls))]
    numbers = [i for i, call in enumerate(position.calls) if isinstance(call, ba.Bid)]
    if not numbers or rules.seat_teams[seats[numbers[-1]]] != side:
        return []  # no number, or a counter took the contract over
    # the counters on the last number (a higher number cancels earlier ones)
    callers = [
        rules.seat_teams[seats[i]]
        for i in range(numbers[-1] + 1, len(position.calls))
        if isinstance(position.calls[i], ba.Counter)
    ]
    if not callers:
        return []
    if len(callers) == 1:
        steps = [(callers[0], 1, contract.multiplier)]  # a step, or a counter naming its multiplier
    elif contract.multiplier == len(callers) + 1:
        steps = [(caller, k - 1, k) for k, caller in enumerate(callers, start=2)]
    else:
        return []
    doubler = callers[0]

    def points(multiplier: int) -> tuple[int, ...]:
        contracts = list(outcome.contracts)
        contracts[side] = attrs.evolve(contract, multiplier=multiplier)
        return lowlevel.deal_points(
            position, tricks, attrs.evolve(outcome, contracts=tuple(contracts))
        )

    gains: list[float] = []
    for caller, lower, higher in steps:
        other = doubler if caller == side else side
        after, before = points(higher), points(lower)
        gains.append((after[caller] - after[other]) - (before[caller] - before[other]))
    return gains


def dd_tricks(position: ba.GameState, side: int, deadline: float) -> tuple[int, int] | None:
    """The bounds (equal when solved) of the tricks ``side`` takes double dummy
    from ``position`` (a deal's first position of play), from the solver
    within ``deadline`` CPU seconds; ``None`` when the seat to lead is not of
    ``side`` and the deal has more than two sides (its tricks are then not the
    rest of the other side's)."""
    h = position.hand_size
    leader_side = position.rules.seat_teams[position.to_act]  # type: ignore[index]
    if leader_side != side and len(position.rules.teams) != 2:
        return None
    try:
        low = high = solve(position, deadline=deadline)
    except SearchLimitError as cut:
        low, high = cut.lower, cut.upper
    if leader_side != side:
        low, high = h - high, h - low
    return low, high


def measure(
    rules: ba.RuleSet,
    deals: int,
    seed: int = 0,
    dd: bool = False,
    dd_deadline: float = 5.0,
) -> dict[str, Any]:
    """Play whole games of ``rules`` between heuristic bots until ``deals`` deals are
    scored; the figures of their auctions (see the module docstring), with
    ``dd`` those against the double-dummy solver too."""
    sequences: Counter[tuple[str, ...]] = Counter()
    numbers: Counter[int] = Counter()
    countered = made = paying = 0
    counter_swing = 0
    steps: list[float] = []
    thrown = 0
    scored = 0
    contracts = declarers_made = 0
    jumps = undecided = dd_made = dd_counted = 0
    over_dd = 0.0
    dd_seconds = 0.0
    k = 0
    started = time.process_time()
    while scored < deals:
        bots = [HeuristicBot((seed + k, s)) for s in range(rules.players)]
        state = ba.new_game(rules, seed=seed + k)
        k += 1
        after_bidding: list[tuple[ba.GameState, BiddingOutcome]] = []
        first_plays: list[ba.GameState] = []  # each played deal's first position of play
        while not state.is_over and scored + len(state.deal_results) < deals:
            seat = state.to_act
            assert seat is not None
            bidding = state.phase is ba.Phase.BIDDING
            playing = state.phase is ba.Phase.PLAYING
            done = len(state.deal_results)
            state = state.apply(bots[seat].choose(state.view(seat)))
            if bidding and state.phase is not ba.Phase.BIDDING and len(state.deal_results) == done:
                outcome = lowlevel.deal_context(state).outcome
                if outcome is not None and not outcome.thrown_in:
                    after_bidding.append((state, outcome))
            if not playing and state.phase is ba.Phase.PLAYING and len(state.deal_results) == done:
                first_plays.append(state)
        thrown += lowlevel.thrown_in(state)
        for (position, outcome), result in zip(after_bidding, state.deal_results):
            steps.extend(counter_gains(position, outcome, result.tricks))
        played = [r for r in state.deal_results if any(c is not None for c in r.contracts)]
        starts = dict(zip(map(id, played), first_plays))
        for result in state.deal_results:
            scored += 1
            sequences[deal_calls(result, rules.players)] += 1
            holders = [s for s, c in enumerate(result.contracts) if c is not None]
            if not holders:
                continue
            side = holders[0]
            contract = result.contracts[side]
            assert contract is not None
            numbers[contract.tricks] += 1
            contracts += 1
            declarers_made += result.tricks[side] >= contract.tricks
            start = starts.get(id(result))
            if dd and start is not None:
                clock = time.process_time()
                bounds = dd_tricks(start, side, dd_deadline)
                dd_seconds += time.process_time() - clock
                if bounds is not None:
                    low, high = bounds
                    dd_counted += 1
                    if high < contract.tricks - 2:
                        jumps += 1
                    elif low < contract.tricks - 2:
                        undecided += 1
                    dd_made += low >= contract.tricks
                    over_dd += contract.tricks - (low + high) / 2
            if contract.multiplier > 1:
                countered += 1
                if result.tricks[side] >= contract.tricks:
                    made += 1
                # the first counter's side against the side it countered (when the
                # counter did not take the contract over)
                first = (result.dealer + 1) % rules.players
                order = [(first + i) % rules.players for i in range(rules.players)]
                callers = [s for s in order if isinstance(result.bids[s], ba.Counter)]
                doubler = rules.seat_teams[callers[0]] if callers else side
                if doubler != side:
                    paying += 1
                    counter_swing += result.points[doubler] - result.points[side]
            if scored >= deals:
                break
    seconds = time.process_time() - started
    top, top_count = sequences.most_common(1)[0]
    figures: dict[str, Any] = {
        "rules": rules.name,
        "deals": scored,
        "games": k,
        "seconds": round(seconds, 2),
        "most_common_sequence": " / ".join(top),
        "most_common_share": round(top_count / scored, 3),
        "distinct_sequences": len(sequences),
        "contract_numbers": dict(sorted(numbers.items())),
        "distinct_numbers": len(numbers),
        "countered": countered,
        "countered_made": made,
        "countered_set": countered - made,
        "mean_gain_of_the_countering_side": (round(counter_swing / paying, 1) if paying else None),
        "counter_calls": len(steps),
        "counter_calls_that_paid": sum(g > 0 for g in steps),
        "mean_gain_of_a_counter_call": round(sum(steps) / len(steps), 1) if steps else None,
        "contracts": contracts,
        "declarers_made": round(declarers_made / contracts, 3) if contracts else None,
        "thrown_in": thrown,
    }
    if dd:
        share = 1 / dd_counted if dd_counted else 0.0
        figures.update(
            {
                "dd_contracts": dd_counted,
                "dd_jumps_over_2": round(jumps * share, 3),
                "dd_jumps_over_2_undecided": undecided,
                "dd_jumps_over_2_at_most": round((jumps + undecided) * share, 3),
                "dd_mean_number_less_dd_tricks": round(over_dd * share, 2),
                "dd_made_by_the_hands": round(dd_made * share, 3),
                "dd_seconds": round(dd_seconds, 1),
            }
        )
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="vietnam", help="a variant name or a house-rules file")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--countering-side",
        action="store_true",
        help="the rules with counter_holder = countering-side (the earlier reading)",
    )
    parser.add_argument(
        "--dd", action="store_true", help="hold each contract against the double-dummy solver"
    )
    parser.add_argument(
        "--dd-deadline", type=float, default=5.0, help="CPU seconds per solve (default 5)"
    )
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    path = Path(args.rules)
    rules = ba.houserules.load(path) if path.is_file() else ba.variants.get(args.rules)
    if args.countering_side:
        bidding = rules.bidding
        assert isinstance(bidding, Auction), "--countering-side needs an auction"
        rules = rules.replace(
            bidding=Auction(
                **{**bidding.options(), "counter_holder": CounterHolder.COUNTERING_SIDE}
            ),
            name=f"{rules.name}, countering-side",
        )
    figures = measure(rules, args.deals, args.seed, args.dd, args.dd_deadline)
    width = max(map(len, figures))
    for key, value in figures.items():
        print(f"{key:<{width}}  {value}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
