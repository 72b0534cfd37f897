"""How well and how fast the season planner plans (leagues/schedules/planner.py).

For each size a league may have (members, table size, games each) it prints the pair
meetings' spread (max - min) against the planner's lower bound on it
(``least_spread``: no plan of those numbers does better), the first moves' spread, and
the CPU time of the plan. Not a test: figures go to docs/benchmarks.md.

    .venv/bin/python -m bench.planner [--seed 1]
"""

import argparse
import itertools
import time

from leagues.schedules.planner import PlanError, figures, least_spread, plan

MEMBERS = (6, 9, 12, 16, 20, 30, 45, 60)
SEATS = (3, 4, 5)
GAMES = (3, 6, 10, 15, 20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"{'members':>7} {'seats':>5} {'games':>5}  {'pairs':>7} {'spread':>6} "
        f"{'least':>5} {'first':>5} {'cpu s':>6}"
    )
    at_least, within_one, one_or_less, missed, worst, rows = 0, 0, 0, [], 0.0, 0
    for members, seats, games in itertools.product(MEMBERS, SEATS, GAMES):
        start = time.process_time()
        try:
            result = plan(members, seats, games, args.seed)
        except PlanError as error:
            print(f"{members:>7} {seats:>5} {games:>5}  {error}")
            continue
        cpu = time.process_time() - start
        seen = figures(result)
        least = least_spread(members, seats, games)
        first = max(seen.first_moves) - min(seen.first_moves)
        rows += 1
        at_least += seen.pair_spread == least
        within_one += seen.pair_spread <= least + 1
        one_or_less += seen.pair_spread <= 1
        if seen.pair_spread > 1 and least <= 1:
            missed.append(f"{members}/{seats}/{games}")
        worst = max(worst, cpu)
        print(
            f"{members:>7} {seats:>5} {games:>5}  {seen.pair_min:>3}-{seen.pair_max:<3} "
            f"{seen.pair_spread:>6} {least:>5} {first:>5} {cpu:>6.2f}"
        )
    print()
    print(
        f"{rows} plans: spread at the lower bound in {at_least}, within one of it in "
        f"{within_one}, at most 1 in {one_or_less}; slowest plan {worst:.2f} s CPU"
    )
    print(f"above 1 where the bound allows 1 ({len(missed)}): {' '.join(missed)}")


if __name__ == "__main__":
    main()
