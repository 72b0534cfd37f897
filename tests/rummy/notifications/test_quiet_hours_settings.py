"""Quiet hours on the settings page, beside the time zone: two time inputs; bad input
(unparseable, only one of the two, equal, seconds, longer than 16 hours) gets a clear
message and saves nothing."""

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from leagues.models import User
from rummy.models import NotificationPrefs
from tests.factories import make_user
from tests.leagues.test_concurrency import at_once, logged_in

pytestmark = pytest.mark.django_db

URL = "notifications:settings"


def post(client, **fields):
    return client.post(reverse(URL), {"your_move": "on", "time_zone": "Europe/Riga", **fields})


def fresh(user):
    return User.objects.get(pk=user.pk)


def test_the_page_has_two_time_inputs_beside_the_time_zone(client):
    player = make_user(
        time_zone="Europe/Riga", quiet_start=datetime.time(22, 30), quiet_end=datetime.time(7)
    )
    client.force_login(player)
    html = client.get(reverse(URL)).content.decode()
    assert 'type="time" name="quiet_start" value="22:30"' in html
    assert 'type="time" name="quiet_end" value="07:00"' in html
    assert html.index('name="time_zone"') < html.index('name="quiet_start"')


def test_quiet_hours_are_saved_and_work_in_the_players_zone(client):
    player = make_user()
    client.force_login(player)
    response = post(client, quiet_start="22:00", quiet_end="08:00")
    assert response.status_code == 302
    saved = fresh(player)
    assert (saved.quiet_start, saved.quiet_end) == (datetime.time(22), datetime.time(8))
    riga_midnight = datetime.datetime(2026, 12, 2, 0, 0, tzinfo=saved.zone)
    assert saved.quiet_until(riga_midnight) == riga_midnight.replace(hour=8)


def test_both_empty_clears_them(client):
    player = make_user(quiet_start=datetime.time(22), quiet_end=datetime.time(8))
    client.force_login(player)
    assert post(client, quiet_start="", quiet_end="").status_code == 302
    assert (fresh(player).quiet_start, fresh(player).quiet_end) == (None, None)


def test_a_post_without_the_fields_keeps_them(client):
    player = make_user(quiet_start=datetime.time(22), quiet_end=datetime.time(8))
    client.force_login(player)
    assert post(client).status_code == 302
    assert fresh(player).quiet_start == datetime.time(22)


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"quiet_start": "late", "quiet_end": "08:00"}, "quiet_start", "Enter a time such as"),
        ({"quiet_start": "22:00", "quiet_end": "25:00"}, "quiet_end", "Enter a time such as"),
        ({"quiet_start": "22:00", "quiet_end": "8 o'clock"}, "quiet_end", "Enter a time such as"),
        ({"quiet_start": "22:00", "quiet_end": ""}, "quiet_end", "Give both the start and"),
        ({"quiet_start": "", "quiet_end": "08:00"}, "quiet_start", "Give both the start and"),
        ({"quiet_start": "22:00"}, "quiet_end", "Give both the start and"),
        ({"quiet_start": "08:00", "quiet_end": "08:00"}, "quiet_end", "end at a different time"),
        ({"quiet_start": "08:00", "quiet_end": "08:00:00"}, "quiet_end", "end at a different"),
        # Whole minutes (a window of 23:59:59 stretched a one-hour turn to 60 days).
        ({"quiet_start": "00:00:01", "quiet_end": "00:00"}, "quiet_start", "whole minutes"),
        ({"quiet_start": "22:00", "quiet_end": "06:00:30"}, "quiet_end", "whole minutes"),
        ({"quiet_start": "22:00:00.5", "quiet_end": "06:00"}, "quiet_start", "whole minutes"),
        # At most 16 hours: at least 8 of the day awake.
        ({"quiet_start": "08:01", "quiet_end": "08:00"}, "quiet_end", "at most 16 hours"),
        ({"quiet_start": "22:00", "quiet_end": "14:01"}, "quiet_end", "at most 16 hours"),
        ({"quiet_start": "00:00", "quiet_end": "23:59"}, "quiet_end", "at most 16 hours"),
        ({"quiet_start": "06:00", "quiet_end": "22:01"}, "quiet_end", "at most 16 hours"),
    ],
)
def test_bad_quiet_hours_are_refused_in_words_and_nothing_is_saved(client, fields, field, message):
    player = make_user(time_zone="Europe/Tallinn")
    client.force_login(player)
    response = post(client, **fields)
    assert response.status_code == 200
    form = response.context["locale_form"]
    assert any(message in error for error in form.errors[field])
    assert message in response.content.decode()
    saved = fresh(player)
    # Nothing on the page is saved: not the quiet hours, not the zone or the emails.
    assert (saved.quiet_start, saved.quiet_end, saved.time_zone) == (None, None, "Europe/Tallinn")
    assert not hasattr(saved, "notification_prefs") or not saved.notification_prefs.your_move


@pytest.mark.parametrize(
    ("start", "end"), [("22:00", "14:00"), ("06:00", "22:00"), ("12:00", "12:01")]
)
def test_a_window_of_up_to_16_hours_is_saved(client, start, end):
    player = make_user()
    client.force_login(player)
    assert post(client, quiet_start=start, quiet_end=end).status_code == 302
    assert fresh(player).quiet_start == datetime.time.fromisoformat(start)


def test_the_form_says_how_long_at_most(client):
    client.force_login(make_user())
    assert "lasts at most 16 hours" in client.get(reverse(URL)).content.decode()


def test_the_database_refuses_half_a_window_or_an_empty_one():
    player = make_user()
    halves = ((datetime.time(22), None), (None, datetime.time(8)), (datetime.time(8),) * 2)
    for start, end in halves:
        with pytest.raises(IntegrityError), transaction.atomic():
            User.objects.filter(pk=player.pk).update(quiet_start=start, quiet_end=end)


@pytest.mark.django_db(transaction=True)
def test_the_same_post_many_times_at_once_never_fails():
    """Also for a player who never saved their email choices: every save would insert
    that row (it was a 500 before the settings page used update_or_create)."""
    player = make_user()
    requests = [
        (logged_in(player), lambda c: post(c, quiet_start="23:00", quiet_end="07:30"))
        for _ in range(6)
    ]
    statuses, errors = at_once(requests)
    assert errors == []
    assert statuses == [302] * 6
    assert fresh(player).quiet_start == datetime.time(23)
    assert NotificationPrefs.objects.filter(user=player).count() == 1
