"""Simulating on Ray: the games of a :class:`~backalley.sim.simulate.Plan` as Ray
tasks, on a running cluster or on a Ray instance started here.

Needs the ``ray`` extra (``pip install 'backalley[ray]'``).  The games, their
seeds and their outcomes are those of :func:`backalley.sim.simulate.run_local`,
so :func:`backalley.sim.simulate.summarize` gives exactly the same summary for
the same plan; only where the games are played differs.  Every node of the
cluster must have ``backalley`` installed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from backalley.errors import SetupError
from backalley.sim.simulate import (
    GameOutcome,
    Plan,
    Progress,
    chunk_size,
    chunks,
    plan_data,
    play_tasks,
    worker_count,
)

__all__ = ["iter_ray", "local_cpus", "run_ray"]


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise SetupError("the Ray backend needs Ray: pip install 'backalley[ray]'") from None
    return ray


def local_cpus(cpus: int | None, games: int) -> int | None:
    """The CPUs of a Ray instance started here for ``games`` games when
    ``cpus`` are asked for: no more than the games nor this machine's CPUs
    (see :func:`~backalley.sim.simulate.worker_count`); ``None`` stays
    ``None``, Ray's own default (every CPU)."""
    return None if cpus is None else worker_count(cpus, games)


def iter_ray(
    plan: Plan,
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
    the end.  At most a few tasks per CPU are in flight at once, so a long
    simulation holds little in memory.
    """
    ray = _ray()
    started = False
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, logging_level="WARNING", log_to_driver=False)
            else:
                ray.init(
                    num_cpus=local_cpus(cpus, plan.games),
                    include_dashboard=False,
                    logging_level="WARNING",
                    log_to_driver=False,
                )
        except Exception as exc:  # Ray raises many kinds; each means "no cluster here"
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise SetupError(f"cannot start or reach {where}: {exc}") from None
        started = True
    try:
        tasks = plan.tasks()
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        parts = chunks(tasks, chunk_size(len(tasks), workers))
        remote = ray.remote(play_tasks)
        data = ray.put(plan_data(plan))
        limit = 4 * workers
        submitted = 0
        pending: dict[Any, int] = {}
        ready: dict[int, list[GameOutcome]] = {}
        following = done = 0
        while following < len(parts):
            while submitted < len(parts) and len(pending) + len(ready) < limit:
                pending[remote.remote(data, parts[submitted])] = submitted
                submitted += 1
            finished, _ = ray.wait(list(pending), num_returns=1)
            for ref in finished:
                ready[pending.pop(ref)] = ray.get(ref)
            while following in ready:
                part = ready.pop(following)
                following += 1
                yield from part
                done += len(part)
                if progress is not None:
                    progress(done, len(tasks))
    finally:
        if started:
            ray.shutdown()


def run_ray(
    plan: Plan,
    *,
    address: str | None = None,
    cpus: int | None = None,
    progress: Progress | None = None,
) -> list[GameOutcome]:
    """Every outcome of ``plan`` played as Ray tasks (see :func:`iter_ray`), in game order."""
    return list(iter_ray(plan, address=address, cpus=cpus, progress=progress))
