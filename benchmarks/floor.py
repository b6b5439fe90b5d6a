"""Floors: what the *shape* of the library's two game loops costs, apart from
the rules, measured against the same references as the suite of record.

    python benchmarks/floor.py [--seconds S] [--repeat R] [--clock wall|cpu]
    python benchmarks/floor.py --split GAMES       # the library's time by kind of move
    python benchmarks/floor.py --bytecodes GAMES   # bytecodes per game, library and floors

The throughput targets compare the library with OpenSpiel's C++ ``oh_hell``
and with the bare loop.  To tell how much of the library's cost is the shape
of its API and how much is the rules it runs, this file plays the bare loop's
game (25 deals of 13..1..13 cards, four random bids, random plays that follow
suit, spades trump; no scoring, jokers, trump breaking, bidding rules or
records) in the two shapes the targets measure, each written with the least
such a program can do:

- **checked floor**: the public loop ``while not s.is_over: s =
  s.apply(choice(s.legal_moves()))`` over immutable states (two slots, one
  field tuple, the legal plays cached per state as a bit set), legal-move
  tuples of shared ``Play`` values looked up by bit set as the library does,
  and every move checked;
- **playout floor**: ``lowlevel.playout``'s shape, mutable bit-set hands and a
  ``choose`` callback handed the tuple of legal moves at every decision.

The floors are not the library and run none of its code: they bound from
above what any implementation of these shapes can reach in pure Python on
this machine.  Ratios are per round, then medians, as in ``run.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bare  # benchmarks/bare.py

HAND_SIZES = bare.HAND_SIZES
DECISIONS = bare.DECISIONS_PER_GAME
BITS = tuple(1 << i for i in range(52))
SUIT_CARDS = tuple(0x1FFF << 13 * s for s in range(4))
TRUMP = bare.TRUMP


class Play:
    """A shared, immutable play (one per card)."""

    __slots__ = ("card",)

    def __init__(self, card: int) -> None:
        object.__setattr__(self, "card", card)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a play is immutable")


PLAYS = tuple(Play(c) for c in range(52))
BIDS = tuple(tuple(("bid", n) for n in range(h + 1)) for h in range(14))
RUNS = tuple(
    tuple(
        tuple(PLAYS[13 * g + i] for i in range(13) if bits >> i & 1) if bits else ()
        for bits in range(8192)
    )
    for g in range(4)
)
CACHE: dict[int, tuple[Play, ...]] = {}


def _plays(mask: int) -> tuple[Play, ...]:
    """The plays of a bit set from per-suit tables (as the library builds them)."""
    r0, r1, r2, r3 = RUNS
    a, b, c, d = mask & 8191, mask >> 13 & 8191, mask >> 26 & 8191, mask >> 39
    out = r0[a] + r1[b] + r2[c] + r3[d]
    if len(CACHE) < 4096 or (a > 0) + (b > 0) + (c > 0) + (d > 0) == 1:
        CACHE[mask] = out
    return out


def _winner(trick: tuple[int, ...]) -> int:
    best, win = trick[0], 0
    for i in (1, 2, 3):
        card = trick[i]
        if card // 13 == best // 13:
            if card > best:
                best, win = card, i
        elif card // 13 == TRUMP:
            best, win = card, i
    return win


# ------------------------------------------------------------ the checked floor


class State:
    """An immutable state: (deal, deck rng, bids, hands, leader, trick, tricks)."""

    __slots__ = ("_legal", "_raw")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a state is immutable")

    @property
    def is_over(self) -> bool:
        return bool(self._raw[0] >= len(HAND_SIZES))

    def legal_moves(self) -> tuple[Any, ...]:
        deal, _rng, bids, hands, leader, trick, _tricks = self._raw
        if len(bids) < 4:
            return BIDS[HAND_SIZES[deal]]
        mask = self._legal
        if mask is None:
            hand = hands[(leader + len(trick)) % 4]
            mask = (hand & SUIT_CARDS[trick[0] // 13]) or hand if trick else hand
            _set_legal(self, mask)
        return CACHE.get(mask) or _plays(mask)

    def apply(self, move: Any) -> State:
        deal, rng, bids, hands, leader, trick, tricks = self._raw
        if len(bids) < 4:
            if move not in BIDS[HAND_SIZES[deal]]:
                raise ValueError(f"{move} is not a legal bid")
            return _state((deal, rng, (*bids, move), hands, leader, trick, tricks))
        if type(move) is not Play:
            raise ValueError(f"{move} is not a play")
        card = move.card
        mask = self._legal
        if mask is None:
            self.legal_moves()
            mask = self._legal
        if not mask >> card & 1:
            raise ValueError(f"{card} may not be played")
        hand_list = list(hands)
        hand_list[(leader + len(trick)) % 4] ^= BITS[card]
        trick = trick + (card,)  # noqa: RUF005
        if len(trick) < 4:
            return _state((deal, rng, bids, tuple(hand_list), leader, trick, tricks))
        winner = (leader + _winner(trick)) % 4
        tricks = tricks + ((leader, trick, winner),)  # noqa: RUF005
        if len(tricks) < HAND_SIZES[deal]:
            return _state((deal, rng, bids, tuple(hand_list), winner, (), tricks))
        return _deal(deal + 1, rng)


_set_raw = State.__dict__["_raw"].__set__
_set_legal = State.__dict__["_legal"].__set__
DECK = list(range(52))


def _state(raw: tuple[Any, ...]) -> State:
    state = object.__new__(State)
    _set_raw(state, raw)
    _set_legal(state, None)
    return state


def _deal(deal: int, rng: random.Random) -> State:
    if deal >= len(HAND_SIZES):
        return _state((deal, rng, (), (0, 0, 0, 0), 0, (), ()))
    h = HAND_SIZES[deal]
    rng.shuffle(DECK)
    hands = tuple([sum(map(BITS.__getitem__, DECK[i * h : (i + 1) * h])) for i in range(4)])
    return _state((deal, rng, (), hands, 0, (), ()))


def checked_floor(seconds: float, clock: Callable[[], float]) -> float:
    """Decisions per second of the checked floor, whole games only."""
    choice = random.Random(1).choice
    games, t0 = 0, clock()
    while clock() - t0 < seconds:
        state = _deal(0, random.Random(games))
        while not state.is_over:
            state = state.apply(choice(state.legal_moves()))
        games += 1
    return games * DECISIONS / (clock() - t0)


# ------------------------------------------------------------ the playout floor


def _playout_game(rng: random.Random, choose: Callable[[Any], Any]) -> None:
    deck = DECK
    for h in HAND_SIZES:
        rng.shuffle(deck)
        hands = [sum(map(BITS.__getitem__, deck[i * h : (i + 1) * h])) for i in range(4)]
        for _ in range(4):
            choose(BIDS[h])
        leader = 0
        for _ in range(h):
            seat, trick = leader, ()
            for _k in range(4):
                hand = hands[seat]
                mask = (hand & SUIT_CARDS[trick[0] // 13]) or hand if trick else hand
                move = choose(CACHE.get(mask) or _plays(mask))
                card = move.card if type(move) is Play else 52
                if not mask >> card & 1:
                    raise ValueError(f"{move} may not be played")
                hands[seat] = hand ^ BITS[card]
                trick = trick + (card,)  # noqa: RUF005
                seat += 1
                if seat == 4:
                    seat = 0
            leader = (leader + _winner(trick)) % 4


def playout_floor(seconds: float, clock: Callable[[], float]) -> float:
    """Decisions per second of the playout floor, whole games only."""
    choice = random.Random(1).choice
    games, t0 = 0, clock()
    while clock() - t0 < seconds:
        _playout_game(random.Random(games), choice)
        games += 1
    return games * DECISIONS / (clock() - t0)


# ------------------------------------------------------ where the time goes

PLAY_KINDS = ("lead", "play inside a trick", "play completing a trick", "play ending a deal")


def _library_game(seed: int, choice: Callable[[Any], Any]) -> Any:
    """One checked random gamerules game through the library's public loop."""
    import backalley as ba

    state = ba.new_game(ba.variants.GAMERULES, seed=seed)
    while not state.is_over:
        state = state.apply(choice(state.legal_moves()))
    return state


def split(games: int) -> None:
    """The library's checked loop, timed move by move in whole random games
    (cold, as the suite runs them): the time of each decision (``legal_moves()``,
    the random choice and ``apply``) by the kind of move - the calls by their
    place in the bidding.  A deal-ending play includes scoring the deal and
    opening the next one (the shuffle, the deal, the trump part's turn-up)."""
    import backalley as ba
    from backalley import lowlevel

    rules = ba.variants.GAMERULES
    choice = random.Random(1).choice
    for g in range(100):  # warm: the plan's tables and the play cache
        _library_game(10**6 + g, choice)
    clock = time.perf_counter_ns
    overhead = min(-clock() + clock() for _ in range(1000))
    spent: dict[str, int] = {f"call {k + 1}": 0 for k in range(rules.players)}
    spent.update(dict.fromkeys(PLAY_KINDS, 0))
    count = dict.fromkeys(spent, 0)
    for g in range(games):
        state = ba.new_game(rules, seed=g)
        while not state.is_over:
            before = state
            t = clock()
            state = state.apply(choice(state.legal_moves()))
            dt = clock() - t - overhead
            if before.phase is not ba.Phase.PLAYING:
                kind = f"call {len(before.calls) + 1}"
            elif len(state.deal_results) != len(before.deal_results):
                kind = PLAY_KINDS[3]
            elif len(lowlevel.history(state)) != len(lowlevel.history(before)):
                kind = PLAY_KINDS[2]
            else:
                kind = PLAY_KINDS[1] if lowlevel.trick_cards(before) else PLAY_KINDS[0]
            spent[kind] += dt
            count[kind] += 1
    floor_spent, floor_count = _floor_split(games, clock, overhead)
    total = sum(spent.values())
    print(f"the checked loop move by move, {games} random games (wall clock; µs)")
    print(
        f"  {'move':24s} {'moves/game':>10s} {'per move':>8s} {'per game':>8s} {'share':>6s}"
        f" {'floor per move':>14s}"
    )
    for kind, ns in spent.items():
        n = count[kind] / games
        us = ns / 1e3 / games
        floor_kind = "call" if kind.startswith("call") else kind
        floor_us = floor_spent[floor_kind] / 1e3 / max(floor_count[floor_kind], 1)
        print(
            f"  {kind:24s} {n:10.1f} {us / n if n else 0:8.2f} {us:8.0f} {100 * ns / total:5.1f}%"
            f" {floor_us:14.2f}"
        )
    floor_total = sum(floor_spent.values()) / 1e3 / games
    print(
        f"  {'all moves':24s} {sum(count.values()) / games:10.1f} {'':8s}"
        f" {total / 1e3 / games:8.0f}   (floor {floor_total:.0f} a game)"
    )
    print(
        "  (library: gamerules; floor: the floor's game, whose deal-ending play includes "
        "its Python shuffle; the timer's own cost is taken off each move)"
    )


def _floor_split(
    games: int, clock: Callable[[], int], overhead: int
) -> tuple[dict[str, int], dict[str, int]]:
    """:func:`split` for the checked floor (its calls are not told apart)."""
    choice = random.Random(1).choice
    for g in range(100):
        state = _deal(0, random.Random(10**6 + g))
        while not state.is_over:
            state = state.apply(choice(state.legal_moves()))
    spent = dict.fromkeys(("call", *PLAY_KINDS), 0)
    count = dict.fromkeys(spent, 0)
    for g in range(games):
        state = _deal(0, random.Random(g))
        while not state.is_over:
            before = state._raw
            t = clock()
            state = state.apply(choice(state.legal_moves()))
            dt = clock() - t - overhead
            after = state._raw
            if len(before[2]) < 4:
                kind = "call"
            elif after[0] != before[0]:
                kind = PLAY_KINDS[3]
            elif len(after[6]) != len(before[6]):
                kind = PLAY_KINDS[2]
            else:
                kind = PLAY_KINDS[1] if before[5] else PLAY_KINDS[0]
            spent[kind] += dt
            count[kind] += 1
    return spent, count


def _count_bytecodes(run: Callable[[], None]) -> int:
    """The bytecode instructions ``run`` executes (``sys.settrace`` opcode events)."""
    count = 0

    def trace(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        frame.f_trace_opcodes = True
        if event == "opcode":
            count += 1
        return trace

    sys.settrace(trace)
    try:
        run()
    finally:
        sys.settrace(None)
    return count


def bytecodes(games: int) -> None:
    """Bytecode instructions executed per game: the library's two loops on
    gamerules against the floors' on their game (warm tables; the random
    choices and the loop itself included on both sides)."""
    import backalley as ba
    from backalley import lowlevel

    rules = ba.variants.GAMERULES
    choice = random.Random(1).choice

    def lib_checked(seeds: range) -> None:
        for g in seeds:
            _library_game(g, choice)

    def lib_playout(seeds: range) -> None:
        for g in seeds:
            lowlevel.playout(ba.new_game(rules, seed=g), choice)

    def floor_checked(seeds: range) -> None:
        for g in seeds:
            state = _deal(0, random.Random(g))
            while not state.is_over:
                state = state.apply(choice(state.legal_moves()))

    def floor_playout(seeds: range) -> None:
        for g in seeds:
            _playout_game(random.Random(g), choice)

    rows = []
    for name, fn in (
        ("library, checked", lib_checked),
        ("floor, checked", floor_checked),
        ("library, playout", lib_playout),
        ("floor, playout", floor_playout),
    ):
        fn(range(10**6, 10**6 + 300))  # warm
        n = _count_bytecodes(lambda fn=fn: fn(range(games))) / games
        rows.append((name, n))
    print(f"bytecode instructions per game ({games} games, after 300 to warm the tables)")
    for name, n in rows:
        print(f"  {name:18s} {n:10,.0f}")
    print(
        "  (the floors shuffle in Python with random.shuffle: about 63,000 of their "
        "instructions a game; the library shuffles in C)"
    )


def round_options(parser: argparse.ArgumentParser) -> None:
    """The options of a run of rounds: ``--seconds``, ``--repeat``, ``--clock``."""
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="cpu")


def report_rounds(
    name: str,
    checked: Callable[[float, Callable[[], float]], float],
    playout: Callable[[float, Callable[[], float]], float],
    args: argparse.Namespace,
) -> None:
    """Rounds of OpenSpiel, the bare loop, then ``name``'s checked and playout
    loops (decisions per second); each round's ratios, then their medians."""
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    rows = []
    for k in range(args.repeat):
        osp = bare.openspiel_decisions_per_s(args.seconds, clock)
        bare_dps = bare.bare_games_per_s_clock(args.seconds, clock) * DECISIONS
        checked_dps = checked(args.seconds, clock)
        playout_dps = playout(args.seconds, clock)
        rows.append(
            {
                f"bare÷checked {name}": bare_dps / checked_dps,
                f"checked {name}÷OSP": checked_dps / osp if osp else float("nan"),
                f"playout {name}÷OSP": playout_dps / osp if osp else float("nan"),
            }
        )
        print(
            f"round {k + 1}: checked {name} {checked_dps:,.0f} dec/s, playout {name} "
            f"{playout_dps:,.0f} dec/s, bare {bare_dps:,.0f} dec/s, "
            f"OpenSpiel {osp or float('nan'):,.0f} dec/s",
            file=sys.stderr,
        )
    print(f"{name} ({args.repeat} rounds of {args.seconds} s, {args.clock} clock; medians)")
    for label in rows[0]:
        print(f"  {label:26s} {statistics.median(r[label] for r in rows):6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    round_options(parser)
    parser.add_argument(
        "--split",
        type=int,
        metavar="GAMES",
        help="time the library's checked loop by kind of move over GAMES games, and stop",
    )
    parser.add_argument(
        "--bytecodes",
        type=int,
        metavar="GAMES",
        help="count bytecode instructions per game, library against floor, and stop",
    )
    args = parser.parse_args()
    if args.split:
        split(args.split)
    elif args.bytecodes:
        bytecodes(args.bytecodes)
    else:
        report_rounds("floor", checked_floor, playout_floor, args)


if __name__ == "__main__":
    main()
