"""The backalley benchmark suite: throughput, per-call costs and memory, with
the ratios the project's performance targets are stated in.

    python benchmarks/run.py [--seconds S] [--repeat R] [--variants all|NAME,...]
                             [--json FILE] [--quick] [--memory-states N]
                             [--batch-games N] [--baseline DIR]
    python benchmarks/run.py --profile [VARIANT]     # cProfile of the random-game loop

Everything is measured through the public API (``backalley.new_game``,
``GameState.legal_moves/check/apply/apply_unchecked/view``, ``to_json`` /
``from_json``), in one process, alternating runs: each of the R rounds measures
the references (the bare loop, OpenSpiel ``oh_hell``) and then every selected
variant, and the figures reported are medians over the rounds.  Ratios are
computed per round from numbers measured in that round, then the median is
taken, so that machine drift between rounds cancels out.  Where NumPy is
importable, every round also times the batch engine (``backalley.batch``):
``batch.random_games`` of N games in lock-step per variant that
``batch.compile`` accepts, after its compile and two warm-up batches.  See
README.md for what each figure means.

``--baseline DIR`` adds a side-by-side comparison with another checkout of the
project (DIR holds its ``backalley`` package): two worker processes, each
running this file's workloads (``--worker TREE``) against one tree's
``backalley`` through its public API, take turns in every round, and the
report gives each figure of both trees with the ratio new ÷ baseline (the
median of the per-round ratios).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

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
from suite import common  # noqa: E402  (benchmarks/suite/: the suite's modules)
from suite.baseline import worker_main  # noqa: E402
from suite.cases import Subject, profile  # noqa: E402
from suite.common import CLOCKS  # noqa: E402
from suite.report import report  # noqa: E402
from suite.runner import run  # noqa: E402
from suite.serialization import JsonSubject, replay_moves  # noqa: E402
from suite.targets import BARE_VARIANT, JSON_DEAL  # noqa: E402

import backalley as ba  # noqa: E402

__all__ = ["JSON_DEAL", "JsonSubject", "Subject", "main", "replay_moves"]


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
        help="a ~15-30 s smoke run (--seconds 0.08 --repeat 1 --memory-states 2000 "
        "--batch-games 200; with every variant, batches of gamerules and vietnam only)",
    )
    p.add_argument(
        "--memory-states",
        type=int,
        default=None,
        help="states kept for the memory figure (default 10,000; 2,000 with --quick)",
    )
    p.add_argument(
        "--batch-games",
        type=int,
        default=None,
        metavar="N",
        help="games of each batch of the batch engine (default 1,000; 200 with --quick)",
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
    common.clock = CLOCKS[args.clock]
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
    if args.batch_games is None:
        args.batch_games = 200 if args.quick else 1_000
    if args.repeat < 1 or args.seconds <= 0:
        p.error("--repeat must be >= 1 and --seconds > 0")
    if args.batch_games < 1:
        p.error("--batch-games must be >= 1")
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
