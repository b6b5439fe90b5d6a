"""Values made once per object, remembered by the object's identity.

The engine's values are immutable and shared (a rule set by every state of
its games, a deal result by every later state), so a text written from one
can be written once.  Such values need not be hashable, and hashing a large
one would cost more than the look-up saves: :class:`IdentityMemo` keys them
by ``id`` instead, and each entry holds its object, so that the id cannot
be reused by another object while the entry lives.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["IdentityMemo"]

K = TypeVar("K")
V = TypeVar("V")


class IdentityMemo(Generic[K, V]):
    """``make(obj)``, made once per object while it is remembered; at most
    ``limit`` entries (the memo starts afresh beyond)."""

    __slots__ = ("_limit", "_make", "_table")

    def __init__(self, make: Callable[[K], V], limit: int) -> None:
        self._make = make
        self._limit = limit
        self._table: dict[int, tuple[K, V]] = {}

    def __call__(self, obj: K) -> V:
        table = self._table
        hit = table.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        value = self._make(obj)
        if len(table) >= self._limit:
            table.clear()
        table[id(obj)] = (obj, value)
        return value
