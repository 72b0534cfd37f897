import pytest
from django.urls import reverse

from leagues.models import AdminAction, Invite, ScheduledRound, Season

from .conftest import make_game, make_person, make_season


@pytest.fixture
def staff_client(client, cast):
    boss = make_person("boss", is_staff=True, is_superuser=True)
    client.force_login(boss)
    return client


@pytest.mark.parametrize("model", ["user", "league", "membership", "invite", "season"])
def test_changelists_and_forms_load(staff_client, league, season, model):
    Invite.objects.create(league=league)
    assert staff_client.get(reverse(f"admin:leagues_{model}_changelist")).status_code == 200
    assert (
        staff_client.get(reverse(f"admin:leagues_{model}_changelist") + "?q=a").status_code == 200
    )
    assert staff_client.get(reverse(f"admin:leagues_{model}_add")).status_code == 200


def test_change_pages_load(staff_client, cast, league, season):
    for obj in [
        cast["owner"],
        league,
        league.memberships.first(),
        season,
        Invite.objects.create(league=league),
    ]:
        url = reverse(f"admin:leagues_{obj._meta.model_name}_change", args=[obj.pk])
        assert staff_client.get(url).status_code == 200


def test_close_action(staff_client, cast, league, season):
    planned = make_season(
        league, status=Season.Status.PLANNED, start=season.ends_on.replace(year=2030)
    )
    make_game(league, season, [(cast["member"], 150, 1, True)])
    response = staff_client.post(
        reverse("admin:leagues_season_changelist"),
        {"action": "close_seasons", "_selected_action": [season.pk, planned.pk]},
        follow=True,
    )
    page = response.content.decode()
    assert "1 season closed." in page and "has not started" in page
    season.refresh_from_db()
    planned.refresh_from_db()
    assert season.status == Season.Status.CLOSED and list(season.champions.all()) == [
        cast["member"]
    ]
    assert planned.status == Season.Status.PLANNED


def test_start_action_stores_a_scheduled_seasons_plan(staff_client, cast, league):
    scheduled = make_season(league, status=Season.Status.PLANNED)
    Season.objects.filter(pk=scheduled.pk).update(
        format=Season.Format.SCHEDULED, games_each=2, table_size=3
    )
    response = staff_client.post(
        reverse("admin:leagues_season_changelist"),
        {"action": "start_seasons", "_selected_action": [scheduled.pk]},
        follow=True,
    )
    assert "1 season started." in response.content.decode()
    scheduled.refresh_from_db()
    assert scheduled.status == Season.Status.ACTIVE
    assert ScheduledRound.objects.filter(season=scheduled).exists()
    assert AdminAction.objects.filter(action=AdminAction.Action.SEASON_STARTED).exists()
    # Started again: refused in words, nothing changes.
    again = staff_client.post(
        reverse("admin:leagues_season_changelist"),
        {"action": "start_seasons", "_selected_action": [scheduled.pk]},
        follow=True,
    )
    assert "already started" in again.content.decode()


def test_the_status_is_not_edited_in_the_admin(staff_client, league, season):
    url = reverse("admin:leagues_season_change", args=[season.pk])
    assert 'name="status"' not in staff_client.get(url).content.decode()


def test_admin_season_form_refuses_overlap(staff_client, league, season):
    response = staff_client.post(
        reverse("admin:leagues_season_add"),
        {
            "league": league.pk,
            "name": "Clash",
            "starts_on": season.starts_on,
            "ends_on": season.ends_on,
            "status": "planned",
            "target_score": 150,
            "knock_limit": 5,
            "turn_seconds": 86400,
        },
    )
    assert response.status_code == 200
    assert "overlap" in response.content.decode()
    assert league.seasons.count() == 1
