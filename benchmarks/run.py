"""The backalley benchmark suite: throughput, per-call costs and memory, with
the ratios the project's performance targets are stated in.

    python benchmarks/run.py [--seconds S] [--repeat R] [--variants all|NAME,...]
                             [--json FILE] [--quick] [--memory-states N]
                             [--baseline DIR]
    python benchmarks/run.py --profile [VARIANT]     # cProfile of the random-game loop

Everything is measured through the public API (``backalley.new_game``,
``GameState.legal_moves/check/apply/apply_unchecked/view``, ``to_json`` /
``from_json``), in one process, alternating runs: each of the R rounds measures
the references (the bare loop, OpenSpiel ``oh_hell``) and then every selected
variant, and the figures reported are medians over the rounds.  Ratios are
computed per round from numbers measured in that round, then the median is
taken, so that machine drift between rounds cancels out.  See README.md for
what each figure means.

``--baseline DIR`` adds a side-by-side comparison with another checkout of the
project (DIR holds its ``backalley`` package): two worker processes, each
running this file's workloads (``--worker TREE``) against one tree's
``backalley`` through its public API, take turns in every round, and the
report gives each figure of both trees with the ratio new ÷ baseline (the
median of the per-round ratios).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))


def _measured_tree() -> Path:
    """The tree whose ``backalley`` this process measures: the one this suite
    lives in (``benchmarks/..``), or, in a worker of ``--baseline`` (``run.py
    --worker TREE``), the tree it was started for."""
    argv = sys.argv
    if __name__ == "__main__" and "--worker" in argv[:-1]:
        return Path(argv[argv.index("--worker") + 1]).resolve()
    return ROOT


# measure that tree (not another installed copy)
TREE = _measured_tree()
sys.path.insert(1, str(TREE))
import bare  # noqa: E402  (benchmarks/bare.py)

import backalley as ba  # noqa: E402
from backalley import lowlevel  # noqa: E402

GameState = ba.GameState
IllegalMoveError = ba.IllegalMoveError
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = time.perf_counter  # set by main() from --clock

# This round's targets (judged on gamerules)
TARGET_OSP = 0.6  # checked decisions/s / OpenSpiel decisions/s   >= 0.6
TARGET_PLAYOUT = 0.75  # playout decisions/s / OpenSpiel decisions/s  >= 0.75 (0.9 earlier this round)
TARGET_REPLAY = 1.5  # JSON round trip at deal 13 / replay of its moves  <= 1.5
JSON_DEAL = 13  # the deal of the state whose round trip the target times
# Earlier targets, reported as information (not judged)
EARLIER_OSP = 1.0  # checked decisions/s / OpenSpiel decisions/s   >= 1.0
EARLIER_BARE = 3.5  # bare games/s / library games/s              <= 3.5
EARLIER_PLAYOUT = 2.0  # playout decisions/s / OpenSpiel decisions/s  >= 2.0
EARLIER_VIEW = 1.5  # view(seat) / OpenSpiel information_state_string  <= 1.5
EARLIER_JSON_OSP = 10.0  # mid-game JSON round trip / OpenSpiel serde <= 10
EARLIER_JSON_GROWTH = 1.5  # JSON round trip at deal 25 / at deal 1   <= 1.5
BARE_VARIANT = "gamerules"  # the variant whose game is the bare loop's size


# ---------------------------------------------------------------- the workloads


def random_games_checked(rules: Any, seconds: float) -> tuple[int, int, float]:
    """Random full games: ``legal_moves()`` then a checked ``apply()`` of a random
    legal move, game after game from ``new_game(rules, seed=k)``.

    Returns (games, decisions, elapsed seconds); only whole games are played.
    """
    choice = random.Random(1).choice
    new_game, perf = ba.new_game, clock
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
    new_game, perf = ba.new_game, clock
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
    new_game, playout, perf = ba.new_game, lowlevel.playout, clock
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
    total_t, total_n, perf = 0.0, 0, clock
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
    total_t, total_n, perf = 0.0, 0, clock
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
        "check_legal": bare.per_call("s.check(legal)", share, ns, clock),
        "check_illegal": bare.per_call(CHECK_ILLEGAL, share, ns, clock),
        "check_legal_cold": check_cold(sub, share, sub.legal, illegal=False),
        "check_illegal_cold": check_cold(sub, share, sub.illegal, illegal=True),
        "view": bare.per_call("s.view(seat)", share, ns, clock),
        "to_json": bare.per_call("to_json(s)", share, ns, clock),
        "from_json": bare.per_call("from_json(text, GameState)", share, ns, clock),
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


# --------------------------------------------------------------------- runner


def median(xs: list[float]) -> float:
    return statistics.median(xs)


def spread(xs: list[float]) -> float | None:
    """(max - min) / median, as a fraction (``None`` for a single round)."""
    m = statistics.median(xs)
    return (max(xs) - min(xs)) / m if m and len(xs) > 1 else None


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.0%}"


def _commit(root: Path) -> str | None:
    """The tree's commit (``+dirty`` with uncommitted changes to tracked files),
    by read-only git commands: ``git describe --dirty`` would refresh the index,
    taking its lock, while someone may be committing in that tree."""
    git = ["git", "--no-optional-locks", "-C", str(root)]
    with contextlib.suppress(Exception):
        head = subprocess.run(
            [*git, "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        changed = subprocess.run(
            [*git, "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout.strip()
        return head + ("+dirty" if changed else "")
    return None


def tree_environment() -> dict[str, Any]:
    """The measured ``backalley``: its version, folder and the tree's commit."""
    return {
        "backalley": ba.__version__,
        "backalley_path": str(Path(ba.__file__).resolve().parent),
        "commit": _commit(TREE),
    }


def environment() -> dict[str, Any]:
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "executable": sys.executable,
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        **tree_environment(),
        "openspiel": bare.openspiel_version(),
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    names = (
        list(ba.variants.names())
        if args.variants == "all"
        else [ba.variants.get(n.strip()).name for n in args.variants.split(",") if n.strip()]
    )
    S, R = args.seconds, args.repeat
    micro_s = S / 8
    log = (
        (lambda *a: print(*a, file=sys.stderr, flush=True))
        if not args.silent
        else (lambda *a: None)
    )

    t_start, cpu_start = time.perf_counter(), time.process_time()
    phases: dict[str, list[float]] = {}
    marks = [time.perf_counter(), time.process_time()]

    def phase(label: str) -> None:
        """Add the wall and CPU seconds since the previous mark to ``label``."""
        now = [time.perf_counter(), time.process_time()]
        acc = phases.setdefault(label, [0.0, 0.0])
        acc[0] += now[0] - marks[0]
        acc[1] += now[1] - marks[1]
        marks[:] = now

    workers: list[Worker] = []
    if args.baseline:
        log(f"starting the workers of the comparison (this tree and {args.baseline}) ...")
        workers = [
            Worker("new", ROOT, names, args),
            Worker("baseline", Path(args.baseline).resolve(), names, args),
        ]
    log(f"preparing {len(names)} variants ...")
    subjects = [Subject(n) for n in names]
    compare_failed: list[str] = []

    def ask_all(cmd: str, order: list[Worker]) -> dict[str, Any] | None:
        """Each worker's answer to ``cmd``; on a worker's failure, the
        comparison stops there (the rest of the run goes on)."""
        try:
            return {w.label: w.ask(cmd) for w in order}
        except (RuntimeError, OSError, ValueError) as exc:
            compare_failed.append(f"{type(exc).__name__}: {exc}")
            log(f"the comparison stops: {exc}")
            for w in workers:
                w.kill()
            workers.clear()
            return None

    started = [*workers]  # reported, even if one fails to start
    try:
        for w in workers:
            w.wait_ready()
    except (RuntimeError, OSError, ValueError) as exc:
        compare_failed.append(f"{type(exc).__name__}: {exc}")
        for w in workers:
            w.kill()
        workers.clear()
    osp_game = bare.openspiel_game()
    osp_dpg = bare.openspiel_decisions_per_game()

    phase("prepare")
    rounds: list[dict[str, Any]] = []
    for r in range(R):
        log(f"round {r + 1}/{R}: references")
        rd: dict[str, Any] = {"variants": {}}
        bare_gps = bare.bare_games_per_s_clock(S, clock)
        rd["bare"] = {
            "games_per_s": bare_gps,
            "decisions_per_s": bare_gps * bare.DECISIONS_PER_GAME,
        }
        if osp_game is not None:
            rd["openspiel"] = {"decisions_per_s": bare.openspiel_decisions_per_s(S, clock)}
            serde = bare.openspiel_serde_timers(micro_s * 3, clock)
            rd["openspiel"].update({f"{k}_s": v for k, v in serde.items()})
            rd["openspiel"]["infostate_s"] = bare.openspiel_information_state_timer(micro_s, clock)
        phase("references")
        log(f"round {r + 1}/{R}: random games")
        for sub in subjects:
            v: dict[str, Any] = {}
            for label, fn in (
                ("checked", random_games_checked),
                ("unchecked", random_games_unchecked),
                ("playout", random_games_playout),
            ):
                games, decisions, dt = fn(sub.rules, S)
                v[label] = {
                    "games_per_s": games / dt,
                    "decisions_per_s": decisions / dt,
                    "us_per_decision": dt / decisions * 1e6,
                    "games": games,
                }
            rd["variants"][sub.name] = v
        phase("games")
        log(f"round {r + 1}/{R}: per-call timings")
        for sub in subjects:
            rd["variants"][sub.name]["calls_s"] = micro(sub, micro_s)
        phase("per-call")
        if workers:
            log(f"round {r + 1}/{R}: side by side with the baseline")
            # the two trees take turns: new first in odd rounds, baseline first in even ones
            got = ask_all("round", workers[:: 1 if r % 2 == 0 else -1])
            if got is not None:
                rd["compare"] = got
            phase("baseline")
        rounds.append(rd)

    log("memory ...")
    mem = {sub.name: memory(sub, args.memory_states) for sub in subjects}
    phase("memory")
    compared_memory: dict[str, Any] = {}
    if workers:
        log("memory, side by side with the baseline ...")
        compared_memory = ask_all(f"memory {args.memory_states}", workers) or {}
        phase("baseline")

    # ------------------------------------------------------- aggregate
    out: dict[str, Any] = {
        "environment": environment(),
        "settings": {
            "seconds": S,
            "repeat": R,
            "micro_seconds": micro_s,
            "clock": args.clock,
            "memory_states": args.memory_states,
            "variants": names,
        },
        "bare": {
            "games_per_s": median([rd["bare"]["games_per_s"] for rd in rounds]),
            "decisions_per_s": median([rd["bare"]["decisions_per_s"] for rd in rounds]),
            "decisions_per_game": bare.DECISIONS_PER_GAME,
            "spread": spread([rd["bare"]["games_per_s"] for rd in rounds]),
        },
        "openspiel": None,
        "variants": {},
        "rounds": rounds,
    }
    if osp_game is not None:
        o = [rd["openspiel"] for rd in rounds]
        mid = bare.openspiel_midgame_state()
        out["openspiel"] = {
            "game": bare.OPENSPIEL_GAME
            + "("
            + ", ".join(f"{k}={v}" for k, v in bare.OPENSPIEL_PARAMS.items())
            + ")",
            "decisions_per_s": median([x["decisions_per_s"] for x in o]),
            "decisions_per_game": osp_dpg,
            "spread": spread([x["decisions_per_s"] for x in o]),
            "serialize_us": median([x["serialize_s"] for x in o]) * 1e6,
            "deserialize_us": median([x["deserialize_s"] for x in o]) * 1e6,
            "roundtrip_us": median([x["roundtrip_s"] for x in o]) * 1e6,
            "infostate_us": median([x["infostate_s"] for x in o]) * 1e6,
            "text_bytes": len(mid.serialize().encode()),
        }
    for sub in subjects:
        vr = [rd["variants"][sub.name] for rd in rounds]
        agg: dict[str, Any] = {
            "decisions_per_game": sub.decisions_per_game,
            "players": sub.players,
            "deals": len(sub.hand_sizes),
            "midgame": {
                "decision": sub.mid_index,
                "repr": repr(sub.mid),
                "legal": str(sub.legal),
                "illegal": str(sub.illegal),
                "illegal_reason": sub.illegal_reason,
                "json_bytes": len(sub.text.encode()),
            },
        }
        for label in ("checked", "unchecked", "playout"):
            agg[label] = {
                k: median([x[label][k] for x in vr])
                for k in ("games_per_s", "decisions_per_s", "us_per_decision")
            }
            agg[label]["spread"] = spread([x[label]["decisions_per_s"] for x in vr])
        agg["calls_us"] = {k: median([x["calls_s"][k] for x in vr]) * 1e6 for k in vr[0]["calls_s"]}
        agg["memory"] = mem[sub.name]
        ratios: dict[str, float | None] = {}
        if osp_game is not None:
            ratios["decisions_vs_openspiel"] = median(
                [
                    x["checked"]["decisions_per_s"] / rd["openspiel"]["decisions_per_s"]
                    for x, rd in zip(vr, rounds, strict=True)
                ]
            )
            ratios["unchecked_decisions_vs_openspiel"] = median(
                [
                    x["unchecked"]["decisions_per_s"] / rd["openspiel"]["decisions_per_s"]
                    for x, rd in zip(vr, rounds, strict=True)
                ]
            )
            ratios.update(_engine_ratios(vr, rounds))
            ratios["json_vs_openspiel"] = median(
                [
                    x["calls_s"]["json_roundtrip"] / rd["openspiel"]["roundtrip_s"]
                    for x, rd in zip(vr, rounds, strict=True)
                ]
            )
        if sub.hand_sizes == bare.HAND_SIZES and sub.players == 4:
            ratios["bare_vs_games"] = median(
                [
                    rd["bare"]["games_per_s"] / x["checked"]["games_per_s"]
                    for x, rd in zip(vr, rounds, strict=True)
                ]
            )
            ratios["bare_vs_unchecked_games"] = median(
                [
                    rd["bare"]["games_per_s"] / x["unchecked"]["games_per_s"]
                    for x, rd in zip(vr, rounds, strict=True)
                ]
            )
        agg["ratios"] = ratios
        out["variants"][sub.name] = agg
    out["serialization"] = serialization_rows(S, R)  # the loading helper's section
    if started:
        out["comparison"] = compare(started, rounds, compared_memory, compare_failed)
        for w in workers:
            w.close()
    out["targets"] = targets(out)
    out["earlier_targets"] = earlier_targets(out)
    out["elapsed_s"] = time.perf_counter() - t_start
    out["cpu_s"] = time.process_time() - cpu_start
    out["phases_s"] = phases
    return out


def _engine_ratios(vr: list[dict[str, Any]], rounds: list[dict[str, Any]]) -> dict[str, float]:
    """Per-round ratios of the engine rows (then medians): the playout API and
    ``view(seat)`` against OpenSpiel, and checked ``apply`` against ``apply_unchecked``."""
    pairs = list(zip(vr, rounds, strict=True))
    return {
        "playout_decisions_vs_openspiel": median(
            [
                x["playout"]["decisions_per_s"] / rd["openspiel"]["decisions_per_s"]
                for x, rd in pairs
            ]
        ),
        "view_vs_openspiel": median(
            [x["calls_s"]["view"] / rd["openspiel"]["infostate_s"] for x, rd in pairs]
        ),
        "unchecked_vs_checked": median(
            [x["unchecked"]["decisions_per_s"] / x["checked"]["decisions_per_s"] for x, _ in pairs]
        ),
        "playout_vs_checked": median(
            [x["playout"]["decisions_per_s"] / x["checked"]["decisions_per_s"] for x, _ in pairs]
        ),
    }


def _target(text: str, value: float | None, limit: float, ge: bool) -> list[dict[str, Any]]:
    """One target as reported (none when its figure was not measured)."""
    if value is None:
        return []
    ok = value >= limit if ge else value <= limit
    return [{"target": f"{text} {'>=' if ge else '<='} {limit:g}", "value": value, "ok": ok}]


def targets(out: dict[str, Any]) -> list[dict[str, Any]]:
    """This round's targets, judged on the gamerules variant (when measured)."""
    v = out["variants"].get(BARE_VARIANT)
    ser = out.get("serialization") or {}
    res: list[dict[str, Any]] = []
    if v is not None:
        r = v["ratios"]
        res += _target(
            "gamerules checked decisions/s / OpenSpiel decisions/s",
            r.get("decisions_vs_openspiel"),
            TARGET_OSP,
            ge=True,
        )
        res += _target(
            "gamerules playout decisions/s / OpenSpiel decisions/s",
            r.get("playout_decisions_vs_openspiel"),
            TARGET_PLAYOUT,
            ge=True,
        )
    res += _target(
        f"gamerules JSON round trip at deal {JSON_DEAL} / replay of its moves (apply_unchecked)",
        ser.get("json_vs_replay"),
        TARGET_REPLAY,
        ge=False,
    )
    return res


def earlier_targets(out: dict[str, Any]) -> list[dict[str, Any]]:
    """The targets of earlier rounds, still reported as information (not judged)."""
    v = out["variants"].get(BARE_VARIANT)
    ser = out.get("serialization") or {}
    res: list[dict[str, Any]] = []
    if v is not None:
        r = v["ratios"]
        res += _target(
            "checked decisions/s / OpenSpiel", r.get("decisions_vs_openspiel"), EARLIER_OSP, True
        )
        res += _target(
            "bare games/s / checked games/s", r.get("bare_vs_games"), EARLIER_BARE, False
        )
        res += _target(
            "playout decisions/s / OpenSpiel",
            r.get("playout_decisions_vs_openspiel"),
            EARLIER_PLAYOUT,
            True,
        )
        res += _target(
            "view(seat) / OpenSpiel information_state_string",
            r.get("view_vs_openspiel"),
            EARLIER_VIEW,
            False,
        )
        res += _target(
            "mid-game JSON round trip / OpenSpiel serialize+deserialize",
            r.get("json_vs_openspiel"),
            EARLIER_JSON_OSP,
            False,
        )
    res += _target(
        "JSON round trip at deal 25 / at deal 1", ser.get("json_growth"), EARLIER_JSON_GROWTH, False
    )
    if "pickle_s" in ser:
        res += _target("pickle dumps + loads at deal 6, us", ser["pickle_s"] * 1e6, 30, False)
    if "vectors_s_per_game" in ser:
        res += _target(
            "conformance vectors, s CPU for 100 games", ser["vectors_s_per_game"] * 100, 10, False
        )
    if "import_s" in ser:
        res += _target("import backalley from bytecode, ms wall", ser["import_s"] * 1e3, 80, False)
    return res


# ------------------------------------------------------------------- report


def _table(headers: list[str], rows: list[list[str]], left: int = 1) -> str:
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)
    ]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < left else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def _n(x: float | None, digits: int = 0) -> str:
    return "-" if x is None else f"{x:,.{digits}f}"


def _ratio(x: float | None, target: float | None = None, ge: bool = True) -> str:
    if x is None:
        return "-"
    text = f"{x:.2f}"
    if target is not None:
        ok = x >= target if ge else x <= target
        text += " ok" if ok else " !!"
    return text


def report(out: dict[str, Any]) -> str:
    env, st = out["environment"], out["settings"]
    lines = [
        "backalley benchmarks",
        f"  python {env['python']} ({env['implementation']}) on {env['platform']}, "
        f"{env['cpus']} CPUs",
        f"  backalley {env['backalley']} at {env['backalley_path']} (commit {env['commit']})",
        f"  {st['repeat']} round(s) of {st['seconds']} s per throughput run, "
        f"{st['micro_seconds']:.3g} s per per-call timing, {st['clock']} clock; "
        "medians over rounds (spread = (max-min)/median)",
        f"  took {out['elapsed_s']:.0f} s wall, {out['cpu_s']:.0f} s CPU (wall/CPU: "
        + ", ".join(f"{k} {w:.0f}/{c:.0f} s" for k, (w, c) in out["phases_s"].items())
        + ")",
        "",
        "References",
    ]
    b = out["bare"]
    lines.append(
        f"  bare loop:  {b['games_per_s']:,.1f} games/s = "
        f"{b['decisions_per_s']:,.0f} decisions/s  "
        f"({b['decisions_per_game']} decisions/game, spread {_pct(b['spread'])})"
    )
    o = out["openspiel"]
    if o is None:
        lines.append(
            "  OpenSpiel: pyspiel not importable (pip install open-spiel); its ratios are skipped"
        )
    else:
        lines.append(
            f"  OpenSpiel {o['game']} (open_spiel {env['openspiel']}):  "
            f"{o['decisions_per_s']:,.0f} decisions/s  "
            f"({o['decisions_per_game']} decisions/game, spread {_pct(o['spread'])})"
        )
        lines.append(
            f"  OpenSpiel mid-game serialize {o['serialize_us']:.1f} us + deserialize "
            f"{o['deserialize_us']:.1f} us; together {o['roundtrip_us']:.1f} us  "
            f"({o['text_bytes']} bytes)"
        )
    V = out["variants"]

    lines += [
        "",
        "Random full games (legal_moves() + random legal move; "
        "checked = apply, fast = apply_unchecked)",
    ]
    rows = []
    for name, v in V.items():
        c, u, r = v["checked"], v["unchecked"], v["ratios"]
        rows.append(
            [
                name,
                str(v["decisions_per_game"]),
                _n(c["games_per_s"], 1),
                _n(c["decisions_per_s"]),
                _n(c["us_per_decision"], 2),
                _pct(c["spread"]),
                _n(u["games_per_s"], 1),
                _n(u["decisions_per_s"]),
                _n(u["us_per_decision"], 2),
                _ratio(
                    r.get("decisions_vs_openspiel"), TARGET_OSP if name == BARE_VARIANT else None
                ),
                _ratio(r.get("unchecked_decisions_vs_openspiel")),
                _ratio(r.get("bare_vs_games")),
                _ratio(r.get("bare_vs_unchecked_games")),
            ]
        )
    lines.append(
        _table(
            [
                "variant",
                "dec/game",
                "games/s",
                "dec/s",
                "us/dec",
                "spread",
                "fast g/s",
                "fast dec/s",
                "fast us/dec",
                "dec/s÷OSP",
                "fast÷OSP",
                "bare÷games",
                "bare÷fast",
            ],
            rows,
        )
    )
    lines.append(
        f"  dec/s÷OSP: library decisions/s ÷ OpenSpiel oh_hell decisions/s (target ≥ {TARGET_OSP}); "
        "bare÷games: bare games/s ÷ library games/s"
    )
    lines.append(
        f"  (earlier target ≤ {EARLIER_BARE:g}; shown for 4-player variants on the bare loop's "
        "13..1..13 schedule). 'ok'/'!!' mark this round's targets, judged on gamerules."
    )

    lines += _engine_report(out)
    lines += ["", "Per call, µs (a mid-game state: second half of the game, mid-trick)"]
    rows = []
    for name, v in V.items():
        c, r, m = v["calls_us"], v["ratios"], v["midgame"]
        rows.append(
            [
                name,
                _n(c["legal_moves"], 2),
                _n(c["check_legal"], 2),
                _n(c["check_legal_cold"], 2),
                _n(c["check_illegal"], 2),
                _n(c["check_illegal_cold"], 2),
                m["illegal_reason"],
                _n(c["view"], 2),
                _n(c["to_json"], 1),
                _n(c["from_json"], 1),
                _n(c["json_roundtrip"], 1),
                str(m["json_bytes"]),
                _ratio(r.get("json_vs_openspiel")),
            ]
        )
    lines.append(
        _table(
            [
                "variant",
                "legal_moves",
                "check ok",
                "(cold)",
                "check bad",
                "(cold)",
                "refusal",
                "view",
                "to_json",
                "from_json",
                "round trip",
                "json B",
                "RT÷OSP",
            ],
            rows,
        )
    )
    lines.append(
        "  legal_moves: first call on a state, averaged over every position of two games "
        "(it is cached per state); check: on a state whose"
    )
    lines.append(
        "  legal moves are cached (cold: a fresh state); RT÷OSP: (to_json + from_json) ÷ OpenSpiel "
        f"serialize+deserialize (information; earlier target ≤ {EARLIER_JSON_OSP:g})."
    )

    n = st["memory_states"]
    lines += [
        "",
        f"Memory: {n:,} consecutive states kept in a list (games played back to back; tracemalloc; "
        "rule set and list excluded)",
    ]
    rows = []
    for name, v in V.items():
        mm = v["memory"]
        rows.append(
            [
                name,
                str(mm["states_per_game"]),
                _n(mm["replayed"] / 2**20, 2),
                _n(mm["replayed"] / n, 0),
                _n(mm["checked"] / 2**20, 2),
                _n(mm["checked"] / n, 0),
            ]
        )
    lines.append(
        _table(
            ["variant", "states/game", "MiB", "B/state", "MiB (+cache)", "B/state (+cache)"], rows
        )
    )
    lines.append(
        "  states: rebuilt from recorded moves with apply_unchecked (nothing cached); "
        "+cache: the same states after each answered legal_moves(),"
    )
    lines.append("  which it caches (as every state of the checked random loop does).")

    share = out["cpu_s"] / out["elapsed_s"] if out["elapsed_s"] else 1.0
    if share < 0.85 and st["clock"] == "wall":
        lines += [
            "",
            f"Warning: this process had only {share:.0%} of a CPU during the run (a busy machine): "
            "wall-clock figures are noisy; try --clock cpu.",
        ]
    lines += serialization_report(out.get("serialization"), out.get("openspiel"))
    lines += comparison_report(out.get("comparison"))
    if out.get("earlier_targets"):
        lines += ["", "Earlier targets (gamerules; information, not judged this round)"]
        for t in out["earlier_targets"]:
            lines.append(f"  [{'met' if t['ok'] else 'not met'}] {t['target']}: {t['value']:.2f}")
    if out["targets"]:
        lines += ["", "Targets (gamerules, this run)"]
        for t in out["targets"]:
            lines.append(f"  [{'PASS' if t['ok'] else 'FAIL'}] {t['target']}: {t['value']:.2f}")
    return "\n".join(lines)


# ------------------------------------------------------- serialization rows
# JSON round trip by deals played, pickle, import time (issue 9, serialization).


def _state_and_moves(deals: int, seed: int = 3) -> tuple[Any, list[Any]]:
    """A gamerules state after ``deals`` scored deals and 8 more moves (random
    legal moves through the checked ``apply``), and the moves that led to it."""
    rng = random.Random(seed)
    state = ba.new_game(ba.variants.GAMERULES, seed=seed)
    moves: list[Any] = []

    def step() -> None:
        nonlocal state
        move = rng.choice(state.legal_moves())
        state = state.apply(move)
        moves.append(move)

    while state.deals_played < deals:
        step()
    for _ in range(8):
        step()
    return state, moves


def _state_at(deals: int, seed: int = 3) -> Any:
    """A gamerules state after ``deals`` scored deals and 8 more moves."""
    return _state_and_moves(deals, seed)[0]


def replay_moves(state: Any, moves: Any) -> Any:
    """The state reached by replaying ``moves`` from the start of ``state``'s
    game: ``new_game`` with its rule set, seed, first dealer and the deck orders
    not drawn from the seed (``lowlevel.core(state).match.decks``), then
    ``apply_unchecked`` of each move."""
    s = ba.new_game(
        state.rules,
        seed=state.seed,
        dealer=state.first_dealer,
        decks=lowlevel.core(state).match.decks,
    )
    for move in moves:
        s = s.apply_unchecked(move)
    return s


def _moves_of(state: Any, recorded: list[Any]) -> Any:
    """The moves of ``state``'s game: ``state.moves`` (every move since the game
    began), checked against the moves recorded while playing it; a tree whose
    states do not remember their moves (an older baseline) gets the recorded ones."""
    moves = getattr(state, "moves", None)
    if moves is None:
        return tuple(recorded)
    if list(moves) != list(recorded):  # pragma: no cover
        raise AssertionError("state.moves is not the moves that were played")
    return moves


class JsonSubject:
    """A gamerules state at one deal, prepared for the JSON and replay timings."""

    def __init__(self, deal: int) -> None:
        self.deal = deal
        self.state, recorded = _state_and_moves(deal - 1)
        self.moves = _moves_of(self.state, recorded)
        self.text = ba.to_json(self.state)
        if ba.from_json(self.text, GameState) != self.state:  # pragma: no cover
            raise AssertionError(f"deal {deal}: the JSON round trip changed the state")
        if replay_moves(self.state, self.moves) != self.state:  # pragma: no cover
            raise AssertionError(f"deal {deal}: replaying the moves gave another state")

    def timers(self, share: float) -> dict[str, float]:
        """CPU seconds per call, one round: the round trip (``from_json(to_json(s))``),
        the replay of its moves, ``to_json`` and ``from_json`` alone."""
        s, text, moves = self.state, self.text, self.moves
        return {
            "roundtrip": _per_call(lambda: ba.from_json(ba.to_json(s), GameState), share),
            "replay": _per_call(lambda: replay_moves(s, moves), share),
            "to_json": _per_call(lambda: ba.to_json(s), share),
            "from_json": _per_call(lambda: ba.from_json(text, GameState), share),
        }


def _per_call(fn: Any, seconds: float) -> float:
    """CPU seconds per call of ``fn`` (after one warm-up call)."""
    fn()
    n, t0 = 0, time.process_time()
    while True:
        for _ in range(20):
            fn()
        n += 20
        spent = time.process_time() - t0
        if spent >= seconds:
            return spent / n


JSON_DEALS = (1, JSON_DEAL, 25)


def serialization_rows(seconds: float, repeat: int) -> dict[str, Any]:
    """JSON round trip (to_json + from_json) at deals 1, 13 and 25 (and each
    half) beside the replay of the same state's moves with ``apply_unchecked``
    from ``new_game`` (a state document replays its moves when loaded; the
    ratio is taken per round, then the median), pickle dumps + loads at deals
    1, 6 and 25, conformance vectors of a few games, and ``import backalley``
    in a fresh interpreter (medians of ``repeat`` rounds)."""
    import io
    import pickle
    import tracemalloc

    from backalley.io.vectors import write_vectors

    share = max(seconds / 16, 0.05)
    out: dict[str, Any] = {
        "json_by_deal_s": {},
        "to_json_by_deal_s": {},
        "from_json_by_deal_s": {},
        "replay_by_deal_s": {},
        "json_vs_replay_by_deal": {},
        "moves_by_deal": {},
        "json_bytes": {},
        "pickle_by_deal_s": {},
        "pickle_bytes_by_deal": {},
    }
    for deal in JSON_DEALS:
        sub = JsonSubject(deal)
        out["json_bytes"][deal] = len(sub.text.encode())
        out["moves_by_deal"][deal] = len(sub.moves)
        got = [sub.timers(share) for _ in range(repeat)]
        out["json_by_deal_s"][deal] = median([g["roundtrip"] for g in got])
        out["to_json_by_deal_s"][deal] = median([g["to_json"] for g in got])
        out["from_json_by_deal_s"][deal] = median([g["from_json"] for g in got])
        out["replay_by_deal_s"][deal] = median([g["replay"] for g in got])
        out["json_vs_replay_by_deal"][deal] = median([g["roundtrip"] / g["replay"] for g in got])
    out["json_vs_replay"] = out["json_vs_replay_by_deal"][JSON_DEAL]
    out["json_growth"] = out["json_by_deal_s"][25] / out["json_by_deal_s"][1]
    for deal in (1, 6, 25):
        state = _state_at(deal - 1)
        out["pickle_bytes_by_deal"][deal] = len(pickle.dumps(state))
        out["pickle_by_deal_s"][deal] = median(
            [_per_call(lambda s=state: pickle.loads(pickle.dumps(s)), share) for _ in range(repeat)]
        )
    # the pickle row of the earlier target: a state after 5 deals (deal 6)
    out["pickle_bytes"] = out["pickle_bytes_by_deal"][6]
    out["pickle_s"] = out["pickle_by_deal_s"][6]
    games = 5
    t0 = time.process_time()
    write_vectors(ba.variants.GAMERULES, games=games, seed=0, out=io.StringIO())
    out["vectors_games"] = games
    out["vectors_s_per_game"] = (time.process_time() - t0) / games
    tracemalloc.start()
    write_vectors(ba.variants.GAMERULES, games=1, seed=0, out=io.StringIO())
    out["vectors_peak_bytes"] = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    out.update(_import_times(max(repeat, 5)))
    return out


_IMPORT_CODE = (
    "import time; t, c = time.perf_counter(), time.process_time(); import backalley; {then}"
    "print(time.perf_counter() - t, time.process_time() - c)"
)


def _import_times(runs: int, root: Path = ROOT) -> dict[str, float]:
    """``import backalley`` in fresh interpreters (their own start-up not
    counted), ``runs`` times each way, interleaved, from two copies of the
    package in a temporary folder:

    - ``import_*``: from compiled bytecode, as an installed copy imports it
      (pip compiles the ``.pyc`` files at install; a work tree imports from
      them after its first import).  The copy is compiled with ``compileall``
      first, so that ``PYTHONDONTWRITEBYTECODE`` in the environment or a stale
      ``__pycache__`` in the tree does not decide what is measured;
    - ``import_source_*``: from source, every module of the package compiled
      on the way in (a copy without ``__pycache__``, nothing written): what a
      first import after an edit costs;
    - ``import_game_*``: compiled, then ``new_game(GAMERULES, seed=1)`` (what
      the first game adds, e.g. the hashes of the shuffle).

    ``root``: the folder holding the ``backalley`` package to measure.
    """
    import shutil
    import subprocess
    import tempfile

    plain = _IMPORT_CODE.format(then="")
    game = _IMPORT_CODE.format(then="backalley.new_game(backalley.variants.GAMERULES, seed=1); ")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    with tempfile.TemporaryDirectory() as tmp:
        compiled, source = Path(tmp, "compiled"), Path(tmp, "source")
        for copy in (compiled, source):
            shutil.copytree(
                root / "backalley",
                copy / "backalley",
                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
            )
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(compiled / "backalley")],
            check=True,
            capture_output=True,
        )
        ways = {"import": (plain, compiled), "import_source": (plain, source)}
        ways["import_game"] = (game, compiled)

        def once(code: str, where: Path) -> tuple[float, float]:
            done = subprocess.run(
                [sys.executable, "-c", code],
                capture_output=True,
                text=True,
                check=True,
                cwd=where,
                env=env,
            )
            wall, cpu = map(float, done.stdout.split())
            return wall, cpu

        times: dict[str, list[tuple[float, float]]] = {way: [] for way in ways}
        for _ in range(runs):
            for way, (code, where) in ways.items():
                times[way].append(once(code, where))
    out: dict[str, float] = {}
    for way, got in times.items():
        out[f"{way}_s"] = median([wall for wall, _cpu in got])
        out[f"{way}_min_s"] = min(wall for wall, _cpu in got)
        out[f"{way}_cpu_s"] = median([cpu for _wall, cpu in got])
    return out


def serialization_report(
    ser: dict[str, Any] | None, osp: dict[str, Any] | None = None
) -> list[str]:
    if not ser:
        return []
    by = ser["json_by_deal_s"]
    first = by[1]
    lines = [
        "",
        "Serialization (gamerules, CPU; import: wall); replay = new_game + apply_unchecked "
        "of the state's moves",
    ]
    for deal, t in by.items():
        versus = ""
        if osp and osp.get("roundtrip_us"):
            versus = f", {t * 1e6 / osp['roundtrip_us']:.0f}x OpenSpiel"
        ratio = ser["json_vs_replay_by_deal"][deal]
        target = ""
        if deal == JSON_DEAL:
            target = f", target <= {TARGET_REPLAY}{' ok' if ratio <= TARGET_REPLAY else ' !!'}"
        lines.append(
            f"  JSON round trip at deal {deal:>2}: {t * 1e6:7.1f} us = {ratio:.2f}x replay "
            f"({ser['replay_by_deal_s'][deal] * 1e6:.1f} us, {ser['moves_by_deal'][deal]} moves"
            f"{target}); {t / first:.2f}x deal 1{versus}; {ser['json_bytes'][deal]} B"
        )
        lines.append(
            f"      to_json {ser['to_json_by_deal_s'][deal] * 1e6:6.1f} us, "
            f"from_json {ser['from_json_by_deal_s'][deal] * 1e6:6.1f} us"
        )
    for deal, t in ser.get("pickle_by_deal_s", {1: None}).items():
        if t is None:
            continue
        mark = (" met" if t <= 30e-6 else " not met") if deal == 6 else ""
        lines.append(
            f"  pickle dumps + loads at deal {deal:>2}: {t * 1e6:6.1f} us"
            f"{' (earlier target <= 30 us' + mark + ')' if deal == 6 else ''}, "
            f"{ser['pickle_bytes_by_deal'][deal]} B"
        )
    if "vectors_s_per_game" in ser:
        est = ser["vectors_s_per_game"] * 100
        lines.append(
            f"  conformance vectors: {ser['vectors_s_per_game']:.3f} s CPU a game "
            f"({ser['vectors_games']} games), so about {est:.1f} s CPU for 100 games "
            f"(earlier target <= 10 s{' met' if est <= 10 else ' not met'}); "
            f"{ser['vectors_peak_bytes'] / 2**20:.1f} MiB allocated at the peak of a game"
        )
    imp = ser["import_s"] * 1e3
    extra = ""
    if "import_cpu_s" in ser:
        extra = (
            f"; fastest {ser['import_min_s'] * 1e3:.0f} ms wall, "
            f"median {ser['import_cpu_s'] * 1e3:.0f} ms CPU"
        )
    lines.append(
        f"  import backalley: {imp:.0f} ms wall from bytecode, median of runs "
        f"(earlier target <= 80 ms{' met' if imp <= 80 else ' not met'}){extra}"
    )
    if "import_source_s" in ser:
        lines.append(
            f"      from source (no bytecode cache) {ser['import_source_s'] * 1e3:.0f} ms wall "
            f"(fastest {ser['import_source_min_s'] * 1e3:.0f}); import + first new_game "
            f"{ser['import_game_s'] * 1e3:.0f} ms wall (fastest "
            f"{ser['import_game_min_s'] * 1e3:.0f})"
        )
    return lines


def _engine_report(out: dict[str, Any]) -> list[str]:
    """The engine rows: the playout API and ``view(seat)`` against OpenSpiel."""
    o = out["openspiel"]
    lines = [
        "",
        "Engine (playout = backalley.engine.lowlevel.playout(state, random choice) to the end of "
        "each game; view = state.view(seat))",
    ]
    rows = []
    for name, v in out["variants"].items():
        p, r = v["playout"], v["ratios"]
        rows.append(
            [
                name,
                _n(p["decisions_per_s"]),
                _n(p["us_per_decision"], 2),
                _pct(p["spread"]),
                _ratio(
                    r.get("playout_decisions_vs_openspiel"),
                    TARGET_PLAYOUT if name == BARE_VARIANT else None,
                ),
                _ratio(r.get("playout_vs_checked")),
                _ratio(r.get("unchecked_vs_checked")),
                _n(v["calls_us"]["view"], 2),
                _ratio(r.get("view_vs_openspiel")),
            ]
        )
    lines.append(
        _table(
            [
                "variant",
                "playout dec/s",
                "us/dec",
                "spread",
                "playout÷OSP",
                "÷checked",
                "fast÷checked",
                "view us",
                "view÷OSP",
            ],
            rows,
        )
    )
    if o is not None:
        lines.append(
            f"  OpenSpiel information_state_string (mid-game): {o['infostate_us']:.2f} us.  "
            f"Target (gamerules): playout÷OSP ≥ {TARGET_PLAYOUT} (earlier ≥ {EARLIER_PLAYOUT:g}); "
            f"view÷OSP: earlier target ≤ {EARLIER_VIEW:g}; "
            "fast÷checked: apply_unchecked ÷ apply decisions/s."
        )
    return lines


# --------------------------------------------------- side by side (--baseline)
# Two worker processes, one per tree, each running this file with that tree's
# ``backalley`` on its path (``run.py --worker TREE``): the same workloads,
# through the public API only, so that an older tree whose own benchmarks
# differ is measured exactly as this one.  The parent asks each for one
# round of figures in turn; per-round ratios new ÷ baseline, then medians.

# (key, figure, unit); "dec/s": higher is better, "us" and "B": lower is better
COMPARED: tuple[tuple[str, str, str], ...] = (
    ("checked", "checked games (legal_moves + apply)", "dec/s"),
    ("unchecked", "fast games (apply_unchecked)", "dec/s"),
    ("playout", "lowlevel.playout", "dec/s"),
    ("legal_moves", "legal_moves(), first call", "us"),
    ("check_legal", "check(legal)", "us"),
    ("check_legal_cold", "check(legal), cold", "us"),
    ("check_illegal", "check(illegal)", "us"),
    ("check_illegal_cold", "check(illegal), cold", "us"),
    ("view", "view(seat)", "us"),
    ("to_json", "to_json, mid-game", "us"),
    ("from_json", "from_json, mid-game", "us"),
    ("json_roundtrip", "JSON round trip, mid-game", "us"),
    ("memory_states", "memory per state", "B"),
    ("memory_cache", "memory per state (+cache)", "B"),
)
COMPARED_JSON: tuple[tuple[str, str, str], ...] = (
    ("roundtrip", f"JSON round trip at deal {JSON_DEAL}", "us"),
    ("to_json", f"to_json at deal {JSON_DEAL}", "us"),
    ("from_json", f"from_json at deal {JSON_DEAL}", "us"),
    ("replay", f"replay of its moves (deal {JSON_DEAL})", "us"),
    ("vs_replay", "round trip ÷ replay", "x"),
)


def _attempt(errors: dict[str, str], key: str, fn: Any) -> Any:
    """``fn()``, or ``None`` with the error kept under ``key`` (a figure a tree
    cannot give is reported as missing, not as the end of the run)."""
    try:
        return fn()
    except Exception as exc:
        errors.setdefault(key, f"{type(exc).__name__}: {exc}"[:300])
        return None


def worker_round(
    subjects: dict[str, Subject], json_sub: JsonSubject | None, seconds: float
) -> dict[str, Any]:
    """One round of the compared figures, in a worker (this tree's ``ba``)."""
    errors: dict[str, str] = {}
    out: dict[str, Any] = {"variants": {}, "json": None, "errors": errors}
    for name, sub in subjects.items():
        v: dict[str, Any] = {}
        for label, fn in (
            ("checked", random_games_checked),
            ("unchecked", random_games_unchecked),
            ("playout", random_games_playout),
        ):
            got = _attempt(errors, f"{name} {label}", lambda fn=fn, sub=sub: fn(sub.rules, seconds))
            v[label] = got[1] / got[2] if got else None
        calls = _attempt(errors, f"{name} per call", lambda sub=sub: micro(sub, seconds / 8))
        for key in ("legal_moves", "check_legal", "check_legal_cold", "check_illegal"):
            v[key] = calls[key] * 1e6 if calls else None
        for key in ("check_illegal_cold", "view", "to_json", "from_json", "json_roundtrip"):
            v[key] = calls[key] * 1e6 if calls else None
        out["variants"][name] = v
    if json_sub is not None:
        got = _attempt(errors, "json", lambda: json_sub.timers(max(seconds / 16, 0.05)))
        if got:
            out["json"] = {k: x * 1e6 for k, x in got.items()}
            out["json"]["vs_replay"] = got["roundtrip"] / got["replay"]
    return out


def worker_main(names: list[str], seconds: float) -> int:
    """A worker of ``--baseline``: prepare, say ready, then answer one line of
    JSON per command read from stdin (``round``, ``memory N``; anything else ends)."""
    pipe = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout = sys.stderr  # nothing but the answers reaches the pipe

    def send(obj: Any) -> None:
        pipe.write(json.dumps(obj) + "\n")
        pipe.flush()

    errors: dict[str, str] = {}
    subjects: dict[str, Subject] = {}
    for name in names:
        sub = _attempt(errors, f"{name} prepare", lambda name=name: Subject(name))
        if sub is not None:
            subjects[name] = sub
    json_sub = _attempt(errors, "json prepare", lambda: JsonSubject(JSON_DEAL))
    send({"ready": tree_environment(), "errors": errors})
    for line in sys.stdin:
        cmd = line.split()
        if cmd == ["round"]:
            send(worker_round(subjects, json_sub, seconds))
        elif cmd[:1] == ["memory"] and len(cmd) == 2:
            errs: dict[str, str] = {}
            mem = {
                name: _attempt(
                    errs, f"{name} memory", lambda sub=sub, n=int(cmd[1]): memory(sub, n)
                )
                for name, sub in subjects.items()
            }
            send({"memory": mem, "errors": errs})
        else:
            break
    return 0


class Worker:
    """One tree's worker process (``run.py --worker TREE``), driven by lines."""

    def __init__(self, label: str, tree: Path, names: list[str], args: argparse.Namespace) -> None:
        self.label, self.tree = label, tree
        cmd = [
            sys.executable,
            str(Path(__file__).resolve()),
            "--worker",
            str(tree),
            "--clock",
            args.clock,
            "--seconds",
            repr(args.seconds),
            "--variants",
            ",".join(names),
        ]
        self.proc = subprocess.Popen(
            cmd, cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.ready: dict[str, Any] = {}
        self.errors: dict[str, str] = {}

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            raise RuntimeError(f"the {self.label} worker ({self.tree}) ended (exit status {code})")
        answer: dict[str, Any] = json.loads(line)
        self.errors.update(answer.get("errors") or {})
        return answer

    def wait_ready(self) -> None:
        self.ready = self._read()["ready"]
        where = Path(self.ready["backalley_path"]).resolve()
        if not where.is_relative_to(self.tree):
            raise RuntimeError(f"the {self.label} worker imported backalley from {where}")

    def ask(self, cmd: str) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()
        return self._read()

    def kill(self) -> None:
        """End the worker at once (after a failure)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=60)

    def close(self) -> None:
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.write("quit\n")
                self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _compared_figure(pairs: list[tuple[float | None, float | None]]) -> dict[str, Any]:
    """Medians of each side and of the per-round ratios new ÷ baseline."""
    new = [a for a, _ in pairs if a is not None]
    base = [b for _, b in pairs if b is not None]
    ratios = [a / b for a, b in pairs if a is not None and b]
    return {
        "new": median(new) if new else None,
        "baseline": median(base) if base else None,
        "ratio": median(ratios) if ratios else None,
        "ratio_spread": spread(ratios) if ratios else None,
        "rounds": len(ratios),
    }


def compare(
    workers: list[Worker],
    rounds: list[dict[str, Any]],
    mem: dict[str, Any],
    failed: list[str] | None = None,
) -> dict[str, Any]:
    """The comparison's figures: per variant and for the JSON state at deal 13
    (from the rounds both workers answered)."""
    comp = [rd["compare"] for rd in rounds if "compare" in rd]
    out: dict[str, Any] = {
        "trees": {w.label: {"tree": str(w.tree), **w.ready} for w in workers},
        "variants": {},
        "json": {},
        "errors": {w.label: w.errors for w in workers if w.errors},
        "failed": failed or [],
        "rounds": comp,
        "memory": mem,
    }
    if not comp:
        return out
    for name in comp[0]["new"]["variants"]:
        figs: dict[str, Any] = {}
        for key, _label, _unit in COMPARED:
            if key.startswith("memory"):
                field = "replayed" if key == "memory_states" else "checked"

                def per_state(side: str, field: str = field, name: str = name) -> float | None:
                    m = (mem.get(side) or {}).get("memory", {}).get(name)
                    return m[field] / m["states"] if m else None

                figs[key] = _compared_figure([(per_state("new"), per_state("baseline"))])
                continue
            figs[key] = _compared_figure(
                [
                    (
                        c["new"]["variants"][name].get(key),
                        (c["baseline"]["variants"].get(name) or {}).get(key),
                    )
                    for c in comp
                ]
            )
        out["variants"][name] = figs
    for key, _label, _unit in COMPARED_JSON:
        out["json"][key] = _compared_figure(
            [
                (
                    (c["new"]["json"] or {}).get(key),
                    (c["baseline"]["json"] or {}).get(key),
                )
                for c in comp
            ]
        )
    return out


def _figure(x: float | None, unit: str) -> str:
    if x is None:
        return "-"
    if unit == "dec/s" or unit == "B":
        return _n(x)
    if unit == "x":
        return f"{x:.2f}"
    return _n(x, 2 if x < 100 else 1)


def comparison_report(c: dict[str, Any] | None) -> list[str]:
    if not c:
        return []
    lines = [
        "",
        "Side by side with the baseline (each tree in its own worker process, the two taking "
        "turns in every round;",
        "new÷base: median of the per-round ratios new ÷ baseline; ratio spread: "
        "(max-min)/median of those ratios)",
    ]
    for label, tree in c["trees"].items():
        if "backalley_path" not in tree:
            lines.append(f"  {label + ':':10s}{tree['tree']} (the worker did not start)")
            continue
        lines.append(
            f"  {label + ':':10s}backalley {tree['backalley']} at {tree['backalley_path']} "
            f"(commit {tree['commit']})"
        )
    for why in c.get("failed", []):
        lines.append(f"  the comparison stopped: {why}")
    if not c["rounds"]:
        return lines
    lines.append(f"  {len(c['rounds'])} round(s) compared")

    def row(name: str, label: str, unit: str, f: dict[str, Any]) -> list[str]:
        return [
            name,
            label,
            unit,
            _figure(f["new"], unit),
            _figure(f["baseline"], unit),
            _ratio(f["ratio"]),
            _pct(f["ratio_spread"]),
        ]

    rows = [
        row(name, label, unit, figs[key])
        for name, figs in c["variants"].items()
        for key, label, unit in COMPARED
    ]
    rows += [row(BARE_VARIANT, label, unit, c["json"][key]) for key, label, unit in COMPARED_JSON]
    lines.append(
        _table(
            ["variant", "figure", "unit", "new", "baseline", "new÷base", "ratio spread"],
            rows,
            left=3,
        )
    )
    lines.append(
        "  dec/s: above 1 the new tree is faster; us and B: below 1 it is cheaper. "
        "Memory: one measurement of each tree."
    )
    for label, errs in c.get("errors", {}).items():
        for key, err in errs.items():
            lines.append(f"  not measured in the {label} tree: {key}: {err}")
    return lines


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


# --------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="seconds per throughput run (each per-call timing gets 1/8); default 1",
    )
    p.add_argument(
        "--repeat", type=int, default=None, help="rounds; medians are reported (default 5)"
    )
    p.add_argument("--variants", default="all", help="'all' or comma-separated variant names")
    p.add_argument(
        "--json", metavar="FILE", help="also write every figure (and each round's) as JSON"
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help="a ~15 s smoke run (--seconds 0.08 --repeat 1 --memory-states 2000)",
    )
    p.add_argument(
        "--memory-states",
        type=int,
        default=None,
        help="states kept for the memory figure (default 10,000; 2,000 with --quick)",
    )
    p.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="wall: time.perf_counter, as the reference measurement (default); "
        "cpu: time.process_time, "
        "this process's CPU time only (steadier on a busy machine)",
    )
    p.add_argument("--silent", action="store_true", help="no progress messages on stderr")
    p.add_argument(
        "--profile",
        nargs="?",
        const=BARE_VARIANT,
        metavar="VARIANT",
        help="print a cProfile of the checked random-game loop instead (top 25 by tottime)",
    )
    p.add_argument("--profile-games", type=int, default=20)
    p.add_argument(
        "--baseline",
        metavar="DIR",
        help="also measure another checkout of the project (DIR holds its backalley "
        "package) side by side with this one: each tree in its own worker process, "
        "alternating in every round; an extra table gives the ratios new ÷ baseline",
    )
    p.add_argument("--worker", metavar="TREE", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    if args.worker:
        names = [n for n in (args.variants or "").split(",") if n]
        return worker_main(names, args.seconds if args.seconds is not None else 1.0)
    if args.baseline and not (Path(args.baseline) / "backalley" / "__init__.py").is_file():
        p.error(f"--baseline {args.baseline}: no backalley package in that folder")
    if args.profile:
        print(profile(args.profile, args.profile_games))
        return 0
    if args.seconds is None:
        args.seconds = 0.08 if args.quick else 1.0
    if args.repeat is None:
        args.repeat = 1 if args.quick else 5
    if args.memory_states is None:
        args.memory_states = 2_000 if args.quick else 10_000
    if args.repeat < 1 or args.seconds <= 0:
        p.error("--repeat must be >= 1 and --seconds > 0")
    if args.variants != "all":
        try:
            for n in args.variants.split(","):
                ba.variants.get(n.strip())
        except ba.UnknownVariantError as exc:
            p.error(str(exc))
    out = run(args)
    print(report(out))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
        print(f"\n(wrote {args.json})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
