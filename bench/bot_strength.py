"""Bot strength table: win rates for each pair of levels, at 2 and 4 players.

    python -m bench.bot_strength [--games 500] [--seed 1] [--jobs 2] [--time-limit 0.05]

Pure (no database): whole games through the engine (``rummy.bots.play_match``), each
seat deciding from its own view. At 2 players it is one level against the other; at 4,
two seats each (A B A B around the table, so neither sits always after the other). The
levels swap seats every other game. A level wins a game when one of its seats has the
highest final total (R9.3); a tie between the two levels counts half to each. The rule
book's settings (target 150, knock limit 5); the solver's time limit is small to keep the
run within minutes (a cut solve still plays a legal, if not proven best, meld).
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations

from rummy.bots import Level, play_match

PAIRS = list(combinations(list(Level), 2))
PLAYERS = (2, 4)


def one_game(args: tuple[str, str, int, int, float]) -> tuple[float, int]:
    """(share of the win for ``a``, actions) of one seeded game."""
    a, b, players, seed, time_limit = args
    rng = random.Random(seed)
    first, second = (a, b) if seed % 2 == 0 else (b, a)
    levels = [first if s % 2 == 0 else second for s in range(players)]
    actions = 0

    def count(*_args: object) -> None:
        nonlocal actions
        actions += 1

    final = play_match(levels, rng, time_limit=time_limit, watch=count)
    winners = {levels[s] for s in final.game_winners or []}
    share = 1.0 if winners == {a} else 0.0 if winners == {b} else 0.5
    return share, actions


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500, help="games per pair and table size")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=0.05)
    args = ap.parse_args(argv)
    print(
        f"{args.games} games per pair and table size, seed {args.seed}, "
        f"solver time limit {args.time_limit} s, {args.jobs} processes"
    )
    print("| players | A | B | A wins | B wins | games | mean actions | seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for players in PLAYERS:
            for a, b in PAIRS:
                started = time.perf_counter()
                jobs = [
                    (str(a), str(b), players, args.seed * 1_000_003 + n, args.time_limit)
                    for n in range(args.games)
                ]
                results = list(pool.map(one_game, jobs, chunksize=10))
                won = sum(share for share, _n in results)
                actions = sum(n for _share, n in results) / len(results)
                print(
                    f"| {players} | {a} | {b} | {100 * won / len(results):.1f}% "
                    f"| {100 * (1 - won / len(results)):.1f}% | {len(results)} "
                    f"| {actions:.0f} | {time.perf_counter() - started:.0f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
