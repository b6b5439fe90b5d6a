"""``backalley build-web DIR``: the library in the browser, as a folder any
static host can serve (see :mod:`backalley.web.build`): the table that needs
no server, the JavaScript API ``backalley.js``, the Pyodide runtime and the
wheels.  ``backalley serve --web DIR`` serves the same folder beside the
served table.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from backalley.cli.arguments import EXIT_OK, UsageError
from backalley.errors import SetupError

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    build = sub.add_parser(
        "build-web",
        help="write the rules in the browser (Pyodide, the wheels, backalley.js) for a static host",
        description="Write the library in the browser into DIR: the table that needs no server "
        "(index.html), the JavaScript API (backalley.js, backalley.d.ts), the Pyodide runtime "
        "from the npm package pyodide (install it with 'npm ci --prefix web' in the repository) "
        "and the wheels of backalley and its dependencies. Any static host can serve DIR; "
        "nothing is fetched from elsewhere.",
    )
    build.add_argument("folder", metavar="DIR", help="the folder to write (empty, or built before)")
    build.add_argument(
        "--pyodide",
        metavar="PATH",
        help="the npm package pyodide's folder (default: node_modules/pyodide or "
        "web/node_modules/pyodide below the working folder)",
    )
    build.add_argument(
        "--wheels",
        metavar="DIR",
        help="take the wheels found in DIR (pip download --no-deps --only-binary=:all:, "
        "pip wheel --no-deps .) instead of building them from the installed packages",
    )
    build.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    from backalley.web.build import build_web

    try:
        manifest = build_web(args.folder, pyodide=args.pyodide, wheels=args.wheels)
    except SetupError as exc:
        raise UsageError(str(exc)) from None
    total = sum(manifest["files"].values())
    wheels = sum(wheel["bytes"] for wheel in manifest["wheels"])
    print(
        f"{args.folder}: Pyodide {manifest['pyodide']}, {len(manifest['wheels'])} wheels "
        f"({wheels / 1e6:.2f} MB), {total / 1e6:.1f} MB in all. Serve it from any static host "
        f"(open index.html), or beside the tables: backalley serve --web {args.folder}",
        file=out,
    )
    return EXIT_OK
