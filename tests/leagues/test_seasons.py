import datetime

import pytest
from django.contrib.messages import get_messages
from django.db import IntegrityError, transaction
from django.urls import reverse

from leagues import seasons as season_service
from leagues.models import Season
from leagues.services import LeagueError
from rummy.models import Game, Move

from .conftest import make_game, make_season


def msg(response):
    return " ".join(str(m) for m in get_messages(response.wsgi_request))


def season_data(**overrides):
    data = {
        "name": "Summer",
        "starts_on": "2025-06-01",
        "ends_on": "2025-08-31",
        "target_score": "200",
        "knock_limit": "4",
        "turn_seconds": "3600",
    }
    data.update(overrides)
    return data


def create(client, league, **overrides):
    return client.post(
        reverse("leagues:season_create", args=[league.slug]), season_data(**overrides)
    )


def test_admin_creates_season_with_house_settings(client, cast, league):
    client.force_login(cast["admin"])
    response = create(client, league)
    season = league.seasons.get()
    assert response["Location"] == season.get_absolute_url()
    assert (season.status, season.target_score, season.knock_limit, season.turn_seconds) == (
        Season.Status.PLANNED,
        200,
        4,
        3600,
    )
    page = client.get(season.get_absolute_url()).content.decode()
    assert "Target score 200" in page and "1 hour per turn" in page


@pytest.mark.parametrize(
    "overrides, field, words",
    [
        ({"ends_on": "2025-05-01"}, "ends_on", "cannot end before it starts"),
        ({"turn_seconds": "60"}, "turn_seconds", "not one of the available choices"),
        ({"target_score": "0"}, "target_score", "greater than or equal"),
        ({"starts_on": "someday"}, "starts_on", "valid date"),
    ],
)
def test_bad_season_input_is_refused(client, cast, league, overrides, field, words):
    client.force_login(cast["owner"])
    response = create(client, league, **overrides)
    assert response.status_code == 200
    assert words in str(response.context["form"].errors[field])
    assert not league.seasons.exists()


@pytest.mark.parametrize(
    "start, end",
    [
        ("2025-01-15", "2025-02-15"),
        ("2024-12-01", "2025-01-01"),
        ("2025-03-02", "2025-03-02"),
        ("2024-01-01", "2026-01-01"),
    ],
)
def test_overlapping_seasons_are_refused(client, cast, league, start, end):
    existing = make_season(league, start=datetime.date(2025, 1, 1), days=60)  # to 2025-03-02
    client.force_login(cast["owner"])
    response = create(client, league, starts_on=start, ends_on=end)
    assert response.status_code == 200
    assert "overlap" in str(response.context["form"].errors)
    assert list(league.seasons.all()) == [existing]


def test_adjacent_seasons_and_other_leagues_do_not_clash(client, cast, league, public_league):
    make_season(league, start=datetime.date(2025, 1, 1), days=60)
    make_season(public_league, start=datetime.date(2025, 3, 3), days=60)
    client.force_login(cast["owner"])
    create(client, league, starts_on="2025-03-03", ends_on="2025-04-30")
    assert league.seasons.count() == 2


def test_service_refuses_overlap_too(league):
    make_season(league, start=datetime.date(2025, 1, 1))
    with pytest.raises(LeagueError, match="overlap"):
        season_service.create_season(
            league, name="X", starts_on=datetime.date(2025, 2, 1), ends_on=datetime.date(2025, 9, 1)
        )
    assert league.seasons.count() == 1


def test_start_season(client, cast, league):
    season = make_season(league, status=Season.Status.PLANNED)
    client.force_login(cast["admin"])
    client.post(reverse("leagues:season_start", args=[league.slug, season.pk]))
    season.refresh_from_db()
    assert season.status == Season.Status.ACTIVE and season.started_at
    assert league.active_season() == season


def test_second_active_season_is_refused(client, cast, league):
    active = make_season(league, name="Current")
    planned = make_season(league, status=Season.Status.PLANNED, start=datetime.date(2026, 1, 1))
    client.force_login(cast["owner"])
    response = client.post(reverse("leagues:season_start", args=[league.slug, planned.pk]))
    assert "“Current” is still active" in msg(response)
    planned.refresh_from_db()
    assert planned.status == Season.Status.PLANNED
    assert league.active_season() == active


def test_starting_twice_is_refused(client, cast, league, season):
    client.force_login(cast["owner"])
    response = client.post(reverse("leagues:season_start", args=[league.slug, season.pk]))
    assert "already started" in msg(response)


def test_database_backstops(league, season):
    with pytest.raises(IntegrityError), transaction.atomic():
        make_season(league, start=datetime.date(2030, 1, 1))  # a second active season
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(
            league=league,
            name="Backwards",
            starts_on=datetime.date(2031, 2, 1),
            ends_on=datetime.date(2031, 1, 1),
        )


def test_close_season(client, cast, league, season):
    make_game(league, season, [(cast["member"], 150, 2, True)])
    client.force_login(cast["admin"])
    response = client.post(reverse("leagues:season_close", args=[league.slug, season.pk]))
    assert "standings are final" in msg(response)
    season.refresh_from_db()
    assert season.status == Season.Status.CLOSED and season.closed_at
    assert list(season.champions.all()) == [cast["member"]]
    assert league.active_season() is None


def test_closing_twice_is_refused_and_changes_nothing(client, cast, league, season):
    season_service.close_season(season)
    season.refresh_from_db()
    closed_at = season.closed_at
    client.force_login(cast["owner"])
    response = client.post(reverse("leagues:season_close", args=[league.slug, season.pk]))
    assert "already closed" in msg(response)
    season.refresh_from_db()
    assert season.closed_at == closed_at


def test_closing_a_planned_season_is_refused(client, cast, league):
    planned = make_season(league, status=Season.Status.PLANNED)
    client.force_login(cast["owner"])
    response = client.post(reverse("leagues:season_close", args=[league.slug, planned.pk]))
    assert "has not started" in msg(response)
    planned.refresh_from_db()
    assert planned.status == Season.Status.PLANNED


def test_closed_season_cannot_restart(cast, league, season):
    season_service.close_season(season)
    with pytest.raises(LeagueError, match="closed"):
        season_service.start_season(season)


def test_running_games_listed_at_close_with_void_button(client, cast, league, season):
    running = make_game(league, season, [(cast["owner"], 0, 0, False)], status=Game.Status.ACTIVE)
    client.force_login(cast["owner"])
    response = client.post(
        reverse("leagues:season_close", args=[league.slug, season.pk]), follow=True
    )
    assert "still running" in response.content.decode()
    assert list(response.context["running_games"]) == [running]
    assert reverse("leagues:void_game", args=[league.slug, season.pk, running.pk]) in (
        response.content.decode()
    )


def test_void_game(client, cast, league, season):
    running = make_game(
        league,
        season,
        [(cast["owner"], 0, 0, False), (cast["member"], 0, 0, False)],
        status=Game.Status.ACTIVE,
    )
    season_service.close_season(season)
    client.force_login(cast["admin"])
    response = client.post(reverse("leagues:void_game", args=[league.slug, season.pk, running.pk]))
    assert "counts for nothing" in msg(response)
    running.refresh_from_db()
    assert running.status == Game.Status.VOIDED and running.finished_at
    assert running.version == 1
    assert Move.objects.get(game=running).kind == Move.Kind.VOID
    season.refresh_from_db()
    assert season.final_standings == []


def test_voiding_a_finished_game_is_refused(client, cast, league, season):
    done = make_game(league, season, [(cast["owner"], 150, 1, True)])
    client.force_login(cast["owner"])
    response = client.post(reverse("leagues:void_game", args=[league.slug, season.pk, done.pk]))
    assert "has not ended" in msg(response)
    done.refresh_from_db()
    assert done.status == Game.Status.FINISHED


def test_void_game_of_another_season_is_404(client, cast, league, season):
    other = make_season(league, status=Season.Status.PLANNED, start=datetime.date(2027, 1, 1))
    running = make_game(league, season, [(cast["owner"], 0, 0, False)], status=Game.Status.ACTIVE)
    client.force_login(cast["owner"])
    url = reverse("leagues:void_game", args=[league.slug, other.pk, running.pk])
    assert client.post(url).status_code == 404


def test_season_of_other_league_is_404(client, cast, league, public_league):
    foreign = make_season(public_league)
    client.force_login(cast["owner"])
    assert client.get(reverse("leagues:season", args=[league.slug, foreign.pk])).status_code == 404
