"""What the server does between requests, and what its routes share.

:class:`Runtime` holds the table service, the :class:`~backalley.server.hub.Hub`,
the rate limits and the socket counts, and runs the server's background work
for as long as the application lives (:meth:`Runtime.lifespan`): the bots'
runs (each decision in the bot pool, under the table's lease), the sweep that
resumes the tables whose bots nobody moves, the poll while the store's
changes are not heard, the pushes of changes heard, and the archiving.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable
from functools import partial

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool

from backalley.server.bot_pool import BotFailed, BotPool
from backalley.server.bot_turns import BotTurn
from backalley.server.hub import Hub
from backalley.server.refusals import ServerError
from backalley.server.settings import RateLimiter, ServerSettings, socket_limit
from backalley.server.sockets import SocketCounts
from backalley.server.store import Watch, read_change
from backalley.server.table_service import TableService

__all__ = ["SWEPT", "Runtime"]

SWEPT = 200
"""The most tables whose bots nobody moves that one round of the sweep
starts again (the next round takes the others)."""

_log = logging.getLogger("backalley.server.app")


class Runtime:
    """The routes' shared state (the service, the hub, the rate limits and
    socket counts) and the work between requests (the bots' runs, the poll,
    the sweep, the archiving, the pushes of changes heard)."""

    def __init__(self, service: TableService, settings: ServerSettings) -> None:
        self.service = service
        self.settings = settings
        self.hub = Hub(service)
        self.moves = RateLimiter(settings.move_rate, settings.move_burst)
        self.creates = RateLimiter(settings.create_rate, settings.create_burst)
        self.lists = RateLimiter(settings.list_rate, settings.list_burst)
        self.sockets = SocketCounts(
            limit=socket_limit(settings.max_sockets),
            table_spectators=settings.max_table_sockets,
            seat_sockets=settings.max_seat_sockets,
            client_sockets=settings.max_client_sockets,
        )
        """The sockets open now, and whether one more may be."""
        self.runs: dict[str, asyncio.Task[None]] = {}
        self.kicked: set[str] = set()
        """Tables kicked since their bot run last looked whether a bot is to act."""
        self.wakes: dict[str, asyncio.TimerHandle] = {}
        """Tables whose bots wait at the end of a deal: the kick when the wait is over."""
        self.pool = BotPool(settings.bot_workers, limit=max(10.0, 20 * settings.bot_budget))
        """Where the bots' decisions are made, apart from the request threads."""
        self.watch: Watch | None = None
        """The store's changes as they are committed (``None``: the store
        cannot tell them; the poll looks for them)."""
        self.resync = False
        """Set when the changes were heard again after a lost connection: the
        next poll round looks at every watched table once."""
        self.tasks: set[asyncio.Task[None]] = set()
        """The pushes of changes heard, under way."""
        self.pushing: dict[str, bool] = {}
        """Tables with a push under way for a change heard -> whether another
        change came meanwhile (then it pushes again)."""

    # -- bots --------------------------------------------------------------

    def kick(self, table: str) -> None:
        """Let the bots of ``table`` move until a person is to act."""
        self.kicked.add(table)
        running = self.runs.get(table)
        if running is None or running.done():
            self.runs[table] = asyncio.get_running_loop().create_task(self._bots(table))

    async def _bots(self, table: str) -> None:
        """Let the bots of ``table`` move, each decision made in the bot pool
        (in turn with the other tables' bots), until no bot is to act."""
        service = self.service
        try:
            # a kick that comes while this run is past its last look (a person
            # moved during its last push) makes it look again, never lost
            while table in self.kicked:
                self.kicked.discard(table)
                while True:
                    turn = await run_in_threadpool(service.bot_turn, table)
                    if turn is None:
                        break
                    try:
                        moved = await self._renewing(table, self._decide(turn))
                    except BotFailed as exc:  # the bot's own error stops its table
                        await run_in_threadpool(service.bot_failed, turn, exc.detail)
                        break
                    if not moved:
                        break
                    await self.hub.push(table)
                await self.hub.push(table)
                # the bots wait at the end of a deal: this process keeps the
                # table's lease through the wait, and looks again when it is over
                held = await run_in_threadpool(service.held, table)
                if held > 0:
                    if await run_in_threadpool(service.hold, table, held):
                        self.wake(table, held)
                # a move another process stored while this one held the lease
                # (it could not take the lease) may leave a bot to act: look again
                elif await run_in_threadpool(service.release, table) and (
                    await run_in_threadpool(service.bot_to_act, table)
                ):
                    self.kicked.add(table)
        except asyncio.CancelledError:
            raise
        except ServerError as exc:  # a table damaged meanwhile: said once, as the list says it
            if not service.note_damaged(table, exc):
                _log.error("table %s: the bots' run stopped: %s", table, exc.message)
        except Exception:  # a store that failed: the next kick (or the poll) tries again
            _log.exception("table %s: the bots' run stopped", table)
        finally:  # a finished run is not kept: one entry per table ever kicked would grow
            if self.runs.get(table) is asyncio.current_task():
                del self.runs[table]

    async def _decide(self, turn: BotTurn) -> bool:
        """The bot of ``turn`` decides (after ``bot_delay``), in the pool, and
        its move is played: whether the table moved on."""
        if self.settings.bot_delay:
            await asyncio.sleep(self.settings.bot_delay)
        return await self.pool.decide(
            turn.owner, turn.table, turn.bot, turn.view, partial(self.service.bot_play, turn)
        )

    async def _renewing(self, table: str, work: Awaitable[bool]) -> bool:
        """``work``, while this process renews its lease of ``table`` every
        third of ``lease_seconds`` (a decision may take longer than a lease)."""

        async def beat() -> None:
            while True:
                await asyncio.sleep(self.settings.lease_seconds / 3)
                await run_in_threadpool(self.service.renew, table)

        beating = asyncio.get_running_loop().create_task(beat())
        try:
            return await work
        finally:
            beating.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await beating

    def wake(self, table: str, seconds: float) -> None:
        """Kick ``table`` in ``seconds`` (once: a later call replaces it)."""
        old = self.wakes.pop(table, None)
        if old is not None:
            old.cancel()

        def kick() -> None:
            self.wakes.pop(table, None)
            self.kick(table)

        self.wakes[table] = asyncio.get_running_loop().call_later(seconds + 0.05, kick)

    async def _poll(self) -> None:
        """Push the moves other server processes stored, for watched tables,
        and start again the bot runs that stopped - while the store's changes
        are not heard as they are committed (:meth:`heard`), and once after
        they are heard again (changes may have been missed meanwhile).  A
        failure (a database that is locked or answers nothing for a while)
        is logged and the poll goes on at its next round: it ends only with
        the server."""
        while True:
            await asyncio.sleep(self.settings.poll_seconds)
            if self.watch is not None and self.watch.listening and not self.resync:
                continue
            self.resync = False
            for table in list(self.hub.sockets):
                try:
                    await self._poll_table(table)
                except asyncio.CancelledError:
                    raise
                except ServerError as exc:
                    # a damaged table is said once, not every round
                    if not self.service.note_damaged(table, exc) and exc.status >= 500:
                        _log.warning("table %s: the poll could not read it: %s", table, exc)
                except Exception:  # a database locked or gone for a moment: the next round
                    _log.exception("table %s: the poll could not read it", table)

    async def _poll_table(self, table: str) -> None:
        version = await run_in_threadpool(self.service.version, table)
        if version != self.hub.pushed.get(table):
            await self.hub.push(table)
            self.kick(table)
        elif table not in self.runs and await run_in_threadpool(self.service.bot_to_act, table):
            self.kick(table)  # a bot run that stopped on an error

    def heard(self, change: str) -> None:
        """A change the store heard committed (on the loop's thread): a move
        or a continue at a table watched here is pushed to its sockets at
        once; ``""`` (heard again after a lost connection) makes the next
        poll round look at every watched table.  The bots are not kicked:
        the process that stored the change kicked them."""
        if not change:
            self.resync = True
            return
        found = read_change(change)
        if found is None:
            return
        table, version = found
        if table not in self.hub.sockets:
            return
        if version is not None and version == self.hub.pushed.get(table):
            return
        if version is None and table in self.wakes:
            self.kick(table)  # a continue heard while this process holds the deal's end
        if table in self.pushing:
            self.pushing[table] = True  # pushed again once the push under way ends
            return
        self.pushing[table] = False
        task = asyncio.get_running_loop().create_task(self._push_heard(table))
        self.tasks.add(task)  # kept until done: the loop holds a task only weakly
        task.add_done_callback(self.tasks.discard)

    async def _push_heard(self, table: str) -> None:
        try:
            while True:
                try:
                    await self.hub.push(table)
                except Exception:  # a store failing for a moment: the poll tries later
                    _log.warning("table %s: a change heard could not be pushed", table)
                if not self.pushing.get(table):
                    return
                self.pushing[table] = False
        finally:
            self.pushing.pop(table, None)

    async def _sweep(self) -> None:
        """Let the bots go on at every table where one is to act and no
        process decides them (this server restarted, or the process that
        held the table's lease died), the most recently moved first: now,
        and every ``lease_seconds``.  A table that cannot be read back
        (rules that no longer load) is logged and left; the others go on."""
        while True:
            try:
                tables = await run_in_threadpool(self.service.orphans, SWEPT)
            except Exception:  # a database that does not answer: the next round
                _log.warning("the tables whose bots nobody moves could not be listed")
                tables = []
            for table in tables:
                if table in self.runs:
                    continue
                try:
                    if await run_in_threadpool(self.service.bot_to_act, table):
                        self.kick(table)
                except ServerError as exc:  # a damaged table: said once, the others go on
                    if not self.service.note_damaged(table, exc):
                        _log.error(
                            "table %s: its bots could not be resumed: %s", table, exc.message
                        )
                except Exception:  # any other failure of one table: the others go on
                    _log.exception("table %s: its bots could not be resumed", table)
            await asyncio.sleep(self.settings.lease_seconds)

    async def _retire(self) -> None:
        """Archive the tables due, every ``retire_seconds`` (a failure is
        logged; the next round tries again)."""
        while True:
            try:
                for table in await run_in_threadpool(self.service.retire):
                    self.kicked.discard(table)
            except Exception:  # a database that does not answer: the next round tries again
                _log.exception("the tables due could not be archived")
            await asyncio.sleep(self.settings.retire_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(self, _: Starlette) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()

        def heard(change: str) -> None:  # on the store's thread
            with contextlib.suppress(RuntimeError):  # the loop closed: the server is ending
                loop.call_soon_threadsafe(self.heard, change)

        self.watch = self.service.store.watch(heard)
        resume = loop.create_task(self._sweep())
        poll = loop.create_task(self._poll())
        retire = loop.create_task(self._retire())
        try:
            yield
        finally:
            if self.watch is not None:
                await run_in_threadpool(self.watch.close)
            resume.cancel()
            poll.cancel()
            retire.cancel()
            for handle in self.wakes.values():
                handle.cancel()
            for task in self.runs.values():
                task.cancel()
            for task in [resume, poll, retire, *self.runs.values()]:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            self.pool.close()
