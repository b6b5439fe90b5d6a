"""Real services for the server's tests and benchmark: a private PostgreSQL
cluster and ``backalley serve`` processes.

- :class:`PostgresCluster` - a cluster of its own in a temporary folder, on
  127.0.0.1 and a free port, stopped (and its folder removed) at the end.
  PostgreSQL refuses to run as root, so as root its programs run as the
  ``postgres`` user Debian's package makes (``runuser``), in a folder that
  user owns.  :func:`shared_postgres` hands one cluster to every test module
  of a session; :class:`Unavailable` says why none could be started (the
  tests skip with that message).
- :class:`Served` - ``python -m backalley serve ... --port 0`` as a
  subprocess: its address (read from the first line it prints), and
  stopping it politely or with SIGKILL.

Every wait is bounded.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import pwd
import queue
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from . import ROOT

__all__ = [
    "PostgresCluster",
    "SocketReader",
    "Served",
    "Unavailable",
    "free_port",
    "postgres_bin",
    "shared_postgres",
]

"""The project's folder (put on the served processes' import path)."""


class Unavailable(RuntimeError):
    """A service that cannot be started here, and why."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 just now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def postgres_bin() -> Path | None:
    """The folder of PostgreSQL's server programs (``initdb``, ``pg_ctl``):
    Debian's newest ``/usr/lib/postgresql/*/bin``, else the ``PATH``'s."""

    def major(path: str) -> int:
        found = re.search(r"/postgresql/(\d+)/", path)
        return int(found.group(1)) if found else 0

    debian = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=major)
    if debian:
        return Path(debian[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb and shutil.which("pg_ctl") else None


class PostgresCluster:
    """A private PostgreSQL cluster (trust authentication for the user
    ``backalley``, 127.0.0.1 only).  ``settings`` are extra server settings
    (``{"fsync": "off"}``)."""

    USER = "backalley"

    def __init__(self, settings: dict[str, str] | None = None, *, timeout: float = 120.0) -> None:
        self.settings = dict(settings or {})
        self.timeout = timeout
        self.folder: Path | None = None
        self.port = 0
        self._count = 0
        self._lock = threading.Lock()

    # -- starting and stopping ----------------------------------------------------

    def _as_owner(self, command: Sequence[str]) -> list[str]:
        if os.geteuid() == 0:
            return ["runuser", "-u", "postgres", "--", *command]
        return list(command)

    def _run(self, command: Sequence[str], what: str) -> None:
        try:
            done = subprocess.run(
                self._as_owner(command),
                capture_output=True,
                text=True,
                timeout=self.timeout,
                cwd="/",
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise Unavailable(f"PostgreSQL: {what} failed: {exc}") from None
        if done.returncode != 0:
            tail = " ".join((done.stderr or done.stdout).split())[-400:]
            raise Unavailable(f"PostgreSQL: {what} failed ({done.returncode}): {tail}")

    def start(self) -> PostgresCluster:
        """Make the cluster and start it (:class:`Unavailable` when it cannot be)."""
        programs = postgres_bin()
        if programs is None:
            raise Unavailable(
                "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb; "
                "apt-get install postgresql)"
            )
        owner: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                raise Unavailable("PostgreSQL: there is no 'postgres' user to run it") from None
            if shutil.which("runuser") is None:
                raise Unavailable("PostgreSQL: runuser is missing (to run it as 'postgres')")
        folder = Path(tempfile.mkdtemp(prefix="backalley-pg-", dir="/tmp"))
        self.folder = folder
        self._programs = programs
        try:
            if owner is not None:
                os.chown(folder, owner.pw_uid, owner.pw_gid)
            data = folder / "data"
            self._run(
                [
                    str(programs / "initdb"),
                    "-D",
                    str(data),
                    "-A",
                    "trust",
                    "-U",
                    self.USER,
                    "-E",
                    "UTF8",
                    "--locale=C",
                    "--no-sync",
                ],
                "initdb",
            )
            options = {"listen_addresses": "127.0.0.1", **self.settings}
            for attempt in range(3):
                self.port = free_port()
                words = [f"-p {self.port}", f"-k {folder}"]
                words += [f"-c {key}={value}" for key, value in options.items()]
                try:
                    self._run(
                        [
                            str(programs / "pg_ctl"),
                            "-D",
                            str(data),
                            "-o",
                            " ".join(words),
                            "-l",
                            str(folder / "log"),
                            "-w",
                            "-t",
                            str(int(self.timeout)),
                            "start",
                        ],
                        "pg_ctl start",
                    )
                    break
                except Unavailable:
                    if attempt == 2:
                        raise
        except BaseException:
            self.stop()
            raise
        atexit.register(self.stop)
        return self

    def stop(self) -> None:
        """Stop the cluster and remove its folder (once; later calls do nothing)."""
        folder, self.folder = self.folder, None
        if folder is None:
            return
        pg_ctl = str(self._programs / "pg_ctl")
        for mode in ("fast", "immediate"):
            try:
                self._run(
                    [pg_ctl, "-D", str(folder / "data"), "-m", mode, "-w", "-t", "30", "stop"],
                    "pg_ctl stop",
                )
                break
            except Unavailable:
                continue
        shutil.rmtree(folder, ignore_errors=True)

    # -- databases ------------------------------------------------------------------

    def url(self, database: str = "postgres") -> str:
        """The address of ``database`` on the cluster."""
        return f"postgresql://{self.USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self, prefix: str = "t") -> str:
        """A new empty database on the cluster; answers its address."""
        import psycopg

        with self._lock:
            self._count += 1
            name = f"{re.sub(r'[^a-z0-9_]', '_', prefix.lower())[:40]}_{self._count}"
        with psycopg.connect(self.url(), autocommit=True, connect_timeout=10) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


_SHARED: dict[str, object] = {"users": 0, "cluster": None, "why": None}
_SHARED_LOCK = threading.Lock()


@contextlib.contextmanager
def shared_postgres() -> Iterator[PostgresCluster]:
    """The session's private cluster, started on first use and stopped when
    its last user is done; :class:`Unavailable` (every time, with the
    first reason) when it cannot be started."""
    with _SHARED_LOCK:
        why = _SHARED["why"]
        if why is not None:
            raise Unavailable(str(why))
        cluster = _SHARED["cluster"]
        if cluster is None:
            try:
                cluster = PostgresCluster().start()
            except Unavailable as exc:
                _SHARED["why"] = str(exc)
                raise
            _SHARED["cluster"] = cluster
        assert isinstance(cluster, PostgresCluster)
        _SHARED["users"] = int(str(_SHARED["users"])) + 1
    try:
        yield cluster
    finally:
        with _SHARED_LOCK:
            _SHARED["users"] = int(str(_SHARED["users"])) - 1
            if _SHARED["users"] == 0:
                _SHARED["cluster"] = None
                cluster.stop()


class Served:
    """``python -m backalley serve --data DATA --port 0 --bot-delay 0 --deal-pause 0``
    (``database``: ``--database URL`` instead of SQLite) as a subprocess,
    run by this interpreter on the project's source, or by ``python`` (an
    environment's interpreter, on what is installed there).
    :meth:`start` waits for its first line and reads the address from it."""

    def __init__(
        self,
        data: Path,
        *,
        database: str | None = None,
        bot_delay: float = 0.0,
        deal_pause: float = 0.0,
        timeout: float = 30.0,
        python: Path | None = None,
        extra: Sequence[str] = (),
    ) -> None:
        self.data = Path(data)
        self.extra = tuple(extra)
        """More arguments of ``backalley serve`` (``--bot-budget 0.1``)."""
        self.python = python
        self.database = database
        self.bot_delay = bot_delay
        self.deal_pause = deal_pause
        self.timeout = timeout
        self.process: subprocess.Popen[bytes] | None = None
        self.url = ""
        self.errors = self.data / "serve-stderr.log"
        self._errors: IO[bytes] | None = None

    def start(self) -> Served:
        self.data.mkdir(parents=True, exist_ok=True)
        command = [
            str(self.python or sys.executable),
            "-m",
            "backalley",
            "serve",
            "--data",
            str(self.data),
            "--port",
            "0",
            "--bot-delay",
            str(self.bot_delay),
            "--deal-pause",
            str(self.deal_pause),
        ]
        if self.database:
            command += ["--database", self.database]
        command += self.extra
        env = dict(os.environ)
        if self.python is None:  # this interpreter, with the project's own source
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        env["PYTHONUNBUFFERED"] = "1"
        self._errors = open(self.errors, "ab")  # noqa: SIM115 - closed in wait()
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=self._errors, stdin=subprocess.DEVNULL, env=env
        )
        line = self._first_line()
        found = re.search(r"serving at (http://\S+?)/? ", line)
        if found is None:
            self.kill()
            raise RuntimeError(f"backalley serve said {line!r}; stderr: {self.stderr()}")
        self.url = found.group(1)
        return self

    def _first_line(self) -> str:
        assert self.process is not None and self.process.stdout is not None
        out = self.process.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        seen = b""
        while b"\n" not in seen:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise RuntimeError(f"backalley serve printed nothing in {self.timeout} s")
            ready, _, _ = select.select([out], [], [], left)
            if ready:
                chunk = os.read(out, 4096)
                if not chunk:
                    self.wait(5)
                    raise RuntimeError(f"backalley serve stopped: {self.stderr()}")
                seen += chunk
        return seen.decode("utf-8", "replace").splitlines()[0]

    def stderr(self) -> str:
        """What the server wrote on its standard error so far (the last lines)."""
        try:
            return self.errors.read_text("utf-8", "replace")[-2000:]
        except OSError:
            return ""

    def wait(self, timeout: float) -> int | None:
        """The exit status within ``timeout`` seconds (killed after it)."""
        if self.process is None:
            return None
        try:
            status = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait(10)
        if self.process.stdout is not None:
            self.process.stdout.close()
        if self._errors is not None:
            self._errors.close()
            self._errors = None
        return status

    def kill(self) -> None:
        """SIGKILL: the server stops at once, mid-request."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.wait(10)

    def stop(self) -> None:
        """Ctrl-C (SIGINT), as a person stops it; killed after ``timeout``."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        self.wait(self.timeout)

    def __enter__(self) -> Served:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


class SocketReader:
    """A test client's WebSocket (Starlette's test socket) read on a daemon
    thread into ``messages``, so that every wait on it is bounded (the test
    socket has no receive timeout of its own)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                message = self.ws.receive()
            except BaseException as exc:  # the session ended
                self.messages.put({"type": "reader.ended", "error": repr(exc)})
                return
            self.messages.put(message)
            if message["type"] == "websocket.close":
                return
