"""What the review of missed plays costs per game: seeded random games played by the
engine's bot (level 1) to the end (target 150), every turn position solved as
``rummy.history.review`` does (from the seat's view, the solver's default time limit).

    python -m bench.review [--games 3] [--seed 0]

Prints per game the positions, the total solving time, the slowest solve and how many
were cut by the time limit: the background pass gives the review ``review.BUDGET``
seconds per pass, so this says how many passes a game takes.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator

from rummy import engine
from rummy.engine import bots
from rummy.solver import position_from_view, solve


def turn_positions(n_players: int, seed: int) -> Iterator[engine.SeatView]:
    """The view of every position where the player to move may meld, in one game."""
    rng = random.Random(seed)
    state = engine.new_game(n_players, rng)
    while not state.game_over:
        if state.round_over:
            state = engine.deal_next_round(state, rng)
            continue
        seat = state.turn
        if engine.Action.MELD in engine.legal_actions(state, seat):
            yield engine.seat_view(state, seat)
        state = engine.apply_action(state, seat, bots.choose_action(state, seat, rng, level=1))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    for n in (2, 4):
        for seed in range(args.seed, args.seed + args.games):
            count, total, worst, cut = 0, 0.0, 0.0, 0
            for view in turn_positions(n, seed):
                start = time.perf_counter()
                solution = solve(position_from_view(view), view.settings)
                took = time.perf_counter() - start
                count, total, worst = count + 1, total + took, max(worst, took)
                cut += not solution.proven
            print(
                f"{n} players, seed {seed}: {count} positions, {total:.1f} s solving, "
                f"slowest {worst * 1000:.0f} ms, {cut} cut by the time limit"
            )


if __name__ == "__main__":
    main()
