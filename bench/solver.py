"""Solver benchmark: p50 / p95 / max solve time and peak memory per solve, bucketed by
table size (0, about 20, 40, 60, 80 table cards) and hand size (10, 15, 20).

    python -m bench.solver [--per-bucket 20] [--seed 1] [--cpu] [--tie-break SECONDS]

Positions come from seeded random play (rummy.solver.samples.sized_position), 3 to 5
players (two decks). Times are wall clock of ``solve`` with its default time limit; a
solve cut by it is counted in "cut" (its answer is legal but not proven optimal).
Peak memory is measured by tracemalloc in a second pass over the same positions.
``--cpu`` prints the process's CPU time per solve instead of wall time: on a machine
shared with other work, wall time measures the neighbours as much as the solver (the
time limit still counts wall time, so a loaded machine still cuts more solves).
``--tie-break 0.25`` times solves as a hint makes them (the fewest table cards moved by
the integer program, ``rummy.solver.program``); "moved proven" counts the answers whose
tie-break is proven. Peak memory (tracemalloc) sees Python's and numpy's allocations,
not those inside HiGHS.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc

from rummy.solver import program, solve
from rummy.solver.samples import sized_position
from rummy.solver.solve import TIE_BREAK

TABLES = (0, 20, 40, 60, 80)
HANDS = (10, 15, 20)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-bucket", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cpu", action="store_true", help="CPU time per solve, not wall time")
    ap.add_argument("--tie-break", type=float, default=TIE_BREAK, help="seconds (default: solve's)")
    args = ap.parse_args(argv)
    program.load()  # a first solve would otherwise go on without it while scipy loads
    print("table  hand   n   p50 ms   p95 ms   max ms  cut  moved proven  peak MiB")
    for table in TABLES:
        for hand in HANDS:
            rng = random.Random(args.seed * 7919 + table * 31 + hand)
            cases: list = []
            while len(cases) < args.per_bucket:
                try:
                    cases.append(sized_position(rng, table, hand, players=rng.randint(3, 5)))
                except IndexError:
                    continue
            times, cut, sure = [], 0, 0
            for state, _seat, pos in cases:
                cpu = time.process_time()
                sol = solve(pos, state.settings, tie_break=args.tie_break)
                cpu = time.process_time() - cpu
                times.append((cpu if args.cpu else sol.seconds) * 1000)
                cut += not sol.proven
                sure += sol.moved_proven
            peak = 0
            for state, _seat, pos in cases:
                tracemalloc.start()
                solve(pos, state.settings, tie_break=args.tie_break)
                peak = max(peak, tracemalloc.get_traced_memory()[1])
                tracemalloc.stop()
            times.sort()
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            sizes = statistics.mean(p.table_cards for _, _, p in cases)
            print(
                f"{table:>3} ({sizes:>4.0f}) {hand:>3} {len(times):>4}"
                f" {statistics.median(times):>8.1f} {p95:>8.1f} {times[-1]:>8.1f}"
                f" {cut:>4} {sure:>13} {peak / 2**20:>9.1f}"
            )


if __name__ == "__main__":
    main()
