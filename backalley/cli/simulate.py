"""``backalley simulate``: many games between bots, and a results table per side.

The games, their seeds and the statistics come from :mod:`backalley.sim.simulate`;
``--jobs K`` plays them in K worker processes, ``--backend ray`` as Ray tasks
(:mod:`backalley.sim.ray_backend`) on a Ray instance of K CPUs started here.
A ``--jobs`` larger than the games or this machine's CPUs is lowered to the
smaller of the two (never refused), with one line on standard error saying so
(:func:`lowered_jobs`); with ``--address`` the cluster's CPUs are used as they
are.  The same seed gives the same table whatever the backend and the number
of jobs.  A progress bar is shown while standard error is a terminal;
``--json FILE`` writes the table's numbers as JSON (``-``: to standard
output, instead of the table).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from backalley.cli.common import (
    EXIT_OK,
    UsageError,
    is_terminal,
    load_rules,
    player_names,
    positive_count,
    rich_console,
    writable_path,
)
from backalley.errors import SetupError
from backalley.sim.simulate import (
    GameOutcome,
    Plan,
    Summary,
    available_cpus,
    iter_local,
    summarize,
    worker_count,
)

__all__ = ["add_parser", "format_table", "lowered_jobs", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sim = sub.add_parser(
        "simulate",
        help="play many games between bots and print the results per side",
        description="Play many games between bots, locally or on Ray, and print per side: "
        "games won with a 95 % confidence interval, mean points per game and per deal, "
        "contracts and boards made and set.",
    )
    sim.add_argument(
        "--variant",
        default="gamerules",
        metavar="NAME|FILE",
        help="variant name or house-rules file",
    )
    sim.add_argument(
        "--players",
        default=None,
        metavar="A,B,C,D",
        help="bot names per seat, comma separated; one name fills every seat "
        "(default: heuristic where available, else random)",
    )
    sim.add_argument(
        "--games",
        type=positive_count,
        default=100,
        metavar="N",
        help="how many games (default 100)",
    )
    sim.add_argument(
        "--seed", type=int, default=0, metavar="S", help="seed of the whole simulation (default 0)"
    )
    sim.add_argument(
        "--jobs",
        "-j",
        type=positive_count,
        default=1,
        metavar="K",
        help="worker processes (local), or CPUs of a Ray instance started here (default 1); "
        "more than the games or the CPUs is lowered to that, with a note on standard error",
    )
    sim.add_argument(
        "--duplicate",
        action="store_true",
        help="play each deal set once per side, the sides moved round the table "
        "(games must be a multiple of the number of sides)",
    )
    sim.add_argument(
        "--records",
        default=None,
        metavar="FILE.jsonl",
        help="write every game's record, one JSON per line",
    )
    sim.add_argument(
        "--json",
        default=None,
        metavar="FILE",
        help="write the results as JSON ('-': standard output)",
    )
    sim.add_argument(
        "--backend", choices=("local", "ray"), default="local", help="where to play (default local)"
    )
    sim.add_argument(
        "--address",
        default=None,
        metavar="ADDR",
        help="Ray cluster to connect to ('auto': the one on this machine); "
        "default: start a local Ray instance",
    )
    sim.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    rules = load_rules(args.variant)
    names = player_names(args.players, rules.players)
    if args.address and args.backend != "ray":
        raise UsageError("--address is for --backend ray")
    records_path = writable_path(args.records, "--records") if args.records else None
    json_path = None if args.json in (None, "-") else writable_path(args.json, "--json")
    try:
        plan = Plan(
            rules,
            names,
            games=args.games,
            seed=args.seed,
            duplicate=args.duplicate,
            records=records_path is not None,
        )
    except SetupError as exc:
        raise UsageError(str(exc)) from None
    jobs = args.jobs if args.address else lowered_jobs(args.jobs, plan.games)
    with _progress(plan.games) as progress:
        if args.backend == "ray":
            from backalley.sim.ray_backend import iter_ray

            outcomes = iter_ray(plan, address=args.address, cpus=jobs, progress=progress)
        else:
            outcomes = iter_local(plan, jobs=jobs, progress=progress)
        if records_path is None:
            summary = summarize(plan, outcomes)
        else:
            with records_path.open("w", encoding="utf-8") as target:
                summary = summarize(plan, _recorded(outcomes, target))
    data = summary.to_data()
    data["backend"] = args.backend
    if args.json == "-":
        print(json.dumps(data, indent=2), file=out)
        return EXIT_OK
    if json_path is not None:
        json_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    console = rich_console(out)
    if console is not None:
        _rich_table(console, summary)
    else:
        for line in format_table(summary):
            print(line, file=out)
    if records_path is not None:
        print(f"Records written to {records_path}", file=out)
    if json_path is not None:
        print(f"Results written to {json_path}", file=out)
    return EXIT_OK


def lowered_jobs(jobs: int, games: int) -> int:
    """``--jobs`` as it is used for ``games`` games (see
    :func:`~backalley.sim.simulate.worker_count`); when that is fewer, one line
    on standard error says so: ``--jobs 3000 lowered to 2 (2 games, 2 CPUs)``."""
    cpus = available_cpus()
    used = worker_count(jobs, games, cpus)
    if used < jobs:
        print(
            f"backalley simulate: --jobs {jobs} lowered to {used} ({games} games, {cpus} CPUs)",
            file=sys.stderr,
        )
    return used


def _recorded(outcomes: Iterator[GameOutcome], target: TextIO) -> Iterator[GameOutcome]:
    """``outcomes``, each game's record written to ``target`` as it passes."""
    for outcome in outcomes:
        assert outcome.record is not None
        target.write(outcome.record + "\n")
        yield outcome


def _title(summary: Summary) -> str:
    kind = ", duplicate" if summary.duplicate else ""
    return (
        f"{summary.variant}: {summary.games} games{kind}, seed {summary.seed}, "
        f"{summary.deals} deals, {summary.draws} drawn"
    )


def _rows(summary: Summary) -> list[list[str]]:
    rows = []
    for side in summary.sides:
        low, high = side.win_interval
        rows.append(
            [
                str(side.side + 1),
                " + ".join(side.players),
                f"{side.wins} ({100 * side.win_rate:.1f}%)",
                f"{100 * low:.1f}-{100 * high:.1f}%",
                f"{side.points_per_game:.1f}",
                f"{side.points_per_deal:.2f}",
                f"{side.contracts_made}/{side.contracts_set}",
                f"{side.boards_made}/{side.boards_set}",
            ]
        )
    return rows


HEADERS = [
    "Side",
    "Players",
    "Won",
    "95% CI",
    "Pts/game",
    "Pts/deal",
    "Contracts made/set",
    "Boards made/set",
]


def format_table(summary: Summary) -> list[str]:
    """The results table as plain text lines."""
    rows = _rows(summary)
    widths = [max(len(r[i]) for r in [HEADERS, *rows]) for i in range(len(HEADERS))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i == 1 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))
        ).rstrip()

    head = line(HEADERS)
    return [_title(summary), "", head, "-" * len(head), *(line(r) for r in rows)]


def _rich_table(console: Any, summary: Summary) -> None:
    from rich import box
    from rich.table import Table

    table = Table(title=_title(summary), box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for i, header in enumerate(HEADERS):
        header = (
            header.replace("/", "/\n", 1) if " " not in header else header.replace(" ", "\n", 1)
        )
        if i == 1:
            table.add_column(header, justify="left", min_width=9)
        else:
            table.add_column(header, justify="right", no_wrap=True)
    for row in _rows(summary):
        table.add_row(*row)
    console.print(table)


@contextmanager
def _progress(total: int) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on standard error while it is a terminal (else none)."""
    if not is_terminal(sys.stderr):
        yield None
        return
    try:
        from rich.console import Console
        from rich.progress import Progress
    except ImportError:
        yield _plain_progress
        sys.stderr.write("\n")
        return
    with Progress(console=Console(file=sys.stderr), transient=True) as bar:
        task = bar.add_task("games", total=total)

        def advance(done: int, _total: int) -> None:
            bar.update(task, completed=done)

        yield advance


def _plain_progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(1, total)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    sys.stderr.flush()
