"""The table server under load: moves a second and move latency, on SQLite
and on PostgreSQL (the table in docs/performance.rst).

    python3 benchmarks/server_load.py [--tables N] [--sockets M] [--seconds S]
                                      [--stores sqlite,postgresql] [--database URL]
                                      [--players human|bots] [--bot NAME] [--bot-delay S]
                                      [--rules NAME] [--warmup S] [--json FILE]

Each store gets its own ``backalley serve --port 0 --bot-delay S`` process
(SQLite in a temporary folder; PostgreSQL on a private cluster this script
starts through ``tests/server_services.py``, or the database ``--database``
names).  On it, ``--tables`` tables play at once, each three ``--bot``
bots and, with ``--players human`` (the default), a scripted person at seat
0: a client that listens on the seat's WebSocket and, whenever the view says
seat 0 is to act, POSTs a legal move (with a client move id).  With
``--players bots`` all four seats are bots.  A table whose game ends is
replaced by a new one.  With ``--bot-delay 0`` (the default) the bots move
as fast as the server lets them, so the server is always busy: the figures
are its most moves a second, and a person's move waits its turn behind the
bots' (``--bot-delay 0.4``, the server's own default, paces them as for
people).  ``--sockets`` more WebSockets watch the tables as
spectators.  Everything is on loopback, clients and server on the same
machine (so they share its processors).

After ``--warmup`` seconds the clock runs for ``--seconds``; reported per
store: the moves the server stored in that time a second (persons' and bots'),
the persons' moves a second, the latency of a person's move (the POST until
its 200 answer: checked, committed, pushed to the table's sockets) as median
and 99th percentile, the messages the sockets received a second, and any
refused or failed request.  Not a test: run it on purpose.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # measure this working tree's server

import httpx  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from tests.server_services import PostgresCluster, Served, Unavailable  # noqa: E402

SOURCES = tuple(f"127.0.0.{n}" for n in range(2, 40))
"""Client addresses tables are made from: a server lets one address make 20
tables at once, then one a second (all of 127.0.0.0/8 is this machine)."""


def cpu_seconds(pid: int | None) -> float | None:
    """The CPU time process ``pid`` has used (Linux's /proc; ``None`` elsewhere)."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (``share`` from 0 to 1)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, min(len(ordered), int(-(-share * len(ordered) // 1))))
    return ordered[rank - 1]


class Load:
    """One run against one server: its tables, clients and counts."""

    def __init__(self, url: str, args: argparse.Namespace, pid: int | None = None) -> None:
        self.url = url
        self.pid = pid
        self.ws = url.replace("http://", "ws://", 1)
        self.args = args
        self.seats = ["human" if args.players == "human" else args.bot] + [args.bot] * 3
        self.measuring = False
        self.stopping = False
        self.latencies: list[float] = []
        self.person_moves = 0
        self.messages = 0
        self.refused: dict[str, int] = {}
        self.tables: dict[str, int] = {}
        """table -> its version when the clock started (0 for later tables)."""
        self._made = 0
        self._clients = {
            address: httpx.AsyncClient(
                timeout=httpx.Timeout(30.0, connect=10.0),
                transport=httpx.AsyncHTTPTransport(local_address=address),
            )
            for address in SOURCES
        }
        self.http = httpx.AsyncClient(
            timeout=httpx.Timeout(30.0, connect=10.0),
            limits=httpx.Limits(max_connections=args.tables + 10),
        )

    def refuse(self, what: str) -> None:
        self.refused[what] = self.refused.get(what, 0) + 1

    async def close(self) -> None:
        for client in [self.http, *self._clients.values()]:
            await client.aclose()

    async def new_table(self) -> tuple[str, str | None]:
        """A new table (and seat 0's token when a person plays it)."""
        while True:
            client = self._clients[SOURCES[self._made % len(SOURCES)]]
            self._made += 1
            made = await client.post(
                f"{self.url}/api/tables", json={"rules": self.args.rules, "seats": self.seats}
            )
            if made.status_code == 429:
                continue  # the next address
            made.raise_for_status()
            table = str(made.json()["table"])
            self.tables[table] = 0
            if self.seats[0] != "human":
                return table, None
            joined = await client.post(f"{self.url}/api/tables/{table}/seats/0/join")
            joined.raise_for_status()
            return table, str(joined.json()["token"])

    async def person(self, index: int) -> None:
        """Seat 0 of a table after another: moves whenever its view says so."""
        rng = random.Random(index)
        while not self.stopping:
            table, token = await self.new_table()
            assert token is not None
            headers = {"Authorization": f"Bearer {token}"}
            async with connect(f"{self.ws}/api/tables/{table}/seats/0/socket") as socket:
                await socket.send(json.dumps({"token": token}))
                moved_at = -1
                async for text in socket:
                    message = json.loads(text)
                    if message.get("type") != "view":
                        self.refuse(f"socket {message.get('error')}")
                        break
                    view = message["view"]
                    if view["phase"] == "game-over":
                        break
                    if view["to_act"] != 0 or message["version"] <= moved_at:
                        continue
                    moved_at = message["version"]
                    move = rng.choice(view["legal_moves"])
                    body = {"move": move, "client_move_id": uuid.uuid4().hex}
                    while True:
                        began = time.perf_counter()
                        sent = await self.http.post(
                            f"{self.url}/api/tables/{table}/seats/0/moves",
                            json=body,
                            headers=headers,
                        )
                        took = time.perf_counter() - began
                        if sent.status_code == 200:
                            if self.measuring:
                                self.latencies.append(took)
                                self.person_moves += 1
                            break
                        self.refuse(f"move {sent.status_code}")
                        if sent.status_code != 429:
                            break
                        await asyncio.sleep(float(sent.headers.get("retry-after", "1")))

    async def bots_only(self) -> None:
        """A table of four bots after another (the server plays them)."""
        while not self.stopping:
            table, _ = await self.new_table()
            while not self.stopping:
                await asyncio.sleep(0.5)
                summary = await self.http.get(f"{self.url}/api/tables/{table}")
                if summary.json()["over"]:
                    break

    async def spectator(self, index: int) -> None:
        """A spectator's socket on one of the tables, counting what it receives."""
        while not self.tables:
            await asyncio.sleep(0.05)
        tables = list(self.tables)
        table = tables[index % len(tables)]
        async with connect(f"{self.ws}/api/tables/{table}/socket") as socket:
            async for _ in socket:
                if self.measuring:
                    self.messages += 1

    async def versions(self) -> dict[str, int]:
        async def one(table: str) -> tuple[str, int]:
            got = await self.http.get(f"{self.url}/api/tables/{table}")
            return table, int(got.json()["version"])

        return dict(await asyncio.gather(*(one(t) for t in list(self.tables))))

    async def run(self) -> dict[str, Any]:
        args = self.args
        play = self.person if args.players == "human" else lambda i: self.bots_only()
        tasks = [asyncio.create_task(play(i)) for i in range(args.tables)]
        while len(self.tables) < args.tables:
            await asyncio.sleep(0.05)
        tasks += [asyncio.create_task(self.spectator(i)) for i in range(args.sockets)]
        await asyncio.sleep(args.warmup)
        for task in tasks:
            error = task.exception() if task.done() else None
            if error is not None:
                raise error
        before = await self.versions()
        self.tables.update(before)
        self.measuring = True
        began, cpu_began = time.perf_counter(), cpu_seconds(self.pid)
        await asyncio.sleep(args.seconds)
        self.measuring = False
        seconds, cpu = time.perf_counter() - began, cpu_seconds(self.pid)
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
            "sockets": args.sockets,
            "seconds": round(seconds, 2),
            "moves": moves,
            "moves_per_second": round(moves / seconds, 1),
            "person_moves_per_second": round(self.person_moves / seconds, 1),
            "latency_p50_ms": round(1000 * statistics.median(lat), 2) if lat else None,
            "latency_p99_ms": round(1000 * percentile(lat, 0.99), 2) if lat else None,
            "socket_messages_per_second": round(self.messages / seconds, 1),
            "server_cpu_ms_per_move": (
                round(1000 * (cpu - cpu_began) / moves, 2)
                if cpu is not None and cpu_began is not None and moves
                else None
            ),
            "tables_made": len(self.tables),
            "refused": self.refused,
            "failed_tasks": failed[:5],
        }


async def measure(url: str, args: argparse.Namespace, pid: int | None) -> dict[str, Any]:
    load = Load(url, args, pid)
    try:
        return await load.run()
    finally:
        await load.close()


def one_store(store: str, args: argparse.Namespace) -> dict[str, Any]:
    """Serve on ``store`` and load it; the figures."""
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="backalley-load-")))
        database = None
        if store == "postgresql":
            database = args.database
            if database is None:
                cluster = PostgresCluster().start()
                stack.callback(cluster.stop)
                database = cluster.new_database("load")
        served = Served(folder, database=database, bot_delay=args.bot_delay).start()
        stack.callback(served.stop)
        pid = served.process.pid if served.process is not None else None
        figures = asyncio.run(measure(served.url, args, pid))
        figures["store"] = store
        return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--sockets", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--stores", default="sqlite,postgresql")
    parser.add_argument("--database", help="a PostgreSQL database to use (postgresql://...)")
    parser.add_argument("--players", choices=("human", "bots"), default="human")
    parser.add_argument("--bot", default="random")
    parser.add_argument("--rules", default="gamerules")
    parser.add_argument("--bot-delay", type=float, default=0.0, metavar="SECONDS")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 500 or not 0 <= args.sockets <= 2000 or args.seconds <= 0:
        parser.error("--tables is 1 to 500, --sockets 0 to 2000, --seconds > 0")
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
        f"{args.tables} tables ({'a person and three' if args.players == 'human' else 'four'}"
        f" {args.bot} bots, {args.rules}, bot delay {args.bot_delay:g} s), "
        f"{args.sockets} spectator sockets, "
        f"{args.seconds:g} s; Python {platform.python_version()}, {platform.system()} "
        f"{platform.machine()}, {os.cpu_count()} processors (clients on the same machine)"
    )
    print(
        f"{'store':<12}{'moves/s':>10}{'persons/s':>11}{'p50 ms':>9}{'p99 ms':>9}"
        f"{'msgs/s':>9}{'cpu ms/move':>13}"
    )
    for r in results:
        p50 = "-" if r["latency_p50_ms"] is None else f"{r['latency_p50_ms']:.1f}"
        p99 = "-" if r["latency_p99_ms"] is None else f"{r['latency_p99_ms']:.1f}"
        print(
            f"{r['store']:<12}{r['moves_per_second']:>10.1f}{r['person_moves_per_second']:>11.1f}"
            f"{p50:>9}{p99:>9}{r['socket_messages_per_second']:>9.1f}"
            f"{r['server_cpu_ms_per_move'] or float('nan'):>13.2f}"
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
