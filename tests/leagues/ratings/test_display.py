"""How ratings are shown: the figure and its provisional mark, on the league page (the
leaderboard), the standings and the profile, in a fixed number of queries."""

import pytest
from django.urls import reverse
from django.utils import translation

from leagues.ratings.display import PROVISIONAL_SIGMA, figure, shown
from leagues.ratings.models import Rating
from leagues.ratings.rating import rate_game
from leagues.ratings.reads import leaderboard, with_ratings
from leagues.standings import compute_standings
from rummy.models import Seat
from rummy.play.bot_seats import bot_user

from .test_rating import finished


def test_the_figure_is_1500_at_the_start_and_rounded_to_ten():
    assert figure(25.0) == 1500
    assert figure(25.1) == 1500  # 1504: never shown finer than ten
    assert figure(25.15) == 1510  # 1506
    assert figure(20.0) == 1300
    assert figure(26.3) % 10 == 0


def test_provisional_while_sigma_is_above_the_threshold():
    assert shown(Rating(mu=25, sigma=25 / 3)).provisional
    assert shown(Rating(mu=25, sigma=PROVISIONAL_SIGMA + 0.01)).provisional
    assert not shown(Rating(mu=25, sigma=PROVISIONAL_SIGMA)).provisional


def _play(cast, league, season, games=1):
    a, b, c = cast["alice"], cast["bob"], cast["carol"]
    for minute in range(games):
        rate_game(finished(league, season, [(a, 170), (b, 60), (c, 20)], minute).pk)


def test_the_leaderboard_lists_rated_members_best_first_and_no_bot(cast, league, season):
    season.bot_games_count = True
    season.save()
    _play(cast, league, season)
    bot = bot_user("expert")
    with_bot = finished(league, season, [(bot, 170), (cast["alice"], 60)], 9)
    Seat.objects.filter(game=with_bot, user=bot).update(bot_level="expert")
    rate_game(with_bot.pk)
    rows = leaderboard(league)
    assert [row["user"].username for row in rows] == ["alice", "bob", "carol"]
    assert all(row["rating"].provisional for row in rows)


def test_established_ratings_come_before_provisional_ones(cast, league, season):
    _play(cast, league, season)
    Rating.objects.filter(user=cast["carol"], league=league).update(sigma=5)
    assert [row["user"].username for row in leaderboard(league)] == ["carol", "alice", "bob"]


def test_the_league_page_shows_the_leaderboard_and_the_standings_ratings(
    client, cast, league, season
):
    _play(cast, league, season)
    client.force_login(cast["carol"])
    page = client.get(reverse("leagues:detail", args=[league.slug])).content.decode()
    alice = shown(Rating.objects.get(user=cast["alice"], league=league))
    assert 'id="ratings"' in page
    assert f"{alice.figure}<span aria-hidden" in page and "(provisional)" in page
    assert page.count(f'<span class="rating">{alice.figure}') == 3  # board, column, phone line


def test_a_league_without_rated_games_says_so(client, cast, league):
    client.force_login(cast["carol"])
    page = client.get(reverse("leagues:detail", args=[league.slug])).content.decode()
    assert "No rated games in this league yet." in page


def test_the_season_page_shows_ratings_in_the_standings(client, cast, league, season):
    _play(cast, league, season)
    client.force_login(cast["carol"])
    page = client.get(reverse("leagues:season", args=[league.slug, season.pk])).content.decode()
    bob = shown(Rating.objects.get(user=cast["bob"], league=league))
    assert f'<span class="rating">{bob.figure}' in page


def test_the_profile_shows_the_site_and_league_ratings(client, cast, league, season):
    _play(cast, league, season, games=2)
    client.force_login(cast["dave"])  # not a member: the invite-only league is hidden
    page = client.get(reverse("profile", args=["alice"])).content.decode()
    assert "Site-wide" in page and "2 rated games" in page and league.name not in page
    client.force_login(cast["carol"])
    page = client.get(reverse("profile", args=["alice"])).content.decode()
    assert page.count("2 rated games") == 2 and league.name in page


@pytest.mark.parametrize(("language", "words"), [("lv", "Reitingi"), ("et", "Reitingud")])
def test_the_ratings_are_translated(client, cast, league, season, language, words):
    _play(cast, league, season)
    cast["carol"].language = language
    cast["carol"].save()
    client.force_login(cast["carol"])
    with translation.override(language):
        page = client.get(reverse("leagues:detail", args=[league.slug])).content.decode()
    assert words in page and "Ratings follow" not in page


@pytest.mark.parametrize("games", [1, 6])
def test_leaderboard_and_standings_take_fixed_queries(
    cast, league, season, games, django_assert_num_queries
):
    _play(cast, league, season, games=games)
    with django_assert_num_queries(1):
        assert len(leaderboard(league)) == 3
    rows = compute_standings(season)
    with django_assert_num_queries(1):
        assert all(row["rating"] for row in with_ratings(rows, league))


def test_standings_with_ratings_take_the_same_queries_for_more_games(
    cast, league, season, django_assert_num_queries
):
    _play(cast, league, season, games=1)
    with django_assert_num_queries(2):  # the standings' seats, then the ratings
        with_ratings(compute_standings(season), league)
    _play(cast, league, season, games=5)
    with django_assert_num_queries(2):
        with_ratings(compute_standings(season), league)
