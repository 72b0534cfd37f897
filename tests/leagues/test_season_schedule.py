"""A season's format, and the planned schedule its admins see before it starts."""

import datetime

import pytest
from django.urls import reverse

from leagues import seasons as season_service
from leagues.models import Membership, Season
from leagues.services import LeagueError

from .conftest import make_person, make_season


def _create(client, league, **extra):
    data = {
        "name": "Winter",
        "starts_on": "2031-01-01",
        "ends_on": "2031-03-01",
        "target_score": "150",
        "knock_limit": "5",
        "turn_seconds": "86400",
        **extra,
    }
    return client.post(reverse("leagues:season_create", args=[league.slug]), data)


def test_a_season_left_without_format_has_open_tables(client, cast, league):
    client.force_login(cast.admin)
    assert _create(client, league).status_code == 302
    season = league.seasons.get()
    assert season.format == Season.Format.OPEN
    assert season.games_each is None


def test_admin_creates_a_scheduled_season(client, cast, league):
    client.force_login(cast.admin)
    response = _create(
        client, league, format="scheduled", games_each="4", table_size="3", round_start="previous"
    )
    assert response.status_code == 302
    season = league.seasons.get()
    assert (season.format, season.games_each, season.table_size, season.round_start) == (
        "scheduled",
        4,
        3,
        "previous",
    )
    assert league.admin_actions.get().after["games_each"] == 4


@pytest.mark.parametrize(
    "extra",
    [
        {"format": "scheduled"},
        {"format": "scheduled", "games_each": "4", "table_size": "6", "round_start": "dates"},
        {"format": "scheduled", "games_each": "4", "table_size": "1", "round_start": "dates"},
        {"format": "scheduled", "games_each": "0", "table_size": "3", "round_start": "dates"},
        {"format": "weekly"},
    ],
)
def test_bad_schedule_numbers_are_refused_with_a_message(client, cast, league, extra):
    client.force_login(cast.admin)
    response = _create(client, league, **extra)
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not league.seasons.exists()


def test_service_refuses_a_scheduled_season_without_its_numbers(cast, league):
    with pytest.raises(LeagueError):
        season_service.create_season(
            league,
            by=cast.owner,
            name="X",
            starts_on=datetime.date(2031, 1, 1),
            ends_on=datetime.date(2031, 2, 1),
            format=Season.Format.SCHEDULED,
        )
    assert not league.seasons.exists()


def _scheduled(league, **fields):
    defaults = {"games_each": 2, "table_size": 3, "round_start": Season.RoundStart.ON_DATES}
    return make_season(
        league,
        status=Season.Status.PLANNED,
        start=datetime.date(2031, 1, 1),
        format=Season.Format.SCHEDULED,
        **{**defaults, **fields},
    )


def test_admin_sees_the_planned_schedule_with_names_and_figures(client, cast, league):
    for name in ("erin", "frank", "grace"):
        Membership.objects.create(league=league, user=make_person(name))
    season = _scheduled(league)
    client.force_login(cast.admin)
    response = client.get(season.get_absolute_url())
    schedule = response.context["schedule"]
    assert "error" not in schedule
    # Six members, two games each, tables of three: every member plays twice.
    assert [row["games"] for row in schedule["members"]] == [2] * 6
    assert len(schedule["rounds"]) == 2
    for round_ in schedule["rounds"]:
        seated = [name for table in round_["tables"] for name in table]
        assert sorted(seated) == sorted(row["name"] for row in schedule["members"])
    text = response.content.decode()
    assert "Planned schedule" in text
    assert "Scheduled: 2 games for each member, at tables of 3. Rounds start: On dates." in text
    assert "Round 2" in text
    assert "Grace" in text
    assert f"Each pair of members meets {schedule['pair_min']} to {schedule['pair_max']}" in text
    # Six members at two tables of three for two rounds make 12 meetings for 15
    # pairs, so some pair never meets and the second round repeats a first-round pair:
    # no plan does better than a spread of 2, and the page says so beside its own.
    assert schedule["least_spread"] == 2
    assert schedule["spread"] == schedule["pair_max"] - schedule["pair_min"] >= 2
    assert (
        f"differ by at most {schedule['spread']}; no plan for these numbers can do "
        "better than 2." in text
    )


def test_impossible_numbers_say_why_in_the_readers_language(client, cast, league):
    season = _scheduled(league, games_each=3, table_size=2)  # 3 members x 3 games: odd
    cast.admin.language = "lv"
    cast.admin.save(update_fields=["language"])
    client.force_login(cast.admin)
    response = client.get(season.get_absolute_url())
    assert response.status_code == 200
    assert "Pie galdiem pa 2" in response.context["schedule"]["error"]


@pytest.mark.parametrize("role", ["member", "outsider"])
def test_only_admins_see_the_preview(client, cast, public_league, role):
    season = _scheduled(public_league)
    client.force_login(cast[role])
    response = client.get(season.get_absolute_url())
    assert response.status_code == 200
    assert response.context["schedule"] is None
    assert "Planned schedule" not in response.content.decode()


def test_no_preview_once_started_or_for_open_tables(client, cast, league):
    open_season = make_season(league, status=Season.Status.PLANNED, start=datetime.date(2032, 1, 1))
    started = _scheduled(league)
    season_service.start_season(started, by=cast.owner)
    client.force_login(cast.owner)
    for season in (open_season, started):
        assert client.get(season.get_absolute_url()).context["schedule"] is None
