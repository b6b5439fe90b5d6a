"""The bot pool's worker processes are its own: a decision past the pool's
limit ends its worker and no other (the other workers' decisions in flight
are answered), :meth:`BotPool.close` leaves no worker process alive, and a
served process stopped with SIGTERM leaves no child process behind (neither
a bot worker nor multiprocessing's ``resource_tracker``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import backalley as ba
from backalley.cli.arguments import EXIT_INTERRUPTED
from backalley.server.bot_pool import BotFailed, BotPool

from .. import ROOT
from ..server_services import Served

WAIT = 20.0


def _view(seed: int = 2) -> ba.PlayerView:
    state = ba.new_game(ba.variants.get("gamerules"), seed=seed)
    assert state.to_act is not None
    return state.view(state.to_act)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _children(pid: int) -> set[int]:
    """The child processes of ``pid`` now (Linux: ``/proc/PID/task/*/children``)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found.update(int(child) for child in (task / "children").read_text().split())
        except OSError:  # a thread that ended meanwhile
            continue
    return found


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _until(check: object, what: str, seconds: float = WAIT) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(check) and check():
            return
        time.sleep(0.02)
    raise AssertionError(f"no {what} within {seconds} s")


needs_proc = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir() or sys.platform != "linux",
    reason="reads the processes from Linux's /proc",
)


# -- bots that say where they run (module level: a worker imports them) ---------------


class Runaway:
    """A bot that ignores every budget; it writes its worker's pid to ``note``
    first."""

    def __init__(self, note: Path) -> None:
        self.note = note

    def choose(self, view: ba.PlayerView) -> ba.Move:
        self.note.write_text(str(os.getpid()))
        time.sleep(60)
        return view.legal_moves()[0]


class Patient:
    """A bot that writes its worker's pid to ``note``, then decides only once
    the process whose pid is in ``other`` has ended (at most ``most`` seconds
    later): its decision is in flight while that worker is ended."""

    def __init__(self, note: Path, other: Path, most: float = 30.0) -> None:
        self.note = note
        self.other = other
        self.most = most

    def choose(self, view: ba.PlayerView) -> ba.Move:
        self.note.write_text(str(os.getpid()))
        other = int(self.other.read_text())
        deadline = time.monotonic() + self.most
        while _alive(other) and time.monotonic() < deadline:
            time.sleep(0.02)
        return view.legal_moves()[0]


class Where:
    """A quick bot that writes its worker's pid to ``note``."""

    def __init__(self, note: Path) -> None:
        self.note = note

    def choose(self, view: ba.PlayerView) -> ba.Move:
        self.note.write_text(str(os.getpid()))
        return view.legal_moves()[0]


def _kept(move: ba.Move, bot: object) -> bool:
    return True


@needs_proc
def test_a_runaway_decision_ends_its_worker_only_while_another_workers_decision_completes(
    tmp_path: Path,
) -> None:
    """Two workers: one bot runs past the pool's limit while another's
    decision is under way in the other worker.  The runaway fails and its
    worker is ended; the other decision is answered (its worker was not
    touched, and stays); the next decision gets a new worker."""
    view = _view()
    runaway, patient = tmp_path / "runaway", tmp_path / "patient"
    warm = [tmp_path / "warm1", tmp_path / "warm2"]
    moved: list[str] = []

    def commit(move: ba.Move, bot: object) -> bool:
        moved.append(str(move))
        return True

    async def run() -> tuple[int, int, set[int], set[int]]:
        pool = BotPool(2, limit=3.0)
        try:
            # both workers started (and their imports done) before the clock matters
            await asyncio.gather(
                *(pool.decide(f"w{i}", "w", Where(n), view, _kept) for i, n in enumerate(warm))
            )
            workers = {int(n.read_text()) for n in warm}
            assert len(workers) == 2
            stuck = asyncio.ensure_future(pool.decide("a", "stuck", Runaway(runaway), view, commit))
            await asyncio.to_thread(_until, runaway.exists, "runaway's start")
            await asyncio.sleep(1.0)  # its decision is a second old when the other starts
            began = time.monotonic()
            waiting = asyncio.ensure_future(
                pool.decide("b", "patient", Patient(patient, runaway), view, commit)
            )
            with pytest.raises(BotFailed) as failed:
                await stuck
            assert "no decision within 3 s" in failed.value.detail
            assert await waiting  # answered, after the runaway's worker ended
            took = time.monotonic() - began
            assert took < 3.0, took  # within its own limit
            after = tmp_path / "after"
            assert await pool.decide("a", "next", Where(after), view, _kept)
            return (
                int(runaway.read_text()),
                int(patient.read_text()),
                workers,
                {int(after.read_text())},
            )
        finally:
            pool.close()

    ended, kept, workers, next_worker = asyncio.run(run())
    assert {ended, kept} == workers
    assert not _alive(ended)
    assert next_worker.isdisjoint({ended})  # a new worker, or the one kept
    assert len(moved) == 1
    assert not _alive(kept)  # closed with the pool


@needs_proc
def test_after_close_no_worker_process_is_alive(tmp_path: Path) -> None:
    """close() ends every worker, the idle ones and one mid-decision (whose
    waiter is cancelled); the pool then starts new workers when used again."""
    view = _view()
    notes = [tmp_path / "one", tmp_path / "two"]
    busy = tmp_path / "busy"

    async def run() -> tuple[set[int], int, int]:
        pool = BotPool(3, limit=30.0)
        await asyncio.gather(
            *(pool.decide(f"o{i}", "t", Where(n), view, _kept) for i, n in enumerate(notes))
        )
        stuck = asyncio.ensure_future(pool.decide("a", "stuck", Runaway(busy), view, _kept))
        await asyncio.to_thread(_until, busy.exists, "runaway's start")
        idle = {int(n.read_text()) for n in notes}
        running = int(busy.read_text())
        assert all(_alive(pid) for pid in {*idle, running})
        pool.close()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(stuck, 10)
        again = tmp_path / "again"
        try:
            assert await pool.decide("a", "t", Where(again), view, _kept)
        finally:
            pool.close()
        return idle, running, int(again.read_text())

    began = time.monotonic()
    idle, running, again = asyncio.run(run())
    assert time.monotonic() - began < 20
    assert not any(_alive(pid) for pid in {*idle, running, again})
    assert again not in {*idle, running}


@needs_proc
def test_sigterm_leaves_no_bot_worker_or_resource_tracker_running(tmp_path: Path) -> None:
    """``backalley serve`` with a bot worker, whose table of bots has started
    it, stopped with SIGTERM: it shuts down as on Ctrl-C, and once it has
    exited none of its child processes is left running."""
    served = Served(tmp_path / "data", extra=["--bot-workers", "1"]).start()
    assert served.process is not None
    pid = served.process.pid
    seen: set[int] = set()
    try:
        request = urllib.request.Request(
            served.url + "/api/tables",
            data=json.dumps({"rules": "gamerules", "seats": ["random"] * 4}).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=WAIT) as answer:
            assert answer.status == 201

        def worker_started() -> bool:
            seen.update(_children(pid))
            return any("spawn_main" in _command(child) for child in seen)

        _until(worker_started, "bot worker process")
        seen.update(_children(pid))
        served.process.send_signal(signal.SIGTERM)
        status = served.wait(WAIT)
    finally:
        served.kill()
    with contextlib.suppress(AssertionError):  # the children left are said below
        _until(lambda: not any(_alive(child) for child in seen), "end of the children", 10)
    left = {child: _command(child) for child in seen if _alive(child)}
    for child in left:
        os.kill(child, signal.SIGKILL)
    assert not left, left
    # stopped as by Ctrl-C (its store closed, the interpreter's cleanup run)
    assert status == EXIT_INTERRUPTED, served.stderr()
    assert "Traceback" not in served.stderr(), served.stderr()


# -- nothing outlives the process that started it -----------------------------------

_FORGETFUL = """
import asyncio, sys
import backalley as ba
from backalley.server.bot_pool import BotPool
from tests.server.test_server_bot_pool_workers import Runaway, Where, _kept, _view
from pathlib import Path

async def main() -> None:
    pool = BotPool(2, limit=60.0)
    folder = Path(sys.argv[1])
    await pool.decide("a", "t", Where(folder / "idle"), _view(), _kept)
    if sys.argv[2] == "busy":  # killed while a worker decides
        asyncio.ensure_future(pool.decide("b", "u", Runaway(folder / "busy"), _view(), _kept))
        await asyncio.sleep(600)
    # else: the pool is never closed (a test that forgets), and the interpreter exits

asyncio.run(main())
"""


def _marked(mark: str) -> dict[int, str]:
    """The processes whose environment holds ``mark`` (every process a run
    started inherits it, spawned workers and multiprocessing's helpers too)."""
    found = {}
    needle = f"BACKALLEY_TEST_RUN={mark}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:  # ended meanwhile, or not ours to read
            continue
        if needle in environ.split(b"\0") and _alive(int(entry.name)):
            found[int(entry.name)] = _command(int(entry.name))
    return found


@needs_proc
@pytest.mark.parametrize("how", ["exits-without-closing", "killed-mid-decision"])
def test_no_bot_worker_outlives_the_process_that_started_it(tmp_path: Path, how: str) -> None:
    """A process whose bot pool is never closed (it exits), or that is killed
    (SIGKILL) while a worker decides, leaves no worker process and no
    multiprocessing helper behind: a test run leaves none."""
    import subprocess
    import uuid

    mark = uuid.uuid4().hex
    root = ROOT
    env = {**os.environ, "BACKALLEY_TEST_RUN": mark, "PYTHONPATH": str(root)}
    argv = [sys.executable, "-c", _FORGETFUL, str(tmp_path), "idle" if how[0] == "e" else "busy"]
    child = subprocess.Popen(argv, cwd=root, env=env, stderr=subprocess.PIPE)
    try:
        if how == "killed-mid-decision":
            _until(lambda: (tmp_path / "busy").exists(), "the runaway's start")
            assert len(_marked(mark)) >= 3  # the process and its two workers
            child.kill()
        status = child.wait(WAIT)
    finally:
        child.kill()
        child.wait()
    assert status == (0 if how == "exits-without-closing" else -signal.SIGKILL), child.stderr
    with contextlib.suppress(AssertionError):  # what is left is said below
        _until(lambda: not _marked(mark), "end of the workers", 10)
    left = _marked(mark)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, left
