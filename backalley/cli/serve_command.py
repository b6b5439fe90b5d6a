"""``backalley serve``: the table server, to play in a browser.

Starts the server (the optional extra ``server``: ``pip install
'backalley[server]'``) on SQLite in a data folder, or on PostgreSQL with
``--database postgresql://...``, bound to 127.0.0.1 unless ``--host`` says
otherwise, and prints the address to open.  With ``--web DIR`` (a folder
written by ``backalley build-web``) it also serves the library in the browser.

It answers only the host names it listens under (:func:`default_hosts`, and
each ``--allowed-host``), and believes ``X-Forwarded-For`` only from each
``--trusted-proxy`` (none by default; uvicorn's own reading of the header is
turned off).
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from backalley.cli.arguments import EXIT_OK, UsageError

__all__ = ["add_parser", "default_hosts", "run"]


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}")
    return int(text)


def _seconds_up_to(what: str, most: float) -> Callable[[str], float]:
    """An argument type: a number of seconds from 0 to ``most`` (a ``what``)."""

    def seconds(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = -1.0
        if not 0 <= value <= most:
            raise argparse.ArgumentTypeError(
                f"a {what} is a number of seconds from 0 to {most:g}, not {text!r}"
            )
        return value

    return seconds


def _allowed_host(text: str) -> str:
    from backalley.server.settings import host_pattern_ok

    if not host_pattern_ok(text.strip().lower()):
        raise argparse.ArgumentTypeError(
            f"a host is a name or an address, with :port or not (tables.example.org, "
            f"192.168.1.5:8000, [::1]; * for any), not {text!r}"
        )
    return text.strip().lower()


def _proxy(text: str) -> str:
    try:
        ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a proxy is an address or a network (127.0.0.1, ::1, 10.0.0.0/8), not {text!r}"
        ) from None
    return text.strip()


def default_hosts(host: str, port: int) -> tuple[str, ...]:
    """The ``Host`` values a server listening on ``host`` and ``port``
    answers to by default: that address (or name) on that port; for a
    loopback address also ``localhost``, ``127.0.0.1`` and ``[::1]`` on that
    port; for every address (``0.0.0.0``, ``::``) any address written as
    such on that port, this machine's names and the loopback names.  A name
    that points at this server from elsewhere (DNS rebinding) is never among
    them."""
    loopback = tuple(f"{name}:{port}" for name in ("localhost", "127.0.0.1", "[::1]"))
    name = host.strip().lower()
    try:
        address = ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return loopback if name == "localhost" else (f"{name}:{port}",)
    shown = f"[{address}]" if address.version == 6 else str(address)
    if address.is_unspecified:
        names = {socket.gethostname().lower(), socket.getfqdn().lower()}
        own = tuple(f"{n}:{port}" for n in sorted(names) if n and n != "localhost")
        return (f"0.0.0.0:{port}", *loopback, *own)
    if address.is_loopback:
        return tuple(dict.fromkeys((f"{shown}:{port}", *loopback)))
    return (f"{shown}:{port}",)


_seconds = _seconds_up_to("delay", 60)
_pause = _seconds_up_to("pause", 3600)
_keep = _seconds_up_to("time to keep", 10 * 365 * 86_400)


def _idle(text: str) -> float:
    value = _keep(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"a table's idle time is above 0 seconds, not {text!r}")
    return value


def _workers(text: str) -> int:
    if not text.isdigit() or int(text) > 64:
        raise argparse.ArgumentTypeError(
            f"the bots' workers are a number of processes from 0 to 64, not {text!r}"
        )
    return int(text)


def _budget(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 60:
        raise argparse.ArgumentTypeError(
            f"a bot's budget is a number of CPU seconds above 0, up to 60, not {text!r}"
        )
    return value


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser(
        "serve",
        help="serve tables to play in a browser (needs the 'server' extra)",
        description="Serve Back Alley tables: the browser table, the HTTP API and its "
        "WebSockets. Tables are kept in SQLite in --data (the default) or in PostgreSQL "
        "(--database), and a restarted server resumes every table.",
    )
    serve.add_argument(
        "--data",
        default="backalley-data",
        metavar="DIR",
        help="the folder of the SQLite database (default: ./backalley-data, made when missing)",
    )
    serve.add_argument(
        "--database",
        metavar="URL",
        help="a PostgreSQL database (postgresql://user@host:port/name) instead of SQLite; "
        "several servers may share one",
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only; "
        "0.0.0.0 for every network)",
    )
    serve.add_argument(
        "--port", type=_port, default=8000, help="the port (default 8000; 0 picks a free one)"
    )
    serve.add_argument(
        "--bot-delay",
        type=_seconds,
        default=0.4,
        metavar="SECONDS",
        help="seconds between two bots' moves, so a person can follow them (default 0.4)",
    )
    serve.add_argument(
        "--deal-pause",
        type=_pause,
        default=60.0,
        metavar="SECONDS",
        help="the longest the bots wait at the end of a deal for the people at the table to "
        "continue (default 60; 0: they do not wait)",
    )
    serve.add_argument(
        "--bot-workers",
        type=_workers,
        default=1,
        metavar="N",
        help="processes that make the bots' decisions, apart from the requests (default 1; "
        "0: a thread of the server's own process)",
    )
    serve.add_argument(
        "--bot-budget",
        type=_budget,
        default=0.5,
        metavar="SECONDS",
        help="the CPU seconds one decision of a searching bot (pimc, montecarlo) may take "
        "(default 0.5)",
    )
    serve.add_argument(
        "--keep-finished",
        type=_keep,
        default=3600.0,
        metavar="SECONDS",
        help="how long a finished game stays listed before it is archived (default 3600); "
        "its record stays at its address",
    )
    serve.add_argument(
        "--keep-idle",
        type=_idle,
        default=7 * 86_400.0,
        metavar="SECONDS",
        help="how long a table may go without a move before it is archived (default 604800: "
        "a week)",
    )
    serve.add_argument(
        "--allowed-host",
        action="append",
        type=_allowed_host,
        default=[],
        metavar="HOST",
        help="also answer requests for HOST (a name or an address, with :port or not; "
        "repeat for more; * for any): the name a proxy or people reach the server under. "
        "By default only the address it listens on (and localhost forms on a loopback address)",
    )
    serve.add_argument(
        "--trusted-proxy",
        action="append",
        type=_proxy,
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy's address or network (repeat for more) whose X-Forwarded-For "
        "is believed, so that limits count the real client; none by default",
    )
    serve.add_argument(
        "--web",
        metavar="DIR",
        help="also serve the rules in the browser from DIR (written by backalley build-web) at "
        "/web/: the table that needs no server, and the library in the table page",
    )
    serve.set_defaults(run=run)


def _store(args: argparse.Namespace) -> tuple[Any, str]:
    if args.database:
        if not str(args.database).startswith(("postgresql://", "postgres://")):
            raise UsageError(
                f"--database is a PostgreSQL address (postgresql://...), not {args.database!r}"
            )
        from backalley.server.postgres_store import PostgresStore

        return PostgresStore(args.database), "PostgreSQL"
    from backalley.server.sqlite_store import SqliteStore

    folder = Path(args.data)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot make the data folder {str(folder)!r}: {exc.strerror}") from None
    if not folder.is_dir():
        raise UsageError(f"--data {str(folder)!r} is not a folder")
    path = folder / "tables.db"
    return SqliteStore(path), f"SQLite at {path}"


def run(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    """Serve until interrupted (Ctrl-C, or SIGTERM, which stops it the same way)."""
    try:
        import uvicorn

        from backalley.server.app import create_app
    except ImportError as exc:
        raise UsageError(
            f"the server needs its extra: pip install 'backalley[server]' ({exc.name} is missing)"
        ) from None
    if args.web is not None:
        from backalley.server.web import web_folder

        web_folder(args.web)  # a folder build-web did not write: one line, before anything starts
    try:
        listener = socket.create_server((args.host, args.port))
    except OSError as exc:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    store, where = _store(args)
    try:
        host, port = listener.getsockname()[:2]
        app = create_app(
            store,
            bot_delay=args.bot_delay,
            deal_pause=args.deal_pause,
            bot_workers=args.bot_workers,
            bot_budget=args.bot_budget,
            finished_keep=args.keep_finished,
            idle_keep=args.keep_idle,
            web=args.web,
            allowed_hosts=(*default_hosts(args.host, port), *args.allowed_host),
            trusted_proxies=tuple(args.trusted_proxy),
        )
        shown = f"[{host}]" if ":" in host else host
        print(
            f"backalley: serving at http://{shown}:{port}/ (tables in {where}); Ctrl-C stops",
            file=out,
            flush=True,
        )
        config = uvicorn.Config(
            app,
            log_level="warning",
            ws_max_size=65_536,
            timeout_graceful_shutdown=2,
            proxy_headers=False,  # the edge reads X-Forwarded-For, from trusted proxies only
        )
        with _sigterm_as_interrupt():
            uvicorn.Server(config).run(sockets=[listener])
    finally:
        listener.close()
        store.close()
    return EXIT_OK


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM stops the server as Ctrl-C does: uvicorn shuts it down (its
    lifespan ends the bot workers), then raises the signal again, which
    this handler turns into ``KeyboardInterrupt`` (instead of the default
    action, a death that skips closing the store and the interpreter's own
    cleanup).  Only in the main thread, where handlers can be set."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
