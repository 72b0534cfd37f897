"""The way in: a stranger opens an invite link on a phone (360x740 touch),
sees the league and who invited, signs up, confirms the address from the email the
server wrote, logs in and is a member of the league, without ever typing its address.
"""

import re
import time

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.helpers import INVITE_LEAGUE, SIGN_UP_PASSWORD, shot, submit_sign_up

pytestmark = pytest.mark.e2e

MEMBER = """
from leagues.models import Membership
print(Membership.objects.filter(user__username=sys.argv[1], league__slug=sys.argv[2]).count())
"""


def test_a_stranger_signs_up_from_an_invite_and_is_a_member(phone, django_snippet, sent_mail):
    run = str(int(time.time() * 1000))[-8:]
    invite_url, league_url = django_snippet(INVITE_LEAGUE, run).split()
    username, address = f"nina{run}", f"nina{run}@example.com"
    page = phone("stranger")

    # The link, logged out: the league and who invited, and the way in.
    page.goto(invite_url)
    invitation = page.locator("#invitation")
    expect(invitation).to_contain_text(f"Marta invites you to play in Night Owls {run}")
    expect(invitation).to_contain_text("Thursday nights, slow games.")
    shot(page, "invite-signup-1-invite", full_page=True)
    invitation.get_by_role("link", name="Create an account and join").tap()

    # Sign-up still names the league.
    page.wait_for_url(re.compile(r"/accounts/signup/$"))
    expect(page.locator("#invitation-note")).to_contain_text(f"Night Owls {run}")
    submit_sign_up(page, username, "Nina", address, SIGN_UP_PASSWORD)
    expect(page.get_by_text("Thank you for signing up!")).to_be_visible()
    expect(page.locator("#invitation-note")).to_contain_text(f"Night Owls {run}")

    # The email the server wrote: its link confirms the address.
    (body,) = sent_mail(address)
    verify = re.search(r"https?://\S+/notifications/verify/\S+/", body).group(0)
    login_url = page.url
    page.goto(verify)
    expect(page.get_by_role("heading", name="Address verified")).to_be_visible()

    # Log in: straight into the league.
    page.goto(login_url)
    page.fill("#id_username", username)
    page.fill("#id_password", SIGN_UP_PASSWORD)
    page.get_by_role("button", name="Log in").tap()
    page.wait_for_url(re.compile(re.escape(league_url) + "$"))
    expect(page.get_by_text(f"Welcome to Night Owls {run}!")).to_be_visible()
    expect(page.get_by_role("heading", name=f"Night Owls {run}", exact=True)).to_be_visible()
    shot(page, "invite-signup-2-league", full_page=True)
    assert django_snippet(MEMBER, username, league_url.strip("/").split("/")[-1]).strip() == "1"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the league page scrolls sideways at 360 px ({width} px wide)"

    # Home now shows the league, not "not in a league yet".
    page.goto("/")
    expect(page.locator("#your-leagues")).to_contain_text(f"Night Owls {run}")
    expect(page.locator("#get-started")).to_have_count(0)
    expect(page.locator("#email-notice")).to_have_count(0)  # verified: no notice
