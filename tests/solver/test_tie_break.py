"""The solver's tie-break: among the answers leaving the lowest count, few table cards
moved (rummy.solver.moved defines it). Each answer is applied through the engine, and
its figure is checked against the integer program's fewest (bench/solver_ilp.py)."""

import pytest

from bench.solver_ilp import best_played_and_moved
from rummy.engine import Settings, apply_action, hand_points, parse_cards
from rummy.solver import Position, solve
from rummy.solver.moved import kept_cards, moved_cards
from rummy.solver.solve import position_state


def melds(text):
    return [parse_cards(m) for m in text.split("|")]


def test_moved_is_a_best_one_to_one_matching_not_a_greedy_one():
    old = melds("5H 6H 7H 8H | 8H 9H 10H")
    new = melds("5H 6H 7H 8H 9H 10H | 5H 6H 7H")
    # greedy takes the 4 shared by the first pair, then nothing: 4 kept; best is 3 + 3
    assert kept_cards(old, new) == 6
    assert moved_cards(old, new) == 1


def test_a_joker_re_declared_has_moved():
    old = melds("8H *9H 10H")
    assert moved_cards(old, melds("8H 9H 10H *JH")) == 1
    assert moved_cards(old, melds("8H *9H 10H JH")) == 0


@pytest.mark.parametrize(
    "table,hand,fewest,proven",
    [
        # a lay-off moves nothing
        (["7H 8H 9H"], "10H JH 2C", 0, True),
        # two runs end to end stay two runs (the search's normal form would join them)
        (["3H 4H 5H", "6H 7H 8H"], "9H 2C", 0, True),
        (["3H 4H 5H", "6H 7H 8H"], "2H 9H KC", 0, True),
        # two groups of nines each take a card
        (["9S 9C 9D", "9H 9C 9D"], "9S 9H KS", 0, True),
        # a second 7H splits the run: 8H 9H move (two), not the whole run
        (["5H 6H 7H 8H 9H"], "7H KC", 2, True),
        # the 4C and 4D come off a group of four and a run of four
        (["4D 5D 6D 7D", "4H 4S 4C 4D"], "4C 8D", 2, True),
        # the real 9H frees the joker, which is declared again at once (it moved)
        (["8H *9H 10H", "4C 5C 6C"], "9H 7C", 1, True),
    ],
)
def test_fewest_table_cards_moved(table, hand, fewest, proven):
    pos = Position.of(table, hand)
    settings = Settings()
    sol = solve(pos, settings)
    assert sol.proven and sol.found
    assert (sol.moved, sol.moved_proven) == (fewest, proven)
    assert best_played_and_moved(pos) == (hand_points(pos.hand) - sol.count, fewest)
    # the tie-break's answer is one the engine accepts, with the count it claims
    after = apply_action(position_state(pos.table, pos.hand, settings), 0, sol.action(False))
    left = parse_cards(after.last_round["hands"][0]) if after.round_over else after.hands[0]
    assert hand_points(left) == sol.count
    assert moved_cards(pos.table, after.table) == sol.moved
