"""The per-seat view (DESIGN "Hidden information"): one seat's view holds nothing more."""

import contextlib
import dataclasses
import json

import pytest

from rummy.engine import Action, SeatView, apply_action, parse_cards, position, seat_view
from rummy.engine.view import VIEW_KEYS

HANDS = ["AC 2C 3C", "4D 5D 6D 7D", "8H 9H"]
TABLE = ["JS QS KS"]
STOCK = "10C 10D 10H 2S 3S"


def state():
    return position(HANDS, table=TABLE, stock=STOCK, turn=1, scores=[3, 4, 5])


def tokens(view):
    """Every card token anywhere in the view's JSON."""
    text = json.dumps(view.to_dict())
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
    assert isinstance(view, SeatView)
    assert tuple(view.to_dict()) == VIEW_KEYS
    assert view.hand == tuple(HANDS[seat].split())
    assert view.hand_sizes == (3, 4, 2) and view.stock_size == 5
    assert view.table == tuple(TABLE)
    visible = set(HANDS[seat].split()) | set(TABLE[0].split())
    assert tokens(view) == visible  # no other hand, no stock card
    json.dumps(view.to_dict())


def test_spectator_sees_no_hand():
    view = seat_view(state(), None)
    assert view.hand == () and view.hand_points is None and view.legal == ()
    assert view.seat is None and view.to_dict()["hand"] == []
    assert tokens(view) == set(TABLE[0].split())


def test_view_fields():
    view = seat_view(state(), 1)
    assert view.seat == 1 and view.turn == 1 and view.legal == (Action.DRAW,)
    assert view.hand_points == 22 and view.scores == (3, 4, 5) and view.dealer == 0
    assert view.settings.to_dict() == {"target": 150, "knock_limit": 5} and view.round_no == 1
    assert seat_view(state(), 0).legal == ()


def test_the_fields_are_the_view_keys():
    assert tuple(f.name for f in dataclasses.fields(SeatView)) == VIEW_KEYS


def test_to_dict_is_the_json_ready_view():
    """The JSON form: plain lists and dicts, keys in VIEW_KEYS order."""
    d = seat_view(state(), 1).to_dict()
    assert d == {
        "seat": 1,
        "hand": ["4D", "5D", "6D", "7D"],
        "hand_sizes": [3, 4, 2],
        "hand_points": 22,
        "table": ["JS QS KS"],
        "stock_size": 5,
        "turn": 1,
        "drawn": 0,
        "final_turns": None,
        "scores": [3, 4, 5],
        "rounds_won": [0, 0, 0],
        "round_no": 1,
        "dealer": 0,
        "legal": ["draw"],
        "round_over": False,
        "last_round": None,
        "game_over": False,
        "final_scores": None,
        "game_winners": None,
        "settings": {"target": 150, "knock_limit": 5},
    }
    assert all(type(d[k]) is list for k in ("hand", "hand_sizes", "table", "scores", "legal"))
    assert json.loads(json.dumps(d)) == d


def test_after_the_round_the_revealed_hands_may_be_seen():
    s = position(["AC", "KS"], stock="2C 3C")
    s = apply_action(apply_action(s, 0, {"do": "draw"}), 0, {"do": "knock"})
    view = seat_view(s, 1)
    assert view.round_over and view.last_round is not None
    assert view.last_round["hands"] == ["AC 2C", "KS"]
    assert view.to_dict()["last_round"] == s.last_round
    assert "3C" not in tokens(view)  # the stock stays hidden


def test_view_is_a_copy():
    s = state()
    view = seat_view(s, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.scores = (99,)  # type: ignore[misc]
    d = view.to_dict()
    d["scores"].append(99)
    d["hand"].clear()
    assert s.scores == [3, 4, 5] and len(s.hands[0]) == 3
    assert view.scores == (3, 4, 5) and len(view.hand) == 3
    assert view.to_dict()["scores"] == [3, 4, 5]


def test_the_revealed_round_is_a_copy():
    s = position(["AC", "KS"], stock="2C 3C")
    s = apply_action(apply_action(s, 0, {"do": "draw"}), 0, {"do": "knock"})
    view = seat_view(s, 1)
    view.to_dict()["last_round"]["hands"].clear()
    assert s.last_round is not None and s.last_round["hands"] == ["AC 2C", "KS"]
    assert view.last_round is not None and view.last_round["hands"] == ["AC 2C", "KS"]


def test_unknown_seat():
    with pytest.raises(ValueError):
        seat_view(state(), 3)
