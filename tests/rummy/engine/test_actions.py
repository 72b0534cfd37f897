"""Actions (R3, R5, R6, R8): every action, every error code, and "state unchanged" on refusal."""

import random

import pytest

from rummy.engine import (
    RuleError,
    apply_action,
    can_knock_after,
    end_early,
    legal_actions,
    new_game,
    parse_cards,
    play_timeout,
    position,
)

H2 = ["7H 8H 2C 3D 4S 5S 9C 10D JS QS", "AC AD 4C 6D 8S 9S 10S KD KH KC"]


def rejected(state, seat, action, code):
    """Assert the action is refused with ``code`` and the state is unchanged."""
    before = state.to_dict()
    with pytest.raises(RuleError) as e:
        apply_action(state, seat, action)
    assert e.value.code == code, e.value.message
    assert e.value.message
    assert state.to_dict() == before
    return e.value


def hand(state, seat):
    return sorted(map(str, state.hands[seat]))


def test_R3_1_draw_takes_the_top_card_and_leaves_input_untouched():
    s = position(H2, stock="9H 5D 6D")
    before = s.to_dict()
    t = apply_action(s, 0, {"do": "draw"})
    assert s.to_dict() == before  # immutability
    assert str(t.hands[0][-1]) == "9H" and len(t.stock) == 2 and t.drawn == 1 and t.turn == 0


def test_R3_4_third_draw_ends_turn_at_once():
    s = position(H2, stock="2H 3H 4H 5H")
    for _ in range(3):
        s = apply_action(s, 0, {"do": "draw"})
    assert s.turn == 1 and s.drawn == 0 and len(s.hands[0]) == 13
    rejected(s, 0, {"do": "meld", "table": ["2H 3H 4H"]}, "not_your_turn")


def test_R3_2_meld_ends_turn():
    s = apply_action(position(H2, stock="9H 5D"), 0, {"do": "draw"})
    t = apply_action(s, 0, {"do": "meld", "table": ["7H 8H 9H"]})
    assert t.turn == 1 and t.drawn == 0 and len(t.hands[0]) == 8 and not t.round_over


def test_meld_accepts_card_lists_and_card_strings():
    s = position(["7H 8H 9H 2C", "KS"], stock="5D", drawn=1)
    a = apply_action(s, 0, {"do": "meld", "table": [parse_cards("7H 8H 9H")]})
    b = apply_action(s, 0, {"do": "meld", "table": [["7H", "8H", "9H"]]})
    c = apply_action(s, 0, {"do": "meld", "table": ("7H 8H 9H",), "knock": False})
    assert a == b == c


@pytest.mark.parametrize(
    "seat, action",
    [
        (0, None),
        (0, "draw"),
        (0, {}),
        (0, {"do": "discard"}),
        (0, {"do": 3}),
        (2, {"do": "draw"}),
        (-1, {"do": "draw"}),
        (True, {"do": "draw"}),
        ("0", {"do": "draw"}),
        (0, {"do": "meld"}),
        (0, {"do": "meld", "table": "7H 8H 9H"}),
        (0, {"do": "meld", "table": [7]}),
        (0, {"do": "meld", "table": [["7H", 8]]}),
        (0, {"do": "meld", "table": ["7H 8H ZZ"]}),
        (0, {"do": "meld", "table": ["7H 8H 9H"], "knock": "yes"}),
        (1, {"do": "meld", "table": ["7H 8H XX"]}),  # bad_action comes before not_your_turn
    ],
)
def test_bad_action(seat, action):
    rejected(position(H2, stock="9H 5D", drawn=1), seat, action, "bad_action")


def test_not_your_turn_for_every_action():
    s = position(H2, stock="9H")
    for do in ("draw", "knock", "pass"):
        rejected(s, 1, {"do": do}, "not_your_turn")
    rejected(s, 1, {"do": "meld", "table": ["8S 9S 10S"]}, "not_your_turn")


def test_round_over_comes_first():
    s = position(["AC", "KS"], stock="2C 3C")
    s = apply_action(apply_action(s, 0, {"do": "draw"}), 0, {"do": "knock"})
    assert s.round_over
    for seat, action in [(0, {"do": "draw"}), (1, {"do": "draw"}), (9, {"do": "fly"}), (0, None)]:
        rejected(s, seat, action, "round_over")


def test_R8_stock_empty_and_cannot_pass():
    rejected(position(["2C", "KS"], stock=""), 0, {"do": "draw"}, "stock_empty")
    rejected(position(["2C", "KS"], stock="3C", drawn=1), 0, {"do": "pass"}, "cannot_pass")


def test_R3_1_must_draw_before_meld_or_knock():
    s = position(["7H 8H 9H AC", "KS"], stock="2C")
    rejected(s, 0, {"do": "meld", "table": ["7H 8H 9H"]}, "must_draw")
    rejected(s, 0, {"do": "knock"}, "must_draw")


@pytest.mark.parametrize(
    "table, code",
    [
        (["5S 6S 7S", "8H 8D 2C"], "table_card_missing"),  # R5.2 (b)
        (["5S 6S 7S 8S", "9H 10H JH"], "not_in_hand"),
        (["5S 6S 7S 8S"], "nothing_added"),  # R5.2 (a)
        (["5S 6S 7S", "8S 8H *"], "joker_undeclared"),  # Decision R4.4
        (["5S 6S", "7S 8S 8H"], "invalid_meld"),  # R5.2 (c)
        (["5S 6S 7S", "8S 8H 8H"], "not_in_hand"),
    ],
)
def test_R5_2_meld_errors(table, code):
    s = position(["8H 8D 2C *", "KS KH"], table=["5S 6S 7S 8S"], stock="3C", drawn=1)
    e = rejected(s, 0, {"do": "meld", "table": table}, code)
    if code == "invalid_meld":
        assert "5S 6S" in e.message and "at least 3 cards" in e.message


def test_R5_2d_joker_locked_and_freed():
    s = position(["JH QH 8H 5C", "KS"], table=["*8H 9H 10H"], stock="3C", drawn=1)
    e = rejected(s, 0, {"do": "meld", "table": ["9H 10H JH QH *KH"]}, "joker_locked")
    assert "8♥" in e.message
    # keeps its card while moving along the run
    t = apply_action(s, 0, {"do": "meld", "table": ["*8H 9H 10H JH QH"]})
    assert hand(t, 0) == ["5C", "8H"]
    # freed by the real 8H from the hand, re-declared and used at once
    t = apply_action(s, 0, {"do": "meld", "table": ["8H 9H 10H JH QH *KH"]})
    assert hand(t, 0) == ["5C"]


def test_R5_2d_jokers_are_interchangeable():
    """Two jokers stand for 8H; one real 8H frees either one of them, not both."""
    s = position(["8H JH 2C", "KS", "QS"], table=["*8H 9H 10H", "6H 7H *8H"], stock="3C", drawn=1)
    first = apply_action(s, 0, {"do": "meld", "table": ["*8H 9H 10H JH", "6H 7H 8H *9H"]})
    second = apply_action(s, 0, {"do": "meld", "table": ["8H 9H 10H JH *QH", "6H 7H *8H"]})
    assert hand(first, 0) == hand(second, 0) == ["2C"]
    rejected(s, 0, {"do": "meld", "table": ["8H 9H 10H JH *QH", "*5H 6H 7H"]}, "joker_locked")


def test_R6_1_knock_and_knock_limit():
    s = apply_action(position(["AH 2C", "KS QS"], stock="AD 9C"), 0, {"do": "draw"})
    t = apply_action(s, 0, {"do": "knock"})
    assert t.round_over and t.last_round["knocker"] == 0 and t.last_round["reason"] == "knock"
    assert t.scores == [16, 0] and t.rounds_won == [1, 0] and not t.game_over
    s = apply_action(position(["AH 2C", "KS QS"], stock="3D 9C"), 0, {"do": "draw"})
    e = rejected(s, 0, {"do": "knock"}, "knock_limit")
    assert "6 points" in e.message


def test_R6_1_meld_then_knock_checks_the_hand_after_the_meld():
    s = position(["7H 8H 9H 2C", "KS QS", "AS AD"], stock="3C", drawn=1)
    t = apply_action(s, 0, {"do": "meld", "table": ["7H 8H 9H"], "knock": True})
    assert t.round_over and t.last_round["knocker"] == 0 and t.last_round["winners"] == [2]
    s = position(["7H 8H 9H 6C", "KS QS"], stock="3C", drawn=1)
    rejected(s, 0, {"do": "meld", "table": ["7H 8H 9H"], "knock": True}, "knock_limit")


def test_R6_2_going_out_is_not_a_knock():
    s = position(["7H 8H 9H", "KS QS", "5D"], stock="3C", drawn=1)
    t = apply_action(s, 0, {"do": "meld", "table": ["7H 8H 9H"], "knock": True})
    assert t.round_over and t.last_round["knocker"] is None and t.last_round["went_out"] == 0
    assert t.last_round["reason"] == "going_out" and t.last_round["points"] == [50, 0, 0]


def test_R8_final_lap_counts_down_and_ends_without_knocker():
    s = position(["2H 3C", "KS 4D"], stock="9S")
    s = apply_action(s, 0, {"do": "draw"})
    assert s.final_turns == 3 and s.turn == 0
    assert legal_actions(s, 0) == ["meld", "pass"]  # 14 points: no knock
    s = apply_action(s, 0, {"do": "pass"})
    assert (s.turn, s.final_turns) == (1, 2)
    s = apply_action(s, 1, {"do": "pass"})
    s = apply_action(s, 0, {"do": "pass"})
    assert s.round_over and s.final_turns == 0
    assert s.last_round["reason"] == "stock_out" and s.last_round["knocker"] is None


def test_R8_hand_made_empty_stock_treats_lap_as_running():
    s = position(["2C", "KS", "QS"], stock="", turn=1)
    s = apply_action(s, 1, {"do": "pass"})
    assert s.final_turns == 2 and s.turn == 2
    s = apply_action(apply_action(s, 2, {"do": "pass"}), 0, {"do": "pass"})
    assert s.round_over


def test_legal_actions():
    s = position(["AC", "KS QS"], stock="2C 3C 4C")
    assert (
        legal_actions(s, 0) == ["draw"]
        and legal_actions(s, 1) == []
        and legal_actions(s, None) == []
    )
    s = apply_action(s, 0, {"do": "draw"})
    assert legal_actions(s, 0) == ["draw", "meld", "knock"]
    s = apply_action(s, 0, {"do": "draw"})  # AC 2C 3C = 6 points: over the limit
    assert legal_actions(s, 0) == ["draw", "meld"]  # a third draw is still allowed (R3.4)
    s = position(["AC", "KS QS"], stock="", turn=1)
    assert legal_actions(s, 1) == ["meld", "pass"]
    s = position(["AC", "KS QS"], stock="")
    assert legal_actions(s, 0) == ["meld", "knock", "pass"]


def test_can_knock_after():
    s = position(["7H 8H 9H 2C", "KS QS"], stock="3C", drawn=1)
    assert can_knock_after(s, 0, parse_cards("2C"))
    assert not can_knock_after(s, 0, parse_cards("2C 4C"))
    assert not can_knock_after(s, 0, [])  # going out, not a knock (R6.2)
    assert not can_knock_after(s, 1, parse_cards("2C"))
    assert not can_knock_after(position(["2C", "KS"], stock="3C"), 0, parse_cards("2C"))


def test_play_timeout_draws_until_the_turn_ends():
    s = position(["2C", "KS"], stock="3C 4C 5C 6C")
    t = play_timeout(s, 0)
    assert t.turn == 1 and hand(t, 0) == ["2C", "3C", "4C", "5C"] and len(t.stock) == 1
    with pytest.raises(RuleError) as e:
        play_timeout(t, 0)
    assert e.value.code == "not_your_turn"


def test_play_timeout_passes_when_the_stock_runs_out_midway():
    s = position(["2C", "KS", "QS"], stock="3C")
    t = play_timeout(s, 0)
    assert t.turn == 1 and t.final_turns == 3 and hand(t, 0) == ["2C", "3C"]
    t = play_timeout(t, 1)
    assert t.turn == 2 and t.final_turns == 2


def test_play_timeout_after_round_is_refused():
    s = position(["AC", "KS"], stock="", final_turns=1)
    s = play_timeout(s, 0)
    assert s.round_over
    with pytest.raises(RuleError) as e:
        play_timeout(s, 1)
    assert e.value.code == "round_over"


def test_end_early_discards_the_round_and_settles_the_game():
    s = position(["AC", "KS"], stock="2C", scores=[160, 40], rounds_won=[2, 5], drawn=1)
    t = end_early(s)
    assert t.game_over and t.round_over and t.scores == [160, 40]
    assert t.final_scores == [160 + 100 + 50, 40 + 125] and t.game_winners == [0]
    assert t.last_round["reason"] == "ended_early" and t.last_round["points"] == [0, 0]
    rejected(t, 0, {"do": "draw"}, "round_over")
    with pytest.raises(RuleError) as e:
        end_early(t)
    assert e.value.code == "game_over"


def test_whole_game_with_random_dealing_reaches_an_end():
    rng = random.Random(4)
    s = new_game(2, rng)
    while not s.round_over:
        s = play_timeout(s, s.turn)
    assert s.last_round["reason"] == "stock_out"


@pytest.mark.parametrize(
    "state, seat, action",
    [
        (position(H2, stock="9H 5D"), 0, {"do": "draw"}),
        (
            position(["7H 8H 9H 2C", "KS"], table=["*5S 6S 7S"], stock="5D", drawn=1),
            0,
            {"do": "meld", "table": ["7H 8H 9H", "*5S 6S 7S"]},
        ),
        (
            position(["7H 8H 9H 2C", "KS"], stock="5D", drawn=1),
            0,
            {"do": "meld", "table": ["7H 8H 9H"], "knock": True},
        ),
        (position(["AC", "KS"], stock="2C", drawn=1), 0, {"do": "knock"}),
        (position(["AC", "KS"], stock="", final_turns=2), 0, {"do": "pass"}),
        (position(["AC", "KS"], stock="", final_turns=1), 0, {"do": "pass"}),
    ],
)
def test_actions_never_change_their_input(state, seat, action):
    before = state.to_dict()
    after = apply_action(state, seat, action)
    assert state.to_dict() == before and after.to_dict() != before
