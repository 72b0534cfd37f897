"""A player's language and time zone (first-hour issue): stored at sign-up (the
switcher's language, else the browser's; the zone the browser reports), at log-in and
by a small report from the page; changed on the settings page; active for their pages
(config.middleware.UserLocale). Junk is refused or ignored, never a 500."""

import datetime
import zoneinfo

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone, translation

from config.middleware import UserLocale
from leagues.models import User, reported_time_zone
from tests.factories import make_user

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME
SIGNUP = {
    "username": "ilze",
    "display_name": "Ilze",
    "email": "ilze@example.com",
    "password1": "Carousel-is-fun-99",
    "password2": "Carousel-is-fun-99",
}
JUNK = ["Mars/Olympus", "", "   ", "europe/riga", "../../etc/passwd", "x" * 500, "UTC\x00"]


# --- The field ------------------------------------------------------------------------


@pytest.mark.parametrize("junk", [*(j for j in JUNK if j.strip()), "Europe/Riga\n"])
def test_the_time_zone_field_rejects_junk(junk):
    # Not saved: PostgreSQL itself refuses a NUL or an overlong value, so junk must be
    # stopped by validation before it gets there (the forms validate first).
    user = get_user_model()(username="ilze", email="ilze@example.com", time_zone=junk)
    user.set_password("Carousel-is-fun-99")
    with pytest.raises(ValidationError) as error:
        user.full_clean()
    assert "time_zone" in error.value.message_dict
    assert user.zone == timezone.get_default_timezone()  # and it is never used


def test_the_time_zone_field_takes_an_iana_name():
    user = make_user(time_zone="Europe/Tallinn", language="et")
    user.full_clean()
    assert user.zone == zoneinfo.ZoneInfo("Europe/Tallinn")
    assert user.language_code == "et"


@pytest.mark.parametrize("junk", [*JUNK, None, 42, ["Europe/Riga"]])
def test_a_reported_zone_that_is_junk_is_ignored(junk):
    assert reported_time_zone(junk) == ""


def test_a_reported_zone_is_trimmed():
    assert reported_time_zone(" Europe/Riga\n") == "Europe/Riga"


# --- Sign-up and log-in ---------------------------------------------------------------


def test_signup_stores_the_switchers_language_and_the_browsers_zone(client):
    client.cookies[COOKIE] = "lv"
    response = client.post(
        reverse("signup"), {**SIGNUP, "time_zone": "Europe/Riga"}, HTTP_ACCEPT_LANGUAGE="et"
    )
    assert response.status_code == 302
    user = User.objects.get(username="ilze")
    assert (user.language, user.time_zone) == ("lv", "Europe/Riga")


def test_signup_without_a_switch_stores_the_browsers_language(client):
    client.post(reverse("signup"), SIGNUP, HTTP_ACCEPT_LANGUAGE="et-EE,et;q=0.9")
    assert User.objects.get(username="ilze").language == "et"


@pytest.mark.parametrize("junk", JUNK)
def test_signup_with_a_junk_zone_signs_up_without_one(client, junk):
    response = client.post(reverse("signup"), {**SIGNUP, "time_zone": junk})
    assert response.status_code == 302
    assert User.objects.get(username="ilze").time_zone == ""


def test_signup_pages_carry_the_time_zone_field_and_its_script(client):
    for name in ("signup", "login"):
        html = client.get(reverse(name)).content.decode()
        assert '<input type="hidden" name="time_zone" data-time-zone>' in html
        assert 'js/time-zone.js" defer' in html


def test_login_stores_the_zone_when_none_is_stored_and_never_overwrites_one(client):
    user = make_user(password="pw-for-tests-123")
    client.post(
        reverse("login"),
        {"username": user.username, "password": "pw-for-tests-123", "time_zone": "Asia/Tokyo"},
    )
    user.refresh_from_db()
    assert user.time_zone == "Asia/Tokyo"
    client.post(reverse("logout"))
    client.post(
        reverse("login"),
        {"username": user.username, "password": "pw-for-tests-123", "time_zone": "Europe/Riga"},
    )
    user.refresh_from_db()
    assert user.time_zone == "Asia/Tokyo"


def test_login_stores_the_switchers_language(client):
    user = make_user(password="pw-for-tests-123", language="en")
    client.cookies[COOKIE] = "et"
    client.post(reverse("login"), {"username": user.username, "password": "pw-for-tests-123"})
    user.refresh_from_db()
    assert user.language == "et"


# --- The page's report ----------------------------------------------------------------


def test_the_page_asks_for_a_report_only_while_no_zone_is_stored(client):
    user = make_user()
    client.force_login(user)
    url = reverse("notifications:time_zone")
    assert f'data-time-zone-report="{url}"' in client.get(reverse("home")).content.decode()
    assert client.post(url, {"time_zone": "Europe/Riga"}).status_code == 204
    user.refresh_from_db()
    assert user.time_zone == "Europe/Riga"
    assert "data-time-zone-report" not in client.get(reverse("home")).content.decode()
    # A later report (another device, a zone chosen in the settings) changes nothing.
    assert client.post(url, {"time_zone": "Asia/Tokyo"}).status_code == 204
    user.refresh_from_db()
    assert user.time_zone == "Europe/Riga"


@pytest.mark.parametrize("junk", JUNK)
def test_a_junk_report_is_refused_and_changes_nothing(client, junk):
    user = make_user()
    client.force_login(user)
    response = client.post(reverse("notifications:time_zone"), {"time_zone": junk})
    assert response.status_code == 400
    assert b"not a time zone" in response.content
    user.refresh_from_db()
    assert user.time_zone == ""


def test_the_report_needs_a_post_from_a_logged_in_player(client):
    url = reverse("notifications:time_zone")
    assert client.post(url, {"time_zone": "Europe/Riga"}).status_code == 302
    client.force_login(make_user())
    assert client.get(url).status_code == 405


# --- The middleware -------------------------------------------------------------------


def through_middleware(user, cookies=None):
    """What a view sees (zone, language) behind UserLocale, and the response."""
    seen = {}

    def view(request):
        seen["zone"] = timezone.get_current_timezone_name()
        seen["language"] = translation.get_language()
        return HttpResponse("ok")

    request = RequestFactory().get("/")
    request.COOKIES.update({settings.SESSION_COOKIE_NAME: "a-session"}, **(cookies or {}))
    request.user = user
    translation.activate("en")  # what LocaleMiddleware picked
    response = UserLocale(view)(request)
    return seen, response


def test_the_middleware_activates_the_players_zone_for_the_request_only():
    seen, _response = through_middleware(make_user(time_zone="Europe/Riga"))
    assert seen["zone"] == "Europe/Riga"
    assert timezone.get_current_timezone_name() == settings.TIME_ZONE  # off again after


def test_the_middleware_leaves_utc_without_a_stored_zone_and_for_strangers():
    from django.contrib.auth.models import AnonymousUser

    assert through_middleware(make_user())[0]["zone"] == "UTC"
    assert through_middleware(AnonymousUser())[0]["zone"] == "UTC"


def test_the_stored_language_serves_a_browser_without_a_cookie_and_sets_it():
    seen, response = through_middleware(make_user(language="lv"))
    assert seen["language"] == "lv"
    assert response.cookies[COOKIE].value == "lv"  # so that the page's sockets agree


def test_a_language_cookie_wins_over_the_stored_language():
    user = make_user(language="lv")
    seen, response = through_middleware(user, {COOKIE: "en"})
    assert seen["language"] == "en"
    assert COOKIE not in response.cookies
    user.refresh_from_db()
    assert user.language == "lv"


def test_a_cookie_picked_before_any_language_was_stored_is_stored():
    user = make_user()
    through_middleware(user, {COOKIE: "et"})
    user.refresh_from_db()
    assert user.language == "et"


def test_the_language_switcher_stores_the_players_language(client):
    user = make_user(language="en")
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "lv", "next": "/"})
    user.refresh_from_db()
    assert user.language == "lv"


def test_a_page_shows_times_in_the_players_zone(client):
    from leagues.models import Invite
    from tests.factories import make_league

    owner = make_user(time_zone="Asia/Tokyo")
    league = make_league(owner)
    Invite.objects.create(
        league=league,
        created_by=owner,
        expires_at=datetime.datetime(2027, 1, 5, 12, 0, tzinfo=datetime.UTC),
    )
    client.force_login(owner)
    html = client.get(reverse("leagues:invites", args=[league.slug])).content.decode()
    assert "Jan. 5, 2027, 9 p.m. JST" in html  # 12:00 UTC is 21:00 in Tokyo


# --- The settings page ----------------------------------------------------------------


def test_settings_page_shows_and_changes_language_and_zone(client):
    user = make_user(email_verified=True, time_zone="Europe/Riga")
    client.force_login(user)
    html = client.get(reverse("notifications:settings")).content.decode()
    assert '<option value="Europe/Riga" selected>Europe/Riga</option>' in html
    assert 'name="language"' in html and "data-device-time-zone" in html
    response = client.post(
        reverse("notifications:settings"),
        {"your_move": "on", "language": "et", "time_zone": "America/New_York"},
    )
    assert response.status_code == 302
    assert response.cookies[COOKIE].value == "et"  # this browser follows at once
    user.refresh_from_db()
    assert (user.language, user.time_zone) == ("et", "America/New_York")


@pytest.mark.parametrize(
    "data", [{"time_zone": "Mars/Olympus"}, {"language": "de"}, {"time_zone": "x" * 500}]
)
def test_settings_page_refuses_junk_and_changes_nothing(client, data):
    user = make_user(email_verified=True, time_zone="Europe/Riga", language="lv")
    client.force_login(user)
    response = client.post(reverse("notifications:settings"), {"your_move": "on", **data})
    assert response.status_code == 200
    assert b"errorlist" in response.content
    user.refresh_from_db()
    assert (user.language, user.time_zone) == ("lv", "Europe/Riga")
