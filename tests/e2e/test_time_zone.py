"""The browser's time zone reaches the player's account (first-hour issue, "Being told,
in the player's own language"): the hidden field of the sign-up and log-in forms, filled
by static/js/time-zone.js, and the page's own report for a player with none stored;
the settings page shows it and lets the player change it. Chromium's context is put in
a zone (Playwright's ``timezone_id``) and a language (``locale``), as a phone would be."""

import time

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.conftest import PHONE, WAIT_MS
from tests.e2e.helpers import SIGN_UP_PASSWORD, shot

pytestmark = pytest.mark.e2e


STORED = """
from leagues.models import User
user = User.objects.get(username=sys.argv[1])
print(user.language or "-", user.time_zone or "-")
"""

MAKE_PLAYER = """
from leagues.models import User
User.objects.create_user(sys.argv[1], sys.argv[1] + "@example.com", sys.argv[2],
                         display_name="Kaito", email_verified=True)
"""

FORGET_ZONE = """
from leagues.models import User
User.objects.filter(username=sys.argv[1]).update(time_zone="")
"""


@pytest.fixture
def device(browser, server):
    """``device(zone, locale)`` -> a phone-sized page whose browser lives in ``zone``."""
    contexts = []

    def make(zone, locale):
        context = browser.new_context(base_url=server, locale=locale, timezone_id=zone, **PHONE)
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def stored(django_snippet, username):
    return tuple(django_snippet(STORED, username).split())


def test_sign_up_keeps_the_browsers_zone_and_language(device, django_snippet):
    run = str(int(time.time() * 1000))[-8:]
    username = f"ilze{run}"
    page = device("Europe/Riga", "lv-LV")
    page.goto("/accounts/signup/")
    expect(page.locator("input[name=time_zone]")).to_have_value("Europe/Riga")
    page.fill("#id_username", username)
    page.fill("#id_display_name", "Ilze")
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", SIGN_UP_PASSWORD)
    page.fill("#id_password2", SIGN_UP_PASSWORD)
    page.locator("form.panel button[type=submit]").click()
    page.wait_for_url("**/accounts/login/**")
    assert stored(django_snippet, username) == ("lv", "Europe/Riga")


def test_log_in_and_the_page_report_store_the_zone_and_settings_change_it(device, django_snippet):
    run = str(int(time.time() * 1000))[-8:]
    username = f"kaito{run}"
    django_snippet(MAKE_PLAYER, username, SIGN_UP_PASSWORD)
    page = device("Asia/Tokyo", "en-US")
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", SIGN_UP_PASSWORD)
    page.locator("form.panel button[type=submit]").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    assert stored(django_snippet, username)[1] == "Asia/Tokyo"

    # A player with no zone (an account from before): any page reports it.
    django_snippet(FORGET_ZONE, username)
    with page.expect_response(lambda r: r.url.endswith("/notifications/time-zone/")) as answer:
        page.goto("/")
    assert answer.value.status == 204
    assert stored(django_snippet, username)[1] == "Asia/Tokyo"

    # The settings page shows the zone (and the device's), and changes it and the language.
    page.goto("/notifications/")
    expect(page.locator("#id_time_zone")).to_have_value("Asia/Tokyo")
    expect(page.locator("[data-device-time-zone]")).to_have_text("Asia/Tokyo")
    shot(page, "time-zone-settings", full_page=True)
    page.select_option("#id_time_zone", "Europe/Tallinn")
    page.select_option("#id_language", "et")
    page.locator("form.panel button[type=submit]").last.click()
    page.wait_for_load_state()
    expect(page.locator("html")).to_have_attribute("lang", "et")
    assert stored(django_snippet, username) == ("et", "Europe/Tallinn")
    shot(page, "time-zone-settings-et", full_page=True)
