"""The solver's tie-break: among the answers leaving the lowest count, few table cards
moved (rummy.solver.moved defines it). Each answer is applied through the engine, and
its figure is checked against the integer program's fewest (bench/solver_ilp.py)."""

import importlib

import pytest

from bench.solver_ilp import best_played_and_moved
from rummy.engine import Settings, apply_action, hand_points, parse_cards
from rummy.engine.cards import format_cards
from rummy.solver import Position, search, solve
from rummy.solver import clock as solver_clock
from rummy.solver.arrange import arrange
from rummy.solver.fewest import Fewest
from rummy.solver.moved import kept_cards, moved_cards
from rummy.solver.solve import (
    TIE_BREAK,
    WIDE_TRIES,
    WIDE_TRY,
    _counts,
    _fewest,
    _playable,
    position_state,
)

solve_module = importlib.import_module("rummy.solver.solve")


@pytest.fixture(autouse=True)
def _searches_only(monkeypatch):
    """These tests are the searches' (``arrange``, ``_wider``, ``fewest``): the integer
    program, which a tie-break of 0.05 s or more is given first, has its own
    (test_program.py)."""
    monkeypatch.setattr(solve_module, "PROGRAM_FROM", float("inf"))


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
    sol = solve(pos, settings, tie_break=5)
    assert sol.proven and sol.found
    assert (sol.moved, sol.moved_proven) == (fewest, proven)
    assert best_played_and_moved(pos) == (hand_points(pos.hand) - sol.count, fewest)
    # the tie-break's answer is one the engine accepts, with the count it claims
    after = apply_action(position_state(pos.table, pos.hand, settings), 0, sol.action(False))
    left = parse_cards(after.last_round["hands"][0]) if after.round_over else after.hands[0]
    assert hand_points(left) == sol.count
    assert moved_cards(pos.table, after.table) == sol.moved


# Positions of the proof (bench/solver_proof.py, seeds 7 and 11) where the greedy
# tie-break before the exact one (a6f6f78) moved more than the fewest possible: (table,
# hand, decks, the fewest moved, what the greedy one moved).
GAPS = [
    (
        ["10D JD QD KD AD", "6H 6D 6C", "7H 7C 7D"],
        "AH QS AC 8H 10C 3C JC 8S 2H 10C JC AS 10H AC 4H",
        2,
        1,
        2,
    ),
    (
        ["7C 7H 7S", "2H 3H 4H", "8S 8H 8D 8C", "9D 10D JD QD", "6H 6S 6C"],
        "3C 2D AC KS KC 9C * QH 10S JS 5D 7D",
        1,
        2,
        7,
    ),
    (
        [
            "2H 2C 2S 2D",
            "AS KS QS JS 10S",
            "JD QD 10D KD",
            "AD AC AH AS",
            "9H 10H JH 8H QH KH",
            "7S 6S 8S 9S 5S 4S 3S",
            "10C JC QC",
            "10S 8S 9S",
            "7C 6C 8C 5C 9C",
            "8D 9D 10D JD",
            "7D 7H 7C",
            "9C 10C 8C JC QC",
            "5H 4H 3H",
            "6D 5D 7D 4D",
            "7H 6H 8H",
            "3D 2D 4D AD",
            "3H 3S 3C 3D",
        ],
        "KS QH AC QD 6H 2S JH 2C JS 5H KD 5D 8D * QS *",
        2,
        0,
        2,
    ),
    (
        [
            "4S 5S 6S 3S 2S AS",
            "AS AD AC AH",
            "2S 2D 2H 2C",
            "10S 9S JS 8S 7S 6S 5S",
            "5H 4H 3H 6H 2H",
            "JH QH 10H KH AH 9H",
            "JC JS JH",
            "9H 8H 10H 7H",
            "QS QC QD QH",
            "KS KC KD KH",
            "7H 8H 6H 5H 4H 3H",
            "4C 4S 4D",
            "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
            "7S 8S 9S 10S",
        ],
        "8C 10C 9C * 3C JD 7D 8D 5D 10D 3D * 5D 9D 8D",
        2,
        2,
        4,
    ),
    (
        [
            "9H 9S 9C",
            "7D 9D 8D 10D 6D JD QD KD",
            "AC AD AH AS",
            "QH KH JH",
            "AH 2H 3H",
            "7S 8S 6S 5S 4S 9S",
            "7C 7D 7S",
            "10C JC QC KC AC",
            "9C 10C 8C JC *7C",
            "9D 10D JD",
            "3H 4H 5H 2H",
            "5D 6D 4D 3D 2D",
            "4C 5C 3C *2C 6C 7C",
            "2C 3C 4C 5C",
            "2S 3S 4S 5S AS 6S",
            "3D 2D 4D AD",
            "6H 7H 8H",
            "4H 5H 6H 7H",
            "9H 10H JH",
        ],
        "JS QH KS KH 10H 3S QS 8C QC KD 6C 10S 10S KC 2S QD QS",
        2,
        0,
        3,
    ),
    (
        [
            "AS 2S 3S 4S 5S 6S",
            "10C 9C JC",
            "JH 10H QH",
            "QC KC JC AC *10C",
            "10H 10S 10D",
            "5C 5D 5S",
            "8C 7C 6C",
            "QD QC QS",
            "KH AH QH",
        ],
        "JD 8S 9D 9H KS 5H 8H 4C KD KC 2S",
        2,
        3,
        4,
    ),
    (
        [
            "2S 2D 2H 2C",
            "5H 5D 5S 5C",
            "AC 2C 3C",
            "9D 10D JD 8D QD KD AD 7D 6D 5D 4D 3D",
            "4S 5S 6S 3S 2S 7S 8S 9S",
            "3D 3H 3S 3C",
            "7C 8C 9C 10C 6C 5C JC 4C QC KC AC",
            "8C 9C 10C",
            "KS KH KC KD",
            "9S 10S JS 8S",
            "JH JS JC JD",
            "5H 6H 7H 4H 3H",
            "QC QS QD QH",
        ],
        "JH * 4D 6S * 2H KS QH AD 10S AH AS 6D 10D 7D 10H QS 6C 7C",
        2,
        1,
        4,
    ),
]


def _applied(pos, settings, sol):
    after = apply_action(position_state(pos.table, pos.hand, settings), 0, sol.action(False))
    left = parse_cards(after.last_round["hands"][0]) if after.round_over else after.hands[0]
    assert hand_points(left) == sol.count
    assert moved_cards(pos.table, after.table) == sol.moved


@pytest.mark.parametrize("table,hand,decks,fewest,greedy", GAPS)
def test_the_exact_tie_break_finds_and_proves_the_fewest(table, hand, decks, fewest, greedy):
    pos = Position.of(table, hand, decks=decks)
    settings = Settings()
    sol = solve(pos, settings, time_limit=60, tie_break=60)
    assert sol.proven and sol.found
    assert (sol.moved, sol.moved_proven) == (fewest, True)
    assert fewest < greedy
    assert best_played_and_moved(pos) == (hand_points(pos.hand) - sol.count, fewest)
    _applied(pos, settings, sol)


def test_a_tie_break_out_of_time_is_not_proven():
    # the greedy tie-break moves more than the fewest here (4 with its whole budget, more
    # with the smaller one it gets after the integer program settled the count); with
    # no time for the exact one, its answer stands (legal, the count proven), not
    # claimed the fewest
    table, hand, decks, fewest, greedy = GAPS[-2]
    pos = Position.of(table, hand, decks=decks)
    settings = Settings()
    sol = solve(pos, settings, tie_break=-1)
    assert sol.proven and sol.found
    assert sol.moved >= greedy > fewest
    assert not sol.moved_proven
    _applied(pos, settings, sol)


# -- the tie-break by default: its time limit, its order, its default ---------

# From the proof's positions (seed 1, position 4): the greedy tie-break moves 17, the
# fewest is 12 (the integer program's).
BIG_TABLE = [
    "6D 7D 8D 5D",
    "4D 3D 5D",
    "AD 2D 3D",
    "10S 10C 10D",
    "7S 8S 9S",
    "2C AC 3C",
    "JS JC JD",
    "7C 6C 5C 8C 9C",
    "7H 7S *7D 7C",
    "9S 10S JS QS",
    "JD JC JH",
    "JH QH KH AH",
    "2D 2H 2S 2C",
    "QS KS AS",
    "8D 8H 8C 8S",
    "4H 4S 4D 4C",
    "8H 9H 10H",
]
BIG_HAND = "KC KS 4H QD 5S 5S 7D 9C"


def _exact_search(pos, seconds):
    """What ``solve`` hands the exact tie-break: the counts, the best points, the greedy
    answer, the hand cards some optimum plays."""
    counts = search.placeable(_counts(pos, ()))
    dfs = search.DepthFirst(counts)
    dfs.use_futures()
    best = found = dfs.find(1)
    while found is not None:
        best, found = found, dfs.find(found.value + 1)
    laid = arrange(pos.table, counts, best, None)
    hand = _playable(counts, best.value, solver_clock.now() + seconds)
    return counts, best.value, laid, hand


# A full table (80 cards, bench.solver's seed 1), a hand of 15.
FULL_TABLE = [
    "KC QC AC JC",
    "3D 3H 3C",
    "9D 9C 9S",
    "KD KH KS KC",
    "3S 2S AS 4S",
    "5C 5D 5H 5S",
    "2S 3S 4S 5S 6S",
    "10H JH QH",
    "10D JD QD KD",
    "7S 8S 9S 10S JS QS KS AS",
    "2D 3D 4D AD 5D 6D 7D 8D",
    "6H 7H 8H 9H",
    "QH KH AH",
    "QC QD QS",
    "10C 9C 8C 7C JC 6C 5C 4C 3C 2C AC",
    "7H *8H 9H 6H 10H 5H 4H JH 3H 2H",
]
FULL_HAND = "8C 7S 2C 10S 4C JD 7D 7C 4D 9D 8D AH 2H 8H 10C"


class ReadClock:
    """The solver's CPU clock (``clock.cpu``) for a test: it moves on ``step`` seconds each
    time it is read, so that what a search does before its deadline depends on how often it looks
    at the clock, not on the machine's speed or load (tests assert no wall-clock time).
    ``step=0``: a clock that stands still, every deadline far off."""

    def __init__(self, step):
        self.now, self.step, self.reads = 1000.0, step, []

    def __call__(self):
        self.now += self.step
        self.reads.append(self.now)
        return self.now

    def past(self, deadline):
        return sum(1 for t in self.reads if t > deadline)


def test_the_exact_tie_break_keeps_to_its_time_limit(monkeypatch):
    # Its set-up (the suit relaxations: milliseconds on a full table) and its search look
    # at the clock: once it reads a time past its deadline it stops, with the greedy
    # answer or a better one (the set-up used to run 34 ms whatever the deadline).
    pos = Position.of(FULL_TABLE, FULL_HAND)
    counts, points, laid, hand = _exact_search(pos, 10)
    clock = ReadClock(step=1e-6)
    monkeypatch.setattr(solver_clock, "cpu", clock)
    deadline = clock.now + 0.005
    got = _fewest(pos, Settings(), counts, points, laid, deadline)
    monkeypatch.undo()
    assert got.moved <= laid.moved
    assert len(clock.reads) > 1000  # it looked often, reaching its deadline
    assert clock.past(deadline) <= 2  # and stopped at once
    # a deadline already past: the set-up itself stops
    with pytest.raises(search.Timeout):
        Fewest(pos.table, hand, counts.hand_jokers, points, solver_clock.now(), counts)
    with pytest.raises(search.Timeout):
        search.suit_futures(counts, 0, search.wild_cap(counts), solver_clock.now())


def test_the_exact_tie_break_looks_near_the_table_it_starts_from():
    # Asked for at most 13 moved, in cheapest-first order the search ran out of 0.4 s
    # (65,000 states) here; trying the greedy table's cores first it finds one in tens.
    pos = Position.of(BIG_TABLE, BIG_HAND)
    counts, points, laid, hand = _exact_search(pos, 10)
    fw = Fewest(pos.table, hand, counts.hand_jokers, points, solver_clock.now() + 60, counts)
    fw.start_from(laid.table)
    table = fw.find(13)
    assert table is not None and fw.visited < 2000
    assert moved_cards(pos.table, table) <= 13
    state = position_state(pos.table, pos.hand, Settings())
    apply_action(state, 0, {"do": "meld", "table": [format_cards(m) for m in table]})


def test_by_default_solve_moves_the_fewest_table_cards_where_it_can_prove_it(monkeypatch):
    # The greedy tie-break moves two; the fewest is one (the 10D joins 10C 10H, J-Q-K-A
    # stays): the default's exact tie-break (TIE_BREAK seconds, about 1 ms needed here)
    # finds it and proves it.
    pos = Position.of(["10D JD QD KD AD"], "AH 10C AS 10H AC")
    settings = Settings()
    assert TIE_BREAK > 0
    greedy = solve(pos, settings, tie_break=0)
    assert greedy.proven and (greedy.moved, greedy.moved_proven) == (2, False)
    # At the default's own pace (how many states it visits, not how fast the machine
    # is: a clock that stands still, so that a loaded machine cannot stop it early).
    with monkeypatch.context() as m:
        m.setattr(solver_clock, "cpu", ReadClock(step=0))
        sol = solve(pos, settings)
    assert sol.count == greedy.count and sol.proven
    assert (sol.moved, sol.moved_proven) == (1, True)
    assert best_played_and_moved(pos) == (hand_points(pos.hand) - sol.count, 1)
    _applied(pos, settings, sol)


# From the proof's positions (seed 7, position 46): the quick pass of the heuristic gives
# up on freezing melds that a few thousand states more would have kept.
WIDE_TABLE = ["7C 7H 7S", "2H 3H 4H", "8S 8H 8D 8C", "9D 10D JD QD", "6H 6S 6C"]
WIDE_HAND = "3C 2D AC KS KC 9C * QH 10S JS 5D 7D"


def test_the_wider_pass_of_the_heuristic_moves_fewer_than_its_quick_pass():
    pos = Position.of(WIDE_TABLE, WIDE_HAND, decks=1)
    counts, points, quick, _hand = _exact_search(pos, 5)
    wide = arrange(pos.table, counts, quick.result, None, (WIDE_TRY, WIDE_TRY * WIDE_TRIES))
    played, fewest = best_played_and_moved(pos)
    assert points == played
    assert wide.moved == fewest < quick.moved
    # and solve hands it on when its tie-break has the time for it
    settings = Settings()
    sol = solve(pos, settings, tie_break=0.5)
    assert sol.moved == fewest
    _applied(pos, settings, sol)


# From the proof's positions (seed 7, position 231): with its melds frozen biggest first
# the wider pass moves two table cards, smallest first none.
SMALL_FIRST_TABLE = [
    "6C 6D 6H 6S",
    "6S 8S 7S",
    "10H 10C 10D 10S",
    "9D 10D JD QD 8D",
    "7H 8H 9H 10H JH",
    "8C 9C 10C 7C",
    "8D 8C 8S 8H",
    "5S 5C 5H",
    "5S 3S 4S 2S AS",
    "AH 2H 3H",
]
SMALL_FIRST_HAND = "3C KH 3D 6D 7D 4S KC 4C KS QH 3H AC 6C AS 3S 4D"


def test_the_wider_pass_also_freezes_the_smallest_melds_first():
    pos = Position.of(SMALL_FIRST_TABLE, SMALL_FIRST_HAND)
    counts, _points, quick, _hand = _exact_search(pos, 5)
    budgets = (WIDE_TRY, WIDE_TRY * WIDE_TRIES)
    biggest = arrange(pos.table, counts, quick.result, None, budgets)
    smallest = arrange(pos.table, counts, quick.result, None, budgets, smallest_first=True)
    assert smallest.moved < biggest.moved
    sol = solve(pos, Settings(), tie_break=0.5)
    assert sol.moved == smallest.moved == best_played_and_moved(pos)[1]
    _applied(pos, Settings(), sol)


def test_a_short_tie_break_does_not_start_the_exact_search_on_a_big_table(monkeypatch):
    """On 50 table cards or more the default's 5 ms would go to the exact search's
    set-up: the greedy answer stands, not proven, without it."""
    started = []
    real = solve_module._fewest

    def spy(*args):
        started.append(args[0].table_cards)
        return real(*args)

    monkeypatch.setattr(solve_module, "_fewest", spy)
    big = Position.of(BIG_TABLE, BIG_HAND)
    assert big.table_cards >= solve_module.SHORT_SEARCH_BELOW
    sol = solve(big, Settings())
    assert sol.proven and not sol.moved_proven and started == []
    # given longer, it does
    solve(big, Settings(), tie_break=0.02)
    assert started == [big.table_cards]
    # and on a small table the default's 5 ms goes to it
    solve(Position.of(["10D JD QD KD AD"], "AH 10C AS 10H AC"), Settings())
    assert started[-1] == 5
