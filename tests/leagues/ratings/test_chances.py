"""Each player's chance of finishing first at a table: Plackett-Luce's probability from
the ratings with the luck fitted for chances, summing to 1, stored on the seats by the
write path when they change and at the start, and shown on the game page, an open table
and the home page's open tables."""

import math
import re

import pytest
from django.urls import reverse
from django.utils import translation

from leagues.ratings.chances import LUCK, first_chances, league_ratings, percent
from leagues.ratings.model import MODEL
from leagues.ratings.models import Rating
from rummy import play
from rummy.models import Seat
from tests.factories import make_league, make_user, started_game


@pytest.mark.parametrize(
    "ratings",
    [
        [(25, 8.333), (25, 8.333)],
        [(30, 3), (25, 8.333), (20, 5)],
        [(28, 2), (22, 4), (25, 7), (31, 1.5)],
        [(25, 8.333), (26, 6), (24, 6), (40, 2), (10, 2)],
    ],
)
def test_the_chances_at_a_table_sum_to_one(ratings):
    chances = first_chances(ratings)
    assert len(chances) == len(ratings)
    assert sum(chances) == pytest.approx(1)
    assert all(0 < c < 1 for c in chances)


def test_the_better_rated_player_is_the_likelier_winner_and_equals_are_equal():
    assert first_chances([(25, 8.333)] * 3) == pytest.approx([1 / 3] * 3)
    strong, middle, weak = first_chances([(32, 3), (25, 3), (18, 3)])
    assert strong > middle > weak


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_the_chances_sum_to_one_at_any_luck_and_extreme_ratings(size):
    for luck in (0.5, MODEL.beta, LUCK, 20):
        for ratings in (
            [(25 + 7 * i, 1 + i) for i in range(size)],
            [(-300, 0.1)] + [(400, 0.1)] * (size - 1),  # far apart: no overflow
        ):
            chances = first_chances(ratings, luck)
            assert math.fsum(chances) == pytest.approx(1, abs=1e-12)
            assert all(0 <= c <= 1 for c in chances)


def test_the_chance_is_plackett_luces_probability_of_finishing_first():
    ratings = [(30, 3), (25, 5), (20, 2)]
    c = math.sqrt(sum(sigma**2 + MODEL.beta**2 for _, sigma in ratings))
    weights = [math.exp(mu / c) for mu, _ in ratings]
    expected = [w / sum(weights) for w in weights]
    assert first_chances(ratings, MODEL.beta) == pytest.approx(expected)


def test_more_luck_flattens_the_chances_and_a_sure_winner_is_near_certain():
    ratings = [(32, 2), (25, 2), (18, 2)]
    assert first_chances(ratings, 2)[0] > first_chances(ratings, 8)[0] > 1 / 3
    # Far above three equals, the favourite's chance nears 1 (an average of pairwise
    # chances, the library's predict_win, would stop near 1/2 at a table of four).
    assert first_chances([(80, 1), (20, 1), (20, 1), (20, 1)])[0] > 0.99


def test_a_shown_chance_is_whole_percent_never_0_or_100():
    assert [percent(c) for c in (0.001, 0.334, 0.5, 0.999)] == [1, 33, 50, 99]


def test_players_not_rated_count_at_the_start_values(db):
    a, b = make_user(), make_user()
    league = make_league(a, members=[b])
    Rating.objects.create(user=a, league=league, mu=30, sigma=4)
    assert league_ratings(league.pk, [a.pk, b.pk]) == [(30, 4), (MODEL.mu, MODEL.sigma)]


def _seats(game):
    return list(Seat.objects.filter(game=game).order_by("joined_at", "id"))


def test_the_write_path_stores_the_chances_as_the_seats_change_and_at_the_start(db):
    a, b, c = make_user(), make_user(), make_user()
    league = make_league(a, members=[b, c])
    Rating.objects.create(user=a, league=league, mu=32, sigma=3)
    game = play.open_table(league, a, max_seats=4)
    assert _seats(game)[0].chance_first is None  # alone: no chance to speak of
    play.take_seat(game.pk, b)
    two = [s.chance_first for s in _seats(game)]
    assert sum(two) == pytest.approx(1) and two[0] > two[1]
    play.take_seat(game.pk, c)
    three = [s.chance_first for s in _seats(game)]
    assert sum(three) == pytest.approx(1) and three[0] > three[1] == pytest.approx(three[2])
    play.leave_seat(game.pk, c)
    assert [s.chance_first for s in _seats(game)] == pytest.approx(two)
    play.take_seat(game.pk, c)
    play.start_game(game.pk, a)
    started = _seats(game)
    assert [s.chance_first for s in started] == pytest.approx(three)
    assert (started[0].rating_mu, started[0].rating_sigma) == (32, 3)


def test_no_chances_with_a_bot_at_the_table_or_in_practice(db):
    a, b = make_user(), make_user()
    league = make_league(a, members=[b])
    game = play.open_table(league, a, max_seats=3)
    play.take_seat(game.pk, b)
    assert all(s.chance_first is not None for s in _seats(game))
    game.refresh_from_db()
    play.add_bot(game.pk, a, "steady", game.version)
    assert all(s.chance_first is None for s in _seats(game))  # games with bots: not rated
    practice = play.start_practice(make_user(), 2, "steady")
    assert all(s.chance_first is None for s in _seats(practice))


def test_the_game_page_shows_each_players_rating_and_chance(client, db):
    a, b, c = make_user(), make_user(), make_user()
    league = make_league(a, members=[b, c])
    Rating.objects.create(user=a, league=league, mu=32, sigma=3)
    game = started_game([a, b, c], league=league, seed=1)
    client.force_login(b)
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'id="odds-about"' in page
    odds = re.findall(r'<span class="odds">.*?</span>(\d+)(.*?) · (\d+)%</span>', page)
    assert len(odds) == 3
    assert sum(int(n) for _, _, n in odds) in (99, 100, 101)  # whole percents, rounded
    assert odds[0][0] == "1780" and "provisional" not in odds[0][1]  # 1500 + 40 x 7
    assert odds[1][0] == "1500" and "provisional" in odds[1][1]


def test_an_open_table_and_the_home_page_show_the_chances(client, db):
    a, b = make_user(), make_user()
    league = make_league(a, members=[b])
    game = play.open_table(league, a, max_seats=3)
    play.take_seat(game.pk, b)
    client.force_login(b)
    page = client.get(game.get_absolute_url()).content.decode()
    assert page.count('class="odds"') == 2 and page.count("· 50%") == 2
    home = client.get(reverse("home")).content.decode()
    assert "Chance of finishing first:" in home and "you 50%" in home


@pytest.mark.parametrize(
    ("language", "words"),
    [("lv", "Iespēja finišēt pirmajam"), ("et", "Tõenäosus lõpetada esimesena")],
)
def test_the_chances_are_translated(client, db, language, words):
    a, b = make_user(), make_user()
    league = make_league(a, members=[b])
    game = play.open_table(league, a, max_seats=3)
    play.take_seat(game.pk, b)
    b.language = language
    b.save()
    client.force_login(b)
    with translation.override(language):
        home = client.get(reverse("home")).content.decode()
    assert words in home
