"""Rating games at once on PostgreSQL: the same game rated by many callers at once is
applied once, and games of the same players rated at once lose no update."""

import threading

import pytest
from django.db import connection

from leagues.ratings.models import Rating, RatingChange
from leagues.ratings.rating import rate_game
from rummy.background import tasks
from tests.factories import make_league, make_season, make_user
from tests.leagues.ratings.test_rating import finished

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]


def _at_once(game_ids, rate=rate_game):
    barrier = threading.Barrier(len(game_ids))
    results = [None] * len(game_ids)

    def run(i):
        try:
            barrier.wait()
            results[i] = rate(game_ids[i])
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(game_ids))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return results


def test_one_game_rated_by_eight_callers_at_once_is_applied_once():
    a, b, c = make_user(), make_user(), make_user()
    league = make_league(a, members=[b, c])
    game = finished(league, make_season(league), [(a, 170), (b, 60), (c, 20)])
    assert sorted(_at_once([game.pk] * 8)) == [False] * 7 + [True]
    assert RatingChange.objects.filter(game=game).count() == 6
    assert Rating.objects.get(user=a, league=league).games == 1


def test_games_of_the_same_players_rated_at_once_lose_no_update():
    a, b, c, d = make_user(), make_user(), make_user(), make_user()
    league = make_league(a, members=[b, c, d])
    season = make_season(league)
    games = [
        finished(league, season, [(a, 170), (b, 60)], 0),
        finished(league, season, [(a, 170), (c, 60)], 1),
        finished(league, season, [(d, 170), (a, 60)], 2),
        finished(league, season, [(b, 170), (d, 60)], 3),
    ]
    assert _at_once([g.pk for g in games]) == [True] * 4
    assert Rating.objects.get(user=a, league=league).games == 3
    assert Rating.objects.get(user=a, league=None).games == 3
    assert Rating.objects.filter(league=league).count() == 4


def test_the_rating_job_run_by_four_workers_at_once_rates_the_game_once():
    a, b, c = make_user(), make_user(), make_user()
    league = make_league(a, members=[b, c])
    game = finished(league, make_season(league), [(a, 170), (b, 60), (c, 20)])
    tasks.offer_rating(game.pk)
    _at_once([game.pk] * 4, rate=lambda pk: tasks.rate_game.call(tasks.rating_key(pk), pk))
    assert RatingChange.objects.filter(game=game).count() == 6
    assert Rating.objects.get(user=a, league=league).games == 1
    assert Rating.objects.get(user=a, league=None).games == 1
