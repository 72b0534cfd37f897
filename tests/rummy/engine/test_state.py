"""Game state as data, dealing (R2), next rounds (R2.1, R9.1), settings (R10)."""

import json
import random
from collections import Counter

import pytest

from rummy.engine import (
    GameState,
    RuleError,
    Settings,
    apply_action,
    deal_next_round,
    end_early,
    new_deck,
    new_game,
    position,
)


def test_R2_1_first_dealer_is_random_and_injectable():
    dealers = {new_game(4, random.Random(seed)).dealer for seed in range(60)}
    assert dealers == {0, 1, 2, 3}
    assert new_game(4, random.Random(1), dealer=2).dealer == 2
    with pytest.raises(ValueError):
        new_game(4, random.Random(1), dealer=4)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_R2_2_deal_ten_each_rest_is_stock(n):
    state = new_game(n, random.Random(n))
    assert [len(h) for h in state.hands] == [10] * n
    assert len(state.stock) == len(new_deck(n)) - 10 * n
    assert Counter(c for h in state.hands for c in h) + Counter(state.stock) == Counter(new_deck(n))
    assert state.table == [] and state.round_no == 1 and state.scores == [0] * n
    assert state.turn == (state.dealer + 1) % n and state.drawn == 0  # R2.3


def test_R2_2_dealt_one_at_a_time_from_the_dealers_left():
    state = new_game(3, random.Random(7), dealer=0)
    deck = new_deck(3)
    random.Random(7).shuffle(deck)  # same rng stream: dealer given, so only the shuffle draws
    assert [state.hands[1][0], state.hands[2][0], state.hands[0][0], state.hands[1][1]] == deck[:4]
    assert state.stock == deck[30:]


def test_R2_1_next_round_dealt_by_the_player_to_the_left():
    rng = random.Random(3)
    state = position(["AC", "KS", "QS"], stock="2C 3C", scores=[5, 6, 7], rounds_won=[1, 0, 0])
    assert state.dealer == 2
    with pytest.raises(RuleError) as e:
        deal_next_round(state, rng)
    assert e.value.code == "round_not_over"
    state = apply_action(apply_action(state, 0, {"do": "draw"}), 0, {"do": "knock"})
    nxt = deal_next_round(state, rng)
    assert nxt.dealer == 0 and nxt.turn == 1 and nxt.round_no == 2
    assert nxt.scores == state.scores and nxt.rounds_won == state.rounds_won
    assert nxt.table == [] and not nxt.round_over and nxt.final_turns is None
    assert nxt.last_round == state.last_round and nxt.last_round["reason"] == "knock"
    assert [len(h) for h in nxt.hands] == [10, 10, 10] and len(nxt.stock) == 76
    # dealing builds a new state; the finished round's state is unchanged
    assert state.round_over and state.round_no == 1 and state.dealer == 2


def test_next_round_after_game_over_is_refused():
    state = position(["AC", "KS"], stock="2C 3C", scores=[149, 0])
    state = apply_action(apply_action(state, 0, {"do": "draw"}), 0, {"do": "knock"})
    assert state.game_over
    with pytest.raises(RuleError) as e:
        deal_next_round(state, random.Random(1))
    assert e.value.code == "game_over"


def test_dealer_rotates_over_many_rounds():
    rng = random.Random(11)
    state = new_game(3, rng, settings=Settings(target=10_000), dealer=1)
    seen = []
    for _ in range(6):
        seen.append(state.dealer)
        state = end_round_quickly(state)
        state = deal_next_round(state, rng)
    assert seen == [1, 2, 0, 1, 2, 0]


def end_round_quickly(state):
    """Everybody draws until the stock is out, then passes (R3.4, R8)."""
    while not state.round_over:
        do = "draw" if state.stock else "pass"
        state = apply_action(state, state.turn, {"do": do})
    return state


def test_R10_settings_defaults_validation_and_round_trip():
    assert Settings() == Settings(target=150, knock_limit=5)
    s = Settings(target=300, knock_limit=10)
    assert Settings.from_dict(s.to_dict()) == s
    for bad in [dict(target=0), dict(knock_limit=-1), dict(target="150"), dict(knock_limit=True)]:
        with pytest.raises(ValueError):
            Settings(**bad)


def test_position_defaults_and_dealer():
    p = position(
        ["7H 8H", "KS", "* 2C"],
        table=["*9H 10H JH"],
        stock="AC 2C",
        turn=1,
        drawn=1,
        scores=[1, 2, 3],
        knock_limit=7,
        target=99,
    )
    assert p.dealer == 0 and p.turn == 1 and p.drawn == 1 and p.n_players == 3
    assert p.settings == Settings(target=99, knock_limit=7)
    assert p.rounds_won == [0, 0, 0] and p.final_turns is None
    assert str(p.table[0][0]) == "*9H"


def states_to_check():
    rng = random.Random(5)
    fresh = new_game(4, rng, settings=Settings(target=5000, knock_limit=7))
    mid = apply_action(fresh, fresh.turn, {"do": "draw"})
    over = end_round_quickly(mid)
    ended = end_early(mid)
    p = position(["7H 8H 9H 2C", "KS"], table=["*8S 9S 10S"], stock="", final_turns=2)
    return [fresh, mid, over, deal_next_round(over, rng), ended, p]


@pytest.mark.parametrize("state", states_to_check())
def test_json_round_trip(state):
    data = json.loads(json.dumps(state.to_dict()))
    assert GameState.from_dict(data) == state
    assert GameState.from_dict(data).to_dict() == state.to_dict()


def test_from_dict_rejects_other_formats():
    d = position(["AC", "KS"]).to_dict()
    d["format"] = "something-else"
    with pytest.raises(ValueError):
        GameState.from_dict(d)


def test_R1_1_player_count_checked():
    for n in (1, 6):
        with pytest.raises(ValueError):
            new_game(n, random.Random(1))
