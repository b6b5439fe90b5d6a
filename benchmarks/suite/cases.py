"""The benchmark cases: the workloads timed for each variant (random full
games through the checked, unchecked and playout APIs), the per-call timers
of a mid-game state, the memory of kept states, and the profile of the
random-game loop.  Every case goes through the public API only, so that an
older tree (``--baseline``) is measured exactly as this one.
"""

from __future__ import annotations

import gc
import random
import sys
import tracemalloc
from typing import Any

import bare  # benchmarks/bare.py

import backalley as ba
from backalley import lowlevel
from suite import common

GameState = ba.GameState
IllegalMoveError = ba.IllegalMoveError


def random_games_checked(rules: Any, seconds: float) -> tuple[int, int, float]:
    """Random full games: ``legal_moves()`` then a checked ``apply()`` of a random
    legal move, game after game from ``new_game(rules, seed=k)``.

    Returns (games, decisions, elapsed seconds); only whole games are played.
    """
    choice = random.Random(1).choice
    new_game, perf = ba.new_game, common.clock
    games = decisions = 0
    t0 = perf()
    while perf() - t0 < seconds:
        s = new_game(rules, seed=games)
        while not s.is_over:
            s = s.apply(choice(s.legal_moves()))
            decisions += 1
        games += 1
    return games, decisions, perf() - t0


def random_games_unchecked(rules: Any, seconds: float) -> tuple[int, int, float]:
    """The same games through the documented fast path ``apply_unchecked``."""
    choice = random.Random(1).choice
    new_game, perf = ba.new_game, common.clock
    games = decisions = 0
    t0 = perf()
    while perf() - t0 < seconds:
        s = new_game(rules, seed=games)
        while not s.is_over:
            s = s.apply_unchecked(choice(s.legal_moves()))
            decisions += 1
        games += 1
    return games, decisions, perf() - t0


def random_games_playout(rules: Any, seconds: float) -> tuple[int, int, float]:
    """The same games through the playout API: ``lowlevel.playout(state,
    random.Random(1).choice)`` plays each game to its end (every choice checked,
    no state built per move).  Returns (games, decisions, elapsed seconds)."""
    choice = random.Random(1).choice
    new_game, playout, perf = ba.new_game, lowlevel.playout, common.clock
    games = decisions = 0
    t0 = perf()
    while perf() - t0 < seconds:
        end = playout(new_game(rules, seed=games), choice)
        decisions += _decisions(end)
        games += 1
    return games, decisions, perf() - t0


def _decisions(end: Any) -> int:
    """The moves of a finished game, as the checked loop counts them: every
    deal dealt (thrown-in deals included) has one call per player, every scored
    deal one play per card and, where the declarer names trump, a trump call."""
    rules, plan = end.rules, end.rules.plan
    n = rules.players
    total = lowlevel.core(end).match.deal_number * n
    for i, r in enumerate(end.deal_results):
        total += n * r.hand_size
        if rules.trump.choices(plan.deal_context(i, r.dealer, r.hand_size)):
            total += 1
    return total


def play_record(rules: Any, seed: int) -> tuple[list[Any], list[Any]]:
    """One random game (checked API): its states (first to last) and moves."""
    rng = random.Random(seed)
    s = ba.new_game(rules, seed=seed)
    states, moves = [s], []
    while not s.is_over:
        m = rng.choice(s.legal_moves())
        s = s.apply(m)
        states.append(s)
        moves.append(m)
    return states, moves


def replay(rules: Any, seed: int, moves: list[Any]) -> list[Any]:
    """Fresh states (nothing cached in them) of a recorded game, built with
    ``apply_unchecked`` from its moves: the positions before each move."""
    s = ba.new_game(rules, seed=seed)
    pool = [s]
    for m in moves[:-1]:
        s = s.apply_unchecked(m)
        pool.append(s)
    return pool


class Subject:
    """Everything measured for one variant, prepared once before the rounds."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.rules = ba.variants.get(name)
        self.records = []
        for seed in (7, 8):
            states, moves = play_record(self.rules, seed)
            self.records.append((seed, moves))
            if seed == 7:
                game_states, game_moves = states, moves
        self.decisions_per_game = len(game_moves)
        self.players = self.rules.players
        self.hand_sizes = tuple(self.rules.schedule.hand_sizes)
        i = self._pick_midgame(game_states)
        self.mid = mid = game_states[i]
        self.mid_index = i
        self.prev, self.prev_move = game_states[i - 1], game_moves[i - 1]
        legal = mid.legal_moves()
        self.legal = legal[len(legal) // 2]
        self.illegal = self._pick_illegal(mid)
        mid.check(self.legal)
        try:
            mid.check(self.illegal)
        except IllegalMoveError as exc:
            self.illegal_reason = exc.reason.name
        else:  # pragma: no cover
            raise AssertionError(f"{name}: {self.illegal} should be illegal")
        self.seat = mid.to_act
        self.text = ba.to_json(mid)
        if ba.from_json(self.text, GameState) != mid:  # pragma: no cover
            raise AssertionError(f"{name}: the JSON round trip changed the state")
        self.ns = {
            "s": mid,
            "legal": self.legal,
            "illegal": self.illegal,
            "seat": self.seat,
            "text": self.text,
            "to_json": ba.to_json,
            "from_json": ba.from_json,
            "GameState": GameState,
            "IllegalMoveError": IllegalMoveError,
        }

    @staticmethod
    def _pick_midgame(states: list[Any]) -> int:
        """A state from the second half of the game, mid-trick, whose seat to
        act holds a card it may not play (so that the illegal move is a rule
        refusal, not a card it does not hold); fallbacks if there is none."""
        half = len(states) // 2
        playing = ba.Phase.PLAYING
        for i in range(half, len(states) - 1):
            s = states[i]
            if s.phase is playing and s.trick and len(s.hands[s.to_act]) > len(s.legal_moves()):
                return i
        for i in range(half, len(states) - 1):
            if states[i].phase is playing:
                return i
        return half

    @staticmethod
    def _pick_illegal(s: Any) -> Any:
        legal = set(s.legal_moves())
        if s.phase is ba.Phase.PLAYING:
            hand = s.hands[s.to_act]
            for card in hand:
                if ba.Play(card) not in legal:
                    return ba.Play(card)
            held = set(hand)
            for card in ba.CARDS:
                if card not in held:
                    return ba.Play(card)
        for n in range(64, -1, -1):
            if ba.Bid(n) not in legal:
                return ba.Bid(n)
        raise AssertionError("no illegal move found")  # pragma: no cover


# ------------------------------------------------------------ per-call timers


def legal_moves_cold(sub: Subject, seconds: float) -> float:
    """Seconds per ``legal_moves()`` on a state that has not answered it yet
    (it is cached per state), averaged over every position of recorded games."""
    total_t, total_n, perf = 0.0, 0, common.clock
    while total_t < seconds / 2:  # the replays cost more than the timed calls
        for seed, moves in sub.records:
            pool = replay(sub.rules, seed, moves)
            t0 = perf()
            for p in pool:
                p.legal_moves()
            total_t += perf() - t0
            total_n += len(pool)
    return total_t / total_n


def check_cold(sub: Subject, seconds: float, move: Any, illegal: bool) -> float:
    """Seconds per ``check(move)`` of the mid-game state, on fresh copies of it
    (``prev.apply_unchecked(m)``) that have not computed their legal moves."""
    total_t, total_n, perf = 0.0, 0, common.clock
    prev, pm = sub.prev, sub.prev_move
    while total_t < seconds:
        pool = [prev.apply_unchecked(pm) for _ in range(500)]
        if illegal:
            t0 = perf()
            for p in pool:
                try:  # noqa: SIM105 - contextlib.suppress would be timed too
                    p.check(move)
                except IllegalMoveError:
                    pass
            total_t += perf() - t0
        else:
            t0 = perf()
            for p in pool:
                p.check(move)
            total_t += perf() - t0
        total_n += len(pool)
    return total_t / total_n


CHECK_ILLEGAL = """
try:
    s.check(illegal)
except IllegalMoveError:
    pass
"""


def micro(sub: Subject, seconds: float) -> dict[str, float]:
    """Per-call seconds of the mid-game operations (one round)."""
    ns, share = sub.ns, seconds
    out = {
        "legal_moves": legal_moves_cold(sub, share),
        "check_legal": bare.per_call("s.check(legal)", share, ns, common.clock),
        "check_illegal": bare.per_call(CHECK_ILLEGAL, share, ns, common.clock),
        "check_legal_cold": check_cold(sub, share, sub.legal, illegal=False),
        "check_illegal_cold": check_cold(sub, share, sub.illegal, illegal=True),
        "view": bare.per_call("s.view(seat)", share, ns, common.clock),
        "to_json": bare.per_call("to_json(s)", share, ns, common.clock),
        "from_json": bare.per_call("from_json(text, GameState)", share, ns, common.clock),
    }
    out["json_roundtrip"] = out["to_json"] + out["from_json"]
    return out


# ------------------------------------------------------------------- memory


def memory(sub: Subject, n_states: int) -> dict[str, Any]:
    """Bytes retained by ``n_states`` consecutive states kept in a list.

    The states are those of random games played back to back (seeds 0, 1, ...;
    one game has fewer than 10,000 states), rebuilt from their recorded moves
    with ``apply_unchecked``, so that nothing is cached in them ("states").
    Then every state but the last answers ``legal_moves()``, as in the random
    loop of the checked API, and the tuples it caches are added ("+cache").
    The rule set is shared by every state and allocated before tracing starts,
    so it is not counted; neither is the list itself.
    """
    rules = sub.rules
    # the moves, recorded untraced (also a warm-up of every lazy cache)
    games: list[tuple[int, list[Any]]] = []
    count, seed = 0, 0
    while count < n_states:
        _, moves = play_record(rules, seed)
        games.append((seed, moves))
        count += len(moves) + 1
        seed += 1
    apply_unchecked = GameState.apply_unchecked
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        states: list[Any] = []
        for seed, moves in games:
            s = ba.new_game(rules, seed=seed)
            states.append(s)
            for m in moves:
                if len(states) >= n_states:
                    break
                s = apply_unchecked(s, m)
                states.append(s)
            if len(states) >= n_states:
                break
        gc.collect()
        replayed = tracemalloc.get_traced_memory()[0] - base - sys.getsizeof(states)
        for s in states[:-1]:
            s.legal_moves()
        gc.collect()
        cached = tracemalloc.get_traced_memory()[0] - base - sys.getsizeof(states)
    finally:
        tracemalloc.stop()
    assert len(states) == n_states
    return {
        "states": n_states,
        "states_per_game": sub.decisions_per_game + 1,
        "replayed": replayed,
        "checked": cached,
    }


# ------------------------------------------------------------------ profile


def profile(name: str, games: int) -> str:
    """cProfile of the checked random-game loop: top 25 functions by tottime."""
    import cProfile
    import io
    import pstats

    rules = ba.variants.get(name)
    random_games_checked(rules, 0.2)  # warm up
    choice = random.Random(1).choice
    pr = cProfile.Profile()
    pr.enable()
    for seed in range(games):
        s = ba.new_game(rules, seed=seed)
        while not s.is_over:
            s = s.apply(choice(s.legal_moves()))
    pr.disable()
    buf = io.StringIO()
    pstats.Stats(pr, stream=buf).sort_stats("tottime").print_stats(25)
    return f"cProfile: {games} random {rules.name} games, checked apply\n" + buf.getvalue()
