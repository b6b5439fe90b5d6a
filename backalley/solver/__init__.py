"""An exact double-dummy solver for the play of any rule set.

With every hand known, :func:`solve` gives the number of the remaining tricks
(the current, unfinished trick included) that the side of the seat to act
takes when every seat plays its best, and :func:`analyse` gives that number
after each legal card::

    from backalley.solver import analyse, solve

    tricks = solve(state)                # state.phase is Phase.PLAYING
    values = analyse(state)              # {Play(card): tricks, ...}
    assert max(values.values()) == tricks

The *side* is the seat's team with partnerships; without partnerships it is
the seat alone, against all the other seats together (they minimise its
tricks).  The rules of play (following, jokers, blooper forcing, leading
trump, who wins a trick) are the state's own rules, asked through the same
functions as the engine's legality, so a new rule is solved without changes
here.

A :class:`Solver` keeps its transposition tables between calls (the
positions of one deal, the sampled layouts of one decision)::

    solver = Solver()
    values = solver.solve_many(layouts)  # one table for all of them

Every entry takes ``deadline=`` (CPU seconds) and ``max_nodes=``
(positions searched); past either it raises :class:`SearchLimitError`,
which carries the bounds proved so far (``lower <= answer <= upper``).

The solver is a tool: ``import backalley`` does not import it.
"""

from __future__ import annotations

from backalley.solver._limits import SearchLimitError
from backalley.solver._solver import Solver, analyse, solve

__all__ = ["SearchLimitError", "Solver", "analyse", "solve"]
