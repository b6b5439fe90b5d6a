"""The public entries: :class:`Solver`, and the one-shot :func:`solve` and :func:`analyse`.

A :class:`Solver` keeps its transposition tables between calls, one per
(rule set with the deal's context, effective trump, maximising side, and -
when the rules' legal plays read the cards played before - the cards of
the deal), so that solving the successive positions of one deal, the leads
of one position, or the sampled layouts of one decision reuses what the
earlier calls learnt.  The tables are bounded (``max_entries`` entries
each, ``max_tables`` tables, the least recently used dropped first).

Every entry takes ``deadline=`` (CPU seconds of the calling thread) and
``max_nodes=`` (positions searched) and raises
:class:`~backalley.solver.SearchLimitError` past either, carrying the bounds
proved so far.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable

from backalley.engine import lowlevel
from backalley.engine.state import GameState
from backalley.errors import SetupError
from backalley.moves import Move
from backalley.solver._limits import Budget, LimitReached, SearchLimitError
from backalley.solver._plan import plan_for
from backalley.solver._search import Search
from backalley.solver._table import TranspositionTable

__all__ = ["Solver", "analyse", "solve"]


def _position(state: GameState) -> lowlevel.RawPosition:
    if not isinstance(state, GameState):
        raise SetupError(
            f"the solver needs a GameState (full information), got {type(state).__name__}"
        )
    position = lowlevel.raw_position(state)
    if position is None:
        raise SetupError(
            f"the solver works on the play of a deal, but this state is in the "
            f"{state.phase.value} phase"
        )
    return position


def _seat(pos: lowlevel.RawPosition) -> int:
    return (pos.leader + len(pos.trick)) % len(pos.hands)


def _limit_error(
    budget: Budget,
    lower: int,
    upper: int,
    bounds: dict[object, tuple[int, int]] | None = None,
    solved: list[int] | None = None,
) -> SearchLimitError:
    seconds = budget.seconds()
    if budget.hit == "nodes":
        why = f"its node limit (max_nodes={budget.max_nodes})"
    else:
        why = f"its deadline ({budget.deadline - budget.started:g} s of CPU)"  # type: ignore[operator]
    plural = "" if budget.nodes == 1 else "s"
    return SearchLimitError(
        f"the solver reached {why} after searching {budget.nodes} position{plural} "
        f"in {seconds:.3f} s: the answer lies in {lower}..{upper}",
        lower=lower,
        upper=upper,
        nodes=budget.nodes,
        seconds=seconds,
        bounds=bounds,
        solved=solved,
    )


def _solve(search: Search, pos: lowlevel.RawPosition) -> int:
    return search.value(pos.hands, pos.leader, pos.broken, pos.trick)


def _analyse(
    search: Search, pos: lowlevel.RawPosition, state: GameState, budget: Budget
) -> dict[Move, int]:
    out: dict[Move, int] = {}
    moves = state.legal_moves()
    left = pos.hands[_seat(pos)].bit_count()
    for move in moves:
        card = move.card.index  # type: ignore[union-attr]
        try:
            out[move] = search.after(pos.hands, pos.leader, pos.broken, pos.trick, card)
        except LimitReached:
            bounds: dict[object, tuple[int, int]] = {m: (v, v) for m, v in out.items()}
            bounds[move] = (search.lower, search.upper)
            for rest in moves[len(bounds) :]:
                bounds[rest] = (0, left)
            lower = max(lo for lo, _hi in bounds.values())
            upper = max(hi for _lo, hi in bounds.values())
            raise _limit_error(budget, lower, upper, bounds) from None
    return out


def solve(state: GameState, *, deadline: float | None = None, max_nodes: int | None = None) -> int:
    """The number of the remaining tricks (the current trick included) that
    the side of ``state.to_act`` takes when every seat plays its best with
    all hands known.

    ``deadline`` (CPU seconds of the calling thread) and ``max_nodes``
    (positions searched) bound the call: past either it raises
    :class:`~backalley.solver.SearchLimitError`, whose ``lower`` and
    ``upper`` bound the answer.  Raises :class:`~backalley.SetupError` for a
    state that is not in the playing phase.  Each call builds its own
    search; a :class:`~backalley.solver.Solver` keeps its table between calls.
    """
    pos = _position(state)
    budget = Budget(deadline, max_nodes)
    search = Search(pos, _seat(pos), budget=budget)
    try:
        return _solve(search, pos)
    except LimitReached:
        raise _limit_error(budget, search.lower, search.upper) from None
    finally:
        search.release()


def analyse(
    state: GameState, *, deadline: float | None = None, max_nodes: int | None = None
) -> dict[Move, int]:
    """Each legal move of ``state.to_act`` mapped to the number of the
    remaining tricks (the current trick included) that the side of
    ``state.to_act`` takes after it, every seat then playing its best.

    ``max(analyse(state).values()) == solve(state)``.  The moves come in the
    order of :meth:`~backalley.GameState.legal_moves`.  ``deadline`` and
    ``max_nodes`` bound the whole call as for :func:`solve` (the error's
    ``bounds`` then hold each move's bounds).  Raises
    :class:`~backalley.SetupError` for a state that is not in the playing
    phase.
    """
    pos = _position(state)
    budget = Budget(deadline, max_nodes)
    search = Search(pos, _seat(pos), budget=budget)
    try:
        return _analyse(search, pos, state, budget)
    finally:
        search.release()


class Solver:
    """A double-dummy solver that keeps what it learns between calls.

    Use one :class:`Solver` for the positions of one deal (a bot solving at
    each of its turns), for the leads of one position (:meth:`analyse`), or
    for the layouts a bot samples for one decision (:meth:`solve_many`): its
    transposition tables, keyed by relative ranks, answer positions that
    recur between them.  The answers are the same as :func:`solve` and
    :func:`analyse` give; only the work differs.

    ``max_entries`` bounds each table (past it, the table is emptied);
    ``max_tables`` bounds how many tables are kept (one per rule set and
    deal context, trump and side).  A solver is not safe to share between
    threads: give each thread its own.
    """

    def __init__(self, *, max_entries: int = 1_000_000, max_tables: int = 8) -> None:
        if max_entries < 1 or max_tables < 1:
            raise SetupError("a Solver needs max_entries >= 1 and max_tables >= 1")
        self.max_entries = max_entries
        self.max_tables = max_tables
        self._tables: OrderedDict[object, TranspositionTable] = OrderedDict()
        self.nodes = 0
        """Positions searched by the last call (one per card tried)."""
        self.trick_nodes = 0
        """Positions at the start of a trick that the last call reached by
        playing a trick (the count DDS reports as its nodes)."""

    def clear(self) -> None:
        """Forget every table."""
        self._tables.clear()

    def _search(self, pos: lowlevel.RawPosition, budget: Budget) -> Search:
        seat = _seat(pos)
        teams = pos.rules.rules.seat_teams
        side = tuple(team == teams[seat] for team in teams)
        plan = plan_for(pos.rules, pos.trump)
        key: object = (pos.rules, pos.trump, side)
        if plan.by_seat:
            # the legal plays read who played the cards before: who held each
            # card of the deal tells it from the cards left, in this layout only
            key = (key, pos.owners())
        elif plan.history:
            # the legal plays read the cards played before: the cards of the
            # deal tell them from the cards left, in this deal only
            dealt = pos.played
            for h in pos.hands:
                dealt |= h
            for c in pos.trick:
                dealt |= 1 << c
            key = (key, dealt)
        table = self._tables.get(key)
        if table is None:
            table = TranspositionTable(self.max_entries)
            self._tables[key] = table
            while len(self._tables) > self.max_tables:
                self._tables.popitem(last=False)
        else:
            self._tables.move_to_end(key)
        return Search(pos, seat, table, budget)

    def _done(self, budget: Budget) -> None:
        self.nodes = budget.nodes
        self.trick_nodes = budget.tricks

    def solve(
        self, state: GameState, *, deadline: float | None = None, max_nodes: int | None = None
    ) -> int:
        """As :func:`~backalley.solver.solve`, with this solver's tables."""
        pos = _position(state)
        budget = Budget(deadline, max_nodes)
        search = self._search(pos, budget)
        try:
            return _solve(search, pos)
        except LimitReached:
            raise _limit_error(budget, search.lower, search.upper) from None
        finally:
            self._done(budget)

    def analyse(
        self, state: GameState, *, deadline: float | None = None, max_nodes: int | None = None
    ) -> dict[Move, int]:
        """As :func:`~backalley.solver.analyse`, with this solver's tables."""
        pos = _position(state)
        budget = Budget(deadline, max_nodes)
        search = self._search(pos, budget)
        try:
            return _analyse(search, pos, state, budget)
        finally:
            self._done(budget)

    def solve_many(
        self,
        states: Iterable[GameState],
        *,
        deadline: float | None = None,
        max_nodes: int | None = None,
    ) -> list[int]:
        """:meth:`solve` of each state, in order (the sampled layouts of one
        decision, say); ``deadline`` and ``max_nodes`` bound the whole call,
        and the error's ``solved`` holds the answers found before the limit."""
        budget = Budget(deadline, max_nodes)
        out: list[int] = []
        try:
            for state in states:
                pos = _position(state)
                search = self._search(pos, budget)
                try:
                    out.append(_solve(search, pos))
                except LimitReached:
                    raise _limit_error(budget, search.lower, search.upper, solved=out) from None
        finally:
            self._done(budget)
        return out
