"""Solver benchmark: the CPU time of ``solve`` (default settings) beside a plain integer
program's (``bench/solver_ilp.py``: HiGHS, every meld a column) on the same positions,
p50 / p95 / max per bucket of table cards (0, 1-29, 30-59, 60-79, 80-104) and hand size
(1-9, 10-14, 15-20).

    python -m bench.solver [--positions 3000] [--seed 1] [--tie-break SECONDS] [--memory]

Positions come from seeded random play (``rummy.solver.samples.sized_position``, 3 to 5
players, two decks), aiming at each bucket in turn and counted where they land. Times
are the solving thread's CPU time (``time.thread_time``; HiGHS runs in the calling
thread), not wall time: on a machine shared with other work wall time measures the
neighbours as much as the solver. What is loaded before the run is frozen for the
garbage collector (``gc.freeze``), so that a collection landing in a solve costs what
the run allocated, not the whole heap. "cut" counts solves the time limit stopped
(legal, not proven optimal); "differ" counts proven answers whose count is not the
plain program's (there should be none). ``--tie-break 0.25`` times solves as a hint makes
them; "moved proven" counts answers whose tie-break is proven. ``--memory`` adds a
second pass with tracemalloc's peak per bucket (Python's and numpy's allocations, not
HiGHS's own).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
import tracemalloc
from collections import defaultdict

from bench.solver_ilp import best_played
from rummy.engine import hand_points
from rummy.solver import program, solve
from rummy.solver.samples import sized_position
from rummy.solver.solve import TIE_BREAK

TABLES = ((0, 0), (1, 29), (30, 59), (60, 79), (80, 104))
HANDS = ((1, 9), (10, 14), (15, 20))


def bucket(ranges: tuple[tuple[int, int], ...], n: int) -> tuple[int, int]:
    return next((lo, hi) for lo, hi in ranges if lo <= n <= hi)


def positions(seed: int, count: int):
    """``count`` seeded positions, aimed at the buckets in turn: (bucket, state, position)."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        lo, hi = TABLES[made % len(TABLES)]
        hlo, hhi = HANDS[made // len(TABLES) % len(HANDS)]
        try:
            state, _seat, pos = sized_position(
                rng, rng.randint(lo, hi), rng.randint(hlo, hhi), players=rng.randint(3, 5)
            )
        except IndexError:  # an exhausted pool: draw again
            continue
        made += 1
        key = (bucket(TABLES, pos.table_cards), bucket(HANDS, len(pos.hand)))
        yield key, state, pos


def _p95(times: list[float]) -> float:
    return times[min(len(times) - 1, int(0.95 * len(times)))]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tie-break", type=float, default=TIE_BREAK, help="seconds (default: solve's)")
    ap.add_argument("--memory", action="store_true", help="tracemalloc's peak, a second pass")
    args = ap.parse_args(argv)
    program.load()  # a first solve would otherwise go on without it while HiGHS loads
    best_played(sized_position(random.Random(0), 0, 5)[2])  # HiGHS's own first call
    # what is loaded by now stays: a full collection that lands in a solve then looks at
    # what the run made since, not at the whole heap (about 10 ms on this machine),
    # which would be charged to whichever column it lands in
    gc.freeze()
    mine: dict = defaultdict(list)
    theirs: dict = defaultdict(list)
    cut: dict = defaultdict(int)
    sure: dict = defaultdict(int)
    differ: dict = defaultdict(int)
    peak: dict = defaultdict(int)
    slowest: list[tuple[float, int]] = []
    for n, (key, state, pos) in enumerate(positions(args.seed, args.positions)):
        cpu = time.thread_time()
        sol = solve(pos, state.settings, tie_break=args.tie_break)
        cpu = time.thread_time() - cpu
        mine[key].append(cpu * 1000)
        slowest.append((cpu * 1000, n))
        cut[key] += not sol.proven
        sure[key] += sol.moved_proven
        cpu = time.thread_time()
        played = best_played(pos)
        theirs[key].append((time.thread_time() - cpu) * 1000)
        if sol.proven and played != (hand_points(pos.hand) - sol.count if sol.found else 0):
            differ[key] += 1
        if args.memory:
            tracemalloc.start()
            solve(pos, state.settings, tie_break=args.tie_break)
            peak[key] = max(peak[key], tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
    print(
        "CPU ms a solve: the solver | the plain integer program"
        f" ({args.positions} positions, seed {args.seed}, tie-break {args.tie_break} s)"
    )
    print(
        "table    hand     n |  p50    p95    max |  p50    p95    max | cut differ"
        " moved-proven" + ("  peak MiB" if args.memory else "")
    )
    for table in TABLES:
        for hand in HANDS:
            key = (table, hand)
            if not mine[key]:
                continue
            a, b = sorted(mine[key]), sorted(theirs[key])
            print(
                f"{table[0]:>3}-{table[1]:<3} {hand[0]:>2}-{hand[1]:<2} {len(a):>5} |"
                f" {statistics.median(a):>5.1f} {_p95(a):>6.1f} {a[-1]:>6.1f} |"
                f" {statistics.median(b):>5.1f} {_p95(b):>6.1f} {b[-1]:>6.1f} |"
                f" {cut[key]:>3} {differ[key]:>6} {sure[key]:>12}"
                + (f" {peak[key] / 2**20:>9.1f}" if args.memory else "")
            )
    slowest.sort(reverse=True)
    print("slowest solves (ms, position):", ", ".join(f"{t:.0f} #{n}" for t, n in slowest[:8]))


if __name__ == "__main__":
    main()
