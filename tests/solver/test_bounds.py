"""The solver's bounds (rummy.solver.search): exact to prune with, and tight where a
table joker cannot be freed (R5.2 d) or a suit's runs cannot close (R4.3)."""

from bench.solver_ilp import best_played
from rummy.engine import Settings, apply_action, hand_points
from rummy.solver import Position, search, solve
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
