"""No "your move" email while the player is at the game (its page open on a socket, or
a move of their own in it within AWAY_AFTER); one once they are away."""

import datetime
import time

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.utils import timezone

from rummy import engine, play
from rummy.notifications import emails, presence
from tests.factories import make_user, started_game

pytestmark = pytest.mark.django_db

STOCK = "9H 5D 6D 7C 8C 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"


def game_between(first, second, turn=0):
    state = engine.position(hands=["2C 3D", "KS QS"], stock=STOCK, turn=turn)
    return started_game([first, second], state=state)


def sent_to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


def later(seconds):
    return timezone.now() + datetime.timedelta(seconds=seconds)


def test_a_present_player_is_emailed_once_they_leave():
    alice, bob = make_user(email_verified=True), make_user(email_verified=True)
    game = game_between(alice, bob)
    presence.arrive(alice.pk, game.pk)
    emails.clock_pass()
    assert sent_to(alice) == []
    presence.leave(alice.pk, game.pk)
    emails.clock_pass()
    emails.clock_pass()
    assert len(sent_to(alice)) == 1


def test_two_sockets_leave_the_player_present_until_both_close():
    alice, bob = make_user(email_verified=True), make_user(email_verified=True)
    game = game_between(alice, bob)
    presence.arrive(alice.pk, game.pk)
    presence.arrive(alice.pk, game.pk)
    presence.leave(alice.pk, game.pk)
    emails.clock_pass()
    assert sent_to(alice) == []
    presence.leave(alice.pk, game.pk)
    emails.clock_pass()
    assert len(sent_to(alice)) == 1


# Real sleeps with a short expiry, not time travel: Redis (the stack lane) keeps its own
# clock for expiries.


def test_a_crashed_workers_mark_lapses(monkeypatch):
    monkeypatch.setattr(presence, "PRESENCE_TTL", 1)
    alice, bob = make_user(email_verified=True), make_user(email_verified=True)
    game = game_between(alice, bob)
    presence.arrive(alice.pk, game.pk)  # never left: the worker died
    emails.clock_pass()
    assert sent_to(alice) == []
    time.sleep(1.3)
    emails.clock_pass()
    assert len(sent_to(alice)) == 1


def test_a_refreshed_mark_outlives_its_first_expiry(monkeypatch):
    monkeypatch.setattr(presence, "PRESENCE_TTL", 2)
    alice, bob = make_user(email_verified=True), make_user(email_verified=True)
    game = game_between(alice, bob)
    presence.arrive(alice.pk, game.pk)
    time.sleep(1.2)
    presence.refresh(alice.pk, game.pk)
    time.sleep(1.2)  # past the first expiry, within the refreshed one
    emails.clock_pass()
    assert sent_to(alice) == []


def test_a_recent_move_of_the_player_holds_the_email_until_away_after(
    django_capture_on_commit_callbacks,
):
    alice, bob = make_user(email_verified=True), make_user(email_verified=True)
    game = game_between(alice, bob, turn=1)
    # bob's turn: a draw of his own, then the turn is alice's only after his third (R3.4),
    # so give him the move and check his own recent draw holds back his email.
    with django_capture_on_commit_callbacks(execute=True):
        play.draw(game.pk, bob, game.version)
    game.refresh_from_db()
    assert game.to_move == bob
    emails.clock_pass()
    assert sent_to(bob) == []
    with time_machine.travel(later(settings.AWAY_AFTER - 10)):
        emails.clock_pass()
    assert sent_to(bob) == []
    with time_machine.travel(later(settings.AWAY_AFTER + 1)):
        emails.clock_pass()
        emails.clock_pass()
    assert len(sent_to(bob)) == 1


def test_another_players_move_does_not_hold_the_email(django_capture_on_commit_callbacks):
    alice, bob = make_user(email_verified=True), make_user(email_verified=True)
    game = game_between(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):  # R3.4: the third draw passes the turn
            game.refresh_from_db()
            play.draw(game.pk, alice, game.version)
    game.refresh_from_db()
    assert game.to_move == bob
    emails.clock_pass()
    assert len(sent_to(bob)) == 1


def test_only_the_games_where_the_player_is_away_are_listed():
    alice, bob, carol = (make_user(email_verified=True) for _ in range(3))
    watched = game_between(alice, bob)
    away = game_between(alice, carol)
    presence.arrive(alice.pk, watched.pk)
    emails.clock_pass()
    [email] = sent_to(alice)
    assert away.get_absolute_url() in email.body
    assert watched.get_absolute_url() not in email.body
    # The watched game was not claimed: it is told once alice leaves it.
    presence.leave(alice.pk, watched.pk)
    emails.clock_pass()
    assert len(sent_to(alice)) == 2
    assert watched.get_absolute_url() in sent_to(alice)[1].body
