"""Running a league: the invites page shows each link whole, with a Copy
button (and the phone's share sheet where the browser has one). Tapping Copy puts the
link on the clipboard and says so in the page's live region; without JavaScript the
whole link is shown, selectable, and no dead button."""

import pytest

try:
    from playwright.sync_api import Page, expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    Page = expect = None

from tests.e2e.conftest import PHONE

pytestmark = pytest.mark.e2e

PASSWORD = "e2e-Carousel-pass-42"

LEAGUE_WITH_INVITE = """
from leagues import services
from leagues.models import User

name, password = sys.argv[1:3]
user = User.objects.create_user(username=name, email=name + "@example.com",
                                password=password, display_name=name.title())
league = services.create_league(user, name="Copy Club")
services.create_invite(user, league, expires_at=None, max_uses=None)
print(league.slug)
"""


def log_in(page: Page, username):
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def test_copy_puts_the_whole_link_on_the_clipboard(phone, server, django_snippet):
    slug = django_snippet(LEAGUE_WITH_INVITE, "ines", PASSWORD).strip()
    page = phone("ines")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    log_in(page, "ines")
    page.goto(f"/leagues/{slug}/invites/")
    link = page.locator("code.invite-url")
    url = link.text_content().strip()
    assert url.startswith(server + "/leagues/invite/")
    # Shown whole: it wraps inside the phone's width instead of being cut off.
    box = link.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    page.get_by_role("button", name="Copy link").tap()
    expect(page.locator("#invite-copy-status")).to_have_text("Link copied.")
    assert page.evaluate("navigator.clipboard.readText()") == url
    expect(page.get_by_role("button", name="Link copied.")).to_be_visible()


def test_without_javascript_the_link_is_shown_whole_and_no_dead_button(
    browser, server, django_snippet
):
    slug = django_snippet(LEAGUE_WITH_INVITE, "noam", PASSWORD).strip()
    context = browser.new_context(base_url=server, locale="en", java_script_enabled=False, **PHONE)
    try:
        page = context.new_page()
        log_in(page, "noam")
        page.goto(f"/leagues/{slug}/invites/")
        link = page.locator("code.invite-url")
        expect(link).to_be_visible()
        assert "/leagues/invite/" in link.text_content()
        box = link.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 360
        expect(page.get_by_role("button", name="Copy link")).to_be_hidden()
        expect(page.get_by_role("button", name="Share…")).to_be_hidden()
    finally:
        context.close()
