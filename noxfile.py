"""Developer sessions for backalley (https://nox.thea.codes).

``nox`` runs the default sessions (tests, typecheck, lint, docs);
``nox -s bench`` runs the benchmark suite; ``nox -l`` lists them all.
Every session runs in its own virtual environment under ``.nox/`` with the
interpreter nox itself runs on, and installs the project with the extra it
needs from ``pyproject.toml``.  Arguments after ``--`` go to the tool, e.g.
``nox -s tests -- -k bidding``.
"""

from __future__ import annotations

import nox

nox.options.sessions = ["tests", "typecheck", "lint", "docs"]
nox.options.reuse_existing_virtualenvs = True


@nox.session
def tests(session: nox.Session) -> None:
    """Run the test suite."""
    session.install(".[test]")
    session.run("pytest", *session.posargs)


@nox.session
def typecheck(session: nox.Session) -> None:
    """Type-check the package with mypy in strict mode."""
    session.install(".[typecheck]")
    session.run("mypy", "--strict", "backalley", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """Lint the package and the tests with ruff (no format check)."""
    session.install("ruff")
    session.run("ruff", "check", "backalley", "tests", *session.posargs)


@nox.session
def docs(session: nox.Session) -> None:
    """Build the HTML documentation (warnings are errors), then run its ``>>>`` examples.

    The doctest build runs every ``>>>`` example of the pages (quickstart,
    integration, ...) against the library, so a change to the
    engine that changes an example's output fails this session instead of
    leaving the page showing stale output.
    """
    session.install(".[docs]")
    session.run("sphinx-build", "-W", "-b", "html", "docs", "docs/_build/html", *session.posargs)
    session.run("sphinx-build", "-b", "doctest", "docs", "docs/_build/doctest", *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    """Run the benchmark suite (``benchmarks/run.py``).

    OpenSpiel is installed when a ready-made wheel exists for this platform
    and Python, for the comparison benchmarks; without it the session still
    runs (the benchmarks that need it are expected to skip themselves).
    """
    session.install(".[bench]")
    try:
        # Wheels only: building OpenSpiel from source takes a C++ toolchain
        # and a long time, which is not worth it for a best-effort extra.
        session.install("--only-binary=open-spiel", "open-spiel")
    except nox.command.CommandFailed:
        session.warn("open-spiel could not be installed; running the benchmarks without it")
    session.run("python", "benchmarks/run.py", *session.posargs)
