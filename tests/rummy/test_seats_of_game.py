"""rummy.models.seats_of_game: the hot read of a game's seats gives exactly what the ORM's
select_related query gives (every column of every model, the relations in place), with
and without the lock, for league games in a season, practice games and finished games."""

import pytest
from django.db import transaction

from rummy import play
from rummy.models import Game, Seat, seats_of_game
from rummy.play.bot_seats import start_practice
from tests.factories import make_league, make_season, make_user, started_game

pytestmark = pytest.mark.django_db


def _orm(game_id):
    return list(
        Seat.objects.select_related("game__league", "game__season", "user").filter(game_id=game_id)
    )


def _values(obj):
    if obj is None:
        return None
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def _assert_same(game_id, lock=False):
    expected = _orm(game_id)
    if lock:
        with transaction.atomic():
            got = seats_of_game(game_id, lock=True)
    else:
        got = seats_of_game(game_id)
    assert [_values(s) for s in got] == [_values(s) for s in expected]
    assert [_values(s.user) for s in got] == [_values(s.user) for s in expected]
    for seat, other in zip(got, expected, strict=True):
        assert _values(seat.game) == _values(other.game)
        assert _values(seat.game.league) == _values(other.game.league)
        assert _values(seat.game.season) == _values(other.game.season)
        assert seat.game is got[0].game  # one game for all of them
    return got


@pytest.mark.parametrize("lock", [False, True])
def test_a_league_game_in_a_season_reads_as_the_orm_reads_it(lock, django_assert_num_queries):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    league = make_league(alice, members=[bob, carol])
    make_season(league)
    game = started_game([alice, bob, carol], league=league, seed=4)
    play.draw(game.pk, game.to_move, game.version)  # a state and a deadline written
    assert Game.objects.get(pk=game.pk).season_id is not None
    got = _assert_same(game.pk, lock)
    with django_assert_num_queries(0):  # everything the page needs is loaded
        assert [s.user.username for s in got] == ["alice", "bob", "carol"]
        assert got[0].game.league.name and got[0].game.season.name
        assert got[0].game.engine_state() is not None


def test_a_practice_game_has_no_league_and_no_season():
    host = make_user("host")
    game = start_practice(host, 2, "beginner")
    got = _assert_same(game.pk)
    assert got[0].game.league is None and got[0].game.season is None
    assert [bool(s.bot_level) for s in got] == [False, True, True]


def test_a_finished_game_and_a_game_without_seats():
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game([alice, bob])
    Seat.objects.filter(game=game, user=alice).update(final_score=388, is_winner=True)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    _assert_same(game.pk)
    Seat.objects.filter(game=game).delete()
    assert seats_of_game(game.pk) == [] and seats_of_game(10**9) == []
