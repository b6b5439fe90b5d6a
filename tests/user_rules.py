"""The house rules of :mod:`tests.house_reasons`, imported for the tests
that play them and out of the registry after them.

The module registers its parts when it is imported, as a user's module does;
but the property tests draw every registered part into their rule sets, and
these two are written for one game's refusals, not for any options a
strategy draws.  So :func:`house_rules` imports the module afresh, and takes
its parts out of the registry when the tests are done (their reasons stay
registered: registering them again with the same sentences answers the same
reasons).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from backalley.rules.registry import _REGISTRY

MODULE = "tests.house_reasons"


@contextmanager
def house_rules() -> Iterator[ModuleType]:
    """The module :mod:`tests.house_reasons`, imported now, its parts registered."""
    sys.modules.pop(MODULE, None)
    module = importlib.import_module(MODULE)
    try:
        yield module
    finally:
        for cls in (module.HalfTheHand, module.NoHighOpening):
            _REGISTRY[cls.part].pop(cls.tag, None)
        sys.modules.pop(MODULE, None)
