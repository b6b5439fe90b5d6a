"""Simulating many games between bots, and the statistics of each side.

A simulation is a :class:`SimulationPlan`: the rule set, one bot name per player
position, the number of games and one seed from which every game's seed is
derived, so that the same plan gives the same games wherever and however
they are run (one process, worker processes, or Ray tasks, see
:mod:`backalley.sim.ray_backend`).

- **Sides** are the rule set's sides (teams, or single seats in a cutthroat
  game) taken over the player positions: with ``players=("heuristic",
  "random", "heuristic", "random")`` side 0 is the two heuristic bots.  A
  side is named by the seats its players take (in a duplicate simulation:
  in the first game of each set), with the library's seat names
  (:func:`backalley.side_name`): ``N-S`` and ``E-W``, or a seat's name
  (``Seat 1``) when every player is alone.
- **Duplicate** (``duplicate=True``): games come in sets with the same seed,
  so the same deck orders and first dealer, where the players move round the
  table by one side each game: every side plays every seat's cards once (two
  games for two partnerships, ``n`` for ``n`` players alone).  This takes
  much of the luck of the deal out of a comparison.
- Per game (:class:`GameOutcome`): each side's points, the winning side, the
  deals played, and the contracts and boards each side made and was set in.
  A contract is made when the side takes at least the tricks it contracted
  (a board: every trick).
- :func:`iter_local` plays the games in at most ``jobs`` worker processes,
  and never more than there are games or CPUs (:func:`worker_count`): a
  larger ``jobs`` is lowered, and the outcomes do not depend on it.  Each
  game is one task, so its ``progress`` is told of every game as it
  finishes (see :data:`Progress`).
- :func:`summarize` adds the games up, in game order, into a :class:`Summary`
  per side: games won with a 95 % (Wilson) confidence interval, mean points
  per game and per deal, contracts made/set, boards made/set; ``to_data()``
  gives the same numbers as plain data (JSON).

Example::

    plan = SimulationPlan(variants.GAMERULES, ("heuristic", "random") * 2, games=40, seed=1)
    summary = summarize(plan, run_local(plan, jobs=2))

One module, one job: a simulation - its plan (which travels to worker processes
and Ray as data), its games and its sides' statistics.
"""

from __future__ import annotations

import hashlib
import math
import os
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from functools import partial
from typing import Any, TypeVar

import attrs

from backalley import GameRecord, GameState, RuleSet, from_json, new_game, to_json
from backalley.bots import (
    ExternalProgram,
    bot_factory,
    bot_notes,
    check_throw_ins,
    close_bots,
    make_bot,
    tell_game_over,
)
from backalley.errors import SetupError
from backalley.rules.seats import seat_names, side_names

__all__ = [
    "GameOutcome",
    "PlanData",
    "SimulationPlan",
    "SideSummary",
    "Summary",
    "Task",
    "available_cpus",
    "external_programs",
    "play_game",
    "play_one",
    "plan_data",
    "play_in_order",
    "play_tasks",
    "iter_local",
    "run_local",
    "summarize",
    "wilson_interval",
    "worker_count",
]

Progress = Callable[[int, int], None]
"""Called with (games done, games in all): once with 0 games done when the
games start (after any worker processes or Ray are up), then once after each
game that finishes, in the order they finish, so the counts go up by one."""

Z_95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95 % interval."""


@attrs.frozen(slots=True)
class Task:
    """One game of a plan: its index, its seed and the seating rotation."""

    index: int
    seed: int
    rotation: int


def _names(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


def _programs(
    value: Iterable[tuple[str, ExternalProgram]],
) -> tuple[tuple[str, ExternalProgram], ...]:
    out = tuple((str(name).strip().lower(), program) for name, program in value)
    for name, program in out:
        if not isinstance(program, ExternalProgram):
            raise SetupError(f"programs: {name!r} is not an ExternalProgram but {program!r}")
    return out


def external_programs(names: Iterable[str]) -> tuple[tuple[str, ExternalProgram], ...]:
    """The bot programs among the registered bots ``names`` (those registered
    as an :class:`~backalley.bots.ExternalProgram`, as ``--external`` does),
    for :attr:`SimulationPlan.programs`."""
    out = []
    for name in dict.fromkeys(names):
        factory = bot_factory(name)
        if isinstance(factory, ExternalProgram):
            out.append((name.strip().lower(), factory))
    return tuple(out)


@attrs.frozen(slots=True)
class SimulationPlan:
    """What to simulate (see the module docstring)."""

    rules: RuleSet
    players: tuple[str, ...] = attrs.field(converter=_names)
    games: int
    seed: int
    duplicate: bool = False
    records: bool = False
    """Keep each game's record (JSON text) in its outcome."""
    programs: tuple[tuple[str, ExternalProgram], ...] = attrs.field(default=(), converter=_programs)
    """Bot programs by name (see :func:`external_programs`): a player of that
    name is the program, in whatever process plays the game."""

    def __attrs_post_init__(self) -> None:
        if len(self.players) != self.rules.players:
            raise SetupError(
                f"players: one bot name per seat ({self.rules.players}), got {len(self.players)}"
            )
        if not isinstance(self.games, int) or self.games < 1:
            raise SetupError(f"games: at least 1, not {self.games!r}")
        if self.duplicate and self.games % self.rotations:
            raise SetupError(
                f"a duplicate simulation plays games in sets of {self.rotations} "
                f"(every side on every seat's cards): give a multiple of {self.rotations} games"
            )

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The player positions of each side."""
        return self.rules.teams

    @property
    def rotations(self) -> int:
        """Games in one duplicate set: one per side."""
        return len(self.rules.teams)

    def tasks(self) -> tuple[Task, ...]:
        """Every game of the plan, in order; game seeds derive from ``seed``."""
        if not self.duplicate:
            return tuple(Task(i, game_seed(self.seed, i), 0) for i in range(self.games))
        r = self.rotations
        return tuple(Task(i, game_seed(self.seed, i // r), i % r) for i in range(self.games))

    def seating(self, rotation: int) -> tuple[int, ...]:
        """The player position at each seat, the players moved on by
        ``rotation`` seats (each move puts every side on the next team's seats)."""
        n = self.rules.players
        return tuple((seat + rotation) % n for seat in range(n))

    def side_of_team(self, rotation: int) -> tuple[int, ...]:
        """The side (of player positions) that holds each team's seats."""
        position_side = {p: s for s, team in enumerate(self.sides) for p in team}
        seating = self.seating(rotation)
        out = []
        for team in self.rules.teams:
            sides = {position_side[seating[seat]] for seat in team}
            if len(sides) != 1:
                raise SetupError("the seating of this rule set cannot be rotated side by side")
            out.append(sides.pop())
        return tuple(out)


def __getattr__(name: str) -> Any:
    """``Plan``, the former name of :class:`SimulationPlan` (deprecated: one
    class of the library is called ``Plan``, the rule set's
    :class:`~backalley.rules.plan.Plan`), still imports, with a warning."""
    if name == "Plan":
        warnings.warn(
            "backalley.sim.simulate.Plan is deprecated; use SimulationPlan",
            DeprecationWarning,
            stacklevel=2,
        )
        return SimulationPlan
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def game_seed(seed: int, number: int) -> int:
    """The seed of game (or duplicate set) ``number`` of a simulation seeded ``seed``."""
    digest = hashlib.sha256(f"backalley/sim/simulate/{seed}/{number}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


@attrs.frozen(slots=True)
class GameOutcome:
    """One game's numbers, per side (see the module docstring)."""

    index: int
    seed: int
    rotation: int
    points: tuple[int, ...]
    winner: int | None
    deals: int
    contracts_made: tuple[int, ...]
    contracts_set: tuple[int, ...]
    boards_made: tuple[int, ...]
    boards_set: tuple[int, ...]
    record: str | None = None


def play_game(plan: SimulationPlan, task: Task) -> GameOutcome:
    """Play one game of ``plan`` and count it."""
    rules = plan.rules
    seating = plan.seating(task.rotation)
    names = [plan.players[p] for p in seating]
    programs = dict(plan.programs)
    bots = [
        programs.get(name.strip().lower(), partial(make_bot, name))((task.seed, seat))
        for seat, name in enumerate(names)
    ]
    state: GameState = new_game(rules, seed=task.seed)
    start = state
    moves = []
    try:
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            move = bots[seat].choose(state.view(seat))
            if plan.records:
                moves.append(move)
            state = state.apply(move)
            check_throw_ins(state)
        tell_game_over(bots, state)
    finally:
        close_bots(bots)
    sides = len(plan.sides)
    side_of = plan.side_of_team(task.rotation)
    points = [0] * sides
    made = [0] * sides
    set_ = [0] * sides
    boards_made = [0] * sides
    boards_set = [0] * sides
    for result in state.deal_results:
        for team, (contract, tricks, score) in enumerate(
            zip(result.contracts, result.tricks, result.points)
        ):
            side = side_of[team]
            points[side] += score
            if contract is None:
                continue
            ok = tricks >= contract.tricks
            (made if ok else set_)[side] += 1
            if contract.board:
                (boards_made if ok else boards_set)[side] += 1
    record = None
    if plan.records:
        record = to_json(
            GameRecord.from_game(
                start,
                moves,
                final=state,
                players=names,
                metadata={
                    "program": "backalley simulate",
                    "game": str(task.index),
                    **bot_notes(bots),
                },
            )
        )
    return GameOutcome(
        index=task.index,
        seed=task.seed,
        rotation=task.rotation,
        points=tuple(points),
        winner=None if state.winner is None else side_of[state.winner],
        deals=state.deals_played,
        contracts_made=tuple(made),
        contracts_set=tuple(set_),
        boards_made=tuple(boards_made),
        boards_set=tuple(boards_set),
        record=record,
    )


PlanData = tuple[
    str, tuple[str, ...], int, int, bool, bool, tuple[tuple[str, ExternalProgram], ...]
]
"""A plan as plain data: the rule set as JSON text, then the other fields."""


def _plan_of(data: PlanData) -> SimulationPlan:
    rules_json, players, games, seed, duplicate, records, programs = data
    return SimulationPlan(
        from_json(rules_json, RuleSet), players, games, seed, duplicate, records, programs
    )


def play_one(data: PlanData, task: Task) -> GameOutcome:
    """Play the game ``task`` of the plan given as plain data (for worker
    processes and Ray tasks: the rule set travels as JSON text, read again
    for each game at a fraction of a millisecond)."""
    return play_game(_plan_of(data), task)


def play_tasks(data: PlanData, tasks: Sequence[Task]) -> list[GameOutcome]:
    """Play ``tasks`` of the plan given as plain data, one after another."""
    plan = _plan_of(data)
    return [play_game(plan, task) for task in tasks]


def plan_data(plan: SimulationPlan) -> PlanData:
    """``plan`` as plain data for :func:`play_tasks`."""
    return (
        to_json(plan.rules), plan.players, plan.games, plan.seed, plan.duplicate, plan.records,
        plan.programs,
    )  # fmt: skip


Handle = TypeVar("Handle")


def play_in_order(
    tasks: Sequence[Task],
    submit: Callable[[Task], Handle],
    collect: Callable[[list[Handle]], list[tuple[Handle, GameOutcome]]],
    *,
    limit: int,
    progress: Progress | None = None,
) -> Iterator[GameOutcome]:
    """Play ``tasks`` elsewhere, one game a task, and yield the outcomes in
    game order.

    ``submit`` starts one game and returns a handle on it; ``collect`` waits
    until at least one of the handles given has finished and returns the
    finished ones with their outcomes.  At most ``limit`` games are started
    and not yet yielded at any time, so a long simulation holds little.
    ``progress`` hears of each game as it finishes (see :data:`Progress`).
    """
    total = len(tasks)
    if progress is not None:
        progress(0, total)
    pending: dict[Handle, int] = {}
    ready: dict[int, GameOutcome] = {}
    submitted = following = done = 0
    while following < total:
        while submitted < total and len(pending) + len(ready) < max(1, limit):
            pending[submit(tasks[submitted])] = submitted
            submitted += 1
        for handle, outcome in collect(list(pending)):
            ready[pending.pop(handle)] = outcome
            done += 1
            if progress is not None:
                progress(done, total)
        while following in ready:
            yield ready.pop(following)
            following += 1


def _finished(futures: list[Future[GameOutcome]]) -> list[tuple[Future[GameOutcome], GameOutcome]]:
    finished, _ = wait(futures, return_when=FIRST_COMPLETED)
    return [(future, future.result()) for future in futures if future in finished]


def available_cpus() -> int:
    """The CPUs this process may run on: its CPU affinity where the system
    tells it (Linux), else the machine's CPU count; at least 1."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def worker_count(jobs: int, games: int, cpus: int | None = None) -> int:
    """The workers that ``jobs`` asked for become for ``games`` games: no more
    than the games (each worker needs one), nor than the CPUs (default
    :func:`available_cpus`; more only wait for them), and at least 1."""
    most = available_cpus() if cpus is None else cpus
    return max(1, min(jobs, games, most))


def iter_local(
    plan: SimulationPlan, *, jobs: int = 1, progress: Progress | None = None
) -> Iterator[GameOutcome]:
    """Play every game of ``plan`` here, in this process (``jobs=1``) or in
    worker processes, and yield the outcomes in game order as they come (a
    long simulation need not hold them all).

    ``jobs`` is the most worker processes: never more are started than
    :func:`worker_count` allows (the games, the CPUs), and with one worker the
    games are played in this process.  The outcomes are the same whatever
    ``jobs`` is.
    """
    tasks = plan.tasks()
    total = len(tasks)
    workers = worker_count(jobs, total)
    if workers <= 1:
        if progress is not None:
            progress(0, total)
        for done, task in enumerate(tasks, 1):
            yield play_game(plan, task)
            if progress is not None:
                progress(done, total)
        return
    data = plan_data(plan)
    with ProcessPoolExecutor(max_workers=workers) as pool:

        def submit(task: Task) -> Future[GameOutcome]:
            return pool.submit(play_one, data, task)

        yield from play_in_order(tasks, submit, _finished, limit=8 * workers, progress=progress)


def run_local(
    plan: SimulationPlan, *, jobs: int = 1, progress: Progress | None = None
) -> list[GameOutcome]:
    """Every outcome of ``plan`` played here (see :func:`iter_local`), in game order."""
    return list(iter_local(plan, jobs=jobs, progress=progress))


def wilson_interval(wins: int, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / games``."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == games else min(1.0, centre + half)
    return (low, high)


@attrs.frozen(slots=True)
class SideSummary:
    """One side's totals over a simulation."""

    side: int
    name: str
    """The side's name from its seats: ``N-S``, ``E-W``, or one seat's name."""
    seats: tuple[str, ...]
    """The names of the seats its players take (North, South; Seat 1)."""
    players: tuple[str, ...]
    games: int
    wins: int
    draws: int
    points: int
    deals: int
    contracts_made: int
    contracts_set: int
    boards_made: int
    boards_set: int

    @property
    def label(self) -> str:
        """The side's name with its bots: ``N-S (heuristic)``, or
        ``N-S (heuristic + random)`` when its players differ."""
        bots = dict.fromkeys(self.players)
        return f"{self.name} ({' + '.join(bots)})"

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        """The 95 % (Wilson) confidence interval of the share of games won."""
        return wilson_interval(self.wins, self.games)

    @property
    def points_per_game(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def points_per_deal(self) -> float:
        return self.points / self.deals if self.deals else 0.0

    def to_data(self) -> dict[str, Any]:
        low, high = self.win_interval
        return {
            "side": self.side,
            "name": self.name,
            "label": self.label,
            "seats": list(self.seats),
            "players": list(self.players),
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "win_rate": self.win_rate,
            "win_rate_95": [low, high],
            "points": self.points,
            "points_per_game": self.points_per_game,
            "points_per_deal": self.points_per_deal,
            "contracts_made": self.contracts_made,
            "contracts_set": self.contracts_set,
            "boards_made": self.boards_made,
            "boards_set": self.boards_set,
        }


@attrs.frozen(slots=True)
class Summary:
    """A whole simulation's results, one :class:`SideSummary` per side."""

    variant: str
    players: tuple[str, ...]
    games: int
    seed: int
    duplicate: bool
    deals: int
    draws: int
    sides: tuple[SideSummary, ...]

    def to_data(self) -> dict[str, Any]:
        """The summary as plain data (for JSON)."""
        return {
            "variant": self.variant,
            "players": list(self.players),
            "games": self.games,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "deals": self.deals,
            "draws": self.draws,
            "sides": [side.to_data() for side in self.sides],
        }


def summarize(plan: SimulationPlan, outcomes: Iterable[GameOutcome]) -> Summary:
    """Add up ``outcomes`` per side.

    Every figure is a sum of whole numbers, so the order in which the games
    come does not change the summary, and the outcomes are read only once.
    """
    count = len(plan.sides)
    games = draws = deals = 0
    wins = [0] * count
    columns = ("points", "contracts_made", "contracts_set", "boards_made", "boards_set")
    sums = {name: [0] * count for name in columns}
    for o in outcomes:
        games += 1
        deals += o.deals
        if o.winner is None:
            draws += 1
        else:
            wins[o.winner] += 1
        for name in columns:
            column = sums[name]
            for side, value in enumerate(getattr(o, name)):
                column[side] += value
    seats = seat_names(plan.rules)
    sides_named = side_names(plan.rules)
    sides = tuple(
        SideSummary(
            side=s,
            name=sides_named[s],
            seats=tuple(seats[p] for p in plan.sides[s]),
            players=tuple(plan.players[p] for p in plan.sides[s]),
            games=games,
            wins=wins[s],
            draws=draws,
            points=sums["points"][s],
            deals=deals,
            contracts_made=sums["contracts_made"][s],
            contracts_set=sums["contracts_set"][s],
            boards_made=sums["boards_made"][s],
            boards_set=sums["boards_set"][s],
        )
        for s in range(count)
    )
    return Summary(
        variant=plan.rules.name or "custom rules",
        players=plan.players,
        games=games,
        seed=plan.seed,
        duplicate=plan.duplicate,
        deals=deals,
        draws=draws,
        sides=sides,
    )
