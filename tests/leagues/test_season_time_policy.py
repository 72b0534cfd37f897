"""The season's time policy: the clock pausing in quiet hours and the vacation
days, off by default, set by an admin on the season form (a member may not), refused
in words when out of range."""

import pytest
from django.urls import reverse

from .test_seasons import create

pytestmark = pytest.mark.django_db


def test_off_unless_the_admin_sets_it(client, cast, league):
    client.force_login(cast["admin"])
    form = client.get(reverse("leagues:season_create", args=[league.slug])).content.decode()
    assert 'name="quiet_pause"' in form and 'name="vacation_days"' in form
    create(client, league)
    season = league.seasons.get()
    assert (season.quiet_pause, season.vacation_days) == (False, 0)
    page = client.get(season.get_absolute_url()).content.decode()
    assert 'id="season-quiet-pause"' not in page and 'id="season-vacation"' not in page


def test_an_admin_sets_the_policy(client, cast, league):
    client.force_login(cast["admin"])
    create(client, league, quiet_pause="on", vacation_days="7")
    season = league.seasons.get()
    assert (season.quiet_pause, season.vacation_days) == (True, 7)


@pytest.mark.parametrize(
    ("days", "message"),
    [("-1", "greater than or equal"), ("61", "less than or equal"), ("lots", "whole number")],
)
def test_vacation_days_out_of_range_are_refused(client, cast, league, days, message):
    client.force_login(cast["admin"])
    response = create(client, league, vacation_days=days)
    assert response.status_code == 200 and message in response.content.decode()
    assert not league.seasons.exists()


def test_a_member_cannot_set_it(client, cast, league):
    client.force_login(cast["member"])
    response = create(client, league, vacation_days="7")
    assert response.status_code == 403
    assert not league.seasons.exists()
