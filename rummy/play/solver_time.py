"""The solver time a person's requests may spend: ``CPU_SECONDS_PER_MINUTE`` of CPU per
user and minute, over all their games and every worker.

Hints run the solver inside the player's request, and one account can hold several
practice games, so without a budget one person could keep a worker's core busy. The
spend is kept in Django's cache (Redis in production, shared by every worker; the
single-process default keeps it in that process's memory), one counter per user and
minute of the clock, in milliseconds.

A request reserves the most a solve may take *before* it solves (an atomic ``incr``),
so that many requests at once cannot all pass a check made before any of them spent
anything; after the solve the reservation is settled to the CPU time measured. A
request that does not fit in what is left is refused without solving.

``cpu_time`` and ``minute`` are read through this module at every call, so that tests
substitute them (the machine's own clocks are never asserted on).
"""

import contextlib
import time
from dataclasses import dataclass

from django.core.cache import cache

#: CPU seconds of solving one user may spend per minute (a hint on a full table takes a
#: few tenths of a second: enough for several hints a minute over all of one's games)
CPU_SECONDS_PER_MINUTE = 3.0

# The counters outlive their minute a little, for a solve that ends in the next one.
_KEEP_SECONDS = 120


def cpu_time() -> float:
    """The CPU time of this thread (the solve runs in the request's own thread)."""
    return time.thread_time()


def minute() -> int:
    """The minute of the clock a spend counts in."""
    return int(time.time() // 60)


@dataclass
class Reservation:
    key: str
    milliseconds: int
    started: float


def _key(user_id) -> str:
    return f"solver-ms:{user_id}:{minute()}"


def _add(key: str, milliseconds: int) -> int:
    """Add to the counter atomically (``incr`` is atomic in Redis and in the in-memory
    cache); the counter is made first if this is its minute's first spend."""
    cache.add(key, 0, timeout=_KEEP_SECONDS)
    try:
        return cache.incr(key, milliseconds)
    except ValueError:  # expired between the two calls: start it again
        cache.add(key, 0, timeout=_KEEP_SECONDS)
        return cache.incr(key, milliseconds)


def reserve(user_id, seconds: float) -> Reservation | None:
    """Reserve ``seconds`` of the user's minute, or None (nothing reserved) when they
    do not fit in what is left of it."""
    milliseconds = max(1, round(seconds * 1000))
    key = _key(user_id)
    total = _add(key, milliseconds)
    if total > round(CPU_SECONDS_PER_MINUTE * 1000):
        cache.decr(key, milliseconds)
        return None
    return Reservation(key, milliseconds, cpu_time())


def settle(reservation: Reservation) -> float:
    """Count what the solve since ``reserve`` really took instead of the reservation;
    returns the CPU seconds measured."""
    spent = max(0.0, cpu_time() - reservation.started)
    difference = round(spent * 1000) - reservation.milliseconds
    with contextlib.suppress(ValueError):  # the minute's counter has expired
        if difference > 0:
            cache.incr(reservation.key, difference)
        elif difference < 0:
            cache.decr(reservation.key, -difference)
    return spent


def release(reservation: Reservation) -> None:
    """Give the reservation back (the solve did not run to the end)."""
    with contextlib.suppress(ValueError):  # the minute's counter has expired
        cache.decr(reservation.key, reservation.milliseconds)
