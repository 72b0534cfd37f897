"""Vacation days: taken ahead or started now, never in the past, capped by the
season, cancelled before they begin or ended early (the unused days come back), on the
player's page, with every refusal in words and nothing changed; the same request many
times at once takes one vacation. Time travel: ``now`` passed in, or the clock moved."""

import datetime
from datetime import UTC, timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from leagues import vacations
from leagues.models import Vacation
from leagues.services import LeagueError
from tests.factories import make_league, make_season, make_user
from tests.leagues.test_concurrency import at_once, logged_in

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2026, 12, 1, 10, 0, tzinfo=UTC)  # 12:00 in Riga
DAY = timedelta(days=1)


@pytest.fixture
def world():
    riga = make_user(time_zone="Europe/Riga")
    other = make_user()
    league = make_league(riga, members=[other])
    season = make_season(league, vacation_days=5)
    return riga, other, league, season


def test_taken_ahead_is_whole_days_of_the_players_calendar(world):
    riga, _other, _league, season = world
    vacation = vacations.take_ahead(
        riga, season, datetime.date(2026, 12, 3), datetime.date(2026, 12, 4), now=NOW
    )
    # Midnight to midnight in Riga (UTC+2): two days.
    assert vacation.starts_at == datetime.datetime(2026, 12, 2, 22, tzinfo=UTC)
    assert vacation.ends_at == datetime.datetime(2026, 12, 4, 22, tzinfo=UTC)
    assert vacation.days == 2
    assert vacations.days_left(riga, season) == 3


def test_started_now_is_n_times_24_hours(world):
    riga, _other, _league, season = world
    vacation = vacations.start_now(riga, season, 3, now=NOW)
    assert (vacation.starts_at, vacation.ends_at, vacation.days) == (NOW, NOW + 3 * DAY, 3)


def test_never_retroactive(world):
    riga, _other, _league, season = world
    with pytest.raises(LeagueError, match="cannot begin in the past"):
        vacations.take_ahead(
            riga, season, datetime.date(2026, 12, 1), datetime.date(2026, 12, 2), now=NOW
        )
    with pytest.raises(LeagueError, match="cannot begin in the past"):
        vacations.take_ahead(
            riga, season, datetime.date(2026, 11, 20), datetime.date(2026, 11, 21), now=NOW
        )
    assert not Vacation.objects.exists()


def test_over_the_cap_is_refused_with_the_days_left(world):
    riga, _other, _league, season = world
    vacations.start_now(riga, season, 4, now=NOW)
    with pytest.raises(LeagueError, match="1 vacation day in this season"):
        vacations.take_ahead(
            riga, season, datetime.date(2026, 12, 10), datetime.date(2026, 12, 11), now=NOW
        )
    assert Vacation.objects.count() == 1


def test_a_season_without_vacation_days_refuses(world):
    riga, _other, league, _season = world
    bare = make_season(
        league,
        name="Bare",
        status="planned",
        starts_on=datetime.date(2027, 6, 1),
        ends_on=datetime.date(2027, 7, 1),
    )
    with pytest.raises(LeagueError, match="gives no vacation days"):
        vacations.start_now(riga, bare, 1, now=NOW)


def test_overlapping_vacations_and_backwards_ranges_are_refused(world):
    riga, _other, _league, season = world
    vacations.take_ahead(
        riga, season, datetime.date(2026, 12, 3), datetime.date(2026, 12, 3), now=NOW
    )
    with pytest.raises(LeagueError, match="already have a vacation"):
        vacations.take_ahead(
            riga, season, datetime.date(2026, 12, 2), datetime.date(2026, 12, 3), now=NOW
        )
    with pytest.raises(LeagueError, match="cannot come before"):
        vacations.take_ahead(
            riga, season, datetime.date(2026, 12, 9), datetime.date(2026, 12, 8), now=NOW
        )


def test_cancelled_before_it_begins_gives_every_day_back(world):
    riga, _other, _league, season = world
    vacation = vacations.take_ahead(
        riga, season, datetime.date(2026, 12, 3), datetime.date(2026, 12, 5), now=NOW
    )
    assert vacations.days_left(riga, season) == 2
    assert vacations.stop(riga, season, vacation.pk, now=NOW) is None
    assert vacations.days_left(riga, season) == 5
    with pytest.raises(LeagueError, match="no longer there"):
        vacations.stop(riga, season, vacation.pk, now=NOW)


def test_ended_early_counts_every_begun_day(world):
    riga, _other, _league, season = world
    vacation = vacations.start_now(riga, season, 5, now=NOW)
    ended = vacations.stop(riga, season, vacation.pk, now=NOW + DAY + timedelta(hours=1))
    # 25 hours in: the second day has begun, so two are used and three come back.
    assert (ended.days, ended.ends_at) == (2, NOW + DAY + timedelta(hours=1))
    assert vacations.days_left(riga, season) == 3
    with pytest.raises(LeagueError, match="already over"):
        vacations.stop(riga, season, vacation.pk, now=NOW + 2 * DAY)


def test_nobody_stops_another_players_vacation(world):
    riga, other, _league, season = world
    vacation = vacations.start_now(riga, season, 2, now=NOW)
    with pytest.raises(LeagueError, match="no longer there"):
        vacations.stop(other, season, vacation.pk, now=NOW)
    assert Vacation.objects.get(pk=vacation.pk).ends_at == NOW + 2 * DAY


# --- The page ----------------------------------------------------------------------------


def url(season, name="leagues:vacation", **extra):
    return reverse(name, args=[season.league.slug, season.pk, *extra.values()])


@time_machine.travel(NOW, tick=False)
def test_the_page_takes_days_ahead_and_lists_them(world, client):
    riga, _other, _league, season = world
    client.force_login(riga)
    page = client.get(url(season))
    assert "You have 5 vacation days left in this season." in page.content.decode()
    response = client.post(url(season), {"first_day": "2026-12-03", "last_day": "2026-12-04"})
    assert response.status_code == 302
    html = client.get(url(season)).content.decode()
    assert "You have 3 vacation days left" in html and "Cancel" in html


@time_machine.travel(NOW, tick=False)
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"first_day": "yesterday", "last_day": "2026-12-04"}, "Enter a valid date"),
        ({"first_day": "2026-12-04"}, "This field is required"),
        ({"first_day": "2026-11-30", "last_day": "2026-12-04"}, "cannot begin in the past"),
        ({"first_day": "2026-12-05", "last_day": "2026-12-04"}, "cannot come before"),
        ({"first_day": "2026-12-03", "last_day": "2026-12-30"}, "more than you have left"),
        # The ends of the calendar: refused in words before any instant is made of them.
        ({"first_day": "2026-12-03", "last_day": "9999-12-31"}, "up to 365 days ahead"),
        ({"first_day": "9999-12-31", "last_day": "9999-12-31"}, "up to 365 days ahead"),
        ({"first_day": "9999-12-30", "last_day": "9999-12-31"}, "up to 365 days ahead"),
        ({"first_day": "0001-01-01", "last_day": "0001-01-01"}, "cannot begin in the past"),
        ({"first_day": "0001-01-01", "last_day": "9999-12-31"}, "cannot begin in the past"),
        ({"first_day": "2027-12-01", "last_day": "2027-12-02"}, "up to 365 days ahead"),
    ],
)
def test_bad_days_ahead_are_refused_in_words(world, client, data, message):
    riga, _other, _league, season = world
    client.force_login(riga)
    response = client.post(url(season), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Vacation.objects.exists()


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Pacific/Pago_Pago", "UTC"])
def test_the_ends_of_the_calendar_are_refused_in_every_time_zone(world, zone):
    """UTC+14 and UTC-11: the first and the last day of the calendar have no midnight
    before or after them in UTC, which the booking used to compute (OverflowError)."""
    riga, _other, _league, season = world
    riga.time_zone = zone
    for first, last, message in [
        (datetime.date.max, datetime.date.max, "up to 365 days ahead"),
        (datetime.date(2026, 12, 3), datetime.date.max, "up to 365 days ahead"),
        (datetime.date.min, datetime.date.min, "cannot begin in the past"),
        (datetime.date.min, datetime.date.max, "cannot begin in the past"),
    ]:
        with pytest.raises(LeagueError, match=message):
            vacations.take_ahead(riga, season, first, last, now=NOW)
    assert not Vacation.objects.exists()


def test_a_vacation_ends_at_most_a_year_ahead(world):
    riga, _other, _league, season = world
    today = datetime.date(2026, 12, 1)  # in Riga at NOW
    last = today + timedelta(days=vacations.AHEAD_DAYS)
    with pytest.raises(LeagueError, match="up to 365 days ahead, its last day included"):
        vacations.take_ahead(riga, season, last, last + DAY, now=NOW)
    vacation = vacations.take_ahead(riga, season, last, last, now=NOW)
    assert vacation.days == 1


@time_machine.travel(NOW, tick=False)
def test_the_form_says_how_far_ahead(world, client):
    riga, _other, _league, season = world
    client.force_login(riga)
    assert "up to a year ahead (365 days)" in client.get(url(season)).content.decode()
    assert vacations.AHEAD_DAYS == 365  # the form's help text names the number


@time_machine.travel(NOW, tick=False)
@pytest.mark.parametrize(
    ("days", "message"),
    [
        ("", "This field is required"),
        ("two", "whole number"),
        ("0", "greater than or equal"),
        ("61", "less than or equal"),
        ("6", "more than you have left"),
    ],
)
def test_bad_start_now_is_refused_in_words(world, client, days, message):
    riga, _other, _league, season = world
    client.force_login(riga)
    response = client.post(url(season, "leagues:vacation_now"), {"days": days}, follow=True)
    assert message in response.content.decode()
    assert not Vacation.objects.exists()


@time_machine.travel(NOW, tick=False)
def test_start_now_and_end_it_from_the_page(world, client):
    riga, _other, _league, season = world
    client.force_login(riga)
    response = client.post(url(season, "leagues:vacation_now"), {"days": "2"}, follow=True)
    assert "Your vacation has begun" in response.content.decode()
    vacation = Vacation.objects.get()
    assert "End now" in response.content.decode()
    with time_machine.travel(NOW + timedelta(hours=3), tick=False):
        stop = url(season, "leagues:vacation_stop", vacation_pk=vacation.pk)
        response = client.post(stop, follow=True)
    assert "Your vacation has ended" in response.content.decode()
    assert Vacation.objects.get().days == 1


def test_the_season_page_names_the_policy_and_links_the_page(world, client):
    riga, _other, _league, season = world
    season.quiet_pause = True
    season.save()
    client.force_login(riga)
    html = client.get(season.get_absolute_url()).content.decode()
    assert "Each player has 5 vacation days in this season." in html
    assert "pauses during the quiet hours of the player to move" in html
    assert url(season) in html


@pytest.mark.django_db(transaction=True)
def test_the_same_tap_many_times_at_once_takes_one_vacation():
    riga = make_user()
    league = make_league(riga)
    season = make_season(league, vacation_days=3)
    target = url(season, "leagues:vacation_now")
    statuses, errors = at_once(
        [(logged_in(riga), lambda c: c.post(target, {"days": "2"})) for _ in range(6)]
    )
    assert errors == [] and statuses == [302] * 6
    assert Vacation.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_booking_many_times_at_once_takes_one_vacation():
    riga = make_user()
    league = make_league(riga)
    season = make_season(league, vacation_days=9)
    target = url(season)
    soon = datetime.date.today() + timedelta(days=10)
    data = {"first_day": soon.isoformat(), "last_day": (soon + DAY).isoformat()}
    statuses, errors = at_once(
        [(logged_in(riga), lambda c: c.post(target, data)) for _ in range(6)]
    )
    assert errors == [] and sorted(statuses) == [200] * 5 + [302]
    assert Vacation.objects.count() == 1


def test_anonymous_goes_to_log_in_and_outsiders_see_nothing(world):
    _riga, _other, _league, season = world
    assert Client().get(url(season)).status_code == 302
    outsider = Client()
    outsider.force_login(make_user())
    assert outsider.get(url(season)).status_code == 404
    assert outsider.post(url(season, "leagues:vacation_now"), {"days": "1"}).status_code == 404
    assert not Vacation.objects.exists()
