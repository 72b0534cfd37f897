"""rummy.clock.deadlines: deadlines are enforced by the clock and lazily, never twice."""

import datetime
import threading

import pytest
import time_machine
from django.core.management import call_command

from rummy import engine, play
from rummy.clock import deadlines
from rummy.models import Game, Move, Seat
from tests.factories import make_league, make_season, make_user, started_game

pytestmark = pytest.mark.django_db


def _game(stock="9H 5D 6D 7C 8C 2S 3S", **position):
    alice, bob = make_user(), make_user()
    state = engine.position(hands=["2C 3D", "KS QS"], stock=stock, **position)
    return started_game([alice, bob], state=state)


def test_tick_plays_only_passed_deadlines():
    game = _game()
    assert deadlines.tick() == 0
    with time_machine.travel(game.turn_deadline + datetime.timedelta(seconds=1)):
        assert deadlines.tick() == 1
        assert deadlines.tick() == 0  # the next player's deadline starts now
    game.refresh_from_db()
    assert game.engine_state().turn == 1
    assert game.moves.filter(kind=Move.Kind.TIMEOUT).count() == 1


def test_timeout_with_empty_stock_passes():
    # R8: no draw is possible, so the timeout passes.
    game = _game(stock="", final_turns=3)
    with time_machine.travel(game.turn_deadline + datetime.timedelta(seconds=1)):
        deadlines.tick()
    state = Game.objects.get(pk=game.pk).engine_state()
    assert state.turn == 1 and state.final_turns == 2
    assert [len(h) for h in state.hands] == [2, 2]


def test_lazy_enforcement_on_load():
    game = _game()
    assert deadlines.enforce_deadline(game) is False
    with time_machine.travel(game.turn_deadline + datetime.timedelta(minutes=5)):
        assert deadlines.enforce_deadline(game) is True
        # The same stale object again (a second page load racing): nothing twice.
        assert deadlines.enforce_deadline(game) is False
    assert Game.objects.get(pk=game.pk).moves.filter(kind=Move.Kind.TIMEOUT).count() == 1


def test_timeout_after_the_player_moved_does_nothing():
    game = _game()
    stale = Game.objects.get(pk=game.pk)
    play.draw(game.pk, game.to_move, game.version)
    with time_machine.travel(game.turn_deadline + datetime.timedelta(seconds=1)):
        assert deadlines.enforce_deadline(stale) is False
    assert not game.moves.filter(kind=Move.Kind.TIMEOUT).exists()


def test_three_timeouts_in_a_row_mark_a_player_absent_and_a_move_clears_it():
    game = _game(stock="9H 5D 6D 7C 8C 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2H 3H 4H")
    when = game.turn_deadline
    for _ in range(5):  # alice, bob, alice, bob, alice
        when += datetime.timedelta(days=2)
        with time_machine.travel(when):
            deadlines.tick()
    alice = Seat.objects.get(game=game, number=0)
    bob = Seat.objects.get(game=game, number=1)
    assert alice.timeouts_in_row == 3 and alice.is_absent
    assert bob.timeouts_in_row == 2 and not bob.is_absent
    game.refresh_from_db()
    with time_machine.travel(when):
        play.draw(game.pk, bob.user, game.version)
    assert Seat.objects.get(pk=bob.pk).timeouts_in_row == 0


def test_deadline_change_mid_season_applies_to_next_turns_only():
    alice, bob = make_user(), make_user()
    league = make_league(alice, members=[bob])
    season = make_season(league, turn_seconds=3600)
    game = started_game(
        [alice, bob],
        league=league,
        state=engine.position(hands=["2C 3D", "KS QS"], stock="9H 5D 6D 7C"),
    )
    first_deadline = game.turn_deadline
    season.turn_seconds = 7 * 86400
    season.save()
    game.refresh_from_db()
    assert game.turn_deadline == first_deadline  # the running turn keeps its deadline
    with time_machine.travel(first_deadline + datetime.timedelta(seconds=1)):
        deadlines.tick()
        game.refresh_from_db()
        assert game.turn_deadline - game.turn_started_at == datetime.timedelta(days=7)


@pytest.mark.django_db(transaction=True)
def test_two_clock_processes_never_play_one_timeout_twice():
    game = _game()
    results = []
    barrier = threading.Barrier(4)

    def run():
        from django.db import connections

        barrier.wait()
        try:
            results.append(deadlines.tick())
        finally:
            connections.close_all()

    with time_machine.travel(game.turn_deadline + datetime.timedelta(seconds=1)):
        threads = [threading.Thread(target=run) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert sum(results) == 1
    assert Game.objects.get(pk=game.pk).moves.filter(kind=Move.Kind.TIMEOUT).count() == 1


@pytest.mark.django_db(transaction=True)  # the worker closes and reopens its connection
def test_run_worker_once_plays_a_passed_deadline():
    game = _game()
    with time_machine.travel(game.turn_deadline + datetime.timedelta(seconds=1)):
        call_command("run_worker", "--once", verbosity=0)
    assert Game.objects.get(pk=game.pk).moves.filter(kind=Move.Kind.TIMEOUT).count() == 1


# --- Lazy enforcement wherever a game is loaded (a missed clock tick never sticks) -------


def test_opening_the_table_page_plays_a_passed_deadline(client):
    from django.urls import reverse

    game = _game()
    watcher = game.seats.get(number=1).user
    client.force_login(watcher)
    with time_machine.travel(game.turn_deadline + datetime.timedelta(seconds=1)):
        html = client.get(reverse("rummy:table", args=[game.pk])).content.decode()
    game.refresh_from_db()
    assert game.moves.filter(kind=Move.Kind.TIMEOUT).count() == 1
    assert game.to_move == watcher and "Your turn" in html


def test_the_home_page_plays_passed_deadlines_of_its_games(client):
    from django.urls import reverse

    game = _game()
    player = game.seats.get(number=1).user
    client.force_login(player)
    with time_machine.travel(game.turn_deadline + datetime.timedelta(seconds=1)):
        response = client.get(reverse("home"))
    assert response.status_code == 200
    assert Game.objects.get(pk=game.pk).moves.filter(kind=Move.Kind.TIMEOUT).count() == 1
    assert [row["game"].pk for row in response.context["games"]["your_move"]] == [game.pk]


def test_a_socket_connecting_after_the_deadline_plays_it_first():
    from rummy.table.live import render_view

    game = _game()
    player = game.seats.get(number=1).user
    with time_machine.travel(game.turn_deadline + datetime.timedelta(seconds=1)):
        render_view(player, game.pk, "suit", enforce_clock=True)
    assert Game.objects.get(pk=game.pk).moves.filter(kind=Move.Kind.TIMEOUT).count() == 1
