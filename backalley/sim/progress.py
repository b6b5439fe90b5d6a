"""The time a simulation has left, from its own pace so far.

A :class:`TimeLeft` is told the games done as they finish (the
:data:`~backalley.sim.simulate.Progress` calls: first 0 when the games
start, then one more per game) and answers the time left as the time taken
so far per game times the games still to play:
``elapsed / done * (total - done)``.  Nothing is guessed before the first
game has finished.

``backalley simulate`` draws its bar with ``rich.progress`` (the ``cli``
extra) and shows this estimate in it, rather than rich's own
``TimeRemainingColumn``, whose estimate is the pace of the games finished in
the last 30 seconds, measured from the first game finished.  With worker
processes the games finish in bursts (``--jobs 4``, 10 s a game: 4 games
within milliseconds every 10 s), and after the first burst rich's estimate
says 1 second left of 90; with games longer than 30 seconds (slow bots) it
never shows one.  This one, measured from the start, says 90 seconds after
the first burst.  It is also the estimate of the plain progress line, drawn
without rich, and this module imports nothing outside the standard library.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["TimeLeft", "format_time_left"]


class TimeLeft:
    """The time left of a run of games (see the module docstring).

    ``clock`` gives the time in seconds (default :func:`time.monotonic`);
    the run starts at the call with 0 games done, or at the first call if
    there is none.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._start: float | None = None

    def __call__(self, done: int, total: int) -> float | None:
        """The seconds left after ``done`` of ``total`` games, or ``None``
        while no game has finished."""
        now = self._clock()
        if self._start is None or done == 0:
            self._start = now
        if done <= 0:
            return None
        return (now - self._start) / done * max(0, total - done)


def format_time_left(seconds: float | None) -> str:
    """``"1:05 left"``, ``"1:02:03 left"``; ``"time left unknown"`` for ``None``."""
    if seconds is None:
        return "time left unknown"
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    shown = f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
    return f"{shown} left"
