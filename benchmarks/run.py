"""The backalley benchmark suite: throughput, per-call costs and memory, with
the ratios the project's performance targets are stated in.

    python benchmarks/run.py [--seconds S] [--repeat R] [--variants all|NAME,...]
                             [--json FILE] [--quick] [--memory-states N]
    python benchmarks/run.py --profile [VARIANT]     # cProfile of the random-game loop

Everything is measured through the public API (``backalley.new_game``,
``GameState.legal_moves/check/apply/apply_unchecked/view``, ``to_json`` /
``from_json``), in one process, alternating runs: each of the R rounds measures
the references (the bare loop, OpenSpiel ``oh_hell``) and then every selected
variant, and the figures reported are medians over the rounds.  Ratios are
computed per round from numbers measured in that round, then the median is
taken, so that machine drift between rounds cancels out.  See README.md for
what each figure means.
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

# measure the tree this suite lives in (not another installed copy)
sys.path.insert(1, str(ROOT))
import bare  # noqa: E402  (benchmarks/bare.py)

import backalley as ba  # noqa: E402
from backalley import lowlevel  # noqa: E402

GameState = ba.GameState
IllegalMoveError = ba.IllegalMoveError
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = time.perf_counter  # set by main() from --clock

TARGET_OSP = 1.0  # library decisions/s / OpenSpiel decisions/s  >= 1.0
TARGET_BARE = 3.5  # bare games/s / library games/s              <= 3.5
TARGET_PLAYOUT = 2.0  # playout decisions/s / OpenSpiel decisions/s  >= 2.0
TARGET_VIEW = 1.5  # view(seat) / OpenSpiel information_state_string  <= 1.5
TARGET_JSON = 10.0  # library JSON round trip / OpenSpiel serde   <= 10
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


def environment() -> dict[str, Any]:
    commit = None
    with contextlib.suppress(Exception):
        commit = subprocess.run(
            ["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "backalley": ba.__version__,
        "backalley_path": str(Path(ba.__file__).resolve().parent),
        "commit": commit,
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

    log(f"preparing {len(names)} variants ...")
    subjects = [Subject(n) for n in names]
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
        rounds.append(rd)

    log("memory ...")
    mem = {sub.name: memory(sub, args.memory_states) for sub in subjects}
    phase("memory")

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
    out["targets"] = targets(out)
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


def _engine_targets(r: dict[str, Any]) -> list[dict[str, Any]]:
    """The engine targets beyond decisions/s and bare÷games (issue 9)."""
    res: list[dict[str, Any]] = []
    if "playout_decisions_vs_openspiel" in r:
        res.append(
            {
                "target": f"gamerules playout decisions/s / OpenSpiel decisions/s >= {TARGET_PLAYOUT}",
                "value": r["playout_decisions_vs_openspiel"],
                "ok": r["playout_decisions_vs_openspiel"] >= TARGET_PLAYOUT,
            }
        )
    if "view_vs_openspiel" in r:
        res.append(
            {
                "target": f"gamerules view(seat) / OpenSpiel information_state_string <= {TARGET_VIEW}",
                "value": r["view_vs_openspiel"],
                "ok": r["view_vs_openspiel"] <= TARGET_VIEW,
            }
        )
    return res


def targets(out: dict[str, Any]) -> list[dict[str, Any]]:
    """The issue's targets, judged on the gamerules variant (when measured)."""
    v = out["variants"].get(BARE_VARIANT)
    res: list[dict[str, Any]] = []
    if v is None:
        return res
    r = v["ratios"]
    if "decisions_vs_openspiel" in r:
        res.append(
            {
                "target": f"gamerules decisions/s / OpenSpiel decisions/s >= {TARGET_OSP}",
                "value": r["decisions_vs_openspiel"],
                "ok": r["decisions_vs_openspiel"] >= TARGET_OSP,
            }
        )
    if "bare_vs_games" in r:
        res.append(
            {
                "target": f"bare games/s / gamerules games/s <= {TARGET_BARE}",
                "value": r["bare_vs_games"],
                "ok": r["bare_vs_games"] <= TARGET_BARE,
            }
        )
    res += _engine_targets(r)
    if "json_vs_openspiel" in r:
        res.append(
            {
                "target": "gamerules JSON round trip / OpenSpiel serialize+deserialize <= 10",
                "value": r["json_vs_openspiel"],
                "ok": r["json_vs_openspiel"] <= TARGET_JSON,
            }
        )
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
        f"  bare loop (reference.py):  {b['games_per_s']:,.1f} games/s = "
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
                _ratio(
                    r.get("bare_vs_games"), TARGET_BARE if name == BARE_VARIANT else None, ge=False
                ),
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
        "  dec/s÷OSP: library decisions/s ÷ OpenSpiel oh_hell decisions/s (target ≥ 1.0); "
        "bare÷games: bare games/s ÷ library games/s"
    )
    lines.append(
        "  (target ≤ 3.5; shown for 4-player variants on the bare loop's 13..1..13 schedule). "
        "'ok'/'!!' mark the targets, judged on gamerules."
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
                _ratio(
                    r.get("json_vs_openspiel"),
                    TARGET_JSON if name == BARE_VARIANT else None,
                    ge=False,
                ),
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
        "serialize+deserialize (target ≤ 10)."
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
    if out["targets"]:
        lines += ["", "Targets (gamerules, this run)"]
        for t in out["targets"]:
            lines.append(f"  [{'PASS' if t['ok'] else 'FAIL'}] {t['target']}: {t['value']:.2f}")
    return "\n".join(lines)


# ------------------------------------------------------- serialization rows
# JSON round trip by deals played, pickle, import time (issue 9, serialization).


def _state_at(deals: int, seed: int = 3) -> Any:
    """A gamerules state after ``deals`` scored deals and 8 more moves."""
    rng = random.Random(seed)
    state = ba.new_game(ba.variants.GAMERULES, seed=seed)
    while state.deals_played < deals:
        state = state.apply(rng.choice(state.legal_moves()))
    for _ in range(8):
        state = state.apply(rng.choice(state.legal_moves()))
    return state


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


def serialization_rows(seconds: float, repeat: int) -> dict[str, Any]:
    """JSON round trip (to_json + from_json, warm caches) at deals 1, 13 and 25
    (and each half), pickle dumps + loads at deals 1, 6 and 25, conformance
    vectors of a few games, and ``import backalley`` in a fresh interpreter
    (medians of ``repeat`` rounds)."""
    import io
    import pickle
    import tracemalloc

    from backalley.vectors import write_vectors

    share = max(seconds / 16, 0.05)
    out: dict[str, Any] = {
        "json_by_deal_s": {},
        "to_json_by_deal_s": {},
        "from_json_by_deal_s": {},
        "json_bytes": {},
        "pickle_by_deal_s": {},
        "pickle_bytes_by_deal": {},
    }
    for deal in (1, 13, 25):
        state = _state_at(deal - 1)
        text = ba.to_json(state)
        out["json_bytes"][deal] = len(text.encode())
        out["json_by_deal_s"][deal] = median(
            [
                _per_call(lambda s=state: ba.from_json(ba.to_json(s), GameState), share)
                for _ in range(repeat)
            ]
        )
        out["to_json_by_deal_s"][deal] = median(
            [_per_call(lambda s=state: ba.to_json(s), share) for _ in range(repeat)]
        )
        out["from_json_by_deal_s"][deal] = median(
            [_per_call(lambda t=text: ba.from_json(t, GameState), share) for _ in range(repeat)]
        )
    for deal in (1, 6, 25):
        state = _state_at(deal - 1)
        out["pickle_bytes_by_deal"][deal] = len(pickle.dumps(state))
        out["pickle_by_deal_s"][deal] = median(
            [_per_call(lambda s=state: pickle.loads(pickle.dumps(s)), share) for _ in range(repeat)]
        )
    # the pickle row: a state after 5 deals (deal 6)
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
    lines = ["", "Serialization (gamerules, CPU; import: wall)"]
    for deal, t in by.items():
        ratio = t / first
        mark = (" ok" if ratio <= 1.5 else " !!") if deal == 25 else ""
        versus = ""
        if osp and osp.get("roundtrip_us"):
            versus = f", {t * 1e6 / osp['roundtrip_us']:.0f}x OpenSpiel (target <= 10)"
        lines.append(
            f"  JSON round trip at deal {deal:>2}: {t * 1e6:7.1f} us ({ratio:.2f}x deal 1"
            f"{', target <= 1.5' if deal == 25 else ''}{mark}{versus}), "
            f"{ser['json_bytes'][deal]} B"
        )
        if "to_json_by_deal_s" in ser:
            lines.append(
                f"      to_json {ser['to_json_by_deal_s'][deal] * 1e6:6.1f} us, "
                f"from_json {ser['from_json_by_deal_s'][deal] * 1e6:6.1f} us"
            )
    for deal, t in ser.get("pickle_by_deal_s", {1: None}).items():
        if t is None:
            continue
        mark = (" ok" if t <= 30e-6 else " !!") if deal == 6 else ""
        lines.append(
            f"  pickle dumps + loads at deal {deal:>2}: {t * 1e6:6.1f} us"
            f"{' (target <= 30 us)' + mark if deal == 6 else ''}, "
            f"{ser['pickle_bytes_by_deal'][deal]} B"
        )
    if "vectors_s_per_game" in ser:
        est = ser["vectors_s_per_game"] * 100
        lines.append(
            f"  conformance vectors: {ser['vectors_s_per_game']:.3f} s CPU a game "
            f"({ser['vectors_games']} games), so about {est:.1f} s CPU for 100 games "
            f"(target <= 10 s{' ok' if est <= 10 else ' !!'}); "
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
        f"(target <= 80 ms{' ok' if imp <= 80 else ' !!'}){extra}"
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
        "Engine (playout = backalley.lowlevel.playout(state, random choice) to the end of "
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
                _ratio(
                    r.get("view_vs_openspiel"),
                    TARGET_VIEW if name == BARE_VARIANT else None,
                    ge=False,
                ),
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
            f"Targets (gamerules): playout÷OSP ≥ {TARGET_PLAYOUT}, view÷OSP ≤ {TARGET_VIEW}; "
            "fast÷checked: apply_unchecked ÷ apply decisions/s."
        )
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
        help="wall: time.perf_counter, as reference.py (default); cpu: time.process_time, "
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
    args = p.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
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
