"""The benchmark module runs and measures what it says (targets are checked by
`python -m rummy.engine.bench`)."""

from rummy.engine import apply_action
from rummy.engine.bench import bench_rounds, bench_validation, full_table_position, meld_action


def test_bench_position_is_a_full_two_deck_table():
    state = full_table_position()
    assert 28 <= len(state.table) <= 32 and len(state.hands[0]) == 15
    on_table = sum(len(m) for m in state.table)
    assert on_table + 15 == 106 - 2 + 2  # the hand's 5C/JS are held on the table by jokers


def test_bench_meld_is_accepted_and_frees_a_joker():
    state = full_table_position()
    new = apply_action(state, 0, meld_action(state))
    assert new.turn == 1 and len(new.hands[0]) == 11


def test_bench_functions_run():
    median, median_text, melds, hand = bench_validation(repeats=20)
    assert median > 0 and median_text > 0 and melds >= 28 and hand == 15
    secs, actions = bench_rounds(rounds=3)
    assert secs > 0 and actions > 0
