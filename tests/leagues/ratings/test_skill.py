"""How much of a league's results is skill: the favourite's wins against chance at those
table sizes with Wilson's interval, each player's wins against their predictions, on
the league page in a fixed number of queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from leagues.ratings import skill
from leagues.ratings.chances import CALIBRATION, first_chances
from leagues.ratings.models import RatingChange
from leagues.ratings.rating import rate_game, recompute

from .test_rating import finished


def test_wilsons_interval_matches_the_textbook_figures():
    low, high = skill.wilson(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)
    assert skill.wilson(0, 10)[0] == 0.0 and skill.wilson(10, 10)[1] == pytest.approx(1.0)


def test_the_favourite_figures_leave_out_games_without_a_favourite():
    tables = [
        [(0.5, 1), (0.5, 2)],  # no favourite
        [(0.6, 1), (0.3, 2), (0.1, 3)],  # the favourite won
        [(0.4, 2), (0.35, 1), (0.25, 3)],  # the favourite lost
        [(0.7, 1), (0.3, 1)],  # a shared first place counts as won
    ]
    figures = skill.favourite_figures(tables)
    assert (figures.games, figures.favourite_won) == (3, 2)
    assert figures.by_chance == pytest.approx((1 / 3 + 1 / 3 + 1 / 2) / 3)
    assert figures.predicted == pytest.approx((0.6 + 0.4 + 0.7) / 3)
    assert (figures.low, figures.high) == skill.wilson(2, 3)
    assert skill.favourite_figures([[(0.5, 1), (0.5, 2)]]) is None


def test_a_players_verdict_needs_more_than_twice_the_spread():
    user = object()
    assert skill.PlayerResult(user, 20, 12, 5.0, 2.0).verdict == "over"
    assert skill.PlayerResult(user, 20, 8, 5.0, 2.0).verdict == "as"
    assert skill.PlayerResult(user, 20, 0, 5.0, 2.0).verdict == "under"


def _play(cast, league, season, games):
    """Alice beats Bob and Carol every game: after the first game she is the favourite."""
    a, b, c = cast["alice"], cast["bob"], cast["carol"]
    for minute in range(games):
        rate_game(finished(league, season, [(a, 170), (b, 60), (c, 20)], minute).pk)


def test_each_rated_game_keeps_the_chances_it_was_played_at(cast, league, season):
    _play(cast, league, season, 2)
    first, second = (
        sorted(
            RatingChange.objects.filter(league=league, scope="league", finished_at=t),
            key=lambda r: r.user_id,
        )
        for t in sorted(set(RatingChange.objects.values_list("finished_at", flat=True)))
    )
    assert [r.chance_first for r in first] == pytest.approx([1 / 3] * 3)
    before = [(r.mu_before, r.sigma_before) for r in second]
    assert [r.chance_first for r in second] == pytest.approx(first_chances(before))
    recompute()  # rebuilt: the same chances
    again = RatingChange.objects.filter(league=league, scope="league")
    assert sorted(r.chance_first for r in again) == pytest.approx(
        sorted(r.chance_first for r in [*first, *second])
    )


def test_a_league_where_the_favourite_always_wins_shows_skill(client, cast, league, season):
    _play(cast, league, season, 12)
    figures, results = skill.league_skill(league)
    assert (figures.games, figures.favourite_won) == (11, 11)  # the first had no favourite
    assert figures.by_chance == pytest.approx(1 / 3) and figures.beats_chance
    alice = next(r for r in results if r.user == cast["alice"])
    assert alice.games == 12 and alice.wins == 12 and alice.verdict == "over"
    assert next(r for r in results if r.user == cast["carol"]).wins == 0
    client.force_login(cast["bob"])
    page = client.get(reverse("leagues:detail", args=[league.slug])).content.decode()
    assert 'id="skill-favourite"' in page and "finished first 11 times: 100%" in page
    assert "By chance alone, at these table sizes: 33%." in page
    assert "skill shows in this league" in page and "Wilson" in page
    calibration = skill_calibration_sentence(page)
    assert "simulated leagues of bots" in calibration
    assert f"in {CALIBRATION['games']} games" in calibration
    assert page.count('class="player-result"') == 3
    assert 'data-verdict="over"' in page


def test_players_are_judged_only_after_enough_games(cast, league, season):
    _play(cast, league, season, skill.PLAYER_GAMES - 1)
    figures, results = skill.league_skill(league)
    assert figures is not None and results == []


def test_a_league_without_a_favourite_says_so(client, cast, league, season):
    _play(cast, league, season, 1)
    client.force_login(cast["bob"])
    page = client.get(reverse("leagues:detail", args=[league.slug])).content.decode()
    assert "No rated game with a favourite yet" in page


def test_the_league_page_takes_the_same_queries_for_more_games(
    client, cast, league, season, django_assert_num_queries
):
    _play(cast, league, season, 2)
    client.force_login(cast["bob"])
    url = reverse("leagues:detail", args=[league.slug])
    with CaptureQueriesContext(connection) as first:
        client.get(url)
    _play(cast, league, season, 12)
    with django_assert_num_queries(len(first)):
        page = client.get(url).content.decode()
    assert 'class="player-result"' in page


def skill_calibration_sentence(page):
    """The league page's sentence on how the chances were calibrated."""
    return page.split('id="chance-calibration">', 1)[1].split("</p>", 1)[0]


@pytest.mark.parametrize(
    ("language", "words", "calibration"),
    [
        ("lv", "Cik daudz ir prasme", "simulētās botu līgās"),
        ("et", "Kui palju on oskus", "simuleeritud robotite liigades"),
    ],
)
def test_the_skill_figures_are_translated(
    client, cast, league, season, language, words, calibration
):
    _play(cast, league, season, 12)
    cast["bob"].language = language
    cast["bob"].save()
    client.force_login(cast["bob"])
    with translation.override(language):
        page = client.get(reverse("leagues:detail", args=[league.slug])).content.decode()
    assert words in page and "Wilson" in page
    assert calibration in skill_calibration_sentence(page)
