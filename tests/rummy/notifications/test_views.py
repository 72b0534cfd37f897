"""Email settings, unsubscribe links (GET asks, POST acts, RFC 8058 one-click) and
address verification. Tokens are the proof: no login needed, and a bad one gets a
clear 400 page, never a 500."""

import datetime
import re

import pytest
import time_machine
from django.core import mail, signing
from django.urls import reverse

from rummy.models import NotificationPrefs
from rummy.notifications import accounts, emails, prefs, tokens
from tests.factories import make_user, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    from django.core.cache import cache

    cache.clear()


def prefs_of(user):
    return prefs.prefs_for(type(user).objects.get(pk=user.pk))


def path_of(url):
    return re.sub(r"^https?://[^/]+", "", url)


# --- Settings page --------------------------------------------------------------------


def test_settings_page_needs_login(client):
    response = client.get(reverse("notifications:settings"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_settings_page_shows_choices_and_saves_them(client):
    alice = make_user(email_verified=True)
    client.force_login(alice)
    page = client.get(reverse("notifications:settings"))
    assert page.status_code == 200
    html = page.content.decode()
    for name in ("your_move", "reminders", "results"):
        assert f'name="{name}"' in html
    assert "Verify my address" not in html
    response = client.post(reverse("notifications:settings"), {"your_move": "on"})
    assert response.status_code == 302
    saved = prefs_of(alice)
    assert (saved.your_move, saved.reminders, saved.results) == (True, False, False)
    assert "saved" in client.get(reverse("notifications:settings")).content.decode()


def test_settings_page_offers_verification_to_unverified(client):
    client.force_login(make_user())
    html = client.get(reverse("notifications:settings")).content.decode()
    assert "Verify my address" in html
    assert reverse("notifications:send_verification") in html


def test_pages_have_no_inline_script_or_style(client):
    client.force_login(make_user())
    html = client.get(reverse("notifications:settings")).content.decode()
    assert "style=" not in html
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert "js/countdown.js" in html


# --- Verification ---------------------------------------------------------------------


def test_verify_button_sends_one_link_that_verifies(client):
    alice = make_user()
    client.force_login(alice)
    response = client.post(reverse("notifications:send_verification"))
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [alice.email]
    link = re.search(r"http://testserver(/notifications/verify/[^\s]+/)", message.body).group(1)
    # A second press right away does not send another.
    client.post(reverse("notifications:send_verification"))
    assert len(mail.outbox) == 1
    client.logout()  # the link works without logging in (another device)
    page = client.get(link)
    assert page.status_code == 200
    assert type(alice).objects.get(pk=alice.pk).email_verified


def test_send_verification_email_for_sign_up_uses_site_url():
    alice = make_user()
    assert accounts.send_verification_email(alice) is True
    assert "https://carousel.example/notifications/verify/" in mail.outbox[0].body
    assert "List-Unsubscribe" not in mail.outbox[0].extra_headers


def test_verified_user_gets_no_verification_email(client):
    client.force_login(make_user(email_verified=True))
    client.post(reverse("notifications:send_verification"))
    assert mail.outbox == []


def test_send_verification_failure_is_a_message_not_an_error(client, settings):
    settings.EMAIL_BACKEND = "tests.mail_backends.FailingBackend"
    client.force_login(make_user())
    response = client.post(reverse("notifications:send_verification"), follow=True)
    assert response.status_code == 200
    assert "could not send" in response.content.decode()


def test_send_verification_requires_post(client):
    client.force_login(make_user())
    assert client.get(reverse("notifications:send_verification")).status_code == 405


def test_verification_link_expires():
    alice = make_user()
    token = tokens.verification_token(alice)
    with time_machine.travel(datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=4)):
        from django.test import Client

        response = Client().get(reverse("notifications:verify", args=[token]))
    assert response.status_code == 400
    assert "expired" in response.content.decode()
    assert not type(alice).objects.get(pk=alice.pk).email_verified


def test_verification_link_for_an_old_address_does_not_verify_the_new_one(client):
    alice = make_user()
    token = tokens.verification_token(alice)
    alice.email = "new-address@example.com"
    alice.save()
    response = client.get(reverse("notifications:verify", args=[token]))
    assert response.status_code == 400
    assert "no longer use" in response.content.decode()
    assert not type(alice).objects.get(pk=alice.pk).email_verified


@pytest.mark.parametrize("token", ["nonsense", "a:b:c", "e30:1abc:forged", "%00"])
def test_bad_verification_tokens_get_a_clear_400(client, token):
    response = client.get(reverse("notifications:verify", args=[token]))
    assert response.status_code == 400
    assert "not valid" in response.content.decode()


def test_an_unsubscribe_token_cannot_verify(client):
    alice = make_user()
    token = tokens.unsubscribe_token(alice, "your_move")
    assert client.get(reverse("notifications:verify", args=[token])).status_code == 400


# --- Unsubscribe ----------------------------------------------------------------------


def _email_with_link(alice):
    bob = make_user(email_verified=True)
    from rummy import engine

    state = engine.position(hands=["2C 3D", "KS QS"], stock="9H 5D 6D 7C")
    started_game([alice, bob], state=state)
    emails.clock_pass()
    assert len(mail.outbox) == 1
    return mail.outbox[0]


def test_unsubscribe_get_asks_and_post_unsubscribes_without_login(client):
    alice = make_user(email_verified=True)
    message = _email_with_link(alice)
    link = path_of(message.extra_headers["List-Unsubscribe"].strip("<>"))
    page = client.get(link)
    assert page.status_code == 200
    assert "<form" in page.content.decode() and "your move" in page.content.decode()
    assert prefs_of(alice).your_move is True  # a GET (a link scanner) changes nothing
    done = client.post(link)
    assert done.status_code == 200
    assert "no longer send" in done.content.decode()
    saved = prefs_of(alice)
    assert (saved.your_move, saved.reminders, saved.results) == (False, True, True)


def test_rfc8058_one_click_post_needs_no_csrf_token():
    from django.test import Client

    alice = make_user(email_verified=True)
    message = _email_with_link(alice)
    link = path_of(message.extra_headers["List-Unsubscribe"].strip("<>"))
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        link, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    assert prefs_of(alice).your_move is False


def test_after_unsubscribing_no_more_such_emails(client):
    alice = make_user(email_verified=True)
    message = _email_with_link(alice)
    client.post(path_of(message.extra_headers["List-Unsubscribe"].strip("<>")))
    mail.outbox.clear()
    bob = make_user(email_verified=True)
    from rummy import engine

    started_game([alice, bob], state=engine.position(hands=["2C 3D", "KS QS"], stock="9H 5D 6D 7C"))
    emails.clock_pass()
    assert mail.outbox == []


def test_unsubscribe_from_everything(client):
    alice = make_user(email_verified=True)
    token = tokens.unsubscribe_token(alice, prefs.ALL)
    client.post(reverse("notifications:unsubscribe", args=[token]))
    saved = prefs_of(alice)
    assert not (saved.your_move or saved.reminders or saved.results)


def test_unsubscribe_does_not_expire(client):
    alice = make_user(email_verified=True)
    token = tokens.unsubscribe_token(alice, "results")
    with time_machine.travel(datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=800)):
        assert client.post(reverse("notifications:unsubscribe", args=[token])).status_code == 200
    assert prefs_of(alice).results is False


@pytest.mark.parametrize("method", ["get", "post"])
def test_forged_or_damaged_unsubscribe_tokens_get_a_clear_400(client, method):
    alice = make_user(email_verified=True)
    good = tokens.unsubscribe_token(alice, "your_move")
    forged = signing.dumps(
        {"u": alice.pk, "p": "your_move"},
        key="not-our-secret",
        salt=tokens.UNSUBSCRIBE_SALT,
        compress=True,
    )
    bogus_pref = signing.dumps(
        {"u": alice.pk, "p": "everything"}, salt=tokens.UNSUBSCRIBE_SALT, compress=True
    )
    for token in (good[:-3], forged, bogus_pref, "garbage", tokens.verification_token(alice)):
        response = getattr(client, method)(reverse("notifications:unsubscribe", args=[token]))
        assert response.status_code == 400, token
        assert "This link does not work" in response.content.decode()
    assert NotificationPrefs.objects.filter(user=alice).count() == 0


def test_unsubscribe_token_of_a_deleted_account(client):
    alice = make_user(email_verified=True)
    token = tokens.unsubscribe_token(alice, "your_move")
    alice.delete()
    assert client.post(reverse("notifications:unsubscribe", args=[token])).status_code == 400
