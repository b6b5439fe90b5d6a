"""The suite's report: the text ``run.py`` prints from the figures it
gathered (the references, the random games, the engine rows, the batch
engine, the per-call costs, memory, serialization, the comparison with a
baseline, the targets).
"""

from __future__ import annotations

from typing import Any

from suite.baseline import COMPARED, COMPARED_JSON
from suite.targets import (
    BARE_VARIANT,
    EARLIER_BARE,
    EARLIER_JSON_OSP,
    EARLIER_PLAYOUT,
    EARLIER_VIEW,
    JSON_DEAL,
    MOONSHOT_BATCH_OSP,
    PREVIOUS_OSP,
    PREVIOUS_PLAYOUT,
    TARGET_BATCH_OSP,
    TARGET_BATCH_VIETNAM,
    TARGET_OSP,
    TARGET_PLAYOUT,
    TARGET_REPLAY,
    VIETNAM_VARIANT,
)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.0%}"


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
        f"  dec/s÷OSP: library decisions/s ÷ OpenSpiel oh_hell decisions/s (target ≥ {TARGET_OSP}, "
        f"no regression; earlier ≥ {PREVIOUS_OSP:g}); bare÷games: bare games/s ÷ library games/s"
    )
    lines.append(
        f"  (earlier target ≤ {EARLIER_BARE:g}; shown for 4-player variants on the bare loop's "
        "13..1..13 schedule). 'ok'/'!!' mark this round's targets, judged on gamerules."
    )

    lines += _engine_report(out)
    lines += batch_report(out)
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
    if out.get("moonshots"):
        lines += ["", "Moonshot (information, not judged)"]
        for t in out["moonshots"]:
            lines.append(f"  [{'met' if t['ok'] else 'not met'}] {t['target']}: {t['value']:.2f}")
    if out["targets"]:
        lines += ["", "Targets (this run; gamerules, and vietnam for the batch engine)"]
        for t in out["targets"]:
            lines.append(f"  [{'PASS' if t['ok'] else 'FAIL'}] {t['target']}: {t['value']:.2f}")
    return "\n".join(lines)


_BATCH_TARGETS = {BARE_VARIANT: TARGET_BATCH_OSP, VIETNAM_VARIANT: TARGET_BATCH_VIETNAM}
"""The batch engine's targets by variant (batch decisions/s ÷ OpenSpiel)."""


def batch_report(out: dict[str, Any]) -> list[str]:
    """The batch engine's table: per variant, N, the compile time, decisions/s
    and their ratios, the bytes of a batch per game; then the refusals."""
    b = out.get("batch")
    if not b:
        return []
    n = b["games"]
    lines = [
        "",
        f"Batch (backalley.batch.random_games of N = {n:,} games in lock-step, records=False, "
        "seed = the round's number; after batch.compile and two warm-up batches)",
    ]
    if not b["available"]:
        lines.append(f"  not measured: {b['skipped']}")
        return lines
    rows = []
    for name, v in out["variants"].items():
        bv = v.get("batch")
        if bv is None:
            continue
        r = v["ratios"]
        rows.append(
            [
                name,
                _n(bv["games"]),
                f"{bv['compile_s']:.2f}" + (" (cached)" if bv["compile_cached"] else ""),
                _n(bv["decisions_per_game"], 1),
                _n(bv["decisions_per_s"]),
                _pct(bv["spread"]),
                _ratio(r.get("batch_decisions_vs_openspiel"), _BATCH_TARGETS.get(name)),
                _ratio(r.get("batch_vs_checked")),
                _n(bv["bytes_per_game"]),
            ]
        )
    if rows:
        lines.append(
            _table(
                [
                    "variant",
                    "N",
                    "compile s",
                    "dec/game",
                    "dec/s",
                    "spread",
                    "÷OSP",
                    "÷checked",
                    "B/game",
                ],
                rows,
            )
        )
    lines.append(
        "  compile s: batch.compile of a fresh rule set equal to the variant's; ÷OSP: batch "
        "decisions/s ÷ OpenSpiel decisions/s (targets ≥ "
        f"{TARGET_BATCH_OSP:g} on {BARE_VARIANT}, moonshot ≥ {MOONSHOT_BATCH_OSP:g}; "
        f"≥ {TARGET_BATCH_VIETNAM:g} on {VIETNAM_VARIANT});"
    )
    lines.append(
        "  ÷checked: ÷ the checked random games' decisions/s; B/game: bytes of a BatchGames "
        "object's NumPy arrays ÷ N."
    )
    skipped = [n for n in out["variants"] if n not in b["variants"] and n not in b["refused"]]
    if skipped:
        lines.append(f"  not measured (--quick over every variant): {', '.join(skipped)}")
    for name, why in b["refused"].items():
        lines.append(f"  refused by batch.compile: {name}: {why}")
        problems = b.get("refused_problems", {}).get(name, [])
        if len(problems) > 1:
            lines += [f"      - {problem}" for problem in problems]
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
            f"Target (gamerules): playout÷OSP ≥ {TARGET_PLAYOUT}, no regression (earlier "
            f"≥ {PREVIOUS_PLAYOUT:g}, ≥ {EARLIER_PLAYOUT:g}); "
            f"view÷OSP: earlier target ≤ {EARLIER_VIEW:g}; "
            "fast÷checked: apply_unchecked ÷ apply decisions/s."
        )
    return lines


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
