"""The solver's bounds (rummy.solver.search): exact to prune with, and tight where a
table joker cannot be freed (R5.2 d) or a suit's runs cannot close (R4.3)."""

import dataclasses
import random

from bench.solver_ilp import best_played
from rummy.engine import Settings, apply_action, hand_points
from rummy.solver import Position, search, solve
from rummy.solver.samples import sized_position
from rummy.solver.solve import _counts, position_state


def test_a_joker_nothing_can_free_is_no_wildcard():
    # the *9H keeps its card (no real 9H anywhere), so QS KS have no third card
    pos = Position.of(["7H 8H *9H"], "QS KS")
    counts = _counts(pos, ())
    assert search.wild_cap(counts) == 0
    assert sum(search.placeable(counts).hand) == 0
    sol = solve(pos)
    assert sol.proven and not sol.found


def test_a_joker_a_real_card_frees_is_a_wildcard():
    # the 9H frees the joker, which becomes the JS of J-Q-K (R5.2 d): the hand goes out
    pos = Position.of(["7H 8H *9H"], "9H QS KS")
    counts = _counts(pos, ())
    assert search.wild_cap(counts) == 1
    sol = solve(pos)
    assert sol.proven and sol.goes_out and sol.count == 0
    after = apply_action(position_state(pos.table, pos.hand, Settings()), 0, sol.action())
    assert after.round_over


def test_a_run_that_cannot_close_is_dead():
    # the AH may join a group of aces, but a run it starts has no 2H to go on with
    pos = Position.of([], "AH AC AD 5C 6C 7C")
    counts = search.placeable(_counts(pos, ()))
    fut = search.suit_futures(counts, 2, search.wild_cap(counts))  # suit 2: hearts
    one_open = search._code(1, 0, 0)  # before position 2: one run of one card open
    assert fut[2][one_open][0] == search._DEAD
    assert fut[1][0][0] == 1  # from the start: the AH, in a group


def test_the_suit_bounds_never_cut_the_optimum():
    positions = [
        Position.of(["7H 8H 9H", "5S 5D 5C"], "10H JH 5H 6H 2C 3C 4C QS"),
        Position.of(["AD 2D 3D", "KC KD KH"], "KS 4D 5D AH AC QC JC * 9S"),
        Position.of(["3S 4S 5S 6S", "9H 9C 9D"], "9S 7S 8S 2S 2H 2D 10C"),
    ]
    for pos in positions:
        counts = search.placeable(_counts(pos, ()))
        wild = search.wild_cap(counts)
        root = search.JOKER_POINTS * counts.hand_jokers
        root += sum(search.suit_futures(counts, s, wild)[1][0][wild] for s in range(4))
        best = best_played(pos)
        assert root >= best
        sol = solve(pos)
        assert sol.proven and hand_points(pos.hand) - sol.count == best


def _reference_futures(counts, s, wmax):
    """``suit_futures`` as first written (every choice walked one by one), to hold the
    faster one (choices merged by what the runs see) to the same values."""
    extra = counts.extra_real or (0,) * 52
    avail = [counts.table[t] + counts.hand[t] + counts.jokers[t] for t in range(52)]
    steps = [([], 0)] * 16
    for p in range(1, 14):
        t = search._pcode(p, s)
        others = [avail[o * 13 + p - 1] for o in range(4) if o != s]
        gmax = (sum(others) + wmax) // 2 if sum(1 for a in others if a) + wmax >= 2 else 0
        opts = []
        for u in range(counts.hand[t] + 1):
            real = counts.table[t] + u
            cards = real + counts.jokers[t] - min(counts.jokers[t], real + extra[t])
            for r in range(min(cards, search.MAX_RUNS) + 1 if p == 1 else 1):
                opts.append((cards - r, u * search.POINTS[t], r))
        steps[p] = (opts, gmax)

    def moves(p, field):
        runs, kept = field & 127, field >> 7
        row = search.RUN_NEXT[runs]
        if p == 14:
            for wj in range(wmax + 1):
                if row[kept + wj] >= 0:
                    yield row[kept + wj], wj, 0
            return
        opts, gmax = steps[p]
        for cards0, pts, r in opts:
            for wj in range(wmax + 1):
                for g in range(min(cards0 + wj, gmax) + 1):
                    if row[cards0 + wj - g] >= 0:
                        yield row[cards0 + wj - g] | ((kept + r) << 7), wj, pts

    reach = [set() for _ in range(16)]
    reach[1] = {0}
    for p in range(1, 15):
        reach[p + 1] = {nf for f in reach[p] for nf, _wj, _pts in moves(p, f)}
    out = [{} for _ in range(16)]
    out[15] = {f: [0 if f in search.CLOSED else search._DEAD] * (wmax + 1) for f in reach[15]}
    for p in range(14, 0, -1):
        for f in reach[p]:
            best = [search._DEAD] * (wmax + 1)
            for nf, wj, pts in moves(p, f):
                for b in range(wj, wmax + 1):
                    v = out[p + 1][nf][b - wj]
                    if v > search._DEAD and v + pts > best[b]:
                        best[b] = v + pts
            out[p][f] = best
    return out


def test_the_suit_bounds_are_those_of_every_choice_walked_one_by_one():
    rng = random.Random(5)
    positions = [
        Position.of(["7H 8H *9H", "AS 2S 3S"], "9H QS KS AH AD 2H 3H * 10H"),
        Position.of(["KD QD *JD", "5S 5D 5C 5H"], "AD AC KC QC 10D 5D *"),
    ]
    for _ in range(4):
        positions.append(sized_position(rng, rng.choice([40, 80]), 15)[2])
    for pos in positions:
        counts = search.placeable(_counts(pos, ()))
        loose = dataclasses.replace(counts, jokers=(0,) * 52, hand_jokers=2)
        for c in (counts, loose):
            wild = search.wild_cap(c)
            for s in range(4):
                assert search.suit_futures(c, s, wild) == _reference_futures(c, s, wild)
