"""A player's rating over time: the profile's chart per league (SVG drawn on the server,
with a table of the same points) in a fixed number of queries, and each game's change on
its record page."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.ratings import history
from leagues.ratings.display import figure
from leagues.ratings.models import Rating, RatingChange
from leagues.ratings.rating import rate_game
from rummy import play
from rummy.models import Seat
from tests.factories import started_game

from .test_rating import finished, run_rating_jobs


def _play(cast, league, season, games, first=0):
    a, b, c = cast["alice"], cast["bob"], cast["carol"]
    played = []
    for minute in range(first, first + games):
        game = finished(league, season, [(a, 170), (b, 60), (c, 20)], minute)
        rate_game(game.pk)
        played.append(game)
    return played


def test_the_chart_has_the_start_and_one_point_per_game_inside_its_box(cast, league, season):
    _play(cast, league, season, games=3)
    (chart,) = history.player_history(cast["alice"], [league])
    assert [p.number for p in chart.points] == [0, 1, 2, 3]
    assert chart.points[0].figure == 1500 and chart.points[0].game_id is None
    assert chart.end == figure(Rating.objects.get(user=cast["alice"], league=league).mu)
    assert all(p.change > 0 for p in chart.points[1:])  # she won every game
    assert chart.points[1].provisional  # three games: still provisional
    for p in chart.points:
        assert history.LEFT <= p.x <= history.WIDTH - history.RIGHT
        assert history.TOP <= p.y <= history.HEIGHT - history.BOTTOM
    # Rising figures are drawn higher (SVG's y grows downwards).
    ys = [p.y for p in chart.points]
    assert ys == sorted(ys, reverse=True)
    assert chart.low <= 1500 and chart.high >= chart.end and (chart.high - chart.low) % 100 == 0


def test_the_chart_shows_the_last_games_from_the_rating_before_them(cast, league, season):
    _play(cast, league, season, games=5)
    changes = list(RatingChange.objects.filter(user=cast["bob"], league=league))
    changes.sort(key=lambda c: c.finished_at)
    chart = history.chart(league, changes * 30)  # 150 games' rows, as if played
    assert chart.games == 150 and chart.shown == history.SHOWN and chart.cut
    assert chart.points[0].number == 50 and chart.points[-1].number == 150


def test_a_chart_of_one_game_spans_the_minimum(cast, league, season):
    _play(cast, league, season, games=1)
    (chart,) = history.player_history(cast["bob"], [league])
    assert chart.high - chart.low >= history.MIN_SPAN and len(chart.points) == 2


def test_the_profile_draws_the_chart_and_its_table(client, cast, league, season):
    games = _play(cast, league, season, games=2)
    client.force_login(cast["carol"])
    page = client.get(reverse("profile", args=["alice"])).content.decode()
    assert page.count("<svg") == 1 and 'role="img"' in page
    assert f'id="rating-chart-{league.pk}"' in page
    (table,) = re.findall(r"<details>.*?</details>", page, re.S)
    assert table.count("<tr>") == 1 + 3  # the header, the start and two games
    assert reverse("rummy:record", args=[games[-1].pk]) in table
    # Plain decimal points in the drawing, whatever the reader's language.
    (points,) = re.findall(r'<polyline class="line" points="([^"]*)"', page)
    assert re.fullmatch(r"[\d.]+,[\d.]+( [\d.]+,[\d.]+){2}", points)


def test_a_player_without_rated_games_has_no_chart(client, cast, league):
    client.force_login(cast["carol"])
    page = client.get(reverse("profile", args=["alice"])).content.decode()
    assert "<svg" not in page


def test_the_profile_chart_takes_the_same_queries_for_more_games(
    client, cast, league, season, django_assert_num_queries
):
    _play(cast, league, season, games=1)
    client.force_login(cast["carol"])
    url = reverse("profile", args=["alice"])
    with CaptureQueriesContext(connection) as first:
        client.get(url)
    _play(cast, league, season, games=8, first=1)
    with django_assert_num_queries(len(first)):
        page = client.get(url).content.decode()
    assert page.count('class="dot') == 10


def _ended(cast, league, on_commit):
    """A real game of alice and bob, ended early by alice (bob absent) and rated by its
    background job: the record page has a score sheet to show."""
    a, b = cast["alice"], cast["bob"]
    game = started_game([a, b], league=league, seed=3)
    Seat.objects.filter(game=game, user=b).update(timeouts_in_row=Seat.ABSENT_AFTER)
    game.refresh_from_db()
    with on_commit(execute=True):
        play.end_early(game.pk, a, game.version)
    assert run_rating_jobs() == 1
    return game


def test_the_record_page_shows_each_players_change(
    client, cast, league, django_capture_on_commit_callbacks
):
    game = _ended(cast, league, django_capture_on_commit_callbacks)
    client.force_login(cast["bob"])
    page = client.get(reverse("rummy:record", args=[game.pk])).content.decode()
    assert 'id="rating-changes"' in page and page.count('class="rating-change"') == 2
    changes = history.game_changes(game.pk)
    assert {c.user for c in changes} == {cast["alice"], cast["bob"]}
    assert all(c.before == 1500 for c in changes)
    for c in changes:
        assert f"1500 → {c.after} ({c.signed_change})" in page
    # Ended before a round was scored: a tie between equals moves no figure.
    assert [c.signed_change for c in changes] == ["0", "0"]


def test_changes_are_signed_with_a_real_minus():
    assert [history.signed(n) for n in (40, 0, -20)] == ["+40", "0", "−20"]


def test_an_unrated_game_shows_no_rating_changes(client, cast, league, season):
    game = finished(league, season, [(cast["alice"], 170), (cast["bob"], 60)])
    client.force_login(cast["bob"])
    page = client.get(reverse("rummy:record", args=[game.pk])).content.decode()
    assert "rating-changes" not in page


@pytest.mark.parametrize(
    ("language", "words"), [("lv", "Reitinga izmaiņas"), ("et", "Reitingu muutused")]
)
def test_the_record_pages_changes_are_translated(
    client, cast, league, language, words, django_capture_on_commit_callbacks
):
    game = _ended(cast, league, django_capture_on_commit_callbacks)
    cast["bob"].language = language
    cast["bob"].save()
    client.force_login(cast["bob"])
    page = client.get(reverse("rummy:record", args=[game.pk])).content.decode()
    assert words in page
