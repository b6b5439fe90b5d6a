"""Where the server's bots think: a bounded pool apart from the requests.

A bot's decision can take a good part of a second of CPU (``pimc``,
``montecarlo``).  Made on the threads that answer requests, a few busy
tables would hold the interpreter (and every request thread) for seconds.
So the server hands each decision to a :class:`BotPool`:

- ``workers`` processes (``ServerSettings.bot_workers``) make the decisions,
  each in its own interpreter: a request is never queued behind a bot.  With
  ``workers=0`` one thread of the server's process makes them instead (for
  tests, and platforms without processes); the requests then share the
  interpreter with it, but never wait for a free request thread.
- Each decision is bounded: the bot is made with the server's CPU
  ``budget`` a decision (:func:`budgeted_bot`: every bot whose class takes a
  ``budget`` keyword, such as ``pimc`` and ``montecarlo``, is given the
  smaller of its own and the server's).  A decision in a process that takes
  more than the pool's ``limit`` of wall-clock seconds (a bot that ignores
  budgets) has its worker stopped, and that bot fails.  A process's CPU time is the
  decision's alone; a thread's budget counts the whole process's CPU, so it
  only runs out sooner.
- The decisions waiting take turns fairly: one queue per client address (the
  address that made the table), served round robin, and within it the
  tables in the order they asked.  A table asks for one decision at a time,
  so an address with twenty tables of bots gets one decision in turn with
  an address with one table, never its twenty tables' whole runs first.

A decision is sent to a process as the pickled bot and the seat's view; the
process answers the move (as text).  A bot keeps nothing from one decision
to the next: the server makes each seat's bot afresh for every decision.  The processes are shared by every
pool of one size in the interpreter and started on first use, with the
``spawn`` method (a fork of a server's threads could inherit a held lock).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import inspect
import logging
import multiprocessing
import signal
import threading
import traceback
from collections import deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import attrs

import backalley as ba
from backalley.bots import Bot, make_bot

__all__ = ["BotFailed", "BotPool", "budgeted_bot"]

_log = logging.getLogger(__name__)


class BotFailed(Exception):
    """The bot itself failed while deciding (its error, formatted where it
    happened, is in ``detail``: the log keeps it, the table does not)."""

    def __init__(self, detail: str) -> None:
        super().__init__("the bot failed while deciding")
        self.detail = detail


def _takes_budget(kind: type) -> bool:
    try:
        return "budget" in inspect.signature(kind).parameters
    except (TypeError, ValueError):  # a class whose signature cannot be read
        return False


def budgeted_bot(name: str, seed: object, budget: float | None) -> Bot:
    """The bot ``name`` made from ``seed`` with at most ``budget`` seconds of
    CPU a decision: a bot whose class takes a ``budget`` keyword is made
    again with the smaller of its own budget and ``budget``; other bots (the
    quick ones: ``random``, ``heuristic``) as :func:`~backalley.bots.make_bot`
    makes them."""
    bot = make_bot(name, seed)
    if budget is None or not _takes_budget(type(bot)):
        return bot
    own = getattr(bot, "budget", None)
    if isinstance(own, (int, float)) and not isinstance(own, bool) and own <= budget:
        return bot
    try:
        return type(bot)(seed, budget=budget)  # type: ignore[call-arg]
    except (TypeError, ba.SetupError):  # a class that takes it otherwise: its own bot
        return bot


def _decide(bot: Bot, view: ba.PlayerView) -> tuple[str, str | None]:
    """In the worker: the bot's move (as text), or the formatted failure of
    the bot (the bot itself does not come back: the server makes a fresh one
    for the next decision)."""
    try:
        move = bot.choose(view)
    except Exception:  # any error of the bot's own: reported, the worker goes on
        return "", traceback.format_exc(limit=20)
    return str(move), None


Commit = Callable[[ba.Move, Bot], bool]
"""What is done with a decision: the move and the bot after deciding;
answers whether the table moved on."""


def _decide_and_commit(bot: Bot, view: ba.PlayerView, commit: Commit) -> tuple[str | None, bool]:
    """On the pool's thread: the decision and its commit in one go (a move
    decided is stored even when whoever waits for it is gone)."""
    text, failed = _decide(bot, view)
    if failed is not None:
        return failed, False
    return None, commit(ba.parse_move(text), bot)


def _warm() -> None:
    """A worker's start: Ctrl-C is left to the server (which stops its
    workers itself, without a traceback from each), and the library and its
    bots are imported once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import backalley.bots.pimc  # noqa: F401  (the slowest import, paid at start)


_SHARED: dict[int, concurrent.futures.ProcessPoolExecutor] = {}
_SHARED_LOCK = threading.Lock()


def _processes(workers: int, *, broken: concurrent.futures.Executor | None = None) -> Any:
    """The shared pool of ``workers`` processes (a new one in place of
    ``broken``, a pool whose process died)."""
    with _SHARED_LOCK:
        found = _SHARED.get(workers)
        if found is not None and found is broken:
            found.shutdown(wait=False, cancel_futures=True)
            found = None
        if found is None:
            found = concurrent.futures.ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm,
            )
            _SHARED[workers] = found
        return found


def _stop(executor: concurrent.futures.Executor) -> None:
    """Kill the processes of ``executor`` (the other decisions under way
    there are made again on the new pool)."""
    processes = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(Exception):
            process.kill()


@attrs.define
class _Job:
    table: str
    bot: Bot
    view: ba.PlayerView
    commit: Commit
    done: asyncio.Future[bool]


class BotPool:
    """Bot decisions made apart from the requests, ``workers`` at a time
    (``workers=0``: one thread), taking turns between client addresses."""

    def __init__(self, workers: int, *, limit: float | None = None) -> None:
        self.workers = workers
        self.limit = limit
        """Wall-clock seconds a decision in a worker process may take: past
        them the pool's processes are stopped and started again, and the
        decision fails (:class:`BotFailed`); ``None``: no limit.  A bot that
        honours its budget never comes near it."""
        self._slots = max(1, workers)
        self._busy = 0
        self._queues: dict[str, deque[_Job]] = {}
        self._turns: deque[str] = deque()
        self._thread: concurrent.futures.ThreadPoolExecutor | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.decided = 0
        """Decisions made (for the soak test's figures)."""

    def waiting(self) -> int:
        """Decisions waiting for a worker now."""
        return sum(len(q) for q in self._queues.values())

    async def decide(
        self, owner: str, table: str, bot: Bot, view: ba.PlayerView, commit: Commit
    ) -> bool:
        """``bot``'s move for ``view``, when this table's turn comes, handed
        to ``commit`` with the bot (on a thread: ``commit`` may block);
        answers what ``commit`` answers.
        :class:`BotFailed` when the bot fails."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # an application started again in a new loop:
            self._loop = loop  # what the old one was doing ended with it
            self._busy = 0
            self._queues.clear()
            self._turns.clear()
        done: asyncio.Future[bool] = loop.create_future()
        queue = self._queues.get(owner)
        if queue is None:
            queue = self._queues[owner] = deque()
            self._turns.append(owner)
        queue.append(_Job(table, bot, view, commit, done))
        self._dispatch()
        return await done

    def _next(self) -> _Job | None:
        """The next job, round robin between the owners."""
        while self._turns:
            owner = self._turns.popleft()
            queue = self._queues[owner]
            while queue:
                job = queue.popleft()
                if not job.done.cancelled():
                    break
            else:
                del self._queues[owner]
                continue
            if queue:
                self._turns.append(owner)  # its next job after the others' turns
            else:
                del self._queues[owner]
            return job
        return None

    def _dispatch(self) -> None:
        while self._busy < self._slots:
            job = self._next()
            if job is None:
                return
            self._busy += 1
            asyncio.get_running_loop().create_task(self._run(job))

    async def _run(self, job: _Job) -> None:
        try:
            result = await self._call(job)
        except asyncio.CancelledError:
            job.done.cancel()
            raise
        except Exception as exc:  # handed to the one who waits
            if not job.done.done():
                job.done.set_exception(exc)
        else:
            if not job.done.done():
                job.done.set_result(result)
        finally:
            self._busy -= 1
            self._dispatch()

    async def _call(self, job: _Job) -> bool:
        loop = asyncio.get_running_loop()
        if not self.workers:
            failed, moved = await loop.run_in_executor(
                self._executor(), _decide_and_commit, job.bot, job.view, job.commit
            )
            if failed is not None:
                raise BotFailed(failed)
            return moved
        for attempt in (1, 2):
            executor = self._executor()
            try:
                text, failed = await asyncio.wait_for(
                    loop.run_in_executor(executor, _decide, job.bot, job.view), self.limit
                )
            except asyncio.TimeoutError:  # a bot that does not stop: its worker is stopped
                _log.error(
                    "table %s: a bot decided for more than %g s; its worker is stopped",
                    job.table,
                    self.limit,
                )
                _stop(executor)
                _processes(self.workers, broken=executor)
                raise BotFailed(f"no decision within {self.limit:g} s") from None
            except BrokenProcessPool:  # a worker died (killed, out of memory): once more
                _log.error("a bot worker process died; starting the pool again")
                _processes(self.workers, broken=executor)
                if attempt == 2:
                    raise
                continue
            if failed is not None:
                raise BotFailed(failed)
            return await loop.run_in_executor(None, job.commit, ba.parse_move(text), job.bot)
        raise AssertionError("unreachable")  # pragma: no cover

    def _executor(self) -> concurrent.futures.Executor:
        if self.workers:
            return _processes(self.workers)  # type: ignore[no-any-return]
        if self._thread is None:
            self._thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="bots")
        return self._thread

    def close(self) -> None:
        """Cancel the decisions waiting and stop the pool's thread (the shared
        processes stay for the interpreter's other pools, and stop with it).
        The pool may be used again afterwards (an application started again)."""
        for queue in self._queues.values():
            for job in queue:
                job.done.cancel()
        self._queues.clear()
        self._turns.clear()
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)
            self._thread = None
