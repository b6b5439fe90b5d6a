"""Simulating on Ray: the games of a :class:`~backalley.simulate.Plan` as Ray
tasks, on a running cluster or on a Ray instance started here.

Needs the ``ray`` extra (``pip install 'backalley[ray]'``).  The games, their
seeds and their outcomes are those of :func:`backalley.simulate.run_local`,
so :func:`backalley.simulate.summarize` gives exactly the same summary for
the same plan; only where the games are played differs.  Every node of the
cluster must have ``backalley`` installed.
"""

from __future__ import annotations

from typing import Any

from backalley.errors import SetupError
from backalley.simulate import (
    GameOutcome,
    Plan,
    Progress,
    chunk_size,
    chunks,
    plan_data,
    play_tasks,
)

__all__ = ["run_ray"]


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise SetupError("the Ray backend needs Ray: pip install 'backalley[ray]'") from None
    return ray


def run_ray(
    plan: Plan,
    *,
    address: str | None = None,
    cpus: int | None = None,
    progress: Progress | None = None,
) -> list[GameOutcome]:
    """Play every game of ``plan`` as Ray tasks; the outcomes come in game order.

    Uses Ray as it is when it is already initialized; else connects to the
    cluster at ``address`` (``"auto"``: the one running on this machine), or
    starts a local instance with ``cpus`` CPUs (default: all) and stops it at
    the end.
    """
    ray = _ray()
    started = False
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, logging_level="WARNING", log_to_driver=False)
            else:
                ray.init(
                    num_cpus=cpus,
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
        pending = {remote.remote(data, part): k for k, part in enumerate(parts)}
        results: dict[int, list[GameOutcome]] = {}
        done = 0
        waiting = list(pending)
        while waiting:
            ready, waiting = ray.wait(waiting, num_returns=1)
            for ref in ready:
                part = ray.get(ref)
                results[pending[ref]] = part
                done += len(part)
                if progress is not None:
                    progress(done, len(tasks))
        return [outcome for k in range(len(parts)) for outcome in results[k]]
    finally:
        if started:
            ray.shutdown()
