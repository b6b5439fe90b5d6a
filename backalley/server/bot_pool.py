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
  budgets) has its worker ended, and that bot fails; the other workers'
  decisions go on, and the next decision starts a new worker.  A process's
  CPU time is the decision's alone; a thread's budget counts the whole
  process's CPU, so it only runs out sooner.
- The decisions waiting take turns fairly: one queue per client address (the
  address that made the table), served round robin, and within it the
  tables in the order they asked.  A table asks for one decision at a time,
  so an address with twenty tables of bots gets one decision in turn with
  an address with one table, never its twenty tables' whole runs first.

A decision is sent to a process as the pickled bot and the seat's view; the
process answers the move (as text).  A bot keeps nothing from one decision
to the next: the server makes each seat's bot afresh for every decision.

Each pool keeps its own processes, one pipe to each, started when a
decision needs one, with the ``spawn`` method (a fork of a server's threads
could inherit a held lock).  :meth:`BotPool.close` (the server's shutdown,
on Ctrl-C or SIGTERM) ends them all; a worker whose server is gone without
closing (killed) ends by itself when it next waits for a decision.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import inspect
import logging
import multiprocessing
import os
import pickle
import signal
import threading
import traceback
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection

import attrs

import backalley as ba
from backalley.bots import Bot, close_bots, make_bot

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
    again with the smaller of its own budget and ``budget``, a bot with a
    ``with_budget(budget)`` method (an :class:`~backalley.bots.ExternalBot`,
    whose program's decision is bounded in seconds) is that method's answer;
    other bots (the quick ones: ``random``, ``heuristic``) as
    :func:`~backalley.bots.make_bot` makes them."""
    bot = make_bot(name, seed)
    if budget is None:
        return bot
    with_budget = getattr(bot, "with_budget", None)
    if callable(with_budget):  # a bot that bounds itself otherwise (a program's time)
        bounded: Bot = with_budget(budget)
        return bounded
    if not _takes_budget(type(bot)):
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
    finally:
        close_bots([bot])  # a bot program's process ends with its decision
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


def _orphaned() -> None:
    """In a worker, on a daemon thread: waits for the server process to end,
    however it ends (a SIGKILL too), then ends the worker at once, even in
    the middle of a decision that would never end (a runaway bot never reads
    the pipe whose closing would otherwise tell it)."""
    server = multiprocessing.parent_process()
    if server is None:  # pragma: no cover - a worker is always started by a server
        return
    server.join()
    os._exit(0)


def _warm() -> None:
    """A worker's start: Ctrl-C is left to the server (which stops its
    workers itself, without a traceback from each), the worker ends with the
    server (:func:`_orphaned`), and the library and its bots are imported once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_orphaned, name="backalley-bot-orphaned", daemon=True).start()
    import backalley.bots.pimc  # noqa: F401  (the slowest import, paid at start)


def _serve(conn: Connection) -> None:
    """A worker process's life: one decision at a time, the pickled bot and
    view read from ``conn`` and the answer of :func:`_decide` sent back,
    until the server's end of the pipe closes (the server stopped, or was
    killed: the worker never outlives it by more than a decision)."""
    _warm()
    while True:
        try:
            payload = conn.recv_bytes()
        except (EOFError, OSError):  # the server's end is closed: the worker ends
            return
        try:
            bot, view = pickle.loads(payload)
        except Exception:  # a bot this process cannot read back: reported as its failure
            answer: tuple[str, str | None] = ("", traceback.format_exc(limit=20))
        else:
            answer = _decide(bot, view)
        try:
            conn.send(answer)
        except OSError:  # the server's end is closed: the worker ends
            return


_LATE = "late"
"""A worker's answer: no decision within the pool's limit."""
_GONE = "gone"
"""A worker's answer: its process died (or was stopped) before answering."""

_Answer = tuple[str, str | None] | str
"""What a worker answers: :func:`_decide`'s pair, :data:`_LATE` or :data:`_GONE`."""


class _Worker:
    """One worker process (``spawn``ed, a daemon) and the server's end of
    its pipe; the process is started by its first :meth:`ask`."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, self._child = context.Pipe()
        self.process = context.Process(
            target=_serve, args=(self._child,), name="backalley-bot-worker", daemon=True
        )
        self.stopped = False
        """Set by :meth:`stop`: the worker is done with, whatever it was doing."""
        self._started = False
        self._lock = threading.Lock()

    def _start(self) -> bool:
        with self._lock:
            if self.stopped:
                return False
            if not self._started:
                self.process.start()
                self._child.close()  # the process's end is its own: its death is our EOF
                self._started = True
            return True

    def ask(self, payload: bytes, limit: float | None) -> _Answer:
        """On a thread of its own: the answer to ``payload`` (the move as
        text, or the bot's failure), :data:`_LATE` when none came within
        ``limit`` seconds of asking, :data:`_GONE` when the process died or
        was stopped."""
        try:
            if not self._start():
                return _GONE
            self.conn.send_bytes(payload)
            if not self.conn.poll(limit):
                return _LATE
            answer: tuple[str, str | None] = self.conn.recv()
        except (EOFError, OSError):  # the process died (killed, out of memory) or was stopped
            return _GONE
        return answer

    def stop(self) -> None:
        """End the process (at once: a worker keeps nothing) and wait for
        it; once only, later calls do nothing.  The pipe is left open for a
        thread that may still wait on it (:meth:`close` closes it)."""
        with self._lock:
            if self.stopped:
                return
            self.stopped = True
            if not self._started:
                self._child.close()
                return
            self.process.kill()
        self.process.join(5)
        if self.process.exitcode is not None:
            self.process.close()

    def close(self) -> None:
        """Stop the process and close the server's end of the pipe (once no
        thread waits on it)."""
        self.stop()
        self.conn.close()


async def _ask(worker: _Worker, payload: bytes, limit: float | None) -> _Answer:
    """``worker``'s answer to ``payload``, waited for on a daemon thread (a
    thread that outlives its loop, or the interpreter's end, holds up
    neither)."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[_Answer] = loop.create_future()

    def settle(found: _Answer) -> None:
        if not answer.done():
            answer.set_result(found)

    def wait() -> None:
        try:
            found = worker.ask(payload, limit)
        except Exception:  # a failure of the pool's own: logged, the worker is counted gone
            _log.exception("a bot worker could not be asked for a decision")
            found = _GONE
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            loop.call_soon_threadsafe(settle, found)

    threading.Thread(target=wait, name="backalley-bot-wait", daemon=True).start()
    return await answer


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
        """Wall-clock seconds a decision in a worker process may take, from
        when it is handed over: past them that decision's worker is ended
        (the next decision starts a new one; the other workers' decisions go
        on), and the decision fails (:class:`BotFailed`); ``None``: no
        limit.  A bot that honours its budget never comes near it."""
        self._slots = max(1, workers)
        self._busy = 0
        self._queues: dict[str, deque[_Job]] = {}
        self._turns: deque[str] = deque()
        self._thread: concurrent.futures.ThreadPoolExecutor | None = None
        self._workers: list[_Worker] = []
        """The pool's live worker processes (at most ``workers``), idle or busy."""
        self._idle: list[_Worker] = []
        """The workers no decision is using now."""
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
            for worker in self._workers:  # a worker busy for the old loop: nobody waits on it
                if worker not in self._idle:
                    worker.stop()
            self._workers = list(self._idle)
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
        payload = pickle.dumps((job.bot, job.view), pickle.HIGHEST_PROTOCOL)
        for attempt in (1, 2):
            worker = self._take()
            try:
                answer = await _ask(worker, payload, self.limit)
            except BaseException:  # cancelled (the loop ends): the worker's state is unknown
                worker.stop()
                self._drop(worker)
                raise
            if isinstance(answer, tuple):
                if worker.stopped:  # the pool was closed meanwhile
                    self._drop(worker)
                else:
                    self._idle.append(worker)
                text, failed = answer
                if failed is not None:
                    raise BotFailed(failed)
                return await loop.run_in_executor(None, job.commit, ba.parse_move(text), job.bot)
            closed = worker.stopped
            worker.close()
            self._drop(worker)
            if closed:  # the pool was closed meanwhile: nobody waits for this decision
                raise asyncio.CancelledError
            if answer == _LATE:  # a bot that does not stop: its worker is ended, no other
                _log.error(
                    "table %s: a bot decided for more than %g s; its worker is stopped",
                    job.table,
                    self.limit,
                )
                raise BotFailed(f"no decision within {self.limit:g} s")
            # a worker that died (killed, out of memory): once more, on a new one
            _log.error("a bot worker process died; a new one makes its decision")
            if attempt == 2:
                raise RuntimeError("the bot workers died twice on one decision")
        raise AssertionError("unreachable")  # pragma: no cover

    def _take(self) -> _Worker:
        """An idle worker, or a new one (started by its first decision)."""
        if self._idle:
            return self._idle.pop()
        worker = _Worker()
        self._workers.append(worker)
        return worker

    def _drop(self, worker: _Worker) -> None:
        if worker in self._workers:
            self._workers.remove(worker)

    def _executor(self) -> concurrent.futures.Executor:
        if self._thread is None:
            self._thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="bots")
        return self._thread

    def close(self) -> None:
        """Cancel the decisions waiting, end the pool's worker processes
        (a decision under way in one is cancelled) and stop its thread; when
        it returns, no worker process of the pool is alive.  The pool may be
        used again afterwards (an application started again): new workers
        are started by its next decisions."""
        for queue in self._queues.values():
            for job in queue:
                job.done.cancel()
        self._queues.clear()
        self._turns.clear()
        workers, self._workers = self._workers, []
        for worker in workers:
            if worker in self._idle:
                worker.close()
            else:  # its decision's waiter closes the pipe when the process is gone
                worker.stop()
        self._idle.clear()
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)
            self._thread = None
