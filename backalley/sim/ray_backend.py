"""Simulating on Ray: the games of a :class:`~backalley.sim.simulate.SimulationPlan` as Ray
tasks, on a running cluster or on a Ray instance started here.

Needs the ``ray`` extra (``pip install 'backalley[ray]'``).  The games, their
seeds and their outcomes are those of :func:`backalley.sim.simulate.run_local`,
so :func:`backalley.sim.simulate.summarize` gives exactly the same summary for
the same plan; only where the games are played differs.  Every node of the
cluster must have ``backalley`` installed.

Each game is one Ray task, so progress is reported game by game.  Ray's own
messages are kept off the terminal when this module starts or joins Ray:
only its errors are logged, its workers' output is not forwarded, and its
known warnings at start-up are silenced; a Ray that the caller initialized
is used as it is.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from typing import Any

from backalley.errors import SetupError
from backalley.sim.simulate import (
    GameOutcome,
    Progress,
    SimulationPlan,
    Task,
    plan_data,
    play_in_order,
    play_one,
    worker_count,
)

__all__ = ["iter_ray", "local_cpus", "run_ray"]


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise SetupError("the Ray backend needs Ray: pip install 'backalley[ray]'") from None
    return ray


QUIET = {"logging_level": logging.ERROR, "log_to_driver": False, "configure_logging": True}
"""How Ray is started or joined here: its driver logs errors only (no
start-up notes or warnings, such as the one on token authentication) and the
workers' output stays in Ray's log files."""


def _start(ray: Any, address: str | None, cpus: int | None) -> None:
    """Join the cluster at ``address``, or start a local instance of ``cpus``
    CPUs, quietly (see :data:`QUIET`)."""
    with warnings.catch_warnings():
        # Ray warns of its own deprecations and settings as it starts; none
        # is the user's to act on in a simulation.
        warnings.simplefilter("ignore", FutureWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", UserWarning)
        if address:
            ray.init(address=address, **QUIET)
        else:
            ray.init(num_cpus=cpus, include_dashboard=False, **QUIET)


def local_cpus(cpus: int | None, games: int) -> int | None:
    """The CPUs of a Ray instance started here for ``games`` games when
    ``cpus`` are asked for: no more than the games nor this machine's CPUs
    (see :func:`~backalley.sim.simulate.worker_count`); ``None`` stays
    ``None``, Ray's own default (every CPU)."""
    return None if cpus is None else worker_count(cpus, games)


def iter_ray(
    plan: SimulationPlan,
    *,
    address: str | None = None,
    cpus: int | None = None,
    progress: Progress | None = None,
) -> Iterator[GameOutcome]:
    """Play every game of ``plan`` as Ray tasks and yield the outcomes in game
    order as they come.

    Uses Ray as it is when it is already initialized; else connects to the
    cluster at ``address`` (``"auto"``: the one running on this machine), or
    starts a local instance with ``cpus`` CPUs (default: all; never more than
    the games or this machine's CPUs, see :func:`local_cpus`) and stops it at
    the end.  Each game is one task and ``progress`` hears of each as it
    finishes (see :data:`~backalley.sim.simulate.Progress`).  At most a few
    games per CPU are in flight at once, so a long simulation holds little
    in memory.
    """
    ray = _ray()
    started = False
    if not ray.is_initialized():
        try:
            _start(ray, address, local_cpus(cpus, plan.games))
        except Exception as exc:  # Ray raises many kinds; each means "no cluster here"
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise SetupError(f"cannot start or reach {where}: {exc}") from None
        started = True
    try:
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(play_one)
        data = ray.put(plan_data(plan))

        def submit(task: Task) -> Any:
            return remote.remote(data, task)

        def collect(refs: list[Any]) -> list[tuple[Any, GameOutcome]]:
            finished, _ = ray.wait(refs, num_returns=1)
            return [(ref, ray.get(ref)) for ref in finished]

        yield from play_in_order(
            plan.tasks(), submit, collect, limit=4 * workers, progress=progress
        )
    finally:
        if started:
            ray.shutdown()


def run_ray(
    plan: SimulationPlan,
    *,
    address: str | None = None,
    cpus: int | None = None,
    progress: Progress | None = None,
) -> list[GameOutcome]:
    """Every outcome of ``plan`` played as Ray tasks (see :func:`iter_ray`), in game order."""
    return list(iter_ray(plan, address=address, cpus=cpus, progress=progress))
