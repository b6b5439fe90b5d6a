"""The table server under load: moves a second and move latency, on SQLite
and on PostgreSQL, with one server process or several sharing the store
(the table in docs/performance.rst).

    python3 benchmarks/server_load.py [--tables N[,N...]] [--sockets M] [--seconds S]
                                      [--stores sqlite,postgresql] [--database URL]
                                      [--processes N[,N...]] [--routing sticky,random]
                                      [--players human|bots] [--bot NAME] [--bot-delay S]
                                      [--rules NAME] [--warmup S] [--json FILE]

Each store gets ``--processes`` ``backalley serve --port 0 --bot-delay S``
processes (SQLite in a temporary folder, always one process; PostgreSQL on a
private cluster this script starts through ``tests/server_services.py``, a
new database a run, or the database ``--database`` names), all on the same
store.  On them, ``--tables`` tables play at once, each three ``--bot``
bots and, with ``--players human`` (the default), a scripted person at seat
0: a client that listens on the seat's WebSocket and, whenever the view says
seat 0 is to act, POSTs a legal move (with a client move id).  With
``--players bots`` all four seats are bots.  A table whose game ends is
replaced by a new one.  With ``--bot-delay 0`` (the default) the bots move
as fast as the server lets them, so the server is always busy: the figures
are its most moves a second, and a person's move waits its turn behind the
bots' (``--bot-delay 0.4``, the server's own default, paces them as for
people: use it for a person's latency).  ``--sockets`` more WebSockets
watch the tables as spectators (spectator ``i`` the ``i % tables``-th
table, following it to the next game).  Everything is on loopback,
clients and server on the same machine (so they share its processors).

Which process a request goes to (``--routing``, with more than one):

- ``sticky`` (the default): a table's clients all go to one process, chosen
  by the table (its place in the run): its making, its person's join,
  socket and POSTs; its spectators go to the other processes, in turn;
- ``random``: every request (each POST, each socket) to a process chosen at
  random; a spectator's socket to a process other than the one the table's
  person's socket is on.

``--tables``, ``--processes`` and ``--routing`` take comma-separated lists:
every combination is run (a process's routing is just ``sticky``), one
after another, on one PostgreSQL cluster.

After ``--warmup`` seconds the clock runs for ``--seconds``; reported per
run: the moves the server stored a second (persons' and bots': every
table's version read at once before and after, the moves between them over
the time between the middles of the two reads, since on a loaded server the
reads take a while and the bots go on moving), the persons' moves a second, the latency of a person's move (the
POST until its 200 answer: checked, committed, pushed to the sockets of the
process) as median and 99th percentile, and with more than one process the
latency **across processes**: for each move the script POSTs to a table
that has a spectator's socket on another process, the POST's start until
such a socket receives that version (or a later one; PostgreSQL's
LISTEN/NOTIFY carries it there), median, 99th percentile and most, and how
many moves were measured and how many such sockets never received (in the
window, less its last second).  Also the messages the sockets received a
second, the bots' decisions each process made, the CPU time of the server
processes (each ``serve`` process and its children, the bot workers: Linux's
/proc) per stored move, of PostgreSQL's (a private cluster's) and of this
script's, and any refused or failed request.  The server's CPU per move is
also given as a multiple of the library's own cost of a move, measured
first in this process on a few random games of the same rules: ``apply``
plus ``view`` for every seat plus ``to_json`` of one view.  The clients'
times include their own event loop's delays (one process of asyncio).
Not a test: run it on purpose.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import platform
import random
import signal
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # measure this working tree's server

import httpx  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

import backalley as ba  # noqa: E402
from backalley.rules.seats import seat_names  # noqa: E402
from tests.server_services import PostgresCluster, Served, Unavailable  # noqa: E402

SOURCES = tuple(f"127.0.0.{n}" for n in range(2, 40))
"""Client addresses tables are made and sockets opened from: a server lets
one address make 20 tables at once, then one a second, and hold 64 sockets
of each kind (all of 127.0.0.0/8 is this machine)."""

ROUTINGS = ("sticky", "random")


@dataclass(frozen=True)
class Run:
    """One measurement: a store, a number of tables, of server processes, a routing."""

    store: str
    tables: int
    processes: int
    routing: str


@dataclass
class Probe:
    """A move the script POSTed to ``process``, until a spectator's socket
    on another process receives ``version`` (the table's version after it)."""

    table: str
    version: int
    began: float
    process: int
    done: bool = False


def tree_cpu(pids: Iterable[int]) -> float | None:
    """The CPU seconds processes ``pids`` and every descendant of theirs have
    used, with their children already ended (Linux's /proc; ``None`` elsewhere)."""
    parents: dict[int, int] = {}
    used: dict[int, int] = {}
    try:
        entries = list(Path("/proc").iterdir())
    except OSError:
        return None
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # ended meanwhile
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        used[pid] = sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    tree = {pid for pid in pids if pid in used}
    if not tree:
        return None
    grown = True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grown = bool(more)
    return sum(used[pid] for pid in tree) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (``share`` from 0 to 1)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, min(len(ordered), int(-(-share * len(ordered) // 1))))
    return ordered[rank - 1]


def ms(value: float | None) -> float | None:
    return None if value is None else round(1000 * value, 2)


def library_cost(rules_name: str, games: int = 3, most: int = 3000) -> float:
    """The mean CPU seconds, in this process, of what the server asks of the
    library for one move: ``state.apply(move)``, ``state.view(seat)`` for
    every seat and ``backalley.to_json`` of one view, over a few random games
    of ``rules_name`` (at most ``most`` moves)."""
    rules = ba.variants.get(rules_name)
    seats = range(len(seat_names(rules)))
    ba.to_json(ba.new_game(rules, seed=0).view(0))  # the first use loads the views
    spent, moves = 0, 0
    for seed in range(games):
        rng = random.Random(seed)
        state = ba.new_game(rules, seed=seed)
        while not state.is_over and moves < most:
            move = rng.choice(state.legal_moves())
            began = time.process_time_ns()
            state = state.apply(move)
            views = [state.view(seat) for seat in seats]
            ba.to_json(views[0])
            spent += time.process_time_ns() - began
            moves += 1
    return spent / moves / 1e9


class Load:
    """One run against the processes of one store: tables, clients, counts."""

    def __init__(self, urls: list[str], run: Run, args: argparse.Namespace) -> None:
        self.urls = urls
        self.wss = [url.replace("http://", "ws://", 1) for url in urls]
        self.run_ = run
        self.args = args
        self.rng = random.Random(0)
        self.seats = ["human" if args.players == "human" else args.bot] + [args.bot] * 3
        self.measuring = False
        self.stopping = False
        self.latencies: list[float] = []
        self.person_moves = 0
        self.messages = 0
        self.refused: dict[str, int] = {}
        self.tables: dict[str, int] = {}
        """table -> its version when the clock started (0 for later tables)."""
        self.current: dict[int, str] = {}
        """slot -> the table played there now."""
        self.homes: dict[str, int] = {}
        """table -> the process its person's socket is on."""
        self.watchers: dict[str, Counter[int]] = {}
        """table -> process -> spectators' sockets open on it there."""
        self.probes: dict[str, list[Probe]] = {}
        self.all_probes: list[Probe] = []
        self.across: list[float] = []
        """Seconds from a POST until a spectator on another process had the move."""
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
            limits=httpx.Limits(max_connections=run.tables + 10 * len(urls)),
        )

    def refuse(self, what: str) -> None:
        self.refused[what] = self.refused.get(what, 0) + 1

    async def close(self) -> None:
        for client in [self.http, *self._clients.values()]:
            await client.aclose()

    # -- routing -------------------------------------------------------------

    def process(self, slot: int) -> int:
        """The process of a request for the table at ``slot``."""
        if self.run_.routing == "sticky":
            return slot % len(self.urls)
        return self.rng.randrange(len(self.urls))

    def spectator_process(self, table: str, slot: int, index: int) -> int:
        """The process of the ``index``-th spectator of ``table``: another than
        its person's socket's, when there are others."""
        count, home = len(self.urls), self.homes.get(table, slot % len(self.urls))
        if count == 1:
            return 0
        if self.run_.routing == "sticky":
            return (home + 1 + index % (count - 1)) % count
        return self.rng.choice([p for p in range(count) if p != home])

    @staticmethod
    def local(slot: int) -> dict[str, Any]:
        """A socket's client address (64 sockets of a kind a server takes from one)."""
        return {"local_addr": (SOURCES[slot % len(SOURCES)], 0)}

    # -- the spectators across processes -------------------------------------

    def probe(self, table: str, version: int, process: int) -> Probe | None:
        """Time the move POSTed now to ``process`` that makes ``table``
        ``version``, when a spectator's socket on another process watches it."""
        if not self.measuring or not any(
            p != process and n for p, n in self.watchers.get(table, Counter()).items()
        ):
            return None
        found = Probe(table, version, time.perf_counter(), process)
        self.probes.setdefault(table, []).append(found)
        self.all_probes.append(found)
        return found

    def heard(self, table: str, process: int, version: int) -> None:
        """A spectator's socket on ``process`` received ``version`` of ``table``."""
        waiting = self.probes.get(table)
        if not waiting:
            return
        now = time.perf_counter()
        for found in waiting:
            if not found.done and found.version <= version and found.process != process:
                found.done = True
                self.across.append(now - found.began)
        self.probes[table] = [found for found in waiting if not found.done]

    # -- the clients -----------------------------------------------------------

    async def new_table(self, slot: int) -> tuple[str, str | None, int]:
        """A new table for ``slot`` (and seat 0's token when a person plays
        it) and the process its person's socket goes to."""
        while True:
            client = self._clients[SOURCES[self._made % len(SOURCES)]]
            self._made += 1
            made = await client.post(
                f"{self.urls[self.process(slot)]}/api/tables",
                json={"rules": self.args.rules, "seats": self.seats},
            )
            if made.status_code == 429:
                continue  # the next address
            made.raise_for_status()
            table = str(made.json()["table"])
            self.tables[table] = 0
            home = self.process(slot)
            self.homes[table] = home
            if self.seats[0] != "human":
                return table, None, home
            joined = await client.post(
                f"{self.urls[self.process(slot)]}/api/tables/{table}/seats/0/join"
            )
            joined.raise_for_status()
            return table, str(joined.json()["token"]), home

    async def person(self, slot: int) -> None:
        """Seat 0 of a table after another: moves whenever its view says so."""
        rng = random.Random(slot)
        while not self.stopping:
            table, token, home = await self.new_table(slot)
            assert token is not None
            self.current[slot] = table
            headers = {"Authorization": f"Bearer {token}"}
            async with connect(
                f"{self.wss[home]}/api/tables/{table}/seats/0/socket", **self.local(slot)
            ) as socket:
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
                        process = self.process(slot)
                        probe = self.probe(table, moved_at + 1, process)
                        began = time.perf_counter()
                        sent = await self.http.post(
                            f"{self.urls[process]}/api/tables/{table}/seats/0/moves",
                            json=body,
                            headers=headers,
                        )
                        took = time.perf_counter() - began
                        if probe is not None and (
                            sent.status_code != 200 or sent.json()["number"] != moved_at
                        ):
                            probe.done = True  # not this version's move: not timed
                        if sent.status_code == 200:
                            if self.measuring:
                                self.latencies.append(took)
                                self.person_moves += 1
                            break
                        self.refuse(f"move {sent.status_code}")
                        if sent.status_code != 429:
                            break
                        await asyncio.sleep(float(sent.headers.get("retry-after", "1")))

    async def bots_only(self, slot: int) -> None:
        """A table of four bots after another (the server plays them)."""
        while not self.stopping:
            table, _, home = await self.new_table(slot)
            self.current[slot] = table
            while not self.stopping:
                await asyncio.sleep(0.5)
                summary = await self.http.get(f"{self.urls[home]}/api/tables/{table}")
                if summary.json()["over"]:
                    break

    async def spectator(self, index: int) -> None:
        """A spectator's socket on the ``index % tables``-th table (the next
        table there when its game is over), counting what it receives."""
        slot, nth = index % self.run_.tables, index // self.run_.tables
        watched: str | None = None
        while not self.stopping:
            table = self.current.get(slot)
            if table is None or table == watched:
                await asyncio.sleep(0.05)
                continue
            watched = table
            process = self.spectator_process(table, slot, nth)
            watching = self.watchers.setdefault(table, Counter())
            counted = False
            try:
                async with connect(
                    f"{self.wss[process]}/api/tables/{table}/socket", **self.local(index)
                ) as socket:
                    async for text in socket:
                        message = json.loads(text)
                        if message.get("type") != "public":
                            self.refuse(f"spectator {message.get('error')}")
                            break
                        if not counted:
                            watching[process] += 1
                            counted = True
                        self.heard(table, process, int(message["version"]))
                        if self.measuring:
                            self.messages += 1
                        if message["public"].get("phase") == "game-over":
                            break
            finally:
                if counted:
                    watching[process] -= 1

    # -- the run -----------------------------------------------------------------

    async def versions(self) -> dict[str, int]:
        async def one(table: str) -> tuple[str, int]:
            got = await self.http.get(f"{self.urls[self.homes.get(table, 0)]}/api/tables/{table}")
            return table, int(got.json()["version"])

        return dict(await asyncio.gather(*(one(t) for t in list(self.tables))))

    async def health(self) -> list[dict[str, Any]]:
        answers = await asyncio.gather(*(self.http.get(f"{url}/api/health") for url in self.urls))
        return [answer.json() for answer in answers]

    async def listening(self, timeout: float = 30.0) -> None:
        """Wait until every process hears the others' moves (PostgreSQL)."""
        deadline = time.monotonic() + timeout
        while not all(found["listening"] for found in await self.health()):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server processes do not all listen after {timeout} s")
            await asyncio.sleep(0.2)

    @staticmethod
    def raise_failed(tasks: list[asyncio.Task[Any]]) -> None:
        """Raise the error of a client that failed (so the run stops)."""
        for task in tasks:
            error = task.exception() if task.done() else None
            if error is not None:
                raise error

    async def run(self, pids: list[int], postgres: list[int]) -> dict[str, Any]:
        args, run = self.args, self.run_
        if run.store == "postgresql":
            await self.listening()
        play: Callable[[int], Any] = self.person if args.players == "human" else self.bots_only
        tasks = [asyncio.create_task(play(i)) for i in range(run.tables)]
        while len(self.tables) < run.tables:
            self.raise_failed(tasks)
            await asyncio.sleep(0.05)
        tasks += [asyncio.create_task(self.spectator(i)) for i in range(args.sockets)]
        await asyncio.sleep(args.warmup)
        self.raise_failed(tasks)
        # the tables' versions are read at once, and the moves counted between
        # the middles of the two reads (on a loaded server a read of every
        # table takes a while, during which the bots go on moving)
        reading = time.perf_counter()
        before, decided = await asyncio.gather(self.versions(), self.health())
        start = (reading + time.perf_counter()) / 2
        self.tables.update(before)
        self.measuring = True
        began, client_began = time.perf_counter(), time.process_time()
        cpu_began, pg_began = tree_cpu(pids), tree_cpu(postgres)
        await asyncio.sleep(args.seconds)
        self.measuring = False
        seconds = time.perf_counter() - began
        cpu, pg = tree_cpu(pids), tree_cpu(postgres)
        client = time.process_time() - client_began
        reading = time.perf_counter()
        after, health = await asyncio.gather(self.versions(), self.health())
        counted = (reading + time.perf_counter()) / 2 - start
        decided = [
            found["bot_decisions"] - old["bot_decisions"]
            for found, old in zip(health, decided, strict=True)
        ]
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
        lat, across = self.latencies, self.across
        late = began + seconds - 1.0
        unheard = sum(1 for p in self.all_probes if not p.done and p.began < late)

        def per_move(used: float | None, start: float | None) -> float | None:
            """CPU seconds a second of the window over moves a second stored."""
            if used is None or start is None or not moves:
                return None
            return (used - start) / seconds / (moves / counted)

        server_cpu = per_move(cpu, cpu_began)
        return {
            "store": run.store,
            "processes": run.processes,
            "routing": run.routing if run.processes > 1 else None,
            "tables": run.tables,
            "sockets": args.sockets,
            "seconds": round(seconds, 2),
            "moves": moves,
            "moves_seconds": round(counted, 2),
            "moves_per_second": round(moves / counted, 1),
            "person_moves_per_second": round(self.person_moves / seconds, 1),
            "latency_p50_ms": ms(statistics.median(lat)) if lat else None,
            "latency_p99_ms": ms(percentile(lat, 0.99)) if lat else None,
            "across_p50_ms": ms(statistics.median(across)) if across else None,
            "across_p99_ms": ms(percentile(across, 0.99)) if across else None,
            "across_max_ms": ms(max(across)) if across else None,
            "across_moves": len(across),
            "across_unheard": unheard,
            "socket_messages_per_second": round(self.messages / seconds, 1),
            "bot_decisions": decided,
            "server_cpu_ms_per_move": ms(server_cpu),
            "library_ms_per_move": ms(args.library),
            "cpu_multiple": round(server_cpu / args.library, 1) if server_cpu else None,
            "postgres_cpu_ms_per_move": ms(per_move(pg, pg_began)),
            "client_cpu_ms_per_move": ms(per_move(client, 0.0)),
            "tables_made": len(self.tables),
            "refused": self.refused,
            "failed_tasks": failed[:5],
        }


async def measure(
    urls: list[str], run: Run, args: argparse.Namespace, pids: list[int], postgres: list[int]
) -> dict[str, Any]:
    load = Load(urls, run, args)
    try:
        return await load.run(pids, postgres)
    finally:
        await load.close()


def postmaster(cluster: PostgresCluster | None) -> list[int]:
    """The private cluster's server process (its backends are its children)."""
    if cluster is None or cluster.folder is None:
        return []
    with contextlib.suppress(OSError, ValueError, IndexError):
        return [int((cluster.folder / "data" / "postmaster.pid").read_text().split()[0])]
    return []


def one_run(
    run: Run, args: argparse.Namespace, cluster: Callable[[], PostgresCluster]
) -> dict[str, Any]:
    """Serve ``run``'s processes on its store and load them; the figures."""
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="backalley-load-")))
        database, postgres = None, []
        if run.store == "postgresql":
            database = args.database
            if database is None:
                shared = cluster()
                database = shared.new_database("load")
                postgres = postmaster(shared)
        served: list[Served] = []

        def stop() -> None:  # all at once, then each waited for
            for one in served:
                if one.process is not None and one.process.poll() is None:
                    one.process.send_signal(signal.SIGINT)  # as Served.stop
            for one in served:
                one.wait(one.timeout)

        stack.callback(stop)
        for index in range(run.processes):
            served.append(
                Served(folder / f"p{index}", database=database, bot_delay=args.bot_delay).start()
            )
        pids = [one.process.pid for one in served if one.process is not None]
        return asyncio.run(measure([one.url for one in served], run, args, pids, postgres))


def numbers(text: str) -> list[int]:
    return [int(word) for word in text.split(",") if word.strip()]


def words(text: str) -> list[str]:
    return [word.strip() for word in text.split(",") if word.strip()]


def runs(args: argparse.Namespace, stores: list[str]) -> list[Run]:
    """Every combination asked for, once (SQLite is one process; the routing
    of one process is ``sticky``)."""
    found: list[Run] = []
    for store, tables, processes, routing in itertools.product(
        stores, args.tables, args.processes, args.routing
    ):
        if store == "sqlite":
            processes = 1
        one = Run(store, tables, processes, routing if processes > 1 else "sticky")
        if one not in found:
            found.append(one)
    return found


def show(value: float | None, width: int, digits: int = 1) -> str:
    return f"{'-' if value is None else f'{value:.{digits}f}':>{width}}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=numbers, default=[20], help="N[,N...]")
    parser.add_argument("--sockets", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--stores", default="sqlite,postgresql")
    parser.add_argument("--database", help="a PostgreSQL database to use (postgresql://...)")
    parser.add_argument("--processes", type=numbers, default=[1], help="N[,N...] (PostgreSQL)")
    parser.add_argument("--routing", type=words, default=["sticky"], help="sticky and/or random")
    parser.add_argument("--players", choices=("human", "bots"), default="human")
    parser.add_argument("--bot", default="random")
    parser.add_argument("--rules", default="gamerules")
    parser.add_argument("--bot-delay", type=float, default=0.0, metavar="SECONDS")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    if (
        not args.tables
        or not all(1 <= n <= 500 for n in args.tables)
        or not 0 <= args.sockets <= 2000
        or args.seconds <= 0
    ):
        parser.error("--tables is 1 to 500, --sockets 0 to 2000, --seconds > 0")
    if not args.processes or not all(1 <= n <= 16 for n in args.processes):
        parser.error("--processes is 1 to 16")
    if not args.routing or set(args.routing) - set(ROUTINGS):
        parser.error("--routing lists sticky and/or random")
    stores = words(args.stores)
    if not stores or set(stores) - {"sqlite", "postgresql"}:
        parser.error("--stores lists sqlite and/or postgresql")
    args.library = library_cost(args.rules)
    print(
        f"the library's apply + {len(seat_names(ba.variants.get(args.rules)))} views + to_json: "
        f"{1000 * args.library:.3f} ms CPU a move ({args.rules})",
        flush=True,
    )
    results = []
    with contextlib.ExitStack() as stack:
        clusters: list[PostgresCluster] = []

        def cluster() -> PostgresCluster:
            if not clusters:
                clusters.append(PostgresCluster().start())
                stack.callback(clusters[0].stop)
            return clusters[0]

        for run in runs(args, stores):
            try:
                figures = one_run(run, args, cluster)
            except Unavailable as exc:
                print(f"{run.store}: skipped, {exc}", file=sys.stderr)
                continue
            results.append(figures)
            print(json.dumps(figures), flush=True)
    print()
    print(
        f"{'a person and three' if args.players == 'human' else 'four'} {args.bot} bots a table"
        f" ({args.rules}, bot delay {args.bot_delay:g} s), {args.sockets} spectator sockets, "
        f"{args.seconds:g} s; Python {platform.python_version()}, {platform.system()} "
        f"{platform.machine()}, {os.cpu_count()} processors (clients on the same machine); "
        f"the library's apply + views {1000 * args.library:.3f} ms a move"
    )
    print(
        f"{'store':<11}{'procs':>6}{'routing':>8}{'tables':>7}{'moves/s':>9}{'persons/s':>10}"
        f"{'p50 ms':>8}{'p99 ms':>8}{'across p50':>11}{'p99':>7}{'max':>7}{'msgs/s':>8}"
        f"{'cpu ms/move':>12}{'x lib':>7}{'pg ms/move':>11}"
    )
    for r in results:
        print(
            f"{r['store']:<11}{r['processes']:>6}{r['routing'] or '-':>8}{r['tables']:>7}"
            f"{r['moves_per_second']:>9.1f}{r['person_moves_per_second']:>10.1f}"
            f"{show(r['latency_p50_ms'], 8)}{show(r['latency_p99_ms'], 8)}"
            f"{show(r['across_p50_ms'], 11)}{show(r['across_p99_ms'], 7)}"
            f"{show(r['across_max_ms'], 7)}{r['socket_messages_per_second']:>8.1f}"
            f"{show(r['server_cpu_ms_per_move'], 12, 2)}{show(r['cpu_multiple'], 7)}"
            f"{show(r['postgres_cpu_ms_per_move'], 11, 2)}"
        )
    for r in results:
        if r["cpu_multiple"] is not None:
            print(
                f"{r['store']} {r['processes']} {r['routing'] or ''} {r['tables']} tables: "
                f"CPU per move = {r['cpu_multiple']:g} \N{MULTIPLICATION SIGN} the library's apply + views"
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
