"""``backalley serve``: the table server, to play in a browser.

Starts the server (the optional extra ``server``: ``pip install
'backalley[server]'``) on SQLite in a data folder, or on PostgreSQL with
``--database postgresql://...``, bound to 127.0.0.1 unless ``--host`` says
otherwise, and prints the address to open.  With ``--web DIR`` (a folder
written by ``backalley build-web``) it also serves the library in the browser.
"""

from __future__ import annotations

import argparse
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from backalley.cli.common import EXIT_OK, UsageError

__all__ = ["add_parser", "run"]


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


_seconds = _seconds_up_to("delay", 60)
_pause = _seconds_up_to("pause", 3600)


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
    """Serve until interrupted."""
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
        app = create_app(store, bot_delay=args.bot_delay, deal_pause=args.deal_pause, web=args.web)
        host, port = listener.getsockname()[:2]
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
        )
        uvicorn.Server(config).run(sockets=[listener])
    finally:
        listener.close()
        store.close()
    return EXIT_OK
