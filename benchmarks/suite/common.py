"""What every part of the benchmark suite shares: where it lives, the clock
it times with (``--clock``), medians and spreads, and the measured tree's
description (its ``backalley``, folder and commit; the machine's).

``run.py`` puts the measured tree on the path before this package is
imported, so ``backalley`` here is that tree's.
"""

from __future__ import annotations

import contextlib
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import bare  # benchmarks/bare.py

import backalley as ba

HERE = Path(__file__).resolve().parent.parent
"""The suite's folder (``benchmarks/``)."""
ROOT = HERE.parent
"""The tree the suite lives in."""
RUN = HERE / "run.py"
"""The suite's entry point (which a worker of ``--baseline`` runs)."""
TREE = Path(ba.__file__).resolve().parent.parent
"""The tree whose ``backalley`` this process measures (``run.py`` put it on the path)."""

CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = time.perf_counter  # set by run.py's main() from --clock


def median(xs: list[float]) -> float:
    return statistics.median(xs)


def spread(xs: list[float]) -> float | None:
    """(max - min) / median, as a fraction (``None`` for a single round)."""
    m = statistics.median(xs)
    return (max(xs) - min(xs)) / m if m and len(xs) > 1 else None


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
