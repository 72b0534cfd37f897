"""``manage.py verify_games``: every stored game replays from its move log; a game whose
stored state, rounds or results differ is reported and the exit status is 1."""

import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rummy import play
from rummy.history import verify
from rummy.models import Game, Round, Seat
from tests.factories import make_league, make_user
from tests.rummy.history.conftest import new_game, play_out

pytestmark = [pytest.mark.django_db, pytest.mark.unreplayable]  # some tamper on purpose


@pytest.fixture
def games(seeded_deals):
    """Two finished games, one in progress, one open table."""
    players = [make_user() for _ in range(3)]
    league = make_league(players[0], members=players[1:])
    done = []
    for n in range(2):
        game = new_game(players[: 2 + n], league, seed=20 + n, target=40)
        done.append(play_out(game, random.Random(n)))
    running = new_game(players[:2], league, seed=30, target=500)
    running = play_out(running, random.Random(3), stop=lambda g: g.version > 40)
    open_table = play.open_table(league, players[0], max_seats=3)
    play.take_seat(open_table.pk, players[1])
    return {"finished": done, "running": running, "open": open_table}


def run(*args):
    out = StringIO()
    try:
        call_command("verify_games", *args, stdout=out)
    except CommandError as error:
        return error.returncode, out.getvalue() + str(error)
    return 0, out.getvalue()


def test_games_that_agree_with_their_logs_pass(games):
    status, out = run()
    assert status == 0
    assert "4 games checked" in out
    assert "0 differ" in out


def test_a_changed_stored_state_is_reported(games):
    game = games["running"]
    state = dict(game.state, scores=[99, 0])
    Game.objects.filter(pk=game.pk).update(state=state)
    status, out = run()
    assert status == 1
    assert f"game {game.pk}: stored state differs from its move log" in out
    assert "1 differ" in out


def test_a_changed_round_is_reported(games):
    game = games["finished"][0]
    first = Round.objects.filter(game=game).order_by("number").first()
    Round.objects.filter(pk=first.pk).update(points=[0, 0])
    status, out = run()
    assert status == 1
    assert f"game {game.pk}: rounds differ: {first.number}" in out


def test_a_missing_round_is_reported(games):
    game = games["finished"][1]
    Round.objects.filter(game=game).order_by("-number").first().delete()
    status, out = run()
    assert status == 1
    assert f"game {game.pk}: rounds differ" in out


def test_a_changed_result_is_reported(games):
    game = games["finished"][0]
    Seat.objects.filter(game=game, number=0).update(final_score=1)
    status, out = run()
    assert status == 1
    assert f"game {game.pk}: results of seat 0 differ" in out


def test_a_missing_move_is_reported(games):
    game = games["running"]
    game.moves.filter(seq=game.version - 3).delete()
    status, out = run()
    assert status == 1
    assert f"game {game.pk}: move {game.version - 3} is missing" in out


def test_a_status_that_does_not_follow_from_the_log_is_reported(games):
    game = games["running"]
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    status, out = run()
    assert status == 1
    assert "finished, but its log does not end the game" in out


def test_only_the_named_games_are_checked(games):
    game = games["running"]
    Game.objects.filter(pk=game.pk).update(state=dict(game.state, scores=[99, 0]))
    status, out = run(str(games["finished"][0].pk))
    assert (status, "1 games checked" in out) == (0, True)


def test_games_are_read_a_chunk_at_a_time(games, django_assert_max_num_queries):
    """Each chunk costs the same few queries (the games, their seats, rounds and moves),
    whatever the number of games or moves: nothing is read per game."""
    with django_assert_max_num_queries(4 * 2 + 1):
        results = list(verify.verify(chunk=2))
    assert [n for n, _difference in results] == [1, 2, 3, 4]
    assert all(difference is None for _n, difference in results)


def test_bad_chunk_is_refused(games):
    status, out = run("--chunk", "0")
    assert status == 1
    assert "--chunk must be at least 1" in out
