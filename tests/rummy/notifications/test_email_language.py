"""Every email in its user's language with times in their time zone (first-hour issue:
they all went out in English, with dates in UTC). Expected texts are the catalog's own
translations (``gettext`` under ``translation.override``) of msgids that already have
Latvian ones, so each test fails while the emails ignore the user's language."""

import datetime
import re
import zoneinfo

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext

from rummy import engine
from rummy.clock.text import deadline_text, time_left_text
from rummy.notifications import accounts, emails
from tests.factories import make_user, started_game

pytestmark = pytest.mark.django_db

RIGA = zoneinfo.ZoneInfo("Europe/Riga")
STOCK = "9H 5D 6D 7C 8C 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"


def latvian(**extra):
    return make_user(email_verified=True, language="lv", time_zone="Europe/Riga", **extra)


def game_for(player, other):
    state = engine.position(hands=["2C 3D", "KS QS"], stock=STOCK, turn=0)
    return started_game([player, other], state=state)


def in_lv(text, **values):
    with translation.override("lv"):
        return gettext(text) % values


def test_your_move_email_in_latvian_with_riga_times():
    ilze, bob = latvian(), make_user(email_verified=True)
    game = game_for(ilze, bob)
    now = timezone.now()
    with time_machine.travel(now, tick=False):
        emails.clock_pass()
    (message,) = mail.outbox
    with translation.override("lv"), timezone.override(RIGA):
        subject = ngettext("Your move in %(league)s", "Your move in %(count)d games", 1) % {
            "league": game.league.name,
            "count": 1,
        }
        when = deadline_text(game.turn_deadline)
        runs_out = gettext("Your time runs out %(left)s (%(when)s).") % {
            "left": time_left_text(game.turn_deadline, now),
            "when": when,
        }
    assert subject != "Your move in " + game.league.name  # the catalog has it in Latvian
    assert message.subject == subject
    html = message.alternatives[0][0]
    for body in (message.body, html):
        assert in_lv("Hello %(name)s,", name=ilze.name) in body
        assert runs_out in body
    # The deadline at Riga's time, in Latvian words: "… 2. decembris, 07:26 EET".
    local = timezone.localtime(game.turn_deadline, RIGA)
    # No time in UTC (a word of its own: a link's random token may hold the letters).
    assert f"{local:%H:%M} {local.tzname()}" in when and not re.search(r"\bUTC\b", message.body)
    assert 'lang="lv"' in html


def test_each_user_gets_their_own_language_in_one_pass():
    ilze, bob = latvian(), make_user(email_verified=True)
    game_for(ilze, bob)
    game_for(bob, ilze)
    emails.clock_pass()
    by_user = {message.to[0]: message for message in mail.outbox}
    assert in_lv("Hello %(name)s,", name=ilze.name) in by_user[ilze.email].body
    assert f"Hello {bob.name}," in by_user[bob.email].body
    assert "UTC" in by_user[bob.email].body  # no zone stored: UTC, and it says so


def test_a_user_with_no_stored_language_gets_the_default_whatever_is_active():
    bob = make_user()
    assert bob.language == "" and bob.language_code == settings.LANGUAGE_CODE
    with translation.override("lv"):  # e.g. the request of someone else, in Latvian
        assert accounts.send_verification_email(bob)
    (message,) = mail.outbox
    assert message.subject == "Confirm your email address for Carousel"
    assert f"Hello {bob.name}," in message.body


def test_account_emails_in_the_users_language_whatever_is_active():
    ilze = latvian()
    with translation.override("en"):
        assert accounts.send_verification_email(ilze)
        assert accounts.send_signup_attempt_email(ilze)
    verify, attempt = mail.outbox
    assert verify.subject == in_lv("Confirm your email address for Carousel")
    assert verify.subject != "Confirm your email address for Carousel"
    assert attempt.subject == in_lv("Someone tried to sign up for Carousel with your address")
    assert in_lv("Hello %(name)s,", name=ilze.name) in verify.body


def test_result_email_in_the_users_language():
    ilze, bob = latvian(), make_user(email_verified=True)
    game = game_for(ilze, bob)
    game.status = game.Status.FINISHED
    game.finished_at = timezone.now()
    game.save()
    game.seats.filter(user=ilze).update(final_score=10, is_winner=False)
    game.seats.filter(user=bob).update(final_score=150, is_winner=True)
    emails.notify_result(game)
    message = next(m for m in mail.outbox if m.to == [ilze.email])
    assert message.subject == in_lv("Game over in %(league)s", league=game.league.name)
    assert in_lv("Hello %(name)s,", name=ilze.name) in message.body


def test_password_reset_email_in_the_owners_language_and_zone(client):
    ilze = latvian()
    start = datetime.datetime(2026, 12, 2, 5, 26, tzinfo=datetime.UTC)
    # Asked for from an English page: the email follows its owner, not the asker.
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with time_machine.travel(start, tick=False):
        response = client.post(reverse("password_reset"), {"email": ilze.email})
    assert response.status_code == 302
    (message,) = mail.outbox
    assert message.subject == in_lv("Reset your Carousel password")
    greeting = (
        "Hello %(name)s,\n\nSomeone (hopefully you) asked to reset the password of your "
        "Carousel account.\nChoose a new password here:"
    )
    assert in_lv(greeting, name=ilze.name) in message.body
    assert "Someone (hopefully you)" not in message.body
    until = start + datetime.timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT)
    local = timezone.localtime(until, RIGA)
    assert f"{local:%H:%M} EET" in message.body  # 07:26 in Riga, not 05:26 UTC
