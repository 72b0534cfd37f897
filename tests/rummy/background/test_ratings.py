"""Rating a finished game is a job of the task queue: offered when the game finishes,
offered again by the ratings pass when it was lost, and applied once however many
times it runs."""

import datetime

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from leagues.ratings.models import Rating, RatingChange
from rummy.background import scan, tasks
from rummy.models import Game, JobKey
from rummy.public import game_finished
from tests.factories import make_league, make_season, make_user
from tests.leagues.ratings.test_rating import finished

from .test_queue import jobs, run_jobs

pytestmark = pytest.mark.django_db(transaction=True)


def _game():
    a, b, c = make_user(), make_user(), make_user()
    league = make_league(a, members=[b, c])
    game = finished(league, make_season(league), [(a, 170), (b, 60), (c, 20)])
    return game, a, league


def test_a_finished_game_offers_its_rating_job_once_and_the_job_rates_it():
    game, a, league = _game()
    game_finished.send(sender=Game, game=game)
    game_finished.send(sender=Game, game=game)  # the signal twice: one job
    assert jobs(tasks.rate_game).count() == 1
    assert not Rating.objects.exists()  # nothing is rated inside the finishing request
    run_jobs()
    assert Rating.objects.get(user=a, league=league).games == 1
    assert RatingChange.objects.filter(game=game).count() == 6
    assert not JobKey.objects.filter(key=tasks.rating_key(game.pk)).exists()  # done


def test_the_rating_job_run_twice_rates_the_game_once():
    game, a, league = _game()
    key = tasks.rating_key(game.pk)
    tasks.rate_game.call(key, game.pk)
    after = Rating.objects.get(user=a, league=league)
    tasks.rate_game.call(key, game.pk)
    again = Rating.objects.get(user=a, league=league)
    assert (again.mu, again.sigma, again.games) == (after.mu, after.sigma, 1)
    assert RatingChange.objects.filter(game=game).count() == 6


def test_a_lost_rating_job_is_found_by_the_ratings_pass():
    _, a, league = _game()  # finished without its job: as if the job were lost
    start = timezone.now()
    with time_machine.travel(start):
        scan.look()
        run_jobs()  # the passes, the ratings pass among them, offer the rating job
        run_jobs()  # and it runs
    assert Rating.objects.get(user=a, league=league).games == 1
    # The next pass finds nothing left to rate.
    with time_machine.travel(start + datetime.timedelta(seconds=settings.CLOCK_INTERVAL + 1)):
        assert tasks.offer_lost_ratings() == 0
        scan.look()
        run_jobs()
    assert jobs(tasks.rate_game).count() == 1


def test_the_ratings_pass_offers_a_game_whose_job_is_waiting_no_second_time():
    game, _, _ = _game()
    game_finished.send(sender=Game, game=game)
    assert tasks.offer_lost_ratings() == 0  # its job waits in the queue, under its key
    assert jobs(tasks.rate_game).count() == 1


def test_games_ratings_do_not_rate_offer_no_job():
    game, _, _ = _game()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.VOIDED)
    assert tasks.offer_lost_ratings() == 0
    practice = finished(None, None, [(make_user(), 100), (make_user(), 50)])
    game_finished.send(sender=Game, game=practice)
    run_jobs()  # the job runs and finds nothing to rate
    assert not RatingChange.objects.exists()
    assert tasks.offer_lost_ratings() == 0
