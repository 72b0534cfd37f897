"""Hostile input to the forms whose limits are new: vacation days taken ahead (any date
of the calendar, its ends, and junk), quiet hours (seconds, fractions, impossible times,
windows of almost a day) and names (every invisible format and control character).
Every answer is below 500, and what is stored keeps the rules: no vacation in the past
or more than ``AHEAD_DAYS`` ahead, quiet hours in whole minutes of at most 16 hours, no
name with a control or format character. Then the worst of each many times at once, on
real connections (SQLite by default, PostgreSQL in the stack lane): refused in words
every time, never a 500, nothing stored."""

import datetime
import itertools
import unicodedata

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues import vacations
from leagues.models import League, User, Vacation
from leagues.quiet import MAX_QUIET, wall_length
from tests.factories import make_league, make_season, make_user
from tests.leagues.test_concurrency import at_once, logged_in

EXAMPLES = 40
HYPOTHESIS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

junk = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", " ", "\x00", "-1", "NaN", "null", "9" * 400, "<script>x</script>"]),
)
day_text = st.one_of(
    st.dates().map(datetime.date.isoformat),  # 0001-01-01 to 9999-12-31
    st.sampled_from(
        [
            "9999-12-31",
            "0001-01-01",
            "10000-01-01",
            "-0001-01-01",
            "0000-00-00",
            "2026-02-30",
            "2026-13-01",
            "+2026-01-01",
            "9999-12-31T23:59:59",
        ]
    ),
    junk,
)
time_text = st.one_of(
    st.times().map(datetime.time.isoformat),  # with seconds and fractions
    st.times().map(lambda t: t.strftime("%H:%M")),
    st.sampled_from(
        ["00:00:01", "00:00", "23:59:59.999999", "24:00", "23:59:60", "-1:00", "99:99", "8"]
    ),
    junk,
)
# Every kind of character a name could smuggle in, format (Cf) and control (Cc) first.
name_text = st.one_of(
    st.text(st.characters(categories=["Cf", "Cc", "Zs", "Zl", "Zp", "Ll"]), max_size=30),
    st.text(max_size=40),
    st.sampled_from(["\u202eexe.txt", "al\u200bice", "\ufeffBob", "a\u2066b\u2069", "x\u00ad"]),
)


def _clean(value):
    return not any(unicodedata.category(char) in {"Cc", "Cf"} for char in value)


@pytest.fixture
def member():
    player = make_user(time_zone="Pacific/Kiritimati")
    league = make_league(make_user(), members=[player])
    return player, make_season(league, vacation_days=60)


@pytest.mark.django_db
@HYPOTHESIS
@given(first=day_text, last=day_text)
def test_vacation_days_with_hostile_dates(member, first, last):
    player, season = member
    client = Client()
    client.force_login(player)
    url = reverse("leagues:vacation", args=[season.league.slug, season.pk])
    response = client.post(url, {"first_day": first, "last_day": last})
    assert response.status_code < 500
    now = timezone.now()
    for vacation in Vacation.objects.filter(user=player):
        assert vacation.starts_at > now - datetime.timedelta(days=1)
        assert vacation.ends_at <= now + datetime.timedelta(days=vacations.AHEAD_DAYS + 2)


@pytest.mark.django_db
@HYPOTHESIS
@given(start=time_text, end=time_text)
def test_quiet_hours_with_hostile_times(start, end):
    player = make_user()
    client = Client()
    client.force_login(player)
    data = {"time_zone": "Europe/Riga", "quiet_start": start, "quiet_end": end}
    response = client.post(reverse("notifications:settings"), data)
    assert response.status_code < 500
    player.refresh_from_db()
    if player.quiet_start is not None:
        for wall in (player.quiet_start, player.quiet_end):
            assert (wall.second, wall.microsecond) == (0, 0)
        assert wall_length(player.quiet_start, player.quiet_end) <= MAX_QUIET


_newcomers = itertools.count(1)


@pytest.mark.django_db
@HYPOTHESIS
@given(display_name=name_text, league_name=name_text)
def test_names_with_hostile_characters(settings, display_name, league_name):
    settings.RATE_LIMITS = {"signup": "100000/h"}
    n = next(_newcomers)
    data = {
        "username": f"newcomer{n}",  # a valid one: the display name is what is tried
        "display_name": display_name,
        "email": f"newcomer{n}@example.com",
        "password1": "Carousel-is-fun-99",
        "password2": "Carousel-is-fun-99",
    }
    assert Client().post(reverse("signup"), data).status_code < 500
    client = Client()
    client.force_login(make_user())
    response = client.post(reverse("leagues:create"), {"name": league_name, "visibility": "invite"})
    assert response.status_code < 500
    for user in User.objects.all():
        assert _clean(user.username) and _clean(user.display_name), user.pk
    for league in League.objects.all():
        assert _clean(league.name), league.pk


@pytest.mark.django_db(transaction=True)
def test_the_worst_of_each_form_many_at_once(settings):
    settings.RATE_LIMITS = {"signup": "100000/h"}
    player = make_user(time_zone="Pacific/Kiritimati")
    league = make_league(make_user(), members=[player])
    season = make_season(league, vacation_days=60)
    vacation = reverse("leagues:vacation", args=[league.slug, season.pk])
    ends = [
        ("9999-12-31", "9999-12-31"),
        ("0001-01-01", "0001-01-01"),
        ("0001-01-01", "9999-12-31"),
    ]
    quiet = [("00:00:01", "00:00"), ("08:01", "08:00"), ("12:00", "11:59:59.999999")]

    def signup(n, char):
        data = {
            "username": f"new{n}",
            "display_name": f"Name{char}{n}",
            "email": f"new{n}@example.com",
            "password1": "Carousel-is-fun-99",
            "password2": "Carousel-is-fun-99",
        }
        return lambda c: c.post(reverse("signup"), data)

    create = reverse("leagues:create")

    requests = [
        (logged_in(player), lambda c, d=d: c.post(vacation, {"first_day": d[0], "last_day": d[1]}))
        for d in ends * 3
    ]
    requests += [
        (
            logged_in(player),
            lambda c, q=q: c.post(
                reverse("notifications:settings"),
                {"time_zone": "Europe/Riga", "quiet_start": q[0], "quiet_end": q[1]},
            ),
        )
        for q in quiet * 3
    ]
    requests += [
        (Client(), signup(n, char)) for n, char in enumerate(["\u202e", "\u200b", "\ufeff"] * 3)
    ]
    requests += [
        (
            logged_in(player),
            lambda c, char=char: c.post(create, {"name": f"Club{char}", "visibility": "invite"}),
        )
        for char in ["\u202e", "\u200b", "\ufeff"] * 2
    ]
    statuses, errors = at_once(requests)
    assert errors == []
    assert statuses == [200] * len(requests)
    assert not Vacation.objects.exists()
    player.refresh_from_db()
    assert (player.quiet_start, player.quiet_end) == (None, None)
    assert not User.objects.filter(username__startswith="new").exists()
    assert list(League.objects.all()) == [league]
