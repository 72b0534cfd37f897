"""rummy.notifications.pushes and push: web push from the background pass, end to end
through a push service on this machine (``push_service``: it checks the VAPID header and
decrypts the payload itself), once per device and turn, only while the player is away,
in their language, and never stopped by one device's failure."""

import datetime
import socket
import threading

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.db import connections
from django.urls import reverse

from rummy import engine, play
from rummy.background import background_pass
from rummy.models import Game, NotificationPrefs, PushNotice, PushSubscription, Seat
from rummy.notifications import pipeline, presence, push, pushes, vapid
from tests.factories import make_league, make_user, started_game

pytestmark = pytest.mark.django_db

STOCK = "9H 5D 6D 7C 8C 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"


def player(name=None, **extra):
    return make_user(name, email_verified=True, **extra)


def game_between(alice, bob, turn=0, league=None):
    state = engine.position(hands=["2C 3D", "KS QS"], stock=STOCK, turn=turn)
    return started_game([alice, bob], league=league, state=state)


def finished_game(alice, bob):
    """alice (who owns the league) ends it early; bob has more points and wins."""
    state = engine.position(hands=["2C 3D", "KS QS"], stock=STOCK, scores=[40, 90])
    game = started_game([alice, bob], state=state)
    Seat.objects.filter(game=game, user=bob).update(timeouts_in_row=Seat.ABSENT_AFTER)
    game.refresh_from_db()
    play.end_early(game.pk, alice, game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


# --- End to end -----------------------------------------------------------------------


def test_your_move_is_pushed_signed_and_encrypted_once(service):
    alice, bob = player(), player()
    phone = service.subscribe(alice)
    game = game_between(alice, bob)
    with time_machine.travel(game.turn_started_at + datetime.timedelta(hours=1), tick=False):
        background_pass()
    assert service.refused == []
    assert len(phone.received) == 1
    push = phone.received[0]
    # The VAPID header was checked by the service (signature, aud, exp, sub): here, that
    # it was signed with the site's key, and its subject.
    assert push["claims"]["k"] == vapid.site_keys().public_key
    assert push["claims"]["sub"] == settings.VAPID_SUBJECT
    assert push["headers"]["content-encoding"] == "aes128gcm"
    assert push["headers"]["urgency"] == "high"
    assert 0 < int(push["headers"]["ttl"]) <= pushes.MAX_TURN_TTL
    assert phone.messages() == [
        {
            "title": f"It's your move in {game.league.name}",
            "body": f"Against {bob.name}. Your time runs out in 23 h.",
            "url": game.get_absolute_url(),
            "tag": "your-move",
        }
    ]
    subscription = PushSubscription.objects.get()
    assert subscription.last_success_at is not None
    assert PushNotice.objects.get().sent_at is not None
    background_pass()
    assert len(phone.received) == 1  # nothing twice
    # Email is the fallback: a player whose device is pushed is not emailed too.
    assert mail.outbox == []


def test_a_push_is_worded_in_the_players_language(service):
    alice, bob = player(), player(language="lv")
    phone = service.subscribe(bob)
    game = finished_game(alice, bob)
    pushes.clock_pass()
    [content] = phone.messages()
    assert content["title"] == f"Jūs uzvarējāt līgā {game.league.name}!"
    assert content["url"] == game.get_absolute_url()


def test_the_winner_and_the_loser_are_each_told_the_result(service):
    alice, bob = player(), player()
    alices, bobs = service.subscribe(alice), service.subscribe(bob)
    game = finished_game(alice, bob)
    pushes.clock_pass()
    [won] = bobs.messages()
    [lost] = alices.messages()
    assert won["title"] == f"You won in {game.league.name}!"
    assert lost["title"] == f"Game over in {game.league.name}"
    assert won["url"] == lost["url"] == game.get_absolute_url()
    assert bobs.received[0]["headers"]["urgency"] == "normal"
    pushes.clock_pass()
    assert len(alices.received) == len(bobs.received) == 1


def test_several_games_waiting_are_one_push_that_opens_the_games_list(service):
    alice, bob, carol = player(), player(), player()
    phone = service.subscribe(alice)
    game_between(alice, bob)
    game_between(alice, carol)
    pushes.clock_pass()
    [content] = phone.messages()
    assert content["title"] == "2 games are waiting for your move"
    assert content["url"] == reverse("home")
    assert content["tag"] == "your-move"
    assert PushNotice.objects.count() == 2


def test_only_while_away_from_the_game(service):
    alice, bob = player(), player()
    phone = service.subscribe(alice)
    game = game_between(alice, bob)
    presence.arrive(alice.pk, game.pk)  # the game page is open on a socket
    pushes.clock_pass()
    assert phone.received == [] and not PushNotice.objects.exists()
    presence.leave(alice.pk, game.pk)
    pushes.clock_pass()
    assert len(phone.received) == 1


def test_a_result_watched_on_the_game_page_is_not_pushed_later(service):
    alice, bob = player(), player()
    phone = service.subscribe(bob)
    state = engine.position(hands=["2C 3D", "KS QS"], stock=STOCK, scores=[40, 90])
    game = started_game([alice, bob], state=state)
    presence.arrive(bob.pk, game.pk)
    Seat.objects.filter(game=game, user=bob).update(timeouts_in_row=Seat.ABSENT_AFTER)
    play.end_early(game.pk, alice, Game.objects.get(pk=game.pk).version)
    pushes.clock_pass()
    presence.leave(bob.pk, game.pk)
    pushes.clock_pass()
    assert phone.received == []


def test_the_reminder_is_pushed_when_a_quarter_of_the_time_is_left(service):
    alice, bob = player(), player()
    phone = service.subscribe(alice)
    game = game_between(alice, bob)
    pushes.clock_pass()  # "your move"
    with time_machine.travel(game.turn_deadline - datetime.timedelta(hours=2)):
        pushes.clock_pass()
        pushes.clock_pass()
    first, reminder = phone.messages()
    assert first["tag"] == "your-move"
    assert reminder["title"] == "Your time runs out in 2 h"
    assert reminder["url"] == game.get_absolute_url() and reminder["tag"] == "reminder"
    assert phone.received[1]["headers"]["urgency"] == "high"
    assert int(phone.received[1]["headers"]["ttl"]) <= 2 * 3600


# --- Failures -------------------------------------------------------------------------


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_no_longer_knows_is_deleted(service, status):
    alice, bob = player(), player()
    gone = service.subscribe(alice, answer=status)
    tablet = service.subscribe(alice)
    game_between(alice, bob)
    pushes.clock_pass()
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [tablet.endpoint]
    assert len(tablet.received) == 1 and gone.received == []


@pytest.mark.parametrize("answer", [500, "slow"])
def test_a_failing_device_does_not_stop_the_next_and_is_retried(service, answer, caplog):
    alice, bob = player(), player()
    failing = service.subscribe(alice, answer=answer)
    tablet = service.subscribe(alice)
    game_between(alice, bob)
    pushes.clock_pass()
    assert len(tablet.received) == 1
    assert "push to subscription" in caplog.text  # logged
    assert PushSubscription.objects.count() == 2  # not deleted: it may work next time
    failed = PushSubscription.objects.get(endpoint=failing.endpoint)
    assert failed.last_success_at is None and not failed.notices.exists()
    failing.answer = 201
    pushes.clock_pass()
    assert len(failing.received) == 1 and len(tablet.received) == 1


@pytest.mark.parametrize(
    "host", ["127.1", "0x7f.0.0.1", "0177.0.0.1", "127.000.000.001", "2130706433", "localhost."]
)
def test_a_stored_endpoint_off_the_push_services_is_never_connected_to(service, host):
    """A row stored before the endpoint check was strict: the clock opens no connection
    to it (a listening socket on loopback sees none) and drops it; the others go on."""
    alice, bob = player(), player()
    tablet = service.subscribe(alice)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    old = PushSubscription.objects.create(
        user=alice,
        endpoint=f"https://{host}:{listener.getsockname()[1]}/push/x",
        p256dh=tablet.p256dh,
        auth=tablet.auth,
    )
    game_between(alice, bob)
    with listener:
        pushes.clock_pass()
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody knocked
    assert not PushSubscription.objects.filter(pk=old.pk).exists()
    assert len(tablet.received) == 1


def test_a_claim_left_by_a_process_that_died_is_taken_over(service):
    alice, bob = player(), player()
    phone = service.subscribe(alice)
    game = game_between(alice, bob)
    PushNotice.objects.create(
        subscription=PushSubscription.objects.get(),
        game=game,
        kind="your_move",
        turn_started_at=game.turn_started_at,
    )
    pushes.clock_pass()
    assert phone.received == []  # claimed by someone else, who may still be sending
    later = game.turn_started_at + pushes.STALE + datetime.timedelta(minutes=1)
    with time_machine.travel(later):
        pushes.clock_pass()
    assert len(phone.received) == 1


class Killed(BaseException):
    """The worker's SIGKILL, as seen from the pass: nothing after it runs."""


def test_a_pass_killed_after_the_push_left_never_pushes_it_again(service, monkeypatch):
    alice, bob = player(), player()
    phone = service.subscribe(alice)
    game = game_between(alice, bob)
    real_webpush = push.webpush

    def push_then_die(*args, **kwargs):
        real_webpush(*args, **kwargs)
        raise Killed

    monkeypatch.setattr(push, "webpush", push_then_die)
    with pytest.raises(Killed):
        pushes.clock_pass()
    monkeypatch.undo()
    assert len(phone.received) == 1
    later = game.turn_started_at + pushes.STALE + datetime.timedelta(minutes=1)
    with time_machine.travel(later):
        pushes.clock_pass()
        pushes.clock_pass()
    assert len(phone.received) == 1
    assert PushNotice.objects.get().sent_at is not None


def test_a_pass_looks_again_only_at_players_with_a_device_not_told(service, monkeypatch):
    alice, bob = player(), player()
    phone = service.subscribe(alice)
    game_between(alice, bob)
    pushes.clock_pass()
    assert len(phone.received) == 1
    looked_at = []
    real_turns_of = pipeline.turns_of

    def turns_of(sender, user, *args):
        looked_at.append(user)
        return real_turns_of(sender, user, *args)

    monkeypatch.setattr(pipeline, "turns_of", turns_of)
    pushes.clock_pass()
    assert looked_at == []  # every device told of the turn: nothing to read per player
    tablet = service.subscribe(alice)
    pushes.clock_pass()
    assert looked_at == [alice]
    assert len(tablet.received) == 1 and len(phone.received) == 1


# --- Preferences per channel ----------------------------------------------------------


def test_push_switched_off_for_a_kind_falls_back_to_email(service):
    alice, bob = player(), player()
    phone = service.subscribe(alice)
    NotificationPrefs.objects.create(user=alice, push_your_move=False)
    game_between(alice, bob)
    background_pass()
    assert phone.received == []
    assert [m.to for m in mail.outbox] == [[alice.email]]


def test_without_a_device_email_carries_everything(service):
    alice, bob = player(), player()
    game_between(alice, bob)
    background_pass()
    assert [m.to for m in mail.outbox] == [[alice.email]]


def test_push_and_email_off_for_a_kind_sends_nothing_of_it(service):
    alice, bob = player(), player()
    phone = service.subscribe(alice)
    NotificationPrefs.objects.create(user=alice, push_your_move=False, your_move=False)
    game_between(alice, bob)
    background_pass()
    assert phone.received == [] and mail.outbox == []


def test_push_off_for_results_keeps_your_move_by_push(service):
    alice, bob = player(), player()
    phone = service.subscribe(alice)
    NotificationPrefs.objects.create(user=alice, push_results=False)
    game_between(alice, bob)
    finished_game(alice, bob)
    background_pass()
    assert [m["tag"] for m in phone.messages()] == ["your-move"]
    [result] = [m.subject for m in mail.outbox if m.to == [alice.email]]
    assert result.startswith("Game over")


def test_without_vapid_keys_nothing_is_pushed_and_email_goes(service, settings):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    alice, bob = player(), player()
    phone = service.subscribe(alice)
    game_between(alice, bob)
    background_pass()
    assert phone.received == []
    assert [m.to for m in mail.outbox] == [[alice.email]]


def test_a_game_league_name_with_markup_stays_text(service):
    alice, bob = player(), player()
    phone = service.subscribe(alice)
    league = make_league(alice, members=[bob], name="<b>Friday</b> & co")
    game_between(alice, bob, league=league)
    pushes.clock_pass()
    assert phone.messages()[0]["title"] == "It's your move in <b>Friday</b> & co"


@pytest.mark.django_db(transaction=True)
def test_two_clock_passes_at_once_push_once(service):
    alice, bob = player(), player()
    phone = service.subscribe(alice)
    game_between(alice, bob)
    errors = []
    barrier = threading.Barrier(3)

    def run():
        try:
            barrier.wait(timeout=10)
            pushes.clock_pass()
        except Exception as error:  # reported below
            errors.append(error)
            barrier.abort()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(phone.received) == 1
    assert PushNotice.objects.get().sent_at is not None


def test_a_redirect_from_the_push_service_is_not_followed(service, caplog):
    alice, bob = player(), player()
    elsewhere = service.device()  # not stored: nothing of ours should ever reach it
    phone = service.subscribe(alice, answer=f"redirect:{elsewhere.endpoint}")
    game_between(alice, bob)
    pushes.clock_pass()
    assert elsewhere.received == [] and phone.received == []
    assert "push to subscription" in caplog.text
    assert not PushNotice.objects.exists()  # retried by the next pass
