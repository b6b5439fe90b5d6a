"""The rules floor: what the checked loop costs when a program does the work
of the gamerules game with the least code it can, as a ratio to OpenSpiel.

    python benchmarks/rules_floor.py [--seconds S] [--repeat R] [--clock wall|cpu]

``floor.py`` plays the bare loop's game (no scoring, jokers, trump rules,
bidding rules or records) and bounds what the API's shape costs.  This file
asks the next question: how fast can *this game's rules* run in that shape?
It plays gamerules - the library's deck of 54 cards, the 13..1..13
schedule, the SHAKE-256 shuffle keyed by seed and deal (as the library's),
the turn-up and its jokers, once-around bidding with passes and board
claims and redeals after four passes, the trump lead rule, following suit
with the bloopers' forcing, jokers above the trump ace, contract scoring and
a record of every deal - through the public loop ``while not s.is_over: s =
s.apply(choice(s.legal_moves()))`` over immutable states, every move
checked, written for speed alone: one module, tables built in advance, tuples
instead of value classes, no rule parts, no refusal reasons, no options.  It
runs none of the library's code, yet plays the library's games: from the
same seed and first dealer, with the same choices, it offers the library's
legal moves at every decision and scores every deal as the library does (the
test suite checks it).  Ratios are per round, then medians, as in ``run.py``.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import floor  # benchmarks/floor.py

SCHEDULE = (*range(13, 0, -1), *range(2, 14))
LJ, BJ, NO_TRUMP = 52, 53, 4
BITS = tuple(1 << c for c in range(54))
UNPACK = struct.Struct("<54Q").unpack
DECK = tuple(range(54))


def _suit_cards(card: int, trump: int) -> int:
    """The cards of ``card``'s suit when ``trump`` is trump (jokers are trumps)."""
    jokers = BITS[LJ] | BITS[BJ]
    if card >= LJ:
        return jokers | (0x1FFF << 13 * trump if trump < 4 else 0)
    if card // 13 == trump:
        return jokers | 0x1FFF << 13 * trump
    return 0x1FFF << 13 * (card // 13)


SUIT_OF = tuple(tuple(_suit_cards(c, t) for c in range(54)) for t in range(5))
TRUMPS = tuple(SUIT_OF[t][LJ] for t in range(5))


def _strength(trump: int, led: int) -> tuple[int, ...]:
    """Each card's strength in a trick led by ``led``: trumps above the suit led."""
    suit = SUIT_OF[trump][led]
    trumps = TRUMPS[trump]

    def rank(c: int) -> int:
        return c - 38 if c >= LJ else c % 13  # BJ 15, LJ 14 above the ace (12)

    return tuple(
        100 + rank(c) if trumps >> c & 1 else rank(c) if suit >> c & 1 else -1 for c in range(54)
    )


STRENGTH = tuple(tuple(_strength(t, led) for led in range(54)) for t in range(5))
HIGHEST: dict[tuple[int, int, bool], int] = {}  # the highest / lowest trump, filled on use


class Play:
    """A shared, immutable play (one per card)."""

    __slots__ = ("card",)
    card: int

    def __init__(self, card: int) -> None:
        object.__setattr__(self, "card", card)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a play is immutable")


class Call:
    """A shared, immutable call: a pass (0 tricks), a bid, or a board claim."""

    __slots__ = ("board", "tricks")
    board: bool
    tricks: int

    def __init__(self, tricks: int, board: bool) -> None:
        object.__setattr__(self, "tricks", tricks)
        object.__setattr__(self, "board", board)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a call is immutable")


PLAYS = tuple(Play(c) for c in range(54))
PASS, BOARD = Call(0, False), Call(0, True)
BIDS = tuple(Call(n, False) for n in range(14))
LEGAL_CALLS = tuple((PASS, *BIDS[1:h], BOARD) for h in range(14))
CALL_IDS = tuple(frozenset(map(id, calls)) for calls in LEGAL_CALLS)
RUNS = tuple(
    tuple(
        tuple(PLAYS[13 * g + i] for i in range(13) if bits >> i & 1) if bits else ()
        for bits in range(8192 if g < 4 else 4)
    )
    for g in range(5)
)
CACHE: dict[int, tuple[Play, ...]] = {}


def _plays(mask: int) -> tuple[Play, ...]:
    a, b, c, d, e = mask & 8191, mask >> 13 & 8191, mask >> 26 & 8191, mask >> 39 & 8191, mask >> 52
    out = RUNS[0][a] + RUNS[1][b] + RUNS[2][c] + RUNS[3][d] + RUNS[4][e]
    if len(CACHE) < 4096 or (a > 0) + (b > 0) + (c > 0) + (d > 0) + (e > 0) == 1:
        CACHE[mask] = out
    return out


def _extreme(cards: int, trump: int, big: bool) -> int:
    """The bit of the highest (``big``) or lowest trump among ``cards``."""
    key = (trump, cards, big)
    found = HIGHEST.get(key)
    if found is None:
        strength = STRENGTH[trump][BJ]
        held = [c for c in range(54) if cards >> c & 1]
        found = BITS[(max if big else min)(held, key=strength.__getitem__)]
        HIGHEST[key] = found
    return found


# The state: raw = (phase, match, deal, hands, leader, trick, history, broken)
#   phase: 0 bidding, 1 playing, 2 over
#   match: (seed, dealt, scores, results)
#   deal: (dealer, size, trump, turn_up, calls, board_seats)
BIDDING, PLAYING, OVER = 0, 1, 2


class State:
    """An immutable state of the rules floor's game."""

    __slots__ = ("_legal", "_raw")
    _legal: int | None
    _raw: tuple[Any, ...]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a state is immutable")

    @property
    def is_over(self) -> bool:
        return bool(self._raw[0] == OVER)

    def _mask(self) -> int:
        mask: int | None = self._legal
        if mask is None:
            _phase, _match, deal, hands, leader, trick, _history, broken = self._raw
            trump = deal[2]
            seat = (leader + len(trick)) % 4
            hand = hands[seat]
            if trick:
                led = trick[0]
                same = hand & SUIT_OF[trump][led]
                if not same:
                    mask = hand
                elif led >= LJ:  # a led blooper forces the highest (BJ) or lowest (LJ) trump
                    mask = _extreme(same, trump, led == BJ)
                else:
                    mask = same
            elif broken or seat in deal[5]:
                mask = hand
            else:  # no trump lead before trump is broken, unless the hand is all trumps
                mask = hand & ~TRUMPS[trump] or hand
            _set_legal(self, mask)
        return mask

    def legal_moves(self) -> tuple[Any, ...]:
        raw = self._raw
        if raw[0] == BIDDING:
            return LEGAL_CALLS[raw[2][1]]
        mask = self._mask()
        return CACHE.get(mask) or _plays(mask)

    def apply(self, move: Any) -> State:
        phase, match, deal, hands, leader, trick, history, broken = self._raw
        if phase == BIDDING:
            if id(move) not in CALL_IDS[deal[1]]:
                raise ValueError(f"{move} is not a legal call")
            dealer, size, trump, turn_up, calls, board = deal
            calls = calls + (move,)  # noqa: RUF005
            if len(calls) < 4:
                deal = (dealer, size, trump, turn_up, calls, board)
                return _state((BIDDING, match, deal, hands, leader, (), (), False))
            return _contracts(match, deal, hands, calls)
        if type(move) is not Play:
            raise ValueError(f"{move} is not a play")
        card = move.card
        if not self._mask() >> card & 1:
            raise ValueError(f"{card} may not be played")
        hand_list = list(hands)
        hand_list[(leader + len(trick)) % 4] ^= BITS[card]
        trick = trick + (card,)  # noqa: RUF005
        if len(trick) < 4:
            return _state((PLAYING, match, deal, tuple(hand_list), leader, trick, history, broken))
        winner, broken = _trick_end(trick, leader, deal[2], broken)
        history = history + ((leader, trick, winner),)  # noqa: RUF005
        if len(history) < deal[1]:
            return _state((PLAYING, match, deal, tuple(hand_list), winner, (), history, broken))
        return _score(match, deal, history)


def _trick_end(trick: tuple[int, ...], leader: int, trump: int, broken: bool) -> tuple[int, bool]:
    """The seat that wins a complete trick, and whether trump is broken after it."""
    strength = STRENGTH[trump][trick[0]]
    best, win = strength[trick[0]], 0
    for pos in (1, 2, 3):
        if strength[trick[pos]] > best:
            best, win = strength[trick[pos]], pos
    if not broken:
        tmask = TRUMPS[trump]
        for card in trick:
            if tmask >> card & 1:
                broken = True
                break
    return (leader + win) % 4, broken


_set_raw = State.__dict__["_raw"].__set__
_set_legal = State.__dict__["_legal"].__set__


def _state(raw: tuple[Any, ...]) -> State:
    state = object.__new__(State)
    _set_raw(state, raw)
    _set_legal(state, None)
    return state


def _contracts(
    match: tuple[Any, ...], deal: tuple[Any, ...], hands: tuple[int, ...], calls: Any
) -> State:
    """The bidding is complete: each side's contract, or a redeal after four passes."""
    played = _played_deal(deal, calls)
    if played is None:  # four passes: the next dealer deals again
        return _open(match, (deal[0] + 1) % 4, len(match[3]))
    return _state((PLAYING, match, played, hands, played[7], (), (), False))


def _played_deal(deal: tuple[Any, ...], calls: Any) -> tuple[Any, ...] | None:
    """The deal to play after ``calls``: each side's contract, the board
    claimers and the first leader (``None`` after four passes)."""
    dealer, size, trump, turn_up, _calls, _board = deal
    first = (dealer + 1) % 4
    sums = [0, 0]
    claims: list[int] = []
    best, leader = 0, first
    seat = first
    for call in calls:
        if call.board:
            claims.append(seat)
        elif call.tricks:
            sums[seat % 2] += call.tricks
            if call.tricks > best:
                best, leader = call.tricks, seat
        seat = (seat + 1) % 4
    if not claims and not best:
        return None
    contracts = tuple(
        ("board", size, len(claims))
        if any(s % 2 == side for s in claims)
        else ("bid", sums[side], 1)
        for side in (0, 1)
    )
    if claims:
        leader = claims[-1]
    return (dealer, size, trump, turn_up, calls, frozenset(claims), contracts, leader)


def _score(match: tuple[Any, ...], deal: tuple[Any, ...], history: Any) -> State:
    """Score the deal, record it, and deal the next one (or end the game)."""
    match = _scored(match, deal, history)
    if len(match[3]) == len(SCHEDULE):
        return _state((OVER, match, deal, (0, 0, 0, 0), 0, (), (), False))
    return _open(match, (deal[0] + 1) % 4, len(match[3]))


def _scored(match: tuple[Any, ...], deal: tuple[Any, ...], history: Any) -> tuple[Any, ...]:
    """The match after the deal's points and its record."""
    seed, dealt, scores, results = match
    dealer, size, trump, turn_up, calls, _board, contracts, _leader = deal
    tricks = [0, 0]
    for _leader_seat, _cards, winner in history:
        tricks[winner % 2] += 1
    points = []
    for (kind, n, level), won in zip(contracts, tricks):
        if kind == "board":
            points.append(10 * n * level if won >= n else -10 * n * level)
        elif won >= n:
            points.append(5 * n + won - n)
        else:
            points.append(-5 * n)
    scores = (scores[0] + points[0], scores[1] + points[1])
    result = (
        len(results) + 1,
        dealer,
        size,
        turn_up,
        trump,
        calls,
        contracts,
        tuple(tricks),
        tuple(points),
    )
    return (seed, dealt, scores, (*results, result))


def _open(match: tuple[Any, ...], dealer: int, scored: int) -> State:
    """Shuffle (SHAKE-256 keys of the seed and deal number), deal, turn up trump."""
    seed, dealt, scores, results = match
    keys = UNPACK(hashlib.shake_256(f"backalley/{seed}/deal/{dealt}".encode()).digest(8 * 54))
    order = sorted(DECK, key=keys.__getitem__)
    size = SCHEDULE[scored]
    n = 4 * size
    hands = [0, 0, 0, 0]
    for offset in range(4):
        hands[(dealer + 1 + offset) % 4] = sum(map(BITS.__getitem__, order[offset:n:4]))
    turn_up = order[n]
    if turn_up < LJ:
        trump = turn_up // 13
    else:  # a turned joker: no trump suit, and the other joker leaves its hand
        trump = NO_TRUMP
        other = BITS[BJ if turn_up == LJ else LJ]
        for seat in range(4):
            if hands[seat] & other:
                hands[seat] ^= other | BITS[order[n + 1]]
    deal: tuple[Any, ...] = (dealer, size, trump, turn_up, (), frozenset())
    match = (seed, dealt + 1, scores, results)
    return _state((BIDDING, match, deal, tuple(hands), (dealer + 1) % 4, (), (), False))


def new_game(seed: int) -> State:
    return _open((seed, 0, (0, 0), ()), seed % 4, 0)


def checked_rules_floor(seconds: float, clock: Callable[[], float]) -> float:
    """Decisions per second of the rules floor, whole games only."""
    choice = random.Random(1).choice
    games = decisions = 0
    t0 = clock()
    while clock() - t0 < seconds:
        state = new_game(games)
        while not state.is_over:
            state = state.apply(choice(state.legal_moves()))
            decisions += 1
        games += 1
    return decisions / (clock() - t0)


def _playout_game(seed: int, choose: Callable[[Any], Any]) -> tuple[Any, ...]:
    """One game in the playout's shape: mutable hands, ``choose`` handed the
    legal moves at every decision, every choice checked; the deal records
    and scores kept as in the checked loop (one shuffle a deal, as there).
    Returns the final match: (seed, deals dealt, scores, records)."""
    match: tuple[Any, ...] = (seed, 0, (0, 0), ())
    dealer = seed % 4
    while len(match[3]) < len(SCHEDULE):
        _phase, match, deal, hands_t, _leader, _t, _h, broken = _open(
            match, dealer, len(match[3])
        )._raw
        size, trump = deal[1], deal[2]
        legal = LEGAL_CALLS[size]
        ids = CALL_IDS[size]
        calls: tuple[Any, ...] = ()
        for _ in range(4):
            move = choose(legal)
            if id(move) not in ids:
                raise ValueError(f"{move} is not a legal call")
            calls = calls + (move,)  # noqa: RUF005
        played = _played_deal(deal, calls)
        if played is None:  # four passes: the next dealer deals again
            dealer = (dealer + 1) % 4
            continue
        board, leader = played[5], played[7]
        suit_of, trumps = SUIT_OF[trump], TRUMPS[trump]
        hands = list(hands_t)
        history: tuple[Any, ...] = ()
        for _trick in range(size):
            seat = leader
            trick: tuple[int, ...] = ()
            for _k in range(4):
                hand = hands[seat]
                if trick:
                    led = trick[0]
                    same = hand & suit_of[led]
                    if not same:
                        mask = hand
                    elif led >= LJ:
                        mask = _extreme(same, trump, led == BJ)
                    else:
                        mask = same
                elif broken or seat in board:
                    mask = hand
                else:
                    mask = hand & ~trumps or hand
                move = choose(CACHE.get(mask) or _plays(mask))
                card = move.card if type(move) is Play else 54
                if not mask >> card & 1:
                    raise ValueError(f"{move} may not be played")
                hands[seat] = hand ^ BITS[card]
                trick = trick + (card,)  # noqa: RUF005
                seat = (seat + 1) % 4
            winner, broken = _trick_end(trick, leader, trump, broken)
            history = history + ((leader, trick, winner),)  # noqa: RUF005
            leader = winner
        match = _scored(match, played, history)
        dealer = (dealer + 1) % 4
    return match


def playout_rules_floor(seconds: float, clock: Callable[[], float]) -> float:
    """Decisions per second of the rules floor's playout, whole games only."""
    choice = random.Random(1).choice
    games, t0 = 0, clock()
    decisions = 0
    while clock() - t0 < seconds:
        _seed, dealt, _scores, results = _playout_game(games, choice)
        decisions += sum(4 * r[2] for r in results) + 4 * dealt  # the plays, then every call
        games += 1
    return decisions / (clock() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    floor.round_options(parser)
    floor.report_rounds(
        "rules floor", checked_rules_floor, playout_rules_floor, parser.parse_args()
    )


if __name__ == "__main__":
    main()
