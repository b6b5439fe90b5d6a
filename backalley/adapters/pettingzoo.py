"""The former name of the PettingZoo environment's module (deprecated): its
names still answer, with a :class:`DeprecationWarning`; use
:mod:`backalley.adapters.backalley_v0`, the environment's versioned name.

Without the ``backalley[pettingzoo]`` extra, importing this module raises
:class:`ModuleNotFoundError` saying which extra to install, as the new one does.
"""

from __future__ import annotations

import warnings
from typing import Any

from backalley.adapters import _pettingzoo

__all__ = ["BackAlleyEnv", "env", "raw_env", "render_text"]  # noqa: F822 (in __getattr__)


def __getattr__(name: str) -> Any:
    """A name of :mod:`backalley.adapters.backalley_v0`, with a warning."""
    if name in __all__:
        warnings.warn(
            f"backalley.adapters.pettingzoo is deprecated; use backalley.adapters.backalley_v0 "
            f"(from backalley.adapters.backalley_v0 import {name})",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(_pettingzoo, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
