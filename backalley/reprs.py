"""The text form of the library's attrs value classes, written once.

attrs compiles a ``__repr__`` for every class it decorates, and compiling
is most of what creating a class costs at import time.  The value classes
(moves, rule parts, rule sets, deal records) are declared with
``repr=False`` and share :func:`fields_repr`, which gives the text attrs
would have generated: ``ClassName(field=value, ...)`` over the fields that
show in the repr (a field's own ``repr=`` callable is honoured).

A class of a module that the optional compiled build compiles (mypyc) takes
it through the :func:`with_fields_repr` decorator instead of a ``__repr__ =
fields_repr`` line in its body, which mypyc would hand to attrs as a field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

__all__ = ["fields_repr", "with_fields_repr"]

_C = TypeVar("_C", bound=type)


def fields_repr(self: Any) -> str:
    """``ClassName(field=value, ...)``, as attrs' generated ``__repr__`` writes it."""
    cls = type(self)
    shown: tuple[tuple[str, Callable[[Any], str]], ...] = tuple(
        (a.name, repr if a.repr is True else a.repr)
        for a in cls.__attrs_attrs__
        if a.repr is not False
    )
    inner = ", ".join(f"{name}={show(getattr(self, name, attrs.NOTHING))}" for name, show in shown)
    return f"{cls.__qualname__.rsplit('>.', 1)[-1]}({inner})"


def with_fields_repr(cls: _C) -> _C:
    """``cls`` with :func:`fields_repr` as its ``__repr__`` (a class decorator,
    outside attrs' own: ``@with_fields_repr`` above ``@attrs.frozen(...,
    repr=False)``).  The same class as a ``__repr__ = fields_repr`` line in
    its body gives, for the modules that mypyc compiles."""
    target: Any = cls  # a class's method set on it, which mypy does not allow as typed
    target.__repr__ = fields_repr
    return cls
