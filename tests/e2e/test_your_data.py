"""A player's data on a 360x740 phone: the privacy page in en, lv and et fits the
screen and is reached from the footer; from the settings a player downloads their data
and deletes their account with their password, and is logged out."""

import json
from pathlib import Path

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.conftest import log_in
from tests.e2e.helpers import PASSWORD, one_player, shot

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("language", ["en", "lv", "et"])
def test_the_privacy_page_fits_a_phone_and_the_footer_links_it(phone, server, language):
    page = phone(f"privacy-{language}")
    page.context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    page.goto("/how-to-play/")
    page.locator("#footer-privacy").click()
    page.wait_for_url("**/privacy/")
    assert page.locator("html").get_attribute("lang") == language
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"sideways scroll: {width}"
    shot(page, f"privacy-{language}", full_page=True)


def test_a_player_downloads_their_data_then_deletes_their_account(phone, server_env):
    username = one_player(server_env, "Ilze")
    page = phone("ilze")
    log_in(page, username, PASSWORD)
    page.goto("/notifications/")
    with page.expect_download() as download:
        page.locator("#download-data").click()
    data = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert data["account"]["username"] == username

    page.locator("#delete-account").click()
    page.wait_for_url("**/accounts/delete/")
    page.fill("#id_password", "not-my-password")
    page.locator("main form button[type=submit]").click()
    expect(page.locator(".errorlist")).to_contain_text("That is not your password.")
    shot(page, "delete-account-refused", full_page=True)
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"sideways scroll: {width}"

    page.fill("#id_password", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/accounts/delete/" not in url)
    expect(page.locator("body")).to_contain_text("Your account is deleted.")
    page.goto("/notifications/")
    page.wait_for_url("**/accounts/login/**")
