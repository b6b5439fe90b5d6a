"""Rank equivalence: the classes of equivalent cards of one hand in one group.

Two cards of one group in one hand are equivalent when no card of another
hand (or on the table) lies between them: whichever of them is played, the
rest of the play is the same up to the cards' names.  The search tries one
card of each class (:mod:`backalley.solver._order`).
"""

from __future__ import annotations

__all__ = ["Classes", "classes_of"]

Classes = tuple[tuple[int, int], ...]
"""Classes of equivalent cards, each as (its lowest card, its highest card)."""


def classes_of(mine: int, others: int) -> tuple[tuple[int, int], ...]:
    """The classes of equivalent cards among ``mine`` (cards of one group):
    runs with no card of ``others`` between them, as (lowest, highest)."""
    out = []
    rep = prev = -1
    while mine:
        low = mine & -mine
        mine ^= low
        c = low.bit_length() - 1
        if prev >= 0 and not others & (low - (2 << prev)):
            prev = c
            continue
        if rep >= 0:
            out.append((rep, prev))
        rep = prev = c
    out.append((rep, prev))
    return tuple(out)
