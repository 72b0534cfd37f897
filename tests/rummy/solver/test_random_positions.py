"""The solver on seeded positions from random play: every answer is applied through the
engine and accepted (the tie-break's arrangement, with the count and the table cards
moved it claims); every proven optimum equals the integer program's (the second
method, bench/solver_ilp.py, HiGHS), every proven "no meld" is confirmed by it, and its
table cards moved are never below the integer program's fewest (equal when proven).

A small sample (60 positions), to keep the default lane quick (a few seconds): the
larger check is the proof script, ``python -m bench.solver_proof --positions 200
--jobs 1`` (10,000 by default), which runs the same assertions without a time limit."""

import random

import pytest

from bench.solver_ilp import best_played_and_moved
from rummy.engine import apply_action, hand_points, parse_cards
from rummy.solver import solve
from rummy.solver.moved import moved_cards
from rummy.solver.samples import play_positions

CHUNKS = 2
PER_CHUNK = 30


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_answers_are_legal_and_optimal(chunk):
    rng = random.Random(1000 + chunk)
    done = proven = 0
    while done < PER_CHUNK:
        for state, seat, pos in play_positions(rng):
            if rng.random() > 0.1:
                continue
            sol = solve(pos, state.settings, time_limit=0.5)
            if sol.found:
                after = apply_action(state, seat, sol.action(knock=False))
                left = (
                    parse_cards(after.last_round["hands"][seat])
                    if after.round_over
                    else after.hands[seat]
                )
                assert hand_points(left) == sol.count
                assert moved_cards(pos.table, after.table) == sol.moved
            if sol.proven:
                played = hand_points(pos.hand) - sol.count if sol.found else 0
                theirs, fewest = best_played_and_moved(pos)
                assert played == theirs, pos
                if sol.found:
                    assert sol.moved >= fewest, pos
                    assert sol.moved == fewest or not sol.moved_proven, pos
                proven += 1
            done += 1
            if done == PER_CHUNK:
                break
    # the rest hit the time limit (legal, not proven): see docs/benchmarks.md
    assert proven >= PER_CHUNK // 2
