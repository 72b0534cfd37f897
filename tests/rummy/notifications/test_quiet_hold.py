"""Quiet hours hold every push and email (``rummy.notifications.quiet``): nothing goes out
while they last, in the player's own time zone, and what was held goes out grouped by
the first pass after they end, even when it is older than the usual hour of catch-up."""

import datetime

import pytest
import time_machine
from django.core import mail

from rummy import engine, play
from rummy.background import background_pass
from rummy.models import Game, QuietHold, Seat
from tests.factories import deal_as, make_league, make_user, started_game

pytestmark = pytest.mark.django_db

STOCK = "9H 5D 6D 7C 8C 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"
UTC = datetime.UTC

# Riga is UTC+2 in December: quiet from 22:00 to 08:00 there is 20:00 to 06:00 UTC.
EVENING = datetime.datetime(2026, 12, 1, 21, 30, tzinfo=UTC)  # 23:30 in Riga
NIGHT = datetime.datetime(2026, 12, 1, 22, 30, tzinfo=UTC)  # 00:30
DAWN = datetime.datetime(2026, 12, 2, 5, 59, tzinfo=UTC)  # 07:59, still quiet
MORNING = datetime.datetime(2026, 12, 2, 6, 1, tzinfo=UTC)  # 08:01, the end has passed


def sleeper(**extra):
    return make_user(
        email_verified=True,
        time_zone="Europe/Riga",
        quiet_start=datetime.time(22, 0),
        quiet_end=datetime.time(8, 0),
        **extra,
    )


def at(moment, action, *args):
    with time_machine.travel(moment, tick=False):
        return action(*args)


def game_between(alice, bob):
    """Alice to move, the position dealt to her seat, whichever it is (seat order is
    the order players sat down; under a frozen clock that once came out either way on
    PostgreSQL, see ``Seat.Meta.ordering``)."""
    game = started_game([alice, bob], league=make_league(alice, members=[bob]))
    seat = game.seats.get(user=alice).number
    hands = ["2C 3D", "KS QS"] if seat == 0 else ["KS QS", "2C 3D"]
    deal_as(game, engine.position(hands=hands, stock=STOCK, turn=seat))
    return game


def sent_to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


def test_your_move_pushes_are_held_overnight_and_sent_grouped_in_the_morning(service):
    alice, bob, carol = sleeper(), make_user(), make_user()
    phone = service.subscribe(alice)
    at(EVENING, game_between, alice, bob)
    at(EVENING, background_pass)
    at(NIGHT, game_between, alice, carol)
    for moment in (NIGHT, DAWN):
        at(moment, background_pass)
    assert phone.received == [] and mail.outbox == []
    assert QuietHold.objects.filter(user=alice).exists()
    at(MORNING, background_pass)
    [content] = phone.messages()
    assert content["title"] == "2 games are waiting for your move"
    at(MORNING + datetime.timedelta(minutes=1), background_pass)
    assert len(phone.received) == 1
    # The hold is dropped once its hour of retries is over.
    at(MORNING + datetime.timedelta(hours=2), background_pass)
    assert not QuietHold.objects.exists()


def test_emails_are_held_overnight_and_sent_grouped_in_the_morning(vapid_keys):
    alice, bob, carol = sleeper(), make_user(), make_user()
    at(EVENING, game_between, alice, bob)
    at(NIGHT, game_between, alice, carol)
    for moment in (EVENING, NIGHT, DAWN):
        at(moment, background_pass)
    assert mail.outbox == []
    at(MORNING, background_pass)
    [email] = sent_to(alice)
    assert email.subject == "Your move in 2 games"
    at(MORNING + datetime.timedelta(minutes=1), background_pass)
    assert len(sent_to(alice)) == 1


def test_a_result_at_night_is_told_in_the_morning(service):
    alice, bob = make_user(email_verified=True), sleeper()
    phone = service.subscribe(bob)

    def finish():
        state = engine.position(hands=["2C 3D", "KS QS"], stock=STOCK, scores=[40, 90])
        game = started_game([alice, bob], state=state)
        Seat.objects.filter(game=game, user=bob).update(timeouts_in_row=Seat.ABSENT_AFTER)
        play.end_early(game.pk, alice, Game.objects.get(pk=game.pk).version)
        return game

    game = at(EVENING, finish)
    for moment in (EVENING, DAWN):
        at(moment, background_pass)
    assert phone.received == []
    assert len(sent_to(alice)) == 1  # alice keeps no quiet hours: told at once
    at(MORNING, background_pass)
    [content] = phone.messages()
    assert content["title"] == f"You won in {game.league.name}!"
    assert sent_to(bob) == []  # pushed, so not emailed too


def test_results_held_overnight_go_out_in_one_email_in_the_morning(vapid_keys):
    alice, bob = make_user(email_verified=True), sleeper()

    def finish(scores):
        state = engine.position(hands=["2C 3D", "KS QS"], stock=STOCK, scores=scores)
        game = started_game([alice, bob], state=state)
        Seat.objects.filter(game=game, user=bob).update(timeouts_in_row=Seat.ABSENT_AFTER)
        play.end_early(game.pk, alice, Game.objects.get(pk=game.pk).version)
        return game

    won, lost = at(EVENING, finish, [40, 90]), at(NIGHT, finish, [90, 40])
    for moment in (EVENING, NIGHT, DAWN):
        at(moment, background_pass)
    assert sent_to(bob) == []
    at(MORNING, background_pass)
    [email] = sent_to(bob)  # bob has no push device: both results by email, in one
    assert email.subject == "2 of your games have ended"
    for game in (won, lost):
        assert game.get_absolute_url() in email.body
    assert "you won!" in email.body and f"won by {alice.name}" in email.body
    at(MORNING + datetime.timedelta(minutes=1), background_pass)
    assert len(sent_to(bob)) == 1


def test_outside_quiet_hours_nothing_waits(service):
    alice, bob = sleeper(), make_user()
    phone = service.subscribe(alice)
    noon = datetime.datetime(2026, 12, 2, 10, 0, tzinfo=UTC)
    at(noon, game_between, alice, bob)
    at(noon, background_pass)
    assert len(phone.received) == 1
    assert not QuietHold.objects.exists()


def test_quiet_hours_follow_the_players_time_zone(service):
    # 23:30 UTC is 00:30 in Riga (quiet) but 18:30 in New York (not).
    alice, bob = sleeper(), sleeper()
    bob.time_zone = "America/New_York"
    bob.save()
    alices, bobs = service.subscribe(alice), service.subscribe(bob)
    late = datetime.datetime(2026, 12, 1, 23, 30, tzinfo=UTC)
    at(late, game_between, alice, make_user())
    at(late, game_between, bob, make_user())
    at(late, background_pass)
    assert alices.received == [] and len(bobs.received) == 1
