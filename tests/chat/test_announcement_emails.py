"""A pinned announcement rides along in the next email a member gets anyway (a game's
"your move", reminder or result), worded in that member's language, once per
announcement and member; it never has an email of its own, and a failed send gives it
back to the next email."""

import datetime
import zoneinfo

import pytest
import time_machine
from django.core import mail
from django.utils import timezone, translation
from django.utils.translation import ngettext

from chat import board
from chat.models import AnnouncementEmailed
from leagues.models import Membership
from rummy import engine
from rummy.clock.text import moment_text
from rummy.notifications import emails
from tests.factories import make_league, make_user, started_game

pytestmark = pytest.mark.django_db

STOCK = "9H 5D 6D 7C 8C 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"


@pytest.fixture
def club():
    """Olga owns the league; Ilze (Latvian) is to move in a game against Mart
    (Estonian); neither has been emailed yet."""
    olga = make_user("olga", email_verified=True)
    ilze = make_user("ilze", email_verified=True, language="lv", time_zone="Europe/Riga")
    mart = make_user("mart", email_verified=True, language="et", time_zone="Europe/Tallinn")
    league = make_league(olga, members=[ilze, mart], name="Riga club")
    state = engine.position(hands=["2C 3D", "KS QS"], stock=STOCK, turn=0)
    game = started_game([ilze, mart], league=league, state=state)
    return {"olga": olga, "ilze": ilze, "mart": mart, "league": league, "game": game}


def pin(club, text, token="a"):
    found, _created = board.post(club["olga"], club["league"], text, token)
    board.set_pinned(club["olga"], found.pk, True)
    return found


def heading(language, count=1):
    with translation.override(language):
        return ngettext(
            "An announcement from your league", "Announcements from your leagues", count
        )


def test_the_next_email_carries_it_in_the_members_language(club):
    found = pin(club, "Season starts Monday <b>sharp</b>")
    with time_machine.travel(timezone.now(), tick=False):
        emails.clock_pass()
    (message,) = mail.outbox
    assert message.to == [club["ilze"].email]
    html = message.alternatives[0][0]
    assert heading("lv") != heading("en")  # the catalog has it in Latvian
    for body in (message.body, html):
        assert heading("lv") in body and "Riga club" in body
    assert "Season starts Monday <b>sharp</b>" in message.body  # plain text as written
    assert "Season starts Monday &lt;b&gt;sharp&lt;/b&gt;" in html  # never as HTML
    assert "/leagues/" in html and "/board/" in html
    # When it was posted, in the site's style for a moment, in Latvian at Riga's time.
    with translation.override("lv"), timezone.override(zoneinfo.ZoneInfo("Europe/Riga")):
        posted = moment_text(found.created_at)
    assert posted in message.body


def test_once_per_announcement_and_member(club):
    found = pin(club, "Season starts Monday")
    now = timezone.now()
    with time_machine.travel(now, tick=False):
        emails.clock_pass()
    # Mart's move now: his "your move" carries it too (in Estonian), Ilze's next does not.
    game = club["game"]
    from rummy.models import Game

    Game.objects.filter(pk=game.pk).update(to_move=club["mart"], turn_started_at=now)
    with time_machine.travel(now + datetime.timedelta(seconds=5), tick=False):
        emails.clock_pass()
    Game.objects.filter(pk=game.pk).update(to_move=club["ilze"], turn_started_at=now)
    with time_machine.travel(now + datetime.timedelta(hours=1), tick=False):
        emails.clock_pass()
    bodies = {m.to[0]: [] for m in mail.outbox}
    for m in mail.outbox:
        bodies[m.to[0]].append(m.body)
    ilze_mail = bodies[club["ilze"].email]
    assert "Season starts Monday" in ilze_mail[0]
    assert all("Season starts Monday" not in body for body in ilze_mail[1:])
    (mart_mail,) = bodies[club["mart"].email]
    assert "Season starts Monday" in mart_mail and heading("et") in mart_mail
    assert AnnouncementEmailed.objects.filter(post=found).count() == 2


def test_never_an_email_of_its_own(club):
    """With nothing else to tell (no game awaits anyone), no email goes out for it."""
    club["game"].delete()
    pin(club, "Season starts Monday")
    for hours in (0, 25, 49):
        with time_machine.travel(timezone.now() + datetime.timedelta(hours=hours), tick=False):
            emails.clock_pass()
    assert mail.outbox == []
    assert not AnnouncementEmailed.objects.exists()


def test_a_failed_send_gives_it_back(club, settings):
    pin(club, "Season starts Monday")
    settings.EMAIL_BACKEND = "tests.mail_backends.FailingBackend"
    now = timezone.now()
    with time_machine.travel(now, tick=False):
        emails.clock_pass()
    assert not AnnouncementEmailed.objects.exists()
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    with time_machine.travel(now + datetime.timedelta(seconds=30), tick=False):
        emails.clock_pass()
    (message,) = mail.outbox
    assert "Season starts Monday" in message.body


def test_what_is_not_carried(club):
    """Not an unpinned or hidden post, not one the member read on the board, not their
    own, not one of a league they are not in, nor one by someone they blocked."""
    league, ilze = club["league"], club["ilze"]
    board.post(club["olga"], league, "just a post", "p")
    hidden = pin(club, "hidden one", "h")
    board.hide(club["olga"], hidden.pk, "mistake")
    Membership.objects.filter(league=league, user=ilze).update(role=Membership.Role.ADMIN)
    own, _ = board.post(ilze, league, "Ilze's own news", "o")
    board.set_pinned(ilze, own.pk, True)
    other = make_league(make_user(), name="Other club")
    elsewhere, _ = board.post(other.memberships.get().user, other, "not her league", "e")
    board.set_pinned(other.memberships.get().user, elsewhere.pk, True)
    with time_machine.travel(timezone.now(), tick=False):
        emails.clock_pass()
    (message,) = mail.outbox
    for words in ("just a post", "hidden one", "Ilze's own news", "not her league"):
        assert words not in message.body
    assert heading("lv") not in message.body


def test_one_read_on_the_board_is_not_emailed(club):
    found = pin(club, "Season starts Monday")
    board.mark_read(club["ilze"], club["league"], found.pk)
    with time_machine.travel(timezone.now(), tick=False):
        emails.clock_pass()
    (message,) = mail.outbox
    assert "Season starts Monday" not in message.body


def test_two_claims_at_once_carry_it_once(club):
    found = pin(club, "Season starts Monday")
    first = board.claim_for_email(club["ilze"])
    second = board.claim_for_email(club["ilze"])
    assert [p.pk for p in first] == [found.pk] and second == []
