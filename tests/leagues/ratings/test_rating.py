"""Rating finished games: against the library itself, the model's properties, what is
not rated, and that a game is never applied twice."""

import datetime

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from openskill.models import PlackettLuce

from leagues.ratings.models import Rating, RatingChange
from leagues.ratings.rating import places, rate_game, recompute, unrated_game_ids
from rummy import play
from rummy.background import tasks
from rummy.models import Game, Seat
from rummy.play.bot_seats import bot_user
from tests.cast import make_person
from tests.factories import started_game
from tests.leagues.conftest import make_game

START = timezone.make_aware(datetime.datetime(2026, 1, 1, 12))


def finished(league, season, scores, minute=0, **fields):
    """A finished game of ``scores`` [(user, final score)], finished ``minute`` minutes
    after START; the winners are those with the top score."""
    top = max(score for _, score in scores)
    game = make_game(league, season, [(u, s, 0, s == top) for u, s in scores], **fields)
    Game.objects.filter(pk=game.pk).update(finished_at=START + datetime.timedelta(minutes=minute))
    game.refresh_from_db()
    return game


def run_rating_jobs():
    """The queued rating jobs, run here (in the test's transaction); how many ran."""
    queued = list(DBTaskResult.objects.ready().filter(task_path=tasks.rate_game.module_path))
    for job in queued:
        job.task.call(*job.args_kwargs["args"], **job.args_kwargs["kwargs"])
        job.delete()
    return len(queued)


def rating(user, league=None):
    return Rating.objects.get(user=user, league=league)


def test_places_share_a_place_on_equal_scores():
    assert places([170, 60, 170, 20]) == [1, 3, 1, 4]


def test_ratings_after_a_sequence_equal_the_librarys(cast, league, season):
    a, b, c = cast["alice"], cast["bob"], cast["carol"]
    sequence = [
        [(a, 180), (b, 90), (c, 40)],
        [(b, 200), (c, 200), (a, 10)],
        [(c, 160), (a, 30)],
        [(a, 150), (c, 120), (b, 60)],
    ]
    for minute, scores in enumerate(sequence):
        assert rate_game(finished(league, season, scores, minute).pk)

    model = PlackettLuce()
    expected = {user.pk: model.rating() for user in (a, b, c)}
    for scores in sequence:
        teams = [[expected[user.pk]] for user, _ in scores]
        ranks = [1 + sum(o > s for _, o in scores) for _, s in scores]
        for (user, _), team in zip(scores, model.rate(teams, ranks=ranks), strict=True):
            expected[user.pk] = team[0]
    for user in (a, b, c):
        for scope in (league, None):  # one league: its ratings equal the site-wide ones
            stored = rating(user, scope)
            assert (stored.mu, stored.sigma) == (expected[user.pk].mu, expected[user.pk].sigma)
    assert rating(a).games == 4 and rating(b).games == 3


def test_beating_equal_opponents_raises_mu(cast, league, season):
    a, b, c = cast["alice"], cast["bob"], cast["carol"]
    rate_game(finished(league, season, [(a, 170), (b, 60), (c, 20)]).pk)
    assert rating(a, league).mu > 25 > rating(c, league).mu
    assert rating(a).mu > rating(b).mu > rating(c).mu


def test_a_tie_between_equals_leaves_mu_equal(cast, league, season):
    a, b = cast["alice"], cast["bob"]
    rate_game(finished(league, season, [(a, 160), (b, 160)]).pk)
    assert rating(a, league).mu == rating(b, league).mu == pytest.approx(25)


def test_sigma_shrinks_with_games(cast, league, season):
    a, b, c = cast["alice"], cast["bob"], cast["carol"]
    sigmas = []
    for minute in range(5):
        rate_game(finished(league, season, [(a, 170), (b, 60), (c, 20)], minute).pk)
        sigmas.append(rating(b, league).sigma)
    assert sigmas == sorted(sigmas, reverse=True) and len(set(sigmas)) == 5
    assert sigmas[0] < PlackettLuce().sigma


def test_a_game_is_applied_once(cast, league, season):
    a, b = cast["alice"], cast["bob"]
    game = finished(league, season, [(a, 170), (b, 60)])
    assert rate_game(game.pk) is True
    after = rating(a, league).mu
    assert rate_game(game.pk) is False
    assert rating(a, league).mu == after and rating(a, league).games == 1
    assert RatingChange.objects.filter(game=game).count() == 4  # 2 players x 2 scopes


def test_unrated_game_ids_are_the_rated_games_without_history_rows(cast, league, season):
    a, b = cast["alice"], cast["bob"]
    first = finished(league, season, [(a, 170), (b, 60)], 0)
    second = finished(league, season, [(b, 170), (a, 60)], 1)
    finished(None, None, [(a, 170), (b, 60)], 2)  # practice: never rated
    assert unrated_game_ids() == [first.pk, second.pk]
    rate_game(first.pk)
    assert unrated_game_ids() == [second.pk]


def test_practice_games_are_not_rated(cast, league, season):
    game = finished(league, season, [(cast["alice"], 170), (cast["bob"], 60)])
    Game.objects.filter(pk=game.pk).update(league=None, season=None)
    assert rate_game(game.pk) is False
    assert not Rating.objects.exists()


def test_voided_games_are_not_rated(cast, league, season):
    game = make_game(
        league,
        season,
        [(cast["alice"], 0, 0, False), (cast["bob"], 0, 0, False)],
        status=Game.Status.VOIDED,
    )
    assert rate_game(game.pk) is False
    assert not Rating.objects.exists()


def test_games_with_a_bot_are_not_rated_even_if_they_count_for_standings(cast, league, season):
    season.bot_games_count = True
    season.save()
    bot = bot_user("expert")
    game = finished(league, season, [(cast["alice"], 170), (bot, 60)])
    Seat.objects.filter(game=game, user=bot).update(bot_level="expert")
    assert rate_game(game.pk) is False
    assert not Rating.objects.exists()


def test_a_bot_standing_in_leaves_the_game_rated(cast, league, season):
    game = finished(league, season, [(cast["alice"], 170), (cast["bob"], 60)])
    Seat.objects.filter(game=game, user=cast["bob"]).update(stand_in=True)
    assert rate_game(game.pk) is True
    assert rating(cast["bob"], league).mu < 25


def test_league_and_site_ratings_are_separate(cast, league, public_league, season):
    a, b = cast["alice"], cast["bob"]
    rate_game(finished(league, season, [(a, 170), (b, 60)], 0).pk)
    rate_game(finished(public_league, None, [(b, 170), (a, 60)], 1).pk)
    assert rating(a, league).games == rating(a, public_league).games == 1
    assert rating(a).games == 2
    assert rating(a, league).mu > 25 > rating(a, public_league).mu


def test_recompute_rebuilds_the_same_ratings_and_digest(cast, league, season, capsys):
    a, b, c = cast["alice"], cast["bob"], cast["carol"]
    d = make_person("erin")
    games = [
        finished(league, season, [(a, 170), (b, 60), (c, 20)], 2),
        finished(league, season, [(c, 170), (d, 170)], 0),
        finished(league, season, [(b, 200), (a, 20), (d, 90)], 1),
    ]
    for game in sorted(games, key=lambda g: g.finished_at):
        rate_game(game.pk)
    live = {(r.user_id, r.league_id): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}

    call_command("recompute_ratings")
    first = capsys.readouterr().out
    rebuilt = {(r.user_id, r.league_id): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    assert rebuilt == live
    call_command("recompute_ratings")
    assert capsys.readouterr().out == first
    assert first.startswith("3 games rated; digest ")
    assert RatingChange.objects.count() == 2 * (3 + 2 + 3)


def test_recompute_follows_the_finishing_order(cast, league, season):
    a, b = cast["alice"], cast["bob"]
    one = finished(league, season, [(a, 170), (b, 60)], 5)
    two = finished(league, season, [(b, 170), (a, 60)], 1)
    rate_game(one.pk)
    rate_game(two.pk)  # applied out of order
    wrong = rating(a, league).mu
    recompute()
    rate_in_order = rating(a, league).mu
    assert rate_in_order != wrong
    Rating.objects.all().delete()
    RatingChange.objects.all().delete()
    rate_game(two.pk)
    rate_game(one.pk)
    assert rating(a, league).mu == rate_in_order


def test_a_game_ended_early_is_rated_through_the_write_path(
    cast, league, season, django_capture_on_commit_callbacks
):
    """Ended by an admin while a player is absent: rated on the scores as they stood,
    so that walking away from a losing game does not keep a rating from falling."""
    a, b = cast["alice"], cast["bob"]
    game = started_game([a, b], league=league, seed=3)
    Seat.objects.filter(game=game, user=b).update(timeouts_in_row=Seat.ABSENT_AFTER)
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        play.end_early(game.pk, a, game.version)
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert not Rating.objects.exists()  # background work: its job is queued
    assert run_rating_jobs() == 1
    assert rating(a, league).games == rating(b).games == 1
    assert RatingChange.objects.filter(game=game).count() == 4


def test_rating_a_game_takes_the_same_queries_whatever_came_before(cast, league, season):
    a, b, c = cast["alice"], cast["bob"], cast["carol"]
    counts = []
    for minute in range(4):
        game = finished(league, season, [(a, 170), (b, 60), (c, 20)], minute)
        with CaptureQueriesContext(connection) as queries:
            rate_game(game.pk)
        counts.append(len(queries))
    assert len(set(counts)) == 1, counts
