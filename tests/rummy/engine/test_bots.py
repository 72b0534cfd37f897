"""The bots used by the benchmark and the random tests propose only legal, valid moves."""

import random

from rummy.engine import apply_action, format_cards, position
from rummy.engine.bots import choose_action, plan_table


def test_simple_bot_melds_from_hand_and_knocks():
    s = position(["7H 8H 9H 2C", "KS"], stock="3C", drawn=1)
    action = choose_action(s, 0, random.Random(1), level=0, knock_chance=1.0)
    assert action["do"] == "meld" and action["knock"] is True
    assert [format_cards(m) for m in action["table"]] == ["7H 8H 9H"]
    assert apply_action(s, 0, action).round_over


def test_bot_draws_when_it_cannot_meld_and_passes_in_the_final_lap():
    s = position(["2C 9D", "KS"], stock="3H")
    assert choose_action(s, 0, random.Random(1)) == {"do": "draw"}
    s = position(["2C 9D", "KS"], stock="", final_turns=2)
    assert choose_action(s, 0, random.Random(1), knock_chance=0.0) == {"do": "pass"}


def test_manipulator_frees_a_table_joker_with_the_real_card():
    s = position(["8H KD", "KS"], table=["*8H 9H 10H", "4C 5C 6C"], stock="3C", drawn=1)
    table, _hand = plan_table(s, 0, random.Random(2), level=1)
    t = apply_action(s, 0, {"do": "meld", "table": table})
    assert [str(c) for c in t.hands[0]] == ["KD"]
    assert any("8H" in format_cards(m).split() for m in t.table)


def test_manipulator_splits_a_run_with_an_identical_card():
    s = position(["6S QD", "KS", "QS"], table=["3S 4S 5S 6S 7S 8S 9S"], stock="3C", drawn=1)
    table, _hand = plan_table(s, 0, random.Random(3), level=1)
    t = apply_action(s, 0, {"do": "meld", "table": table})
    assert [str(c) for c in t.hands[0]] == ["QD"] and len(t.table) == 2


def test_a_bot_holding_a_whole_suit_melds_it_ace_low_once():
    # R4.3: with the ace both low and high the bot would try to meld it twice.
    s = position(["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 5D", "KH"], stock="3C", drawn=1)
    action = choose_action(s, 0, random.Random(1), level=0, knock_chance=0.0)
    assert [format_cards(m) for m in action["table"]] == ["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"]
    apply_action(s, 0, action)  # legal
