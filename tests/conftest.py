"""Test settings shared by the whole suite.

Hypothesis: no per-example deadline (CI machines are shared and their timing
says nothing about correctness), and under CI (``CI`` set) a derandomized
run, so that a submission's result does not depend on luck.

The rule sets' plans check every key a part declares (``BACKALLEY_CHECK_KEYS=1``,
unless the environment says otherwise): wherever a plan would answer from
what it remembers by a key, it asks the part again and raises
:class:`~backalley.RuleSetError` when the answers differ.  Set before the
library is imported (the plans read it when they are built).

Tests that use PostgreSQL are marked ``postgres`` here, those that need
Chromium or Pyodide are marked ``browser`` in their modules, and those that
take seconds or more (a subprocess, a server, a statistic over many games, a
case per variant beyond :data:`tests.marks.QUICK_VARIANTS`) ``slow``:
``nox -s quick`` leaves all three out; the full run (``nox``, CI) runs them.

Tests marked ``long`` (``@pytest.mark.long``: minutes each) are skipped unless
asked for: ``pytest --runlong``, or ``pytest -m long`` (which runs only them).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

os.environ.setdefault("BACKALLEY_CHECK_KEYS", "1")

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from .server_services import PostgresCluster

settings.register_profile(
    "dev", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.register_profile(
    "ci",
    parent=settings.get_profile("dev"),
    derandomize=True,
    database=None,
    print_blob=True,
)
settings.register_profile("quick", parent=settings.get_profile("ci"), max_examples=10)
"""The contributor's loop (``nox -s quick`` sets ``BACKALLEY_QUICK=1``): CI's
derandomized draws, a tenth of Hypothesis's examples where a test does not
set its own; the full run (``nox``, CI) draws them all."""
settings.load_profile(
    "quick" if os.environ.get("BACKALLEY_QUICK") else "ci" if os.environ.get("CI") else "dev"
)


MARKERS = (
    "slow: seconds or more (a subprocess, a server, a statistic, every variant): "
    "the full run runs it, the quick loop (nox -s quick) leaves it out",
    "long: minutes long; skipped unless --runlong or -m long is given",
    "browser: needs Chromium, or Pyodide in Node (Debian's chromium, nodejs and npm)",
    "postgres: needs a PostgreSQL server of its own (Debian's postgresql; "
    "marked here for every test that uses one)",
)
"""The suite's markers, registered here rather than in ``pyproject.toml`` so
that a copy of ``tests/`` run outside the project (``nox -s compiled``) knows
them too."""


def pytest_configure(config: pytest.Config) -> None:
    for line in MARKERS:
        config.addinivalue_line("markers", line)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runlong", action="store_true", default=False, help="also run the tests marked long"
    )


def _uses_postgres(item: pytest.Item) -> bool:
    """Whether a test starts or reaches PostgreSQL: it asks for the
    ``postgres`` fixture (itself or through another fixture), or is the
    ``postgresql`` case of a test run on both stores (whose fixture asks for
    it by name)."""
    if "postgres" in getattr(item, "fixturenames", ()):
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and "postgresql" in callspec.params.values()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _uses_postgres(item):
            item.add_marker(pytest.mark.postgres)
    if config.getoption("--runlong") or "long" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="long: run with --runlong (or -m long)")
    for item in items:
        if item.get_closest_marker("long") is not None:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """The session's private PostgreSQL cluster, for the server's store,
    fault and several-process tests (skips, with the reason, when it cannot
    be started; see ``tests/server_services.py``)."""
    pytest.importorskip("psycopg", reason="the PostgreSQL store needs psycopg 3")
    from .server_services import Unavailable, shared_postgres

    with contextlib.ExitStack() as stack:
        try:
            cluster = stack.enter_context(shared_postgres())
        except Unavailable as exc:
            pytest.skip(f"no PostgreSQL server could be started, skipped: {exc}")
        yield cluster
