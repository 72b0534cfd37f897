"""Round scoring (R7) and the end of the game (R9)."""

import pytest

from rummy.engine import final_result, parse_cards, score_round


def score(hands, knocker, went_out=None):
    return score_round([parse_cards(h) for h in hands], knocker, went_out)


def test_R7_1_count_is_points_left_in_hand():
    assert score(["* KH QH", "AH 2H"], None) == ([0, 42], [1])


def test_R7_2_knocker_with_lowest_count_wins():
    assert score(["AH 2C", "KS QS"], 0) == ([17, 0], [0])


def test_R7_2_knocker_tied_loses_to_the_others():
    assert score(["2H 2C", "4S", "3D AC", "KS"], 0) == ([0, 16, 16, 0], [1, 2])


def test_R7_3_winner_sums_over_every_other_player():
    assert score(["AH", "5S", "9D", "KH QH"], None) == ([31, 0, 0, 0], [0])


def test_R7_3_co_winners_add_zero_to_each_other():
    assert score(["2H", "AS AD", "KS"], None) == ([8, 8, 0], [0, 1])


def test_R7_4_undercut_bonus_only_with_a_knock():
    assert score(["3H", "2S", "5D"], 0) == ([0, 1 + 3 + 10, 0], [1])
    assert score(["3H", "2S", "5D"], None) == ([0, 1 + 3, 0], [1])


def test_R7_5_going_out_bonus():
    assert score(["", "KS QS", "5H"], None) == ([50, 0, 0], [0])
    assert score(["", "KS QS", "5H"], None, went_out=0) == ([50, 0, 0], [0])
    # an explicit went_out seat is the only one to get the bonus
    assert score(["", "KS", ""], None, went_out=2) == ([10, 0, 35], [0, 2])


def test_R7_6_losers_score_zero_and_winners_are_ascending():
    points, winners = score(["AS", "AH", "KD", "AC"], None)
    assert winners == [0, 1, 3] and points[2] == 0


@pytest.mark.parametrize(
    "scores, won, target, expected",
    [
        ([140, 20, 30], [3, 1, 1], 150, (False, None, None)),  # R9.1
        ([152, 40, 90], [3, 1, 2], 150, (True, [327, 65, 140], [0])),  # R9.2
        ([150, 100], [0, 6], 150, (True, [250, 250], [0, 1])),  # R9.3
        ([150, 140], [1, 10], 150, (True, [275, 390], [1])),
        ([100, 50], [3, 1], 100, (True, [275, 75], [0])),  # R10
    ],
)
def test_R9_final_result(scores, won, target, expected):
    assert final_result(scores, won, target) == expected


def test_R9_forced_result_without_anyone_at_target():
    assert final_result([40, 60], [3, 1], force=True) == (True, [115, 85], [0])
