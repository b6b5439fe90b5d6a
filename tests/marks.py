"""Which cases of a test the quick loop runs.

The full run (``nox``, CI) runs every case.  ``nox -s quick`` leaves out the
tests marked ``slow``; a test with a case per variant marks ``slow`` every
case but those of :data:`QUICK_VARIANTS`, so that the quick loop still plays
the three families (partnership contracts, the Vietnam auction, cutthroat)
while the full run plays them all.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

QUICK_VARIANTS = frozenset({"gamerules", "vietnam", "cutthroat-5"})
"""The variants whose cases the quick loop runs: one of each family."""


def by_variant(names: Iterable[str], quick: Iterable[str] = QUICK_VARIANTS) -> list[object]:
    """``names`` as ``pytest.parametrize`` values, each one not in ``quick``
    marked ``slow``."""
    keep = frozenset(quick)
    return [
        name if name in keep else pytest.param(name, marks=pytest.mark.slow, id=name)
        for name in names
    ]
