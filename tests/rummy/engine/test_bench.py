"""The benchmark (``python -m rummy.engine.bench``) measures what it says: the position
and the meld it times, reproducible rounds, and a report that names each case with its
verdict against the target (the timings themselves are checked by ``make bench``)."""

import pytest

from rummy.engine import apply_action, bench
from rummy.engine.bench import bench_rounds, full_table_position, meld_action


def test_bench_position_is_a_full_two_deck_table():
    state = full_table_position()
    assert 28 <= len(state.table) <= 32 and len(state.hands[0]) == 15
    on_table = sum(len(m) for m in state.table)
    assert on_table + 15 == 106 - 2 + 2  # the hand's 5C/JS are held on the table by jokers


def test_bench_meld_is_accepted_and_frees_a_joker():
    state = full_table_position()
    new = apply_action(state, 0, meld_action(state))
    assert new.turn == 1 and len(new.hands[0]) == 11


def test_bench_rounds_replay_the_same_games_for_a_seed():
    _secs, actions = bench_rounds(rounds=3, seed=5)
    assert bench_rounds(rounds=3, seed=5)[1] == actions


@pytest.mark.parametrize(
    ("validation_us", "rounds_s", "verdicts", "code"),
    [
        (50.0, 5.0, ["OK", "OK"], 0),
        (500.0, 5.0, ["TOO SLOW", "OK"], 1),
        (50.0, 99.0, ["OK", "TOO SLOW"], 1),
    ],
)
def test_bench_report_names_each_case_and_its_verdict(
    monkeypatch, capsys, validation_us, rounds_s, verdicts, code
):
    monkeypatch.setattr(bench, "bench_validation", lambda: (validation_us, 60.0, 28, 15))
    monkeypatch.setattr(bench, "bench_rounds", lambda: (rounds_s, 1234))
    assert bench.main() == code
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("meld validation (28 melds on the table, hand of 15)")
    assert lines[1].startswith("1,000 random rounds, 4 players") and "(1234 actions)" in lines[1]
    assert [line.rsplit(")", 1)[1].strip() for line in lines] == verdicts
