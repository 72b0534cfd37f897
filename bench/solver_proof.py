"""The solver's proof: on N seeded positions from random play, its optimum equals the
integer program's (bench/solver_ilp.py, HiGHS), every "no meld" is confirmed, and every
answer is accepted by the engine. Both numbers are checked: the count (points played)
and the tie-break, the table cards moved (``rummy.solver.moved``): the solver's may not
be below the integer program's fewest (that would be a fault in one of them), and where
the solver says its figure is proven (``moved_proven``) it must be equal. A solver figure
above the fewest, not claimed proven, is listed as a gap (the tie-break's search missed
a better arrangement), not as a fault.

    python -m bench.solver_proof --positions 10000 [--seed 1] [--jobs 2] [--tie-break 0.5]

Positions: meld opportunities sampled from whole rounds of 2 to 5 bots (rummy.solver.
samples.play_positions), and as many again with a table of 0 to about 90 cards and a
hand of 10 to 20 dealt from the unseen cards (``sized_position``). The solver runs
without its time limit here (it must prove every count); its exact tie-break gets
``--tie-break`` seconds a position (past them its figure is not claimed proven, and one
above the fewest is a gap; with ``--tie-break 5`` there were none in 10,000, at 0.5 s a
few). Exit status 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from rummy.engine import GameState, apply_action, hand_points
from rummy.solver import Position, program, solve
from rummy.solver.samples import play_positions, sized_position


def positions(seed: int, count: int):
    """``count`` seeded positions (state, seat, position), half from whole rounds."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        if made % 2 == 0:
            for state, seat, pos in play_positions(rng):
                if rng.random() < 0.15:
                    yield state, seat, pos
                    made += 1
                    break
        else:
            table = rng.choice([0, 10, 20, 30, 40, 50, 60, 70, 80, 90])
            try:
                yield sized_position(rng, table, rng.randint(10, 20), players=rng.randint(3, 5))
            except IndexError:  # an exhausted pool: skip this draw
                continue
            made += 1


Row = tuple[int, int, int, int, int, bool, float, int, int]


def check(
    state: GameState, seat: int, pos: Position, tie_break: float = 0.5
) -> tuple[int, int, int, int, bool, float]:
    """(solver's points played, integer program's, solver's moved, integer program's,
    solver's moved_proven, solver seconds); raises if the engine refuses the answer."""
    from bench.solver_ilp import best_played_and_moved

    sol = solve(pos, state.settings, time_limit=600, tie_break=tie_break)
    assert sol.proven, pos
    played = hand_points(pos.hand) - sol.count if sol.found else 0
    if sol.found:
        after = apply_action(state, seat, sol.action(knock=False))  # must not raise
        left = after.hands[seat]
        if after.round_over:
            from rummy.engine import parse_cards

            assert after.last_round is not None
            left = parse_cards(after.last_round["hands"][seat])
        assert hand_points(left) == sol.count, (pos, sol)
        assert sol.goes_out == (not left)
    theirs, their_moved = best_played_and_moved(pos)
    moved = sol.moved if sol.found else 0
    return played, theirs, moved, their_moved, sol.moved_proven, sol.seconds


def _chunk(args: tuple[int, int, int, float]) -> list[Row]:
    """Rows: (index, played, theirs, moved, their moved, moved proven, seconds, table
    cards, hand size)."""
    seed, start, count, tie_break = args
    program.load()  # at once: a first solve would otherwise go on while HiGHS loads
    out = []
    for i, (state, seat, pos) in enumerate(positions(seed * 1_000_003 + start, count)):
        mine, theirs, moved, their_moved, sure, secs = check(state, seat, pos, tie_break)
        out.append(
            (
                start + i,
                mine,
                theirs,
                moved,
                their_moved,
                sure,
                secs,
                pos.table_cards,
                len(pos.hand),
            )
        )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--tie-break", type=float, default=0.5, help="seconds for the tie-break")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    step = 100
    tasks = [
        (args.seed, s, min(step, args.positions - s), args.tie_break)
        for s in range(0, args.positions, step)
    ]
    rows = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for chunk in pool.map(_chunk, tasks):
            rows.extend(chunk)
    bad = [r for r in rows if r[1] != r[2]]
    # the tie-break: below the fewest is a fault; above it, a fault only if claimed proven
    bad_moved = [r for r in rows if r[1] == r[2] and (r[3] < r[4] or (r[5] and r[3] != r[4]))]
    gaps = [r for r in rows if r[1] == r[2] and r[3] > r[4] and not r[5]]
    none = sum(1 for r in rows if r[2] == 0)
    big = sum(1 for r in rows if r[7] >= 60)
    slow = max(r[6] for r in rows)
    print(
        f"{len(rows)} positions (seed {args.seed}): the count: {len(rows) - len(bad)} agree"
        f" with the integer program, {len(bad)} differ; {none} without a meld (all confirmed"
        f" unless listed); {big} with 60+ table cards; hands up to"
        f" {max(r[8] for r in rows)}; slowest solve {slow * 1000:.0f} ms;"
        f" {time.perf_counter() - t0:.0f} s in all"
    )
    equal = sum(1 for r in rows if r[1] == r[2] and r[3] == r[4])
    print(
        f"the table cards moved: {equal} equal the fewest possible"
        f" ({sum(1 for r in rows if r[5])} proven by the solver), {len(bad_moved)} faults,"
        f" {len(gaps)} gaps (more than the fewest, not claimed proven:"
        f" {sum(r[3] - r[4] for r in gaps)} cards more in all)"
    )
    for r in bad[:20]:
        print(f"  position {r[0]}: solver plays {r[1]}, integer program {r[2]}")
    for r in bad_moved[:20]:
        print(f"  position {r[0]}: solver moves {r[3]} (proven: {r[5]}), integer program {r[4]}")
    for r in gaps[:10]:
        print(f"  gap at position {r[0]}: solver moves {r[3]}, the fewest is {r[4]}")
    return 1 if bad or bad_moved else 0


if __name__ == "__main__":
    sys.exit(main())
