"""Standings from finished games, the tie-break order, freezing and champions."""

from django.urls import reverse

from leagues import seasons as season_service
from leagues.models import Season
from leagues.standings import compute_standings, game_finished, standings_for
from rummy.models import Game

from .conftest import make_game, make_person, make_season


def names(rows):
    return [row["username"] for row in rows]


def test_rows_add_up_finished_games_only(cast, league, season):
    a, b, c = cast["owner"], cast["admin"], cast["member"]
    make_game(league, season, [(a, 155, 3, True), (b, 90, 1, False), (c, 40, 0, False)])
    make_game(league, season, [(b, 151, 2, True), (a, 120, 2, False)])
    make_game(league, season, [(c, 0, 0, False)], status=Game.Status.ACTIVE)
    make_game(league, season, [(c, 999, 9, True)], status=Game.Status.VOIDED)
    make_game(league, None, [(c, 999, 9, True)])  # outside any season
    other = make_season(
        league, status=Season.Status.CLOSED, start=season.ends_on.replace(year=2030)
    )
    make_game(league, other, [(c, 999, 9, True)])
    rows = {row["username"]: row for row in compute_standings(season)}
    assert rows["alice"] == {
        "user_id": a.pk,
        "username": "alice",
        "name": "Alice",
        "is_bot": False,
        "played": 2,
        "won": 1,
        "rounds_won": 5,
        "points": 275,
        "rank": 1,
    }
    assert (rows["bob"]["played"], rows["bob"]["won"], rows["bob"]["points"]) == (2, 1, 241)
    assert (rows["carol"]["played"], rows["carol"]["won"], rows["carol"]["points"]) == (1, 0, 40)


def test_tie_break_order(cast, league, season):
    """games won > total points > rounds won > fewer games played > name."""
    u = {n: make_person(n) for n in ["pia", "quin", "ron", "sam", "tia", "uma", "vic"]}
    make_game(league, season, [(u["pia"], 150, 1, True)])
    make_game(league, season, [(u["pia"], 150, 1, True)])  # 2 wins
    make_game(league, season, [(u["quin"], 200, 1, True)])  # 1 win, 200 points
    make_game(league, season, [(u["ron"], 150, 3, True)])  # 1 win, 150 points, 3 rounds
    make_game(league, season, [(u["sam"], 150, 2, True)])  # 1 win, 150, 2 rounds, 1 game
    make_game(league, season, [(u["tia"], 150, 2, True)])  # as sam but one more game played
    make_game(league, season, [(u["tia"], 0, 0, False)])
    make_game(league, season, [(u["uma"], 150, 2, True)])  # identical to sam: name decides
    rows = compute_standings(season)
    assert names(rows) == ["pia", "quin", "ron", "sam", "uma", "tia"]
    assert [row["rank"] for row in rows] == [1, 2, 3, 4, 4, 6]


def test_tied_leaders_are_all_champions(client, cast, league, season):
    a, b, c = cast["owner"], cast["admin"], cast["member"]
    make_game(league, season, [(a, 150, 2, True), (c, 10, 0, False)])
    make_game(league, season, [(b, 150, 2, True), (c, 10, 0, False)])
    season_service.close_season(season)
    season.refresh_from_db()
    assert set(season.champions.all()) == {a, b}
    assert season.final_standings == compute_standings(season)
    client.force_login(c)
    page = client.get(season.get_absolute_url()).content.decode()
    assert "Champions:" in page and "Alice" in page and "Bob" in page


def test_closing_freezes_standings(cast, league, season):
    a, b = cast["owner"], cast["admin"]
    make_game(league, season, [(a, 150, 2, True), (b, 60, 1, False)])
    season_service.close_season(season)
    season.refresh_from_db()
    frozen = season.final_standings
    assert names(frozen) == ["alice", "bob"]
    assert list(season.champions.all()) == [a]
    # A finished game slipped in by hand changes nothing until game_finished is called.
    make_game(league, season, [(b, 150, 3, True)])
    assert standings_for(season) == frozen


def test_game_finishing_after_close_updates_frozen_standings(cast, league, season):
    a, b = cast["owner"], cast["admin"]
    make_game(league, season, [(a, 150, 2, True), (b, 60, 1, False)])
    running = make_game(
        league, season, [(a, 0, 0, False), (b, 0, 0, False)], status=Game.Status.ACTIVE
    )
    season_service.close_season(season)
    # The admin lets it run; it ends with bob winning twice overall.
    make_game(league, season, [(b, 150, 2, True)])
    Game.objects.filter(pk=running.pk).update(status=Game.Status.FINISHED)
    running.seats.filter(user=b).update(final_score=155, rounds_won=3, is_winner=True)
    running.seats.filter(user=a).update(final_score=80)
    running.refresh_from_db()
    game_finished(running)
    season.refresh_from_db()
    assert names(season.final_standings) == ["bob", "alice"]
    assert list(season.champions.all()) == [b]


def test_game_finished_does_nothing_for_open_season_or_no_season(cast, league, season):
    game = make_game(league, season, [(cast["owner"], 150, 1, True)])
    game_finished(game)
    season.refresh_from_db()
    assert season.final_standings is None and not season.champions.exists()
    game_finished(make_game(league, None, [(cast["owner"], 150, 1, True)]))


def test_season_page_shows_standings_and_tie_break(client, cast, league, season):
    make_game(league, season, [(cast["member"], 150, 2, True)])
    client.force_login(cast["member"])
    response = client.get(season.get_absolute_url())
    assert names(response.context["standings"]) == ["carol"]
    assert "then fewer games played, then name" in response.content.decode()


def test_season_archive_lists_past_seasons_with_champion(client, cast, league, season):
    make_game(league, season, [(cast["member"], 150, 2, True)])
    season_service.close_season(season)
    client.force_login(cast["member"])
    page = client.get(reverse("leagues:seasons", args=[league.slug])).content.decode()
    assert season.name in page and "Closed" in page and "Carol" in page
