"""The solver's time limits count its own CPU time (rummy.solver.clock): a busy machine,
where the wall clock races ahead of the solving thread's CPU time, does not change the
answer; the wall clock is only a last guard.

A busy machine is simulated, not waited for: ``time.perf_counter`` is replaced by a
clock that adds ``factor - 1`` seconds for each second of this thread's CPU time (the
thread gets a ``factor``-th of a core). No test here asserts a wall-clock time.
"""

import math
import time
from contextlib import contextmanager

import pytest

from rummy.engine import Settings, apply_action
from rummy.solver import Position, clock, program, solve
from rummy.solver.solve import position_state

from .test_tie_break import FULL_HAND, FULL_TABLE

# a hint's budget: the CPU seconds of the whole solve, and of its exact tie-break
HINT_SECONDS, HINT_TIE_BREAK = 0.5, 0.25


@pytest.fixture(autouse=True, scope="module")
def _highs_loaded():
    program.load()  # else the first solve goes on without the program while it loads


@contextmanager
def busy(monkeypatch, factor):
    # on top of the real wall clock (HiGHS keeps its own time by that one): the other
    # work takes ``factor - 1`` seconds for each second of the thread's CPU time
    cpu0, real = time.thread_time(), time.perf_counter
    with monkeypatch.context() as m:
        m.setattr(time, "perf_counter", lambda: real() + (factor - 1) * (time.thread_time() - cpu0))
        yield


def answer(sol):
    return sol.found, sol.table, sol.count, sol.moved, sol.proven, sol.moved_proven


def hint(pos, **kw):
    return solve(pos, Settings(), time_limit=HINT_SECONDS, tie_break=HINT_TIE_BREAK, **kw)


def calm_hint(monkeypatch, pos):
    return hint(pos)


def test_a_busy_machine_does_not_change_a_hints_answer(monkeypatch):
    # A full table, hand 15: the count search and the integer program's tie-break take a
    # small part of a hint's budget in CPU time. On a machine so busy that the wall clock
    # runs a thousand times as fast, a wall-clock budget would be gone before the count
    # search had begun (the answer: the simple bot's meld, not proven).
    pos = Position.of(FULL_TABLE, FULL_HAND)
    calm = calm_hint(monkeypatch, pos)
    assert calm.proven and calm.moved_proven
    with busy(monkeypatch, 1000):
        loaded = hint(pos, wall_limit=math.inf)  # the guard aside: it is not under test
    assert answer(loaded) == answer(calm)


def test_with_the_default_guard_a_busy_machine_gets_the_same_hint(monkeypatch):
    # eight times slower than a core of its own: well inside the wall-clock guard
    pos = Position.of(FULL_TABLE, FULL_HAND)
    calm = calm_hint(monkeypatch, pos)
    with busy(monkeypatch, 8):
        loaded = hint(pos)
    assert answer(loaded) == answer(calm)


# not solved at once: the count search goes on past its first few thousand states
SLOW_TABLE = [
    "9D 9C 9S",
    "6C 6S 6D *6H",
    "4H 4C 4S 4D",
    "6H 6S 6C 6D",
    "4S 5S 3S",
    "2C 2H 2D",
    "2S AS 3S",
    "10D 10H 10S 10C",
    "7D 7S 7H 7C",
    "2D *2C 2H 2S",
    "7C 7H 7S 7D",
    "8S 9S 10S",
    "5C 5H 5D 5S",
    "8H 8S 8C 8D",
]
SLOW_HAND = "QH KS 4H 3D 3C 5H AS 3C 8H QH"


def test_the_wall_clock_guard_stops_a_solve_whatever_its_cpu_time(monkeypatch):
    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    with busy(monkeypatch, 1e9):
        sol = hint(pos)
    assert sol.found and not sol.proven  # the simple bot's meld: legal, not proven
    state = position_state(pos.table, pos.hand, Settings())
    apply_action(state, 0, sol.action(knock=False))


def test_the_clock_is_the_threads_cpu_time_and_infinite_past_the_ceiling(monkeypatch):
    assert clock.now() == pytest.approx(time.thread_time(), abs=0.01)
    wall = [100.0]
    monkeypatch.setattr(time, "perf_counter", lambda: wall[0])
    with clock.ceiling(2.0):
        assert clock.now() < math.inf
        wall[0] = 102.5
        assert clock.now() == math.inf
    assert clock.now() < math.inf  # the ceiling holds only inside


def test_highs_stops_at_the_solves_cpu_deadline_not_at_the_wall_clocks(monkeypatch):
    # HiGHS keeps its own time by the wall clock; the solve's CPU time is checked at
    # its interrupt points instead. Simulated: the thread's CPU time races ahead (a
    # second more at each reading) while the wall clock does not, and HiGHS stops,
    # its count not proven.
    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    calm = program.most_points(pos)
    assert calm is not None and calm.proven
    real, ahead = clock.cpu, [0.0]

    def racing():
        ahead[0] += 1.0
        return real() + ahead[0]

    deadline = clock.now() + 2.5
    monkeypatch.setattr(clock, "cpu", racing)
    cut = program.most_points(pos, deadline=deadline)
    assert cut is not None and not cut.proven


def test_a_busy_machine_does_not_cut_the_count_program_short(monkeypatch):
    # the wall clock a thousand times as fast as the thread's CPU time: the count
    # program, which keeps its own time by the wall clock, still proves the count
    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    calm = program.most_points(pos, deadline=clock.now() + HINT_SECONDS)
    with busy(monkeypatch, 1000):
        loaded = program.most_points(pos, deadline=clock.now() + HINT_SECONDS)
    assert calm is not None and calm.proven
    assert loaded is not None and (loaded.points, loaded.proven) == (calm.points, True)
