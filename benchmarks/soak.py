"""The table server soaked: many tables of searching bots, spectators and a
few people for a minute, on SQLite and on PostgreSQL (the figures in
docs/serving.rst, "Soak test").

    python3 benchmarks/soak.py [--tables 100] [--humans 20] [--sockets 200]
                               [--stuck 1] [--seconds 60] [--warmup 5] [--bot pimc]
                               [--budget 0.05] [--workers 1]
                               [--stores sqlite,postgresql] [--database URL] [--json FILE]

Each store gets its own ``backalley serve --port 0 --bot-delay 0 --deal-pause 0
--bot-budget B --bot-workers W`` process (SQLite in a temporary folder;
PostgreSQL on a private cluster started through ``tests/server_services.py``,
or the database ``--database`` names).  On it ``--tables`` tables of four
``--bot`` bots play at once (each decision under ``--budget`` CPU seconds,
in ``--workers`` processes), ``--humans`` scripted people each play seat 0
of a table of their own against three such bots (a client that listens on
its seat's WebSocket and POSTs a legal move whenever its view says so), and
``--sockets`` spectators' WebSockets watch the bot tables, from several
loopback addresses, and ``--stuck`` more spectators open a socket on a bot
table and never read it (the server must drop them without holding up a
move, a bot or the poll).  A game that ends is replaced by a new table.

After ``--warmup`` seconds the clock runs for ``--seconds``; reported per
store: the moves stored a second (bots' and people's), the people's answer
time (a move's POST until its 200) as median and 99th percentile, the open
file descriptors and the resident memory of the server and its bot workers
at the start and at the end of the clock, the lines the server logged (0
expected: every one is a warning or an error) and any refused or failed
request.  Everything is on loopback, clients and server on one machine.
:func:`soak` is what ``tests/server/test_server_bots.py`` runs for a few seconds.
Not a test: run it on purpose.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # measure this working tree's server
sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load import Load, Run, percentile  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from tests.server_services import PostgresCluster, Served, Unavailable  # noqa: E402

WATCHERS = tuple(f"127.0.1.{n}" for n in range(1, 21))
"""The spectators' addresses (a server lets one address open 64 sockets)."""
MAKERS = tuple(f"127.0.2.{n}" for n in range(1, 41))
"""The addresses the bot tables are made from (at most 20 games with bots each)."""
PEOPLE = tuple(f"127.0.3.{n}" for n in range(1, 101))
"""The people's addresses: one each, as people at their own machines."""


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def resources(pid: int | None) -> dict[str, Any]:
    """Open descriptors and resident memory (MB) of ``pid`` and of its
    children (the bot workers), from /proc (empty elsewhere)."""
    if pid is None or not Path(f"/proc/{pid}").is_dir():
        return {}

    def one(process: int) -> tuple[int, float]:
        try:
            fds = len(os.listdir(f"/proc/{process}/fd"))
            status = Path(f"/proc/{process}/status").read_text()
        except OSError:
            return 0, 0.0
        rss = next(
            (int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0
        )
        return fds, rss / 1024

    fds, rss = one(pid)
    children = [one(child) for child in _children(pid)]
    return {
        "server_fds": fds,
        "server_rss_mb": round(rss, 1),
        "workers": len(children),
        "workers_fds": sum(f for f, _ in children),
        "workers_rss_mb": round(sum(r for _, r in children), 1),
    }


class Soak(Load):
    """The tables, people and spectators of one soak."""

    def __init__(self, url: str, args: argparse.Namespace, pid: int | None) -> None:
        args.players = "human"
        super().__init__([url], Run("soak", args.tables + args.humans, 1, "sticky"), args)
        self.url, self.ws, self.pid = url, self.wss[0], pid
        self.bot_seats = [args.bot] * 4
        self.bot_tables: list[str] = []
        self._people_made = 0
        self._own = {
            address: httpx.AsyncClient(
                timeout=httpx.Timeout(30.0, connect=10.0),
                transport=httpx.AsyncHTTPTransport(local_address=address),
            )
            for address in (*MAKERS, *PEOPLE)
        }

    async def close(self) -> None:
        await super().close()
        for client in self._own.values():
            await client.aclose()

    async def new_table(
        self, slot: int = 0, seats: list[str] | None = None
    ) -> tuple[str, str | None, int]:
        """A new table with ``seats`` (a person's, by default: seat 0's
        token), on the one process."""
        seats = seats or self.seats
        while True:
            if seats[0] == "human":  # a person: an address of its own
                client = self._own[PEOPLE[self._people_made % len(PEOPLE)]]
                self._people_made += 1
            else:
                client = self._own[MAKERS[self._made % len(MAKERS)]]
                self._made += 1
            made = await client.post(
                f"{self.url}/api/tables", json={"rules": self.args.rules, "seats": seats}
            )
            if made.status_code == 429:
                continue  # the next address
            made.raise_for_status()
            table = str(made.json()["table"])
            self.tables[table] = 0
            if seats[0] != "human":
                self.bot_tables.append(table)
                return table, None, 0
            joined = await client.post(f"{self.url}/api/tables/{table}/seats/0/join")
            joined.raise_for_status()
            return table, str(joined.json()["token"]), 0

    async def bots_only(self) -> None:
        while not self.stopping:
            table, _, _ = await self.new_table(0, self.bot_seats)
            while not self.stopping:
                await asyncio.sleep(3.0)
                summary = await self.http.get(f"{self.url}/api/tables/{table}")
                if summary.json()["over"]:
                    break

    async def spectator(self, index: int) -> None:
        while len(self.bot_tables) < self.args.tables:
            await asyncio.sleep(0.05)
        table = self.bot_tables[index % len(self.bot_tables)]
        address = WATCHERS[index % len(WATCHERS)]
        async with connect(f"{self.ws}/api/tables/{table}/socket", local_addr=(address, 0)) as ws:
            async for _ in ws:
                if self.measuring:
                    self.messages += 1
            if not self.stopping:
                self.refuse(f"spectator closed {ws.close_code}")

    async def stuck(self, index: int) -> None:
        """A spectator that never reads: its client takes one message and then
        stops reading the connection (the server's sends back up)."""
        while len(self.bot_tables) < self.args.tables:
            await asyncio.sleep(0.05)
        table = self.bot_tables[index % len(self.bot_tables)]
        address = WATCHERS[(index + 7) % len(WATCHERS)]
        async with connect(
            f"{self.ws}/api/tables/{table}/socket", local_addr=(address, 0), max_queue=1
        ):
            while not self.stopping:
                await asyncio.sleep(1.0)

    async def run(self) -> dict[str, Any]:
        args = self.args
        tasks = [asyncio.create_task(self.bots_only()) for _ in range(args.tables)]
        tasks += [asyncio.create_task(self.person(i)) for i in range(args.humans)]
        while len(self.tables) < args.tables + args.humans:
            await asyncio.sleep(0.05)
        tasks += [asyncio.create_task(self.spectator(i)) for i in range(args.sockets)]
        tasks += [asyncio.create_task(self.stuck(i)) for i in range(args.stuck)]
        await asyncio.sleep(args.warmup)
        for task in tasks:
            error = task.exception() if task.done() else None
            if error is not None:
                raise error
        before = await self.versions()
        self.tables.update(before)
        start = resources(self.pid)
        logged = _log_lines(args.log)
        self.measuring = True
        began = time.perf_counter()
        await asyncio.sleep(args.seconds)
        self.measuring = False
        seconds = time.perf_counter() - began
        end = resources(self.pid)
        after = await self.versions()
        self.stopping = True
        for task in tasks:
            task.cancel()
        failed = []
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                try:
                    await task
                except Exception as exc:
                    failed.append(f"{type(exc).__name__}: {exc}")
        moves = sum(after.get(t, v) - self.tables.get(t, 0) for t, v in after.items())
        lat = self.latencies
        return {
            "tables": args.tables,
            "humans": args.humans,
            "sockets": args.sockets,
            "stuck": args.stuck,
            "bot": args.bot,
            "budget": args.budget,
            "workers": args.workers,
            "seconds": round(seconds, 2),
            "moves": moves,
            "moves_per_second": round(moves / seconds, 1),
            "human_moves": self.person_moves,
            "human_p50_ms": round(1000 * statistics.median(lat), 1) if lat else None,
            "human_p99_ms": round(1000 * percentile(lat, 0.99), 1) if lat else None,
            "socket_messages_per_second": round(self.messages / seconds, 1),
            "start": start,
            "end": end,
            "log_lines": _log_lines(args.log) - logged,
            "log_lines_before": logged,
            "refused": self.refused,
            "failed_tasks": failed[:5],
        }


def _log_lines(path: Path | None) -> int:
    """The non-empty lines the server wrote on its standard error."""
    if path is None or not path.exists():
        return 0
    return sum(1 for line in path.read_text("utf-8", "replace").splitlines() if line.strip())


def soak(
    data: Path,
    *,
    database: str | None = None,
    tables: int = 100,
    humans: int = 20,
    sockets: int = 200,
    stuck: int = 1,
    seconds: float = 60.0,
    warmup: float = 5.0,
    bot: str = "pimc",
    budget: float = 0.05,
    workers: int = 1,
    rules: str = "gamerules",
) -> dict[str, Any]:
    """Serve from ``data`` (SQLite, or PostgreSQL at ``database``) and soak
    it; the figures (see the module's description)."""
    args = argparse.Namespace(
        tables=tables,
        humans=humans,
        sockets=sockets,
        stuck=stuck,
        seconds=seconds,
        warmup=warmup,
        bot=bot,
        budget=budget,
        workers=workers,
        rules=rules,
        players="human",
        log=None,
    )
    served = Served(
        data,
        database=database,
        extra=["--bot-budget", str(budget), "--bot-workers", str(workers)],
    ).start()
    try:
        args.log = served.errors
        pid = served.process.pid if served.process is not None else None
        figures = asyncio.run(_measure(served.url, args, pid))
    finally:
        served.stop()
    figures["log_tail"] = served.stderr()[-1000:] if figures["log_lines"] else ""
    return figures


async def _measure(url: str, args: argparse.Namespace, pid: int | None) -> dict[str, Any]:
    load = Soak(url, args, pid)
    try:
        return await load.run()
    finally:
        await load.close()


def one_store(store: str, args: argparse.Namespace) -> dict[str, Any]:
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="backalley-soak-")))
        database = None
        if store == "postgresql":
            database = args.database
            if database is None:
                cluster = PostgresCluster().start()
                stack.callback(cluster.stop)
                database = cluster.new_database("soak")
        figures = soak(
            folder,
            database=database,
            tables=args.tables,
            humans=args.humans,
            sockets=args.sockets,
            seconds=args.seconds,
            warmup=args.warmup,
            bot=args.bot,
            budget=args.budget,
            workers=args.workers,
            rules=args.rules,
        )
        figures["store"] = store
        return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--humans", type=int, default=20)
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--stuck", type=int, default=1, help="spectators that never read")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--bot", default="pimc")
    parser.add_argument("--budget", type=float, default=0.05)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--rules", default="gamerules")
    parser.add_argument("--stores", default="sqlite,postgresql")
    parser.add_argument("--database", help="a PostgreSQL database to use (postgresql://...)")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    if not (1 <= args.tables <= 500 and 0 <= args.humans <= 100 and 0 <= args.sockets <= 1000):
        parser.error("--tables is 1 to 500, --humans 0 to 100, --sockets 0 to 1000")
    if not 0 <= args.stuck <= 100:
        parser.error("--stuck is 0 to 100")
    if args.seconds <= 0 or not 0 < args.budget <= 60 or not 0 <= args.workers <= 64:
        parser.error("--seconds > 0, --budget 0 to 60, --workers 0 to 64")
    stores = [s.strip() for s in args.stores.split(",") if s.strip()]
    if not stores or set(stores) - {"sqlite", "postgresql"}:
        parser.error("--stores lists sqlite and/or postgresql")
    results = []
    for store in stores:
        try:
            figures = one_store(store, args)
        except Unavailable as exc:
            print(f"{store}: skipped, {exc}", file=sys.stderr)
            continue
        results.append(figures)
        print(json.dumps(figures), flush=True)
    print()
    print(
        f"{args.tables} tables of four {args.bot} bots ({args.budget:g} s of CPU a decision, "
        f"{args.workers} worker processes), {args.humans} people against three bots each, "
        f"{args.sockets} spectator sockets and {args.stuck} that never read, "
        f"{args.seconds:g} s; Python "
        f"{platform.python_version()}, {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} processors (clients on the same machine)"
    )
    print(
        f"{'store':<12}{'moves/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'fds':>12}{'MB server':>16}"
        f"{'MB workers':>16}{'log':>5}"
    )
    for r in results:
        s, e = r["start"], r["end"]
        print(
            f"{r['store']:<12}{r['moves_per_second']:>9.1f}"
            f"{r['human_p50_ms'] or float('nan'):>9.1f}{r['human_p99_ms'] or float('nan'):>9.1f}"
            f"{s.get('server_fds', 0):>6}->{e.get('server_fds', 0):<5}"
            f"{s.get('server_rss_mb', 0):>8}->{e.get('server_rss_mb', 0):<7}"
            f"{s.get('workers_rss_mb', 0):>8}->{e.get('workers_rss_mb', 0):<7}"
            f"{r['log_lines']:>5}"
        )
    if args.json:
        environment = {
            "python": sys.version,
            "platform": platform.platform(),
            "processors": os.cpu_count(),
        }
        Path(args.json).write_text(
            json.dumps(
                {"args": vars(args), "environment": environment, "results": results}, indent=2
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
