"""A newcomer who joined a league through an invite link at sign-up, on a phone
(360x740 touch): the page that confirms the address says "You joined <league>" and leads
there, and the first log-in takes the newcomer to the league with the same words, also
from a browser that never saw the invite (the mail app's, another device)."""

import re
import time
from urllib.parse import urlsplit

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.helpers import INVITE_LEAGUE, SIGN_UP_PASSWORD, shot, submit_sign_up

pytestmark = pytest.mark.e2e


def sign_up_through_invite(page, django_snippet, sent_mail):
    """Open the invite link, sign up; returns (username, league name, league URL, the
    address check link the server emailed)."""
    run = str(int(time.time() * 1000))[-8:]
    invite_url, league_url = django_snippet(INVITE_LEAGUE, run).split()
    username, address = f"nina{run}", f"nina{run}@example.com"
    page.goto(invite_url)
    page.locator("#invitation").get_by_role("link", name="Create an account and join").tap()
    page.wait_for_url(re.compile(r"/accounts/signup/$"))
    submit_sign_up(page, username, "Nina", address, SIGN_UP_PASSWORD)
    expect(page.get_by_text("Thank you for signing up!")).to_be_visible()
    (body,) = sent_mail(address)
    verify = re.search(r"https?://\S+/notifications/verify/\S+/", body).group(0)
    return username, f"Night Owls {run}", league_url, verify


def log_in_from_home(page, username):
    page.goto("/")
    page.locator(".site-header").get_by_role("link", name="Log in").tap()
    page.wait_for_url(re.compile(r"/accounts/login/$"))
    page.fill("#id_username", username)
    page.fill("#id_password", SIGN_UP_PASSWORD)
    page.get_by_role("button", name="Log in").tap()


def test_the_address_check_says_you_joined_and_leads_to_the_league(
    phone, django_snippet, sent_mail
):
    page = phone("signed-up")
    username, league, league_url, verify = sign_up_through_invite(page, django_snippet, sent_mail)
    mail_app = phone("mail-app")  # the link opens in another browser, without the session
    mail_app.goto(verify)
    expect(mail_app.get_by_role("heading", name="Address verified")).to_be_visible()
    expect(mail_app.locator("#joined-leagues")).to_contain_text(f"You joined {league}.")
    assert mail_app.evaluate("document.documentElement.scrollWidth") <= 360
    shot(mail_app, "verified-newcomer")
    mail_app.get_by_role("link", name=f"Open {league}").tap()
    mail_app.wait_for_url(re.compile(r"/accounts/login/"))
    mail_app.fill("#id_username", username)
    mail_app.fill("#id_password", SIGN_UP_PASSWORD)
    mail_app.get_by_role("button", name="Log in").tap()
    mail_app.wait_for_url(re.compile(re.escape(league_url) + "$"))
    expect(mail_app.get_by_role("heading", name=league, exact=True)).to_be_visible()


@pytest.mark.parametrize("where", ["same browser", "another browser"])
def test_the_first_log_in_from_home_lands_in_the_league(phone, django_snippet, sent_mail, where):
    page = phone("signed-up")
    username, league, league_url, verify = sign_up_through_invite(page, django_snippet, sent_mail)
    page.goto(verify)
    expect(page.get_by_role("heading", name="Address verified")).to_be_visible()
    if where == "another browser":
        page = phone("other")
    log_in_from_home(page, username)
    page.wait_for_url(re.compile(re.escape(league_url) + "$"))
    expect(page.locator(".messages")).to_contain_text(f"You joined {league}.")
    expect(page.get_by_role("heading", name=league, exact=True)).to_be_visible()
    # Only the first log-in: the next one goes where it was asked to (Home).
    page.context.clear_cookies()
    page.goto("/accounts/login/?next=/")
    page.fill("#id_username", username)
    page.fill("#id_password", SIGN_UP_PASSWORD)
    page.get_by_role("button", name="Log in").tap()
    page.wait_for_url(lambda url: urlsplit(url).path == "/")
    expect(page.locator(".messages")).to_have_count(0)
