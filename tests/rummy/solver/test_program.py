"""The tie-break as an integer program (rummy.solver.program): the fewest table cards
moved among the tables that play the optimal points, proven by HiGHS. Every table it
gives is applied through the engine, and its figure checked against the proof's own
integer program (bench/solver_ilp.py, written apart) and the exact matching of
rummy.solver.moved."""

import dataclasses
import importlib
import math
import random
import threading

import pytest

from bench.solver_ilp import best_played_and_moved
from rummy.engine import DEFAULT_SETTINGS, Settings, apply_action, hand_points, parse_cards
from rummy.solver import Position, program, solve
from rummy.solver import clock as solver_clock
from rummy.solver.moved import moved_cards
from rummy.solver.samples import play_positions, sized_position
from rummy.solver.solve import _moved, position_state

from .test_tie_break import GAPS

# the module (the package's ``solve`` is its function)
solve_module = importlib.import_module("rummy.solver.solve")


@pytest.fixture(autouse=True, scope="module")
def _highs_loaded():
    program.load()


def _best_points(pos, settings):
    sol = solve(pos, settings, time_limit=60, tie_break=0)
    assert sol.found and sol.proven
    return hand_points(pos.hand) - sol.count


def _fewest(pos, settings=DEFAULT_SETTINGS, points=None, deadline=None):
    points = _best_points(pos, settings) if points is None else points
    return program.fewest_moved(
        pos, points, lambda table: _moved(pos, settings, table, points), deadline=deadline
    )


def _accepted(pos, settings, table, points):
    """The engine takes ``table`` as the meld, and the hand cards it adds are worth
    ``points``."""
    state = position_state(pos.table, pos.hand, settings)
    action = {"do": "meld", "table": [" ".join(str(c) for c in m) for m in table], "knock": False}
    after = apply_action(state, 0, action)
    left = parse_cards(after.last_round["hands"][0]) if after.round_over else after.hands[0]
    assert hand_points(pos.hand) - hand_points(left) == points
    return after


@pytest.mark.parametrize(
    "table,hand,fewest",
    [
        # a lay-off moves nothing
        (["7H 8H 9H"], "10H JH 2C", 0),
        # two runs end to end stay two runs
        (["3H 4H 5H", "6H 7H 8H"], "9H 2C", 0),
        # a second 7H splits the run: 8H 9H move
        (["5H 6H 7H 8H 9H"], "7H KC", 2),
        # the 4C and 4D come off a group of four and a run of four
        (["4D 5D 6D 7D", "4H 4S 4C 4D"], "4C 8D", 2),
        # the real 9H frees the joker, declared again at once (it moved)
        (["8H *9H 10H", "4C 5C 6C"], "9H 7C", 1),
        # a table joker may move to another meld keeping its card: here it stays
        (["8H *9H 10H"], "JH QH", 0),
        # a hand joker takes any declaration
        (["4S 5S 6S"], "* 9D", 0),
        # a run of 13 (ace low to king) takes no more; the 2H starts a new meld
        (["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"], "2H 2S 2D", 0),
        # the joker's real card is on the table already (R5.2 d, Decision): it leaves
        # its group for the joker's place in the run, and the joker freed makes a group
        # of kings with the hand's two (moved: the 5D and the joker)
        (["3D 4D *5D 6D", "5D 5S 5C 5H"], "KS KD", 2),
        # the 9H joins the nines; the joker declared 9H need not move (two decks), where
        # the quick search frees it and moves it
        (["8H *9H 10H", "4C 5C 6C", "9C 9S *9D"], "9H 7C", 0),
    ],
)
def test_the_fewest_moved_proven(table, hand, fewest):
    pos = Position.of(table, hand)
    settings = Settings()
    points = _best_points(pos, settings)
    found = _fewest(pos, settings, points)
    assert found is not None
    assert (found.moved, found.proven) == (fewest, True)
    after = _accepted(pos, settings, found.table, points)
    assert moved_cards(pos.table, after.table) == fewest
    assert best_played_and_moved(pos) == (points, fewest)


@pytest.mark.parametrize("table,hand,decks,fewest,greedy", GAPS)
def test_where_the_search_ran_out_of_time_the_program_proves_the_fewest(
    table, hand, decks, fewest, greedy
):
    pos = Position.of(table, hand, decks=decks)
    found = _fewest(pos)
    assert found is not None
    assert (found.moved, found.proven) == (fewest, True)


def test_random_positions_agree_with_the_proofs_integer_program():
    """Positions from whole rounds and sized tables up to about 90 cards: the figure is
    the second method's fewest, proven, and the table is the engine's."""
    rng = random.Random(20261203)
    checked = 0
    while checked < 24:
        if checked % 2:
            try:
                state, _seat, pos = sized_position(
                    rng, rng.choice([20, 40, 60, 80]), rng.randint(10, 20), players=4
                )
            except IndexError:  # the round's unseen cards ran out: draw again
                continue
        else:
            state, _seat, pos = next(
                (s, t, p) for s, t, p in play_positions(rng) if rng.random() < 0.2
            )
        settings = state.settings
        sol = solve(pos, settings, time_limit=60, tie_break=0)
        if not sol.found:
            continue
        points = hand_points(pos.hand) - sol.count
        found = _fewest(pos, settings, points)
        assert found is not None and found.proven
        assert best_played_and_moved(pos) == (points, found.moved)
        assert found.moved <= sol.moved
        _accepted(pos, settings, found.table, points)
        checked += 1


def test_the_whole_model_gives_what_the_quick_one_bounds():
    # the quick model does not see where a joker stands; its bound is met here, and the
    # whole model (each copy's joker places) says the same
    pos = Position.of(["8H *9H 10H", "4C 5C 6C", "9C 9S *9D"], "9H 7C")
    points = _best_points(pos, Settings())
    model = program._Model(pos, points, ())
    quick = model.solve(slots=False, deadline=None)
    whole = model.solve(slots=True, deadline=None)
    assert quick is not None and whole is not None
    assert quick[1] == whole[1] == pos.table_cards
    assert quick[2] and whole[2]
    for table, kept, _optimal in (quick, whole):
        assert _moved(pos, Settings(), table, points) == pos.table_cards - kept == 0


def test_a_quick_table_that_keeps_less_than_it_counted_goes_to_the_whole_model(monkeypatch):
    pos = Position.of(["8H *9H 10H", "4C 5C 6C"], "9H 7C")
    calls = []
    real = program._Model.solve

    def spy(self, slots, deadline):
        calls.append(slots)
        return real(self, slots, deadline)

    monkeypatch.setattr(program._Model, "solve", spy)
    counted = iter([5, 1])  # the first table "moves" more than its bound of 1

    found = program.fewest_moved(pos, 16, lambda table: next(counted))
    assert calls == [False, True]
    assert found is not None and (found.moved, found.proven) == (1, True)


def test_a_table_the_engine_refuses_is_not_returned():
    pos = Position.of(["8H *9H 10H", "4C 5C 6C"], "9H 7C")
    assert program.fewest_moved(pos, 16, lambda table: None) is None


def test_past_its_deadline_it_gives_nothing():
    pos = Position.of(["8H *9H 10H", "4C 5C 6C"], "9H 7C")
    assert _fewest(pos, deadline=solver_clock.now() - 1) is None


def test_cut_short_it_returns_the_best_found_not_proven(monkeypatch):
    table, hand, decks, fewest, _greedy = GAPS[0]
    pos = Position.of(table, hand, decks=decks)
    real = program._highs

    def time_limited(*args, **kwargs):
        # as when the solve's deadline stops HiGHS with a table
        return dataclasses.replace(real(*args, **kwargs), status=program.CUT)

    monkeypatch.setattr(program, "_highs", time_limited)
    found = _fewest(pos)
    assert found is not None
    assert (found.moved, found.proven) == (fewest, False)


def test_solve_gives_the_program_a_hints_tie_break():
    table, hand, decks, fewest, greedy = GAPS[-1]
    pos = Position.of(table, hand, decks=decks)
    sol = solve(pos, Settings(), tie_break=0.25)
    assert (sol.moved, sol.moved_proven) == (fewest, True)
    assert fewest < greedy


def test_solve_keeps_the_default_tie_break_to_the_searches(monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("the program ran")

    monkeypatch.setattr(program, "fewest_moved", fail)
    table, hand, decks, _fewest, _greedy = GAPS[-1]
    sol = solve(Position.of(table, hand, decks=decks), Settings())
    assert sol.found and sol.proven


def test_solve_keeps_the_searches_answer_when_the_program_finds_nothing(monkeypatch):
    monkeypatch.setattr(program, "fewest_moved", lambda *a, **k: None)
    monkeypatch.setattr(solve_module, "_wider", lambda pos, counts, best, laid, tb, end: laid)
    monkeypatch.setattr(solve_module, "_fewest", lambda *a: a[4])
    table, hand, decks, _fewest, greedy = GAPS[-2]
    sol = solve(Position.of(table, hand, decks=decks), Settings(), tie_break=0.25)
    assert (sol.moved, sol.moved_proven) == (greedy, False)


def test_highs_is_loaded_in_the_background_the_first_time(monkeypatch):
    """A solve that finds HiGHS not yet imported does not wait for it (a quarter of a
    second, half a hint's time): it starts the import and uses the searches."""
    go = threading.Event()
    monkeypatch.setattr(program, "_loading", None)
    monkeypatch.setattr(program, "load", go.wait)
    monkeypatch.delitem(program.sys.modules, "highspy")
    assert program.ready() is False
    assert program.ready() is False  # still importing
    go.set()
    program._loading.join(5)
    assert program.ready() is True


# -- the count as an integer program: a count the search does not find at once ---------


def test_the_count_program_agrees_with_the_proofs_program():
    from bench.solver_ilp import best_played

    rng = random.Random(3)
    for table in (0, 20, 40, 60, 80):
        for hand in (4, 12, 18):
            _state, _seat, pos = sized_position(rng, table, hand, players=4)
            counted = program.most_points(pos)
            assert counted is not None and counted.proven
            assert counted.points == best_played(pos), pos
            # its cards and melds say the same
            assert (
                sum(counted.played) + counted.jokers
                == sum(n * (len(tpl)) for tpl, n in counted.melds) - pos.table_cards
            )


def test_no_meld_is_proven_by_the_count_program():
    pos = Position.of(["2H 3H 4H"], "9S KD")
    counted = program.most_points(pos)
    assert counted is not None and (counted.points, counted.proven) == (0, True)


def test_the_count_programs_melds_replay_as_the_searchs_result():
    from .test_clock import SLOW_HAND, SLOW_TABLE

    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    counted = program.most_points(pos)
    result = solve_module._from_program(pos, Settings(), counted)
    assert result is not None and result.value == counted.points


def test_a_count_the_search_does_not_find_at_once_is_settled_by_the_program(monkeypatch):
    # The search's first arrangement here plays 16 of the 57 points its bound allows; it
    # then climbs one point at a time for about a hundred milliseconds. The program
    # settles it; the count is the search's own, and the engine accepts the table.
    from .test_clock import SLOW_HAND, SLOW_TABLE

    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    settings = Settings()
    asked = []
    real = program.most_points
    monkeypatch.setattr(
        program, "most_points", lambda *args, **kw: asked.append(1) or real(*args, **kw)
    )
    sol = solve(pos, settings, time_limit=60)
    assert asked and sol.proven
    with monkeypatch.context() as m:
        m.setattr(program, "ready", lambda: False)
        alone = solve(pos, settings, time_limit=60)
    assert alone.proven and sol.count == alone.count
    apply_action(position_state(pos.table, pos.hand, settings), 0, sol.action(knock=False))


def test_the_searchs_melds_are_offered_to_the_count_program_in_a_solve(monkeypatch):
    from .test_clock import SLOW_HAND, SLOW_TABLE

    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    offers = []
    real = program.most_points

    def most_points(pos, keep, deadline, enough, offered):
        def watched():
            table = offered()
            offers.append(table)
            return table

        return real(pos, keep, deadline, enough, watched)

    monkeypatch.setattr(program, "most_points", most_points)
    sol = solve(pos, Settings(), time_limit=60)
    assert sol.proven and any(table is not None for table in offers)


def test_cut_short_the_count_program_leaves_the_count_to_the_search(monkeypatch):
    from .test_clock import SLOW_HAND, SLOW_TABLE

    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    settings = Settings()
    with monkeypatch.context() as m:
        m.setattr(program, "ready", lambda: False)
        alone = solve(pos, settings, time_limit=60)
    monkeypatch.setattr(program, "most_points", lambda *args, **kw: None)
    sol = solve(pos, settings, time_limit=60)
    assert sol.proven and sol.count == alone.count


def test_stopped_early_the_count_program_gives_what_it_found_and_its_bound():
    from .test_clock import SLOW_HAND, SLOW_TABLE

    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    best = program.most_points(pos)
    assert best is not None and best.proven and best.most == best.points
    # stopped at its first meld: no more than the most, and a bound no less
    early = program.most_points(pos, enough=lambda found, most: found is not None)
    assert early is not None and early.most is not None
    assert early.points <= best.points <= early.most
    assert not early.proven or early.points == best.points


#: a table where the program's first meld of its own plays 29 points of the 47 possible
FIRST_POOR = (
    ["10D JD QD", "10S 10D 10C", "6S 6D 6H", "AS 2S 3S 4S 5S", "6C 5C 4C", "9D 9C 9H"],
    "2C JS QC 8C 4D 2D 8S 7H JC QS 10H 9S",
)


def test_the_count_program_takes_a_meld_offered_as_it_goes():
    # stopped at its first meld, the program answers with the best meld, which it was
    # offered (on its own its first meld plays less)
    pos = Position.of(*FIRST_POOR)
    best = solve(pos, Settings(), time_limit=60, tie_break=0)
    points = hand_points(pos.hand) - best.count
    first = lambda found, most: found is not None  # noqa: E731
    alone = program.most_points(pos, enough=first)
    assert alone is not None and alone.points < points
    offers = []

    def offered():
        offers.append(1)
        return [list(m) for m in best.table] if len(offers) == 1 else None

    helped = program.most_points(pos, enough=first, offered=offered)
    assert helped is not None and helped.points == points and len(offers) > 1
    assert solve_module._from_program(pos, Settings(), helped) is not None


def test_a_table_the_count_program_cannot_end_with_changes_nothing():
    # hand cards not in the hand, a run whose joker and cards are not to be had, one
    # meld of the table without the rest, a joker where there is none: HiGHS is given
    # nothing or refuses it, and the program goes on alone, to the same proven count
    from .test_clock import SLOW_HAND, SLOW_TABLE

    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    best = program.most_points(pos)
    assert best is not None
    for table in (
        [list(parse_cards("JC QC KC"))],
        [list(parse_cards("2S 3S *4S"))],
        [list(m) for m in Position.of(SLOW_TABLE, SLOW_HAND).table][:1],
    ):
        got = program.most_points(pos, offered=lambda table=table: table)
        assert got is not None and (got.points, got.proven) == (best.points, True)
    plain = Position.of(["2H 3H 4H", "5D 6D 7D"], "8D 9D KS")
    assert program.most_points(plain, offered=lambda: [list(parse_cards("*2S 3S 4S"))]).points == 17


def _race(pos):
    from rummy.solver import search

    counts = solve_module._counts(pos, ())
    return solve_module._Race(search.DepthFirst(search.placeable(counts)), pos)


def test_the_race_offers_the_searchs_best_meld_once_each_time_it_improves(long_turns):
    from .test_clock import SLOW_HAND, SLOW_TABLE

    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    settings = Settings()
    race = _race(pos)
    assert race.offered() is None  # nothing found yet
    points = _best_points(pos, settings)
    assert race(None, points) is True and race.best is not None
    table = race.offered()
    assert table is not None and race.offered() is None
    assert solve_module._same_cards(pos, settings, table, points)


@pytest.fixture
def long_turns(monkeypatch):
    monkeypatch.setattr(solve_module, "TURN", 10**9)


def test_in_its_turn_the_search_meets_the_programs_bound_and_the_program_stops(long_turns):
    from .test_clock import SLOW_HAND, SLOW_TABLE

    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    points = _best_points(pos, Settings())
    race = _race(pos)
    assert race(None, points) is True
    assert race.best is not None and race.best.value == points


def test_in_its_turn_the_search_proves_that_no_more_can_be_played(long_turns):
    from .test_clock import SLOW_HAND, SLOW_TABLE

    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    points = _best_points(pos, Settings())
    race = _race(pos)
    # the program has found the most and has no bound yet: the search climbs past it
    # to nothing, which proves it
    assert race(points, None) is True
    assert race.most == points and race.best is None


def test_a_turn_ends_after_its_states_and_the_next_goes_on(monkeypatch):
    from .test_clock import SLOW_HAND, SLOW_TABLE

    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    points = _best_points(pos, Settings())
    race = _race(pos)
    monkeypatch.setattr(solve_module, "TURN", 1)
    assert race(None, points + 1) is False
    visited = race.dfs.visited
    assert race(None, points + 1) is False and race.dfs.visited > visited
    # with turns long enough it proves the bound one point too high, then meets it
    monkeypatch.setattr(solve_module, "TURN", 10**9)
    assert race(None, points + 1) is True
    assert race.most == points and race.best is not None and race.best.value == points


def test_each_turn_of_the_race_is_longer_than_the_last(monkeypatch):
    # a race that goes on is one where the program is stuck: the search gets more
    from .test_clock import SLOW_HAND, SLOW_TABLE

    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    points = _best_points(pos, Settings())
    race = _race(pos)
    monkeypatch.setattr(solve_module, "TURN", 32)
    monkeypatch.setattr(solve_module, "TURN_GROWTH", 4)
    turns = []
    for _ in range(4):
        before = race.dfs.visited
        assert race(None, points + 1) is False  # not settled: too high to meet
        turns.append(race.dfs.visited - before)
    # (a turn stops at the first state past its budget)
    assert turns == [33, 41, 49, 57]


def test_the_race_gives_the_same_answer_however_busy_the_machine(monkeypatch):
    # the turns are counted in states, not time: a machine where the wall clock runs a
    # hundred times as fast as the thread's CPU time gets the same table
    from .test_clock import SLOW_HAND, SLOW_TABLE, busy

    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    settings = Settings()
    calm = solve(pos, settings)
    with busy(monkeypatch, 100):
        loaded = solve(pos, settings, wall_limit=math.inf)
    assert (loaded.table, loaded.count, loaded.proven) == (calm.table, calm.count, True)


def test_a_program_that_meets_its_own_bound_is_proven():
    from .test_clock import SLOW_HAND, SLOW_TABLE

    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    assert _race(pos)(40, 40) is True  # no search needed


def test_the_count_search_stops_at_the_most_the_program_proved(monkeypatch):
    # The program stopped with no meld found but a bound: the search climbs to that
    # bound and stops there, proven, without the last search that would exhaust its
    # states to prove that no more can be played.
    from rummy.solver import search

    from .test_clock import SLOW_HAND, SLOW_TABLE

    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    settings = Settings()
    points = _best_points(pos, settings)
    bound = program.Counted(0, (0,) * 52, 0, False, most=points)
    monkeypatch.setattr(program, "most_points", lambda *args, **kw: bound)
    asked = []
    real = search.DepthFirst.find

    def find(self, need, *args, **kw):
        asked.append(need)
        return real(self, need, *args, **kw)

    monkeypatch.setattr(search.DepthFirst, "find", find)
    sol = solve(pos, settings, time_limit=60, tie_break=0)
    assert sol.proven and hand_points(pos.hand) - sol.count == points
    assert points + 1 not in asked


def test_out_of_time_after_the_program_the_answer_is_the_programs_best(monkeypatch):
    # The program stopped at the solve's deadline with a meld it had not proven the
    # best, and the search has no time left: that meld is the answer, not proven
    # (not the simple bot's plan, which plays less here).
    from rummy.solver import search

    from .test_clock import SLOW_HAND, SLOW_TABLE

    pos = Position.of(SLOW_TABLE, SLOW_HAND)
    settings = Settings()
    points = _best_points(pos, settings)
    real = program.most_points
    late = []

    def cut(*args, **kw):
        late.append(1)
        return dataclasses.replace(real(pos), proven=False, most=None)

    def no_time(self, need, *args, **kw):
        if late:
            raise search.Timeout
        return real_find(self, need, *args, **kw)

    real_find = search.DepthFirst.find
    monkeypatch.setattr(program, "most_points", cut)
    monkeypatch.setattr(search.DepthFirst, "find", no_time)
    sol = solve(pos, settings, time_limit=60, tie_break=0)
    assert late and not sol.proven
    assert hand_points(pos.hand) - sol.count == points
    apply_action(position_state(pos.table, pos.hand, settings), 0, sol.action(knock=False))
