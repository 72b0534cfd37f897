"""The season's "hints allowed" house setting: off by default, set on the
season form, shown on the season page, and what a game of the season follows."""

import pytest
from django.urls import reverse

from rummy import play

from .test_seasons import create

pytestmark = pytest.mark.django_db


def test_hints_are_off_unless_the_admin_ticks_the_box(client, cast, league):
    client.force_login(cast["admin"])
    form = client.get(reverse("leagues:season_create", args=[league.slug])).content.decode()
    assert 'name="hints_allowed"' in form and "Hints allowed" in form
    create(client, league)
    season = league.seasons.get()
    assert season.hints_allowed is False
    page = client.get(season.get_absolute_url()).content.decode()
    assert 'id="season-hints"' not in page


def test_an_admin_allows_hints_for_a_season(client, cast, league):
    client.force_login(cast["admin"])
    create(client, league, hints_allowed="on")
    season = league.seasons.get()
    assert season.hints_allowed is True
    page = client.get(season.get_absolute_url()).content.decode()
    assert "Hints are allowed in this season’s games." in page


def test_a_game_follows_its_seasons_setting(client, cast, league):
    client.force_login(cast["admin"])
    create(client, league, hints_allowed="on", starts_on="2020-01-01", ends_on="2099-01-01")
    season = league.seasons.get()
    client.post(reverse("leagues:season_start", args=[league.slug, season.pk]))
    game = play.open_table(league, cast["alice"], 2)
    play.take_seat(game.pk, cast["bob"])
    game.refresh_from_db()
    assert game.season == season and play.hints_allowed(game)
