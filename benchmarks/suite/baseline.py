"""Side by side with another checkout (``--baseline DIR``).

Two worker processes, one per tree, each running ``run.py --worker TREE``
with that tree's ``backalley`` on its path: the same workloads, through the
public API only, so that an older tree whose own benchmarks differ is
measured exactly as this one.  The parent asks each for one round of figures
in turn; per-round ratios new ÷ baseline, then medians.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from suite.cases import (
    Subject,
    memory,
    micro,
    random_games_checked,
    random_games_playout,
    random_games_unchecked,
)
from suite.common import RUN, median, spread, tree_environment
from suite.serialization import JsonSubject
from suite.targets import JSON_DEAL

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
            str(RUN),
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
