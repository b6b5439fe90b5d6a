"""Limits on a search: a node budget and a deadline, and the error that ends it.

Every public entry of the solver takes ``deadline=`` (seconds of CPU time of
the calling thread, :func:`time.thread_time`; the process's where there is
no such clock, as in Pyodide) and ``max_nodes=`` (positions
searched, one per card tried).  The search counts its positions in a
:class:`Budget` and looks at the clock after a few of them, then about every
millisecond of CPU by the rate it has measured (a count of positions, so
the check costs a comparison a position; the first look comes after
:data:`_FIRST` positions, so that a search slow at the top of a deep tree
learns its rate before it has run far); past a
limit it stops by raising :class:`SearchLimitError`, which carries the
bounds on the answer proved so far.  What the search had stored in its
table stays valid, so a :class:`~backalley.solver.Solver` asked again (with
a larger limit) goes on from there.
"""

from __future__ import annotations

import time

from backalley.errors import BackAlleyError, SetupError

__all__ = ["Budget", "SearchLimitError"]

_FIRST = 16
"""How many positions the search plays before its first look at the clock."""
_GAP = 0.001
"""The CPU seconds aimed at between two looks at the clock (a look costs a
microsecond or two: a tenth of a percent of the search's time)."""
_MOST = 4096
"""The most positions between two looks at the clock, whatever the rate."""

try:
    _thread_time = time.thread_time
except AttributeError:  # pragma: no cover - CPython has it; Pyodide (Emscripten) does not
    # one thread there: the process's CPU time is the thread's
    _thread_time = time.process_time


class SearchLimitError(BackAlleyError):
    """A solver call reached its ``deadline`` or ``max_nodes`` before it had
    the answer.

    ``lower`` and ``upper`` bound the answer (the tricks :func:`solve` would
    have returned: ``lower <= answer <= upper``, proved by the search so
    far); ``bounds`` maps each move to its bounds for :func:`analyse` (the
    moves not reached have the trivial bounds), and is empty for
    :func:`solve`; ``solved`` holds the answers of the states a
    :meth:`~backalley.solver.Solver.solve_many` call finished before the
    limit.  ``nodes`` and ``seconds`` say how much the call searched.
    """

    def __init__(
        self,
        message: str,
        *,
        lower: int,
        upper: int,
        nodes: int,
        seconds: float,
        bounds: dict[object, tuple[int, int]] | None = None,
        solved: list[int] | None = None,
    ) -> None:
        super().__init__(message)
        self.lower = lower
        self.upper = upper
        self.nodes = nodes
        self.seconds = seconds
        self.bounds: dict[object, tuple[int, int]] = {} if bounds is None else bounds
        self.solved: list[int] = [] if solved is None else solved


class LimitReached(Exception):
    """Raised inside the search when its budget is spent (turned into a
    :class:`SearchLimitError` with the bounds known by the public entry)."""


class Budget:
    """The positions searched by a call and its limits."""

    __slots__ = ("check_at", "deadline", "hit", "max_nodes", "nodes", "started", "tricks")

    def __init__(self, deadline: object = None, max_nodes: object = None) -> None:
        # typed `object` and narrowed here, so that the compiled build raises this
        # SetupError for a wrong argument too (not mypyc's TypeError at the call)
        if deadline is not None and (
            not isinstance(deadline, (int, float))
            or isinstance(deadline, bool)
            or not deadline >= 0
        ):
            raise SetupError(f"deadline must be a number of seconds >= 0, not {deadline!r}")
        if max_nodes is not None and (
            not isinstance(max_nodes, int) or isinstance(max_nodes, bool) or max_nodes < 0
        ):
            raise SetupError(f"max_nodes must be an int >= 0, not {max_nodes!r}")
        self.nodes = 0
        """Positions searched (one per card tried)."""
        self.tricks = 0
        """Positions at the start of a trick reached by playing one (DDS's node count)."""
        self.max_nodes = max_nodes
        self.started = _thread_time()
        self.deadline = None if deadline is None else self.started + deadline
        self.check_at = 0
        self.hit = ""
        """The limit reached ("nodes" or "deadline"), once one is."""
        self._plan(self.started)

    def _plan(self, now: float) -> None:
        """Plan the next look: after about :data:`_GAP` CPU seconds at the
        rate of positions measured so far (no more than half the time left,
        at least one position), or at ``max_nodes``."""
        deadline = self.deadline
        if deadline is None:
            at = 1 << 62
        elif self.nodes == 0:
            at = _FIRST
        else:
            spent = now - self.started
            gap = min(_GAP, 0.5 * (deadline - now))
            step = int(self.nodes * gap / spent) if spent > 0 else _MOST
            at = self.nodes + max(1, min(step, _MOST))
        if self.max_nodes is not None and self.max_nodes < at:
            at = self.max_nodes + 1
        self.check_at = at

    def seconds(self) -> float:
        """CPU seconds of the calling thread since the budget was made."""
        return _thread_time() - self.started

    def check(self) -> None:
        """Called when ``nodes`` reaches ``check_at``: raise
        :class:`LimitReached` past a limit, else plan the next look."""
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            self.hit = "nodes"
        else:
            now = _thread_time() if self.deadline is not None else 0.0
            if self.deadline is None or now < self.deadline:
                self._plan(now)
                return
            self.hit = "deadline"
        self.nodes -= 1  # the position that found the limit is not searched
        raise LimitReached
