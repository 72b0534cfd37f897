"""The per-seat view (DESIGN "Hidden information"): one seat's view holds nothing more."""

import contextlib
import json

import pytest

from rummy.engine import apply_action, parse_cards, position, seat_view
from rummy.engine.view import VIEW_KEYS

HANDS = ["AC 2C 3C", "4D 5D 6D 7D", "8H 9H"]
TABLE = ["JS QS KS"]
STOCK = "10C 10D 10H 2S 3S"


def state():
    return position(HANDS, table=TABLE, stock=STOCK, turn=1, scores=[3, 4, 5])


def tokens(view):
    """Every card token anywhere in the view's JSON."""
    text = json.dumps(view)
    found = set()
    for word in (
        text.replace('"', " ").replace(",", " ").replace("[", " ").replace("]", " ").split()
    ):
        with contextlib.suppress(Exception):
            found.update(str(c) for c in parse_cards(word))
    return found


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_seat_sees_its_hand_and_no_other_cards(seat):
    view = seat_view(state(), seat)
    assert tuple(view) == VIEW_KEYS
    assert view["hand"] == HANDS[seat].split()
    assert view["hand_sizes"] == [3, 4, 2] and view["stock_size"] == 5
    assert view["table"] == TABLE
    visible = set(HANDS[seat].split()) | set(TABLE[0].split())
    assert tokens(view) == visible  # no other hand, no stock card
    json.dumps(view)


def test_spectator_sees_no_hand():
    view = seat_view(state(), None)
    assert view["hand"] == [] and view["hand_points"] is None and view["legal"] == []
    assert tokens(view) == set(TABLE[0].split())


def test_view_fields():
    view = seat_view(state(), 1)
    assert view["seat"] == 1 and view["turn"] == 1 and view["legal"] == ["draw"]
    assert view["hand_points"] == 22 and view["scores"] == [3, 4, 5] and view["dealer"] == 0
    assert view["settings"] == {"target": 150, "knock_limit": 5} and view["round_no"] == 1
    assert seat_view(state(), 0)["legal"] == []


def test_after_the_round_the_revealed_hands_may_be_seen():
    s = position(["AC", "KS"], stock="2C 3C")
    s = apply_action(apply_action(s, 0, {"do": "draw"}), 0, {"do": "knock"})
    view = seat_view(s, 1)
    assert view["round_over"] and view["last_round"]["hands"] == ["AC 2C", "KS"]
    assert "3C" not in tokens(view)  # the stock stays hidden


def test_view_is_a_copy():
    s = state()
    view = seat_view(s, 0)
    view["scores"].append(99)
    view["hand"].clear()
    assert s.scores == [3, 4, 5] and len(s.hands[0]) == 3


def test_unknown_seat():
    with pytest.raises(ValueError):
        seat_view(state(), 3)
