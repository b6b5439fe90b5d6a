"""The runner: the rounds of the suite.  Each round measures the references
(the bare loop, OpenSpiel), then every selected variant, then the batch
engine's batches (and, with ``--baseline``, asks both workers for their
figures in turn); the figures reported are medians over the rounds, the
ratios medians of per-round ratios.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import Any

import bare  # benchmarks/bare.py

import backalley as ba
from suite import common
from suite.baseline import Worker, compare
from suite.batched import prepare as prepare_batch
from suite.cases import (
    Subject,
    memory,
    micro,
    random_games_checked,
    random_games_playout,
    random_games_unchecked,
)
from suite.common import ROOT, environment, median, spread
from suite.serialization import serialization_rows
from suite.targets import BARE_VARIANT, VIETNAM_VARIANT, earlier_targets, moonshots, targets


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
    # the batch engine: with --quick over every variant, only those of the batch targets
    batch_names = (
        [n for n in names if n in (BARE_VARIANT, VIETNAM_VARIANT)]
        if args.quick and args.variants == "all"
        else names
    )
    batches, batch_section = prepare_batch(
        batch_names, {sub.name: sub.rules for sub in subjects}, args.batch_games, log
    )

    phase("prepare")
    rounds: list[dict[str, Any]] = []
    for r in range(R):
        log(f"round {r + 1}/{R}: references")
        rd: dict[str, Any] = {"variants": {}}
        bare_gps = bare.bare_games_per_s_clock(S, common.clock)
        rd["bare"] = {
            "games_per_s": bare_gps,
            "decisions_per_s": bare_gps * bare.DECISIONS_PER_GAME,
        }
        if osp_game is not None:
            rd["openspiel"] = {"decisions_per_s": bare.openspiel_decisions_per_s(S, common.clock)}
            serde = bare.openspiel_serde_timers(micro_s * 3, common.clock)
            rd["openspiel"].update({f"{k}_s": v for k, v in serde.items()})
            rd["openspiel"]["infostate_s"] = bare.openspiel_information_state_timer(
                micro_s, common.clock
            )
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
        if batches:
            log(f"round {r + 1}/{R}: batches of {args.batch_games:,} games")
            for name, bs in batches.items():
                rd["variants"][name]["batch"] = bs.play(seed=r)
            phase("batch")
        if workers:
            log(f"round {r + 1}/{R}: side by side with the baseline")
            # the two trees take turns: new first in odd rounds, baseline first in even ones
            got = ask_all("round", workers[:: 1 if r % 2 == 0 else -1])
            if got is not None:
                rd["compare"] = got
            phase("baseline")
        rounds.append(rd)

    log("memory ...")
    # what the run keeps alive (the subjects; the batch engine's compiled tables, some
    # 150,000 objects a 4-player variant) is left out of the collections memory()
    # makes under tracemalloc: the same bytes, in a fraction of the time
    gc.collect()
    gc.freeze()
    try:
        mem = {sub.name: memory(sub, args.memory_states) for sub in subjects}
    finally:
        gc.unfreeze()
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
            "batch_games": args.batch_games,
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
        "batch": batch_section,
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
        bs = batches.get(sub.name)
        if bs is not None:
            agg["batch"] = {
                **bs.figures(),
                **{
                    k: median([x["batch"][k] for x in vr])
                    for k in ("decisions_per_s", "games_per_s", "seconds")
                },
                "decisions_per_game": median([x["batch"]["decisions"] for x in vr]) / bs.games,
                "spread": spread([x["batch"]["decisions_per_s"] for x in vr]),
            }
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
            if bs is not None:
                ratios["batch_decisions_vs_openspiel"] = median(
                    [
                        x["batch"]["decisions_per_s"] / rd["openspiel"]["decisions_per_s"]
                        for x, rd in zip(vr, rounds, strict=True)
                    ]
                )
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
        if bs is not None:
            ratios["batch_vs_checked"] = median(
                [x["batch"]["decisions_per_s"] / x["checked"]["decisions_per_s"] for x in vr]
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
    out["moonshots"] = moonshots(out)
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
