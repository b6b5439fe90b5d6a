"""The optional compiled build (mypyc) is the same source, compiled.

Run by ``nox -s compiled`` (and CI) against the wheel built with
``HATCH_BUILD_HOOK_ENABLE_MYPYC=true``, which sets
``BACKALLEY_EXPECT_COMPILED=1``: there the solver's and the engine's modules
must be compiled extension modules, and the package must not be this
project's source.  In an ordinary run the package is pure Python and these
tests say so.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest

import backalley as ba

from .. import ROOT

COMPILED = (
    "backalley.solver._search",
    "backalley.solver._bounds",
    "backalley.solver._order",
    "backalley.solver._plan",
    "backalley.solver._table",
    "backalley.solver._weights",
    "backalley.engine.kernel",
    "backalley.engine.state",
    "backalley.engine.lowlevel._reading",
    "backalley.engine.lowlevel._asking",
    "backalley.engine.lowlevel._outcomes",
    "backalley.engine.lowlevel._dealing",
    "backalley.engine.lowlevel._playout",
    "backalley.rules.plan",
    "backalley.rules.calltree",
)
"""The solver's and the engine's modules the build compiles."""

EXPECTED = os.environ.get("BACKALLEY_EXPECT_COMPILED") == "1"


def _module_file(name: str) -> str:
    return str(importlib.import_module(name).__file__)


@pytest.mark.skipif(not EXPECTED, reason="not the compiled build (see `nox -s compiled`)")
@pytest.mark.parametrize("name", COMPILED)
def test_the_module_is_compiled(name: str) -> None:
    assert _module_file(name).endswith(".so"), f"{name} is not compiled"


@pytest.mark.skipif(not EXPECTED, reason="not the compiled build (see `nox -s compiled`)")
def test_the_package_is_not_the_source() -> None:
    source = ROOT / "backalley"
    assert Path(ba.__file__).resolve().parent != source


@pytest.mark.skipif(EXPECTED, reason="the compiled build")
def test_an_ordinary_install_is_pure_python() -> None:
    assert all(_module_file(name).endswith(".py") for name in COMPILED)
