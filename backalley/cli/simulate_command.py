"""``backalley simulate``: many games between bots, and a results table per side.

The games, their seeds and the statistics come from :mod:`backalley.sim.simulate`;
``--jobs K`` plays them in K worker processes, ``--backend ray`` as Ray tasks
(:mod:`backalley.sim.ray_backend`) on a Ray instance of K CPUs started here.
A ``--jobs`` larger than the games or this machine's CPUs is lowered to the
smaller of the two (never refused), with one line on standard error saying so
(:func:`lowered_jobs`); with ``--address`` the cluster's CPUs are used as they
are.  The same seed gives the same table whatever the backend and the number
of jobs.  The table names each side by its seats (``N-S``, ``E-W``; a seat's
name when every player is alone) and its bots.  While standard error is a
terminal a progress bar counts the games, moved on after every game, with
the time left at the pace so far (:mod:`backalley.sim.progress`);
``--json FILE`` writes the table's numbers as JSON (``-``: to standard
output, instead of the table).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from backalley.cli.arguments import (
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
from backalley.sim.progress import TimeLeft, format_time_left
from backalley.sim.simulate import (
    GameOutcome,
    Progress,
    SimulationPlan,
    Summary,
    available_cpus,
    external_programs,
    iter_local,
    summarize,
    worker_count,
)

__all__ = ["add_parser", "format_table", "lowered_jobs", "progress_line", "run"]


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
        help="bot names per seat, comma separated; one name fills every seat, and one "
        "per side each side's seats (default: heuristic where available, else random)",
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
    names = player_names(args.players, rules.players, teams=rules.teams)
    if args.address and args.backend != "ray":
        raise UsageError("--address is for --backend ray")
    records_path = writable_path(args.records, "--records") if args.records else None
    json_path = None if args.json in (None, "-") else writable_path(args.json, "--json")
    try:
        plan = SimulationPlan(
            rules,
            names,
            games=args.games,
            seed=args.seed,
            duplicate=args.duplicate,
            records=records_path is not None,
            programs=external_programs(names),
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
                side.name,
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
    ("", "Side"),
    ("", "Players"),
    ("", "Won"),
    ("95%", "CI"),
    ("Pts/", "game"),
    ("Pts/", "deal"),
    ("Contracts", "made/set"),
    ("Boards", "made/set"),
]
"""The table's column headers, each on two lines (so that the table fits a
terminal of 80 to 90 columns)."""


def format_table(summary: Summary) -> list[str]:
    """The results table as plain text lines: the title, a blank line, the
    two lines of headers, a rule, one line per side."""
    rows = _rows(summary)
    tops = [top for top, _ in HEADERS]
    bottoms = [bottom for _, bottom in HEADERS]
    widths = [max(len(r[i]) for r in [tops, bottoms, *rows]) for i in range(len(HEADERS))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))
        ).rstrip()

    rule = "-" * len(line(["-" * w for w in widths]))
    return [_title(summary), "", line(tops), line(bottoms), rule, *(line(r) for r in rows)]


def _rich_table(console: Any, summary: Summary) -> None:
    from rich import box
    from rich.table import Table

    table = Table(title=_title(summary), box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for i, (top, bottom) in enumerate(HEADERS):
        header = f"{top}\n{bottom}" if top else bottom
        if i == 0:
            table.add_column(header, justify="left", no_wrap=True)
        elif i == 1:
            table.add_column(header, justify="left", min_width=9)
        else:
            table.add_column(header, justify="right", no_wrap=True)
    for row in _rows(summary):
        table.add_row(*row)
    console.print(table)


@contextmanager
def _progress(total: int) -> Iterator[Progress | None]:
    """A progress bar on standard error while it is a terminal (else none):
    the games done, moved on after every game, and the time left at the pace
    so far (:class:`~backalley.sim.progress.TimeLeft`)."""
    if not is_terminal(sys.stderr):
        yield None
        return
    try:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
        from rich.progress import Progress as Bar
    except ImportError:
        yield progress_line(sys.stderr)
        sys.stderr.write("\n")
        return
    time_left = TimeLeft()
    columns = (
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[left]}"),
    )
    with Bar(*columns, console=Console(file=sys.stderr), transient=True) as bar:
        task = bar.add_task("games", total=total, left=format_time_left(None))

        def advance(done: int, games: int) -> None:
            bar.update(task, completed=done, left=format_time_left(time_left(done, games)))

        yield advance


def progress_line(
    stream: TextIO, clock: Callable[[], float] = time.monotonic, width: int = 30
) -> Progress:
    """A progress report (see :data:`~backalley.sim.simulate.Progress`) that
    rewrites one line of ``stream``: ``[#####.....] 12/40 games, 0:31 left``,
    the time left from ``clock`` (see :class:`~backalley.sim.progress.TimeLeft`)."""
    time_left = TimeLeft(clock)
    longest = [0]

    def report(done: int, total: int) -> None:
        filled = width * done // max(1, total)
        left = format_time_left(time_left(done, total))
        line = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, {left}"
        longest[0] = max(longest[0], len(line))
        stream.write("\r" + line.ljust(longest[0]))  # spaces over a longer line before
        stream.flush()

    return report
