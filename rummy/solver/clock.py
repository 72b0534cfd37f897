"""The solver's clock: the CPU time of the thread that solves, so that a time limit
counts the solve's own work and not its neighbours' (on a busy machine a wall-clock
limit cuts solves short and their answers come back worse).

Every deadline in the solver is an instant of ``now()``. A solve runs in one thread
(HiGHS works in the calling thread too), so its thread's CPU time is
the solve's; a server's worker threads each count their own. Wall-clock time is only a
last guard: while a solve holds a ``ceiling`` (a ``time.perf_counter`` instant), once
it is past ``now()`` reads infinity, and so every deadline is past at once.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

_local = threading.local()


def cpu() -> float:
    """This thread's CPU time (seconds)."""
    return time.thread_time()


def wall() -> float:
    """Wall-clock time (seconds)."""
    return time.perf_counter()


def now() -> float:
    """The solver's time: this thread's CPU time, or infinity past the ceiling."""
    ceiling = getattr(_local, "ceiling", None)
    if ceiling is not None and wall() > ceiling:
        return math.inf
    return cpu()


@contextmanager
def ceiling(seconds: float) -> Iterator[None]:
    """A wall-clock ceiling ``seconds`` from now for what runs inside, in this thread
    (an outer ceiling that is sooner stays)."""
    outer = getattr(_local, "ceiling", None)
    here = wall() + seconds
    _local.ceiling = here if outer is None or here < outer else outer
    try:
        yield
    finally:
        _local.ceiling = outer


def wall_left() -> float:
    """The wall-clock seconds left before this thread's ceiling (infinity without one):
    the time limit for a library that keeps its own time by the wall clock (HiGHS),
    whose CPU time the solver's clock checks itself."""
    end: float | None = getattr(_local, "ceiling", None)
    if end is None:
        return math.inf
    return max(0.0, end - wall())
