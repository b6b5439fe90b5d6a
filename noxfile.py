"""Developer sessions for backalley (https://nox.thea.codes).

``nox`` runs the default sessions (lint, typecheck, docs, package, tests):
the README's test command, and what CI runs in a fresh virtual environment.
``nox -s quick`` is the contributor's loop (lint and the tests that need no
browser, PostgreSQL or minutes); ``nox -s bench`` runs the benchmark suite; ``nox -s lock`` writes the lock
anew; ``nox -l`` lists them all. Every session runs in its own virtual
environment under ``.nox/`` (or ``$BACKALLEY_NOX_ENVDIR``) with the
interpreter nox itself runs on, and installs the project with the extra it
needs from ``pyproject.toml``, every package at the version the lock
``requirements/constraints.txt`` pins, so that a new release of a test tool
cannot break a run unseen. Arguments after ``--`` go to the tool, e.g.
``nox -s tests -- -k bidding``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import nox

LOCK = "requirements/constraints.txt"
# The extras the lock covers: every one but `dev`, which names the project itself.
LOCKED_EXTRAS = (
    "test", "typecheck", "lint", "docs", "bench", "cli", "server", "openspiel", "pettingzoo", "ray",
    "batch", "gym", "release",
)  # fmt: skip

nox.options.sessions = ["lint", "typecheck", "docs", "package", "tests"]
nox.options.reuse_existing_virtualenvs = True
nox.options.envdir = os.environ.get("BACKALLEY_NOX_ENVDIR", ".nox")


def install(session: nox.Session, *requirements: str) -> None:
    """Install *requirements* at the versions the lock pins."""
    session.install("--constraint", LOCK, *requirements)


PARALLEL = ("-n", "auto", "--dist", "loadfile")
"""pytest-xdist: one worker a processor, each test module on one worker (its
module-wide fixtures, a browser or a built site, made once)."""

QUICK = "not slow and not browser and not postgres"
"""The tests of the quick loop: none that takes minutes, a browser or PostgreSQL."""


@nox.session
def tests(session: nox.Session) -> None:
    """Run the test suite in parallel (the browser and PostgreSQL tests use Debian's packages)."""
    install(session, ".[test]")
    session.run("pytest", *PARALLEL, *(session.posargs or ["-q"]))


@nox.session
def quick(session: nox.Session) -> None:
    """The contributor's loop: lint, then the tests that need no browser, no
    PostgreSQL and no minutes (``-m "not slow and not browser and not postgres"``),
    in parallel. The full run (``nox``) is what CI runs."""
    install(session, ".[test]", "ruff")
    session.run("ruff", "check", "backalley", "tests")
    session.env["BACKALLEY_QUICK"] = "1"  # a tenth of Hypothesis's examples (tests/conftest.py)
    session.run("pytest", *PARALLEL, "-q", "-m", QUICK, *session.posargs)


@nox.session
def typecheck(session: nox.Session) -> None:
    """Type-check the package with mypy in strict mode."""
    install(session, ".[typecheck]")
    session.run("mypy", "--strict", "backalley", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """Lint the package and the tests with ruff (no format check)."""
    install(session, "ruff")
    session.run("ruff", "check", "backalley", "tests", *session.posargs)


@nox.session
def package(session: nox.Session) -> None:
    """Build the sdist and the wheel as a release does, then check them.

    ``python -m build`` builds the sdist, then the wheel from the sdist (each in
    an isolated environment, hatchling at the lock's version), into a folder
    of the session's own; ``twine check --strict`` checks both as PyPI would
    read them, and ``tools/check_dist.py`` their contents: the wheel holds the
    package only, every file of it (the schema, the static files, ``py.typed``)
    and none of the tests; the sdist holds what a rebuild needs.
    """
    install(session, "build", "twine")
    dist = Path(session.create_tmp()) / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    session.env["PIP_CONSTRAINT"] = str(Path(LOCK).resolve())  # the build environments' pins
    session.run("python", "-m", "build", "--outdir", str(dist), silent=True)
    built = sorted(str(path) for path in dist.iterdir())
    session.run("twine", "check", "--strict", *built)
    session.run("python", "tools/check_dist.py", str(dist), *session.posargs)


@nox.session
def docs(session: nox.Session) -> None:
    """Build the HTML documentation (warnings are errors), then run its ``>>>`` examples.

    The API page documents the table server and the batch engine too, so the
    session installs the ``server``, ``batch`` and ``gym`` extras beside
    ``docs``. The doctest build runs every ``>>>`` example of the pages
    (quickstart, integration, ...) against the library, so a change to the
    engine that changes an example's output fails this session instead of
    leaving the page showing stale output.
    """
    install(session, ".[docs,server,batch,gym]")
    session.run("sphinx-build", "-W", "-b", "html", "docs", "docs/_build/html", *session.posargs)
    session.run("sphinx-build", "-b", "doctest", "docs", "docs/_build/doctest", *session.posargs)


CACHES = ("__pycache__", "*.so", ".hypothesis", ".pytest_cache")
"""What the compiled build's copy of the project leaves out."""

COMPILED_TESTS = (
    "tests/engine/test_kernel.py",
    "tests/rules/test_plan.py",
    "tests/rules/test_gamerules.py",
    "tests/engine/test_lowlevel.py",
    "tests/engine/test_surface.py",
    "tests/engine/test_pickle.py",
    "tests/engine/test_reprs.py",
    "tests/rules/test_overrides.py",
    "tests/rules/test_fuzz_parts.py",
    "tests/solver/test_solver.py",
    "tests/engine/test_conformance.py",
    "tests/project/test_compiled.py",
)
"""The tests run against the compiled build: the engine's kernel and plan, the
state (the game's rules, its arguments, pickles, reprs) and lowlevel, every part
overridden and answering anything, the solver, and the conformance vectors."""


@nox.session
def compiled(session: nox.Session) -> None:
    """Build the optional compiled package (mypyc, the same source) and test it.

    ``HATCH_BUILD_HOOK_ENABLE_MYPYC=true`` turns on the build hook of
    ``pyproject.toml``; the tests then run from a copy of ``tests/`` outside
    the project, so that ``import backalley`` finds the installed, compiled
    package and not the source beside them (``tests/project/test_compiled.py`` checks
    that it did).
    """
    copy = Path(session.create_tmp()) / "compiled"
    shutil.rmtree(copy, ignore_errors=True)
    # the build runs in a copy: mypyc writes its extension modules beside the
    # source, and hatch-mypyc moves pyproject.toml aside while it builds
    project = copy / "project"
    for name in ("backalley", "pyproject.toml", "README.md", "LICENSE"):
        if Path(name).is_dir():
            shutil.copytree(name, project / name, ignore=shutil.ignore_patterns(*CACHES))
        else:
            shutil.copy(name, project / name)
    shutil.copytree("tests", copy / "tests", ignore=shutil.ignore_patterns(*CACHES))
    lock = str(Path(LOCK).resolve())
    session.env["HATCH_BUILD_HOOK_ENABLE_MYPYC"] = "true"
    session.chdir(copy)
    session.install("--constraint", lock, "--no-cache-dir", "./project[test]")
    session.env["BACKALLEY_EXPECT_COMPILED"] = "1"
    session.run("pytest", "-q", "-p", "no:cacheprovider", *COMPILED_TESTS, *session.posargs)


@nox.session
def lock(session: nox.Session) -> None:
    """Write the lock anew: every extra's packages (and nox, pip-tools) at their newest
    versions that fit ``pyproject.toml``, resolved by pip-tools' ``pip-compile``.

    Run it to take new releases of the test stack on purpose, then run ``nox``
    and commit the lock with whatever the new versions needed.
    """
    session.install("pip-tools")
    extras = [f"--extra={extra}" for extra in LOCKED_EXTRAS]
    session.run(
        "pip-compile", "--quiet", "--strip-extras", "--upgrade", "--no-emit-index-url",
        "--no-emit-find-links", *extras, f"--output-file={LOCK}", "pyproject.toml",
        "requirements/tools.in", *session.posargs,
    )  # fmt: skip


@nox.session
def bench(session: nox.Session) -> None:
    """Run the benchmark suite (``benchmarks/run.py``).

    OpenSpiel is installed when a ready-made wheel exists for this platform
    and Python, for the comparison benchmarks; without it the session still
    runs (the benchmarks that need it are expected to skip themselves).
    """
    install(session, ".[bench]")
    try:
        # Wheels only: building OpenSpiel from source takes a C++ toolchain
        # and a long time, which is not worth it for a best-effort extra.
        install(session, "--only-binary=open-spiel", "open-spiel")
    except nox.command.CommandFailed:
        session.warn("open-spiel could not be installed; running the benchmarks without it")
    session.run("python", "benchmarks/run.py", *session.posargs)
