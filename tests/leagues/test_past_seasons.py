"""History around the games: a league's page lists its past seasons with
their champions and final standings; a season's page lists its finished games, each
linking to its score sheet. Both in a fixed number of queries."""

import datetime

from django.urls import reverse

from leagues import seasons as season_service
from leagues.models import Season
from leagues.standings import PAST_SEASONS_SHOWN
from rummy.models import Game

from .conftest import make_game, make_person, make_season


def closed_season(league, players, start, name):
    """A season whose first player wins two games, the second one, the third none."""
    season = make_season(league, start=start, days=30, name=name)
    first, second = players[:2]
    for winner in (first, first, second):
        others = [p for p in players if p != winner]
        make_game(
            league,
            season,
            [(winner, 200, 3, True), (others[0], 120, 1, False), (others[1], 80, 0, False)],
        )
    season_service.close_season(season)
    return season


def page(client, user, url):
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_league_page_lists_past_seasons_with_champions_and_final_standings(
    client, cast, league
):
    closed = closed_season(
        league, [cast.carol, cast.bob, cast.alice], datetime.date(2024, 1, 1), "Winter 2024"
    )
    make_season(league, start=datetime.date(2025, 1, 1), name="Running now")
    html = page(client, cast.carol, league.get_absolute_url())
    assert "Past seasons" in html
    section = html.split('id="past-seasons"')[1].split("</section>")[0]
    assert closed.get_absolute_url() in section and "Winter 2024" in section
    assert "Running now" not in section  # the active season is the current one, not past
    assert "Champion:" in section and cast.carol.name in section.split("</div>")[0]
    rows = section.split('class="podium"')[1].split("</ol>")[0]
    names = [cast.carol.name, cast.bob.name, cast.alice.name]
    assert [rows.index(n) for n in names] == sorted(rows.index(n) for n in names)
    assert '<li value="1">' in rows and "2 games won" in rows and "1 game won" in rows
    assert "0 games won" in rows
    assert reverse("profile", args=[cast.carol.username]) in rows


def test_a_shared_title_names_every_champion(client, cast, league):
    season = make_season(league, start=datetime.date(2024, 1, 1), name="Tied")
    make_game(league, season, [(cast.alice, 100, 2, True), (cast.bob, 90, 1, False)])
    make_game(league, season, [(cast.bob, 100, 2, True), (cast.alice, 90, 1, False)])
    season_service.close_season(season)
    section = page(client, cast.bob, league.get_absolute_url()).split('id="past-seasons"')[1]
    assert "Champions:" in section
    assert section.count('<li value="1">') == 2


def test_no_past_seasons_section_before_a_season_closes(client, cast, league):
    make_season(league, start=datetime.date(2025, 1, 1))
    assert "past-seasons" not in page(client, cast.carol, league.get_absolute_url())


def test_the_league_page_shows_the_latest_past_seasons_in_fixed_queries(
    client, cast, league, django_assert_max_num_queries
):
    players = [cast.alice, cast.bob, cast.carol]
    extra = [make_person(f"player{n}") for n in range(3)]
    closed_season(league, players, datetime.date(2020, 1, 1), "Season 0")
    client.force_login(cast.carol)
    with django_assert_max_num_queries(100) as one:
        client.get(league.get_absolute_url())
    for n in range(1, PAST_SEASONS_SHOWN + 3):
        closed_season(
            league, players if n % 2 else extra, datetime.date(2020 + n, 1, 1), f"Season {n}"
        )
    with django_assert_max_num_queries(len(one.captured_queries)):
        html = client.get(league.get_absolute_url()).content.decode()
    section = html.split('id="past-seasons"')[1].split("</section>")[0]
    shown = [n for n in range(PAST_SEASONS_SHOWN + 3) if f"Season {n}<" in section]
    assert shown == list(range(3, PAST_SEASONS_SHOWN + 3))  # the newest, newest first
    assert f"All {PAST_SEASONS_SHOWN + 3} past seasons" in section
    assert reverse("leagues:seasons", args=[league.slug]) in section


def test_the_season_page_links_every_finished_game_to_its_record_in_fixed_queries(
    client, cast, league, django_assert_max_num_queries
):
    season = make_season(league, status=Season.Status.ACTIVE)
    players = [(cast.alice, 150, 2, True), (cast.bob, 40, 0, False)]
    make_game(league, season, players)
    running = make_game(league, season, players, status=Game.Status.ACTIVE)
    client.force_login(cast.carol)
    with django_assert_max_num_queries(100) as one:
        client.get(season.get_absolute_url())
    games = [make_game(league, season, players) for _ in range(6)]
    with django_assert_max_num_queries(len(one.captured_queries)):
        html = client.get(season.get_absolute_url()).content.decode()
    for game in games:
        assert reverse("rummy:record", args=[game.pk]) in html
    assert reverse("rummy:record", args=[running.pk]) not in html
