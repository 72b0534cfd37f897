"""The season planner: what it promises over random inputs (no database)."""

import itertools

import pytest
from django.core.management import CommandError, call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.schedules.planner import PlanError, figures, least_spread, plan, table_sizes

# Small search budgets: the properties below hold whatever the search reached.
STEPS = 300


def _played(result):
    games = [0] * result.members
    for round_ in result.rounds:
        seated = [m for table in round_.tables for m in table]
        assert len(seated) == len(set(seated)), "a member seated twice in one round"
        assert not set(seated) & set(round_.resting)
        for table in round_.tables:
            assert 2 <= len(table) <= result.seats
            for member in table:
                games[member] += 1
        sizes = [len(t) for t in round_.tables]
        if sizes:
            assert max(sizes) - min(sizes) <= 1, "a round's tables differ by more than one"
    return games


@settings(max_examples=60, deadline=None)
@given(
    members=st.integers(2, 30),
    seats=st.integers(2, 5),
    games_each=st.integers(1, 8),
    seed=st.integers(0, 2**32),
)
def test_every_member_plays_exactly_the_games_set_and_never_twice_in_a_round(
    members, seats, games_each, seed
):
    if seats == 2 and members * games_each % 2:
        with pytest.raises(PlanError):
            plan(members, seats, games_each, seed)
        return
    result = plan(members, seats, games_each, seed, search_steps=STEPS)
    assert _played(result) == [games_each] * members
    seen = figures(result)
    assert seen.games == (games_each,) * members
    # No plan beats the lower bound (members == 2 leaves no other pair to compare).
    assert seen.pair_spread >= least_spread(members, seats, games_each)
    # Seat 0 moves first: one first move per table, spread evenly (within two: the seats
    # are chosen round by round, after the tables).
    assert sum(seen.first_moves) == sum(len(r.tables) for r in result.rounds)
    if len(seen.table_sizes) == 1 and not any(r.resting for r in result.rounds):
        assert max(seen.first_moves) - min(seen.first_moves) <= 2


@settings(max_examples=40, deadline=None)
@given(
    members=st.integers(4, 16),
    seats=st.integers(3, 5),
    games_each=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_members_away_are_made_up_for_in_later_rounds(members, seats, games_each, seed, data):
    away = {
        r: data.draw(st.sets(st.integers(0, members - 1), max_size=2)) for r in range(games_each)
    }
    result = plan(members, seats, games_each, seed, away=away, search_steps=STEPS)
    for index, round_ in enumerate(result.rounds):
        seated = {m for table in round_.tables for m in table}
        assert not seated & set(away.get(index, ())), "a member away was seated"
    assert _played(result) == [games_each] * members


def test_a_round_seats_everyone_at_the_fewest_tables_as_equal_as_possible():
    assert table_sizes(12, 4) == [4, 4, 4]
    assert table_sizes(10, 4) == [4, 3, 3]
    assert table_sizes(6, 5) == [3, 3]
    assert table_sizes(11, 5) == [4, 4, 3]
    result = plan(10, 4, 3, seed=5, search_steps=STEPS)
    assert [sorted(len(t) for t in r.tables) for r in result.rounds] == [[3, 3, 4]] * 3


def test_at_tables_of_two_an_odd_membership_rests_in_turn():
    result = plan(7, 2, 4, seed=1, search_steps=STEPS)
    assert _played(result) == [4] * 7
    # 28 seats at 3 tables a round: 5 rounds, the last one short; no one rests twice
    # while others play on.
    assert len(result.rounds) == 5
    rests = [m for r in result.rounds for m in r.resting]
    assert len(rests) == len(set(rests))


def test_the_same_seed_gives_the_same_plan_and_another_seed_another():
    assert plan(12, 4, 6, seed=1) == plan(12, 4, 6, seed=1)
    assert plan(12, 4, 6, seed=1) != plan(12, 4, 6, seed=2)


def test_pairs_meet_as_equally_as_the_numbers_allow_on_a_resolvable_size():
    # 9 members at tables of 3 for 4 rounds can meet each other exactly once (Kirkman's
    # schoolgirls, smaller): the search finds it.
    seen = figures(plan(9, 3, 4, seed=1))
    assert (seen.pair_min, seen.pair_max) == (1, 1)


@pytest.mark.parametrize(
    ("members", "seats", "games_each", "meetings"),
    [
        # The affine planes of order 4 (also at tables of 5: 16 sit at four tables of
        # 4), 3 and 5: every pair once in q + 1 rounds.
        (16, 4, 5, (1, 1)),
        (16, 5, 10, (2, 2)),
        (16, 4, 20, (4, 4)),
        (9, 3, 8, (2, 2)),
        (25, 5, 6, (1, 1)),
        # The round robin at tables of 2.
        (10, 2, 9, (1, 1)),
        (10, 2, 18, (2, 2)),
        # Part of a pass: pairs meet once more or not, never two apart.
        (16, 4, 7, (1, 2)),
        (25, 5, 13, (2, 3)),
        (12, 2, 5, (0, 1)),
    ],
)
def test_sizes_with_a_resolvable_design_meet_as_evenly_as_possible(
    members, seats, games_each, meetings
):
    for seed in (1, 2):
        result = plan(members, seats, games_each, seed)
        seen = figures(result)
        assert (seen.pair_min, seen.pair_max) == meetings
        assert seen.pair_spread == least_spread(members, seats, games_each)
        assert _played(result) == [games_each] * members
        assert max(seen.first_moves) - min(seen.first_moves) <= 2
    assert plan(16, 4, 5, seed=1) != plan(16, 4, 5, seed=2)


@pytest.mark.parametrize(
    ("members", "seats", "rounds"),
    [
        # Kirkman triple systems (Kirkman's schoolgirls are 15), and with one fewer.
        (15, 3, 7),
        (21, 3, 10),
        (27, 3, 13),
        (39, 3, 19),
        (57, 3, 28),
        (45, 3, 22),
        (81, 3, 40),
        (14, 3, 7),
        (44, 3, 22),
        (20, 3, 10),
        (56, 3, 28),
        # Affine planes with one fewer, and 9 at tables of 4 (three tables of 3).
        (8, 3, 4),
        (15, 4, 5),
        (24, 5, 6),
        (9, 4, 4),
    ],
)
def test_every_pair_meets_exactly_once_in_a_pass_of_a_built_in_design(members, seats, rounds):
    result = plan(members, seats, rounds, seed=3)
    seen = figures(result)
    assert (seen.pair_min, seen.pair_max) == (1, 1)
    assert _played(result) == [rounds] * members
    assert len(result.rounds) == rounds


def test_members_away_on_a_resolvable_size_are_still_made_up_for():
    result = plan(16, 4, 5, seed=1, away={0: {3}, 2: {3, 7}})
    assert _played(result) == [5] * 16
    assert all(3 not in table for table in result.rounds[0].tables)


def _least_spread_by_trying_all(members, seats, games_each):
    """The least spread over every plan at two tables a round: each round is a choice
    of who sits at the first table."""
    first = table_sizes(members, seats)[0]
    pairs = list(itertools.combinations(range(members), 2))
    splits = [
        [(a in side) == (b in side) for a, b in pairs]
        for side in map(set, itertools.combinations(range(members), first))
    ]
    least = None
    for chosen in itertools.combinations_with_replacement(splits, games_each):
        counts = [sum(column) for column in zip(*chosen, strict=True)]
        spread = max(counts) - min(counts)
        least = spread if least is None else min(least, spread)
    return least


@pytest.mark.parametrize(
    ("members", "seats", "games_each"),
    [(5, 3, g) for g in range(1, 6)] + [(6, 3, g) for g in range(1, 4)] + [(7, 4, 2), (8, 4, 2)],
)
def test_the_lower_bound_on_the_spread_is_one_no_plan_beats(members, seats, games_each):
    # Checked against every plan there is, where there are few: it holds, and on these
    # sizes it is exact (it is not everywhere: 7 members at tables of 4, 3 games each,
    # cannot do better than 2, the bound says 1).
    found = _least_spread_by_trying_all(members, seats, games_each)
    assert least_spread(members, seats, games_each) == found


def test_the_lower_bound_rules_out_one_where_tables_outnumber_too_few_meetings():
    # 12 at three tables of 4: a table of the second round takes two from one table of
    # the first, though most pairs never meet.
    assert least_spread(12, 4, 3) == 2
    assert least_spread(12, 3, 3) == 1
    assert least_spread(16, 4, 5) == 0
    # At tables of 2 with an odd membership someone rests: 5 members, 2 games each,
    # make 5 meetings over 10 pairs.
    assert least_spread(5, 2, 2) == 1
    assert least_spread(5, 2, 4) == 0


def test_the_search_improves_on_the_greedy_start():
    searched = figures(plan(60, 5, 20, seed=3))
    greedy = figures(plan(60, 5, 20, seed=3, search_steps=0))
    assert searched.pair_spread < greedy.pair_spread


def _least_spread(result):
    """0 when the pair meetings divide evenly over the pairs, else 1: a bound."""
    total = sum(len(t) * (len(t) - 1) // 2 for r in result.rounds for t in r.tables)
    return 0 if total % (result.members * (result.members - 1) // 2) == 0 else 1


@settings(max_examples=25, deadline=None)
@given(
    seats=st.integers(3, 5),
    more=st.integers(1, 6),
    games_each=st.integers(2, 6),
    seed=st.integers(0, 2**32),
)
def test_pairs_meet_within_one_of_the_least_spread_the_numbers_allow(seats, more, games_each, seed):
    # At least three tables a round: with two, the sides a member sat on round by round
    # bound the spread from below (6 members at two tables of 3 for 15 rounds cannot
    # all meet equally often: every three members' meetings add up to an odd number).
    # Within one is what the search aims at and mostly reaches, but not on every input
    # (15 members at tables of 5, 5 games each, seed 5: 0-3).
    members = 2 * seats + more
    result = plan(members, seats, games_each, seed)
    assert figures(result).pair_spread <= _least_spread(result) + 2


@pytest.mark.parametrize(
    ("members", "seats", "games_each"),
    [(9, 3, 4), (16, 4, 5), (12, 3, 10), (16, 4, 6), (30, 4, 15), (12, 4, 10)],
)
def test_sizes_that_can_reach_the_least_spread_reach_it(members, seats, games_each):
    result = plan(members, seats, games_each, seed=1)
    assert figures(result).pair_spread == _least_spread(result)


@pytest.mark.parametrize(
    ("members", "seats", "games_each"),
    [(12, 4, 6), (12, 5, 6), (20, 5, 6), (9, 5, 6), (6, 3, 6), (30, 5, 20), (60, 5, 20)],
)
def test_tight_sizes_come_within_one_of_the_least_spread(members, seats, games_each):
    # The annealing alone left these two or three above the least.
    result = plan(members, seats, games_each, seed=1)
    assert figures(result).pair_spread <= _least_spread(result) + 1


@pytest.mark.parametrize(
    ("members", "seats", "games_each", "words"),
    [
        (12, 6, 3, "A table seats 2 to 5 players, not 6."),
        (12, 1, 3, "A table seats 2 to 5 players, not 1."),
        (1, 3, 3, "2 to 200 members, not 1."),
        (201, 3, 3, "2 to 200 members, not 201."),
        (12, 4, 0, "Each member plays 1 to 50 games, not 0."),
        (7, 2, 3, "At tables of 2, 7 members cannot each play 3 games"),
    ],
)
def test_impossible_numbers_are_refused_in_words(members, seats, games_each, words):
    with pytest.raises(PlanError, match=words.replace(".", r"\.")):
        plan(members, seats, games_each)
    with pytest.raises(CommandError, match=words.replace(".", r"\.")):
        call_command(
            "plan_season",
            players=members,
            seats=seats,
            games_each=games_each,
            stdout=None,
        )


def test_the_command_prints_the_rounds_tables_and_figures(capsys):
    call_command("plan_season", "--players", "12", "--seats", "4", "--games-each", "6")
    out = capsys.readouterr().out
    assert out.count("Round ") == 6
    assert out.count("  table ") == 18
    seen = figures(plan(12, 4, 6, seed=0))
    assert f"pair meetings: min {seen.pair_min}, max {seen.pair_max}" in out
    assert "games played: min 6, max 6" in out
    assert f"first moves: min {min(seen.first_moves)}, max {max(seen.first_moves)}" in out
    assert out.count("   first ") == 12


def test_the_command_says_the_least_spread_any_plan_could_have(capsys):
    call_command("plan_season", "--players", "16", "--seats", "4", "--games-each", "5")
    out = capsys.readouterr().out
    assert "pair meetings: min 1, max 1 (spread 0; no plan of these numbers has less than 0)" in out
    call_command("plan_season", "--players", "6", "--seats", "3", "--games-each", "3")
    assert "has less than 2)" in capsys.readouterr().out


def test_the_command_exits_non_zero_on_impossible_input():
    import subprocess
    import sys

    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "plan_season",
            "--players",
            "7",
            "--seats",
            "2",
            "--games-each",
            "3",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert "members times the games each must be even" in done.stderr
