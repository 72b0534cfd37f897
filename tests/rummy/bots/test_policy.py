"""The bots' policy (rummy.bots), pure: what each level does, and that it reads only
its own seat's view."""

import random
import time
from dataclasses import replace

import pytest

from rummy import engine
from rummy.bots import Level, choose, expert_knocks, steady_knocks
from rummy.engine import Action, apply_action, seat_view
from rummy.engine.cards import JOKER


def after_draw(hands, table=(), stock="2C 3C 4C 5C 6C 7C 8C 9C", **kw):
    state = engine.position(hands=list(hands), table=list(table), stock=stock, **kw)
    return apply_action(state, 0, {"do": "draw"})


@pytest.mark.parametrize("level", list(Level))
def test_every_level_draws_first(level):
    state = engine.position(hands=["2H 3H 4H", "KS QS"], stock="9D 9C")
    assert choose(seat_view(state, 0), level, random.Random(1)) == {"do": Action.DRAW}


def test_the_beginner_melds_plain_melds_from_its_hand_beside_the_table():
    # 7H could be laid off on the table's run, and the joker fits anywhere: a beginner
    # does neither, it only puts down the group and the run it holds (R5.3).
    state = after_draw(["5S 5D 5C 9D 10D JD 7H *", "KS QS"], table=["4H 5H 6H"], stock="2C 3C 4C")
    action = choose(seat_view(state, 0), Level.BEGINNER, random.Random(3))
    assert action["do"] == Action.MELD
    assert action["table"][0] == "4H 5H 6H"
    assert sorted(action["table"][1:]) == sorted(["5S 5D 5C", "9D 10D JD"])
    apply_action(state, 0, action)  # legal


@pytest.mark.parametrize("level", [Level.STEADY, Level.EXPERT])
def test_solver_levels_play_the_best_meld(level):
    state = after_draw(["5S 5D 5C 9D 10D JD 7H", "KS QS"], table=["4H 5H 6H"])
    action = choose(seat_view(state, 0), level, random.Random(3))
    after = apply_action(state, 0, action)
    # Everything but the drawn 2C goes: the count left is 2 (R7.1).
    assert engine.hand_points(after.hands[0]) == 2 or after.round_over


def view_with(state, **changes):
    return replace(seat_view(state, 0), **changes)


def test_expert_knocks_only_when_no_opponent_can_undercut():
    state = after_draw(["AS 2D", "KS QS JS"])
    view = seat_view(state, 0)
    # Every card counts at least 1: three cards cannot count 3 or less... they can (A+A+A).
    assert expert_knocks(view, 2) is True  # 3 cards > count 2: at least 3 points
    assert expert_knocks(view, 3) is False  # 3 cards may be three aces: 3 ≤ 3
    assert expert_knocks(view_with(state, hand_sizes=(2, 2)), 1) is True  # close to out
    assert expert_knocks(view, 6) is False  # over the knock limit (R6.1)


def test_steady_knocks_cautiously():
    state = after_draw(["AS 2D", "KS QS JS"])
    view = seat_view(state, 0)
    assert steady_knocks(view, 2) is True
    assert steady_knocks(view_with(state, stock_size=20), 4) is False
    assert steady_knocks(view_with(state, stock_size=1), 4) is True  # the stock is gone soon


def test_expert_keeps_a_joker_when_it_costs_little_early_in_the_round():
    # The joker's best use saves nothing but its own 25 (onto the table's run, as 3H or
    # 7H): the expert keeps it (the rest of the hand counts the same), steady plays it.
    hands = ["9S 9D 9C AH 8D *", "2S 3S 4S 6S 7S 8S", "2D 3D 4D 6D 7D 8D"]
    stock = " ".join(["2C"] + ["10C", "JC", "QC", "KC"] * 3)
    state = after_draw(hands, table=["4H 5H 6H"], stock=stock)
    steady = apply_action(state, 0, choose(seat_view(state, 0), Level.STEADY, random.Random()))
    expert = apply_action(state, 0, choose(seat_view(state, 0), Level.EXPERT, random.Random()))
    assert JOKER not in steady.hands[0]
    assert JOKER in expert.hands[0]


@pytest.mark.parametrize("level", list(Level))
@pytest.mark.parametrize("seed", range(20))
def test_a_bot_reads_only_its_own_view(level, seed):
    """Shuffling what seat 0 cannot see (the others' hands and the stock, sizes kept)
    changes nothing about its choice: the choice is a function of the view alone."""
    rng = random.Random(seed)
    state = engine.new_game(3, rng)
    state = apply_action(state, state.turn, {"do": "draw"})
    seat = state.turn
    hidden = [c for s, h in enumerate(state.hands) if s != seat for c in h] + list(state.stock)
    rng.shuffle(hidden)
    hands = list(state.hands)
    at = 0
    for s, h in enumerate(state.hands):
        if s != seat:
            hands[s] = hidden[at : at + len(h)]
            at += len(h)
    other = replace(state, hands=hands, stock=hidden[at:])
    # A generous time limit: an answer cut short by a busy machine would differ by time,
    # not by what the bot saw.
    assert choose(seat_view(state, seat), level, random.Random(seed), time_limit=60) == choose(
        seat_view(other, seat), level, random.Random(seed), time_limit=60
    )


def test_a_busy_machine_does_not_change_a_bots_meld(monkeypatch):
    # The solver's time limit counts its own CPU time: with the wall clock running eight
    # times as fast as the bot's thread (a busy server), the bot plays the same meld.
    from rummy.solver import program
    from tests.rummy.solver.test_tie_break import FULL_HAND, FULL_TABLE

    program.load()  # both solves alike, with the program (it loads in the background)
    state = after_draw([FULL_HAND, "KS QS JS", "9H 9H"], table=FULL_TABLE, stock="6S 4H")
    calm = choose(seat_view(state, 0), Level.EXPERT, random.Random(1))
    cpu0, real = time.thread_time(), time.perf_counter
    with monkeypatch.context() as m:
        # other work takes 7 s of wall time for each second of the bot's CPU time
        m.setattr(time, "perf_counter", lambda: real() + 7 * (time.thread_time() - cpu0))
        loaded = choose(seat_view(state, 0), Level.EXPERT, random.Random(1))
    assert loaded == calm
    apply_action(state, 0, loaded)  # legal


def test_the_beginner_holding_a_whole_suit_melds_it_ace_low_once():
    # R4.3: the ace is low or high in a sequence, never both (the engine's run finder).
    state = after_draw(["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 5D", "KH QH"], stock="9C 8C")
    action = choose(seat_view(state, 0), Level.BEGINNER, random.Random(1))
    assert action["table"] == ["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"]
    apply_action(state, 0, action)  # legal
