"""rummy.notifications.emails: "your move", reminders and results by email, each at most once
per game and turn, grouped, after commit, never to an unverified or unsubscribed
address, and never breaking a move when the mail server fails."""

import datetime
import threading

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.utils import timezone

from rummy import engine, play
from rummy.background import background_pass
from rummy.models import Game, Notice, NotificationPrefs, Seat
from rummy.notifications import emails, pipeline, tokens
from tests.factories import make_league, make_user, player_at, started_game

pytestmark = pytest.mark.django_db

STOCK = "9H 5D 6D 7C 8C 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"


def verified(name=None):
    return make_user(name, email_verified=True)


def game_between(alice, bob, turn=0, league=None):
    """A two-player game with ``alice`` at seat 0 and the seat ``turn`` to move; no email
    has been sent for it yet (setup runs without on-commit callbacks)."""
    state = engine.position(hands=["2C 3D", "KS QS"], stock=STOCK, turn=turn)
    return started_game([alice, bob], league=league, state=state)


def draw_until_turn_passes(game, user, capture):
    """Draw until the turn passes (R3.4: the third draw of a turn ends it)."""
    game.refresh_from_db()
    while game.to_move == user:
        with capture(execute=True):
            play.draw(game.pk, user, game.version)
        game.refresh_from_db()


def sent_to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


# --- "Your move" ----------------------------------------------------------------------


def test_your_move_email_once_per_game_per_turn(django_capture_on_commit_callbacks):
    alice, bob = verified(), verified()
    game = game_between(alice, bob)
    emails.clock_pass()
    assert len(sent_to(alice)) == 1
    assert game.league.name in mail.outbox[0].subject
    # A draw keeps the turn (R3.2): the same turn is never announced twice.
    with django_capture_on_commit_callbacks(execute=True):
        play.draw(game.pk, alice, game.version)
    emails.clock_pass()
    assert len(mail.outbox) == 1
    # Two more draws end alice's turn (R3.4): now bob is told, once.
    draw_until_turn_passes(game, alice, django_capture_on_commit_callbacks)
    assert player_at(game, 1) == bob and game.to_move == bob
    emails.clock_pass()
    emails.clock_pass()
    assert len(sent_to(bob)) == 1
    assert len(sent_to(alice)) == 1
    assert Notice.objects.filter(kind=Notice.Kind.YOUR_MOVE).count() == 2


def test_a_new_turn_of_the_same_game_is_announced_again(django_capture_on_commit_callbacks):
    alice, bob = verified(), verified()
    game = game_between(alice, bob)
    emails.clock_pass()
    draw_until_turn_passes(game, alice, django_capture_on_commit_callbacks)
    emails.clock_pass()
    draw_until_turn_passes(game, bob, django_capture_on_commit_callbacks)
    # alice moved moments ago: she is told once she has been away AWAY_AFTER.
    emails.clock_pass()
    assert len(sent_to(alice)) == 1
    emails.clock_pass(timezone.now() + datetime.timedelta(seconds=settings.AWAY_AFTER + 1))
    assert game.to_move == alice
    assert len(sent_to(alice)) == 2 and len(sent_to(bob)) == 1


def test_a_move_sends_no_email_itself_the_clock_pass_does(django_capture_on_commit_callbacks):
    """The request that makes a move never waits for the mail server: the turn clock's
    next pass announces the new turn."""
    alice, bob = verified(), verified()
    game = game_between(alice, bob)
    Notice.objects.create(
        user=alice, game=game, kind=Notice.Kind.YOUR_MOVE, turn_started_at=game.turn_started_at
    )
    draw_until_turn_passes(game, alice, django_capture_on_commit_callbacks)
    assert game.to_move == bob
    assert mail.outbox == []
    emails.clock_pass()
    assert len(sent_to(bob)) == 1


def test_several_games_awaiting_a_move_come_in_one_email():
    alice, bob = verified(), verified()
    first = game_between(alice, bob, turn=1)
    second = game_between(alice, bob, turn=1)
    assert emails.notify_user_turns(bob) == 2  # one email listing both games
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [bob.email]
    assert "2 games" in message.subject
    for game in (first, second):
        assert f"https://carousel.example/games/{game.pk}/" in message.body
        assert game.league.name in message.body
    # Both are now recorded for their current turn: no further email for either.
    assert emails.notify_user_turns(bob) == 0
    assert len(mail.outbox) == 1


def test_an_already_announced_game_is_not_listed_again():
    alice, bob = verified(), verified()
    first = game_between(alice, bob, turn=1)
    emails.notify_user_turns(bob)
    second = game_between(alice, bob, turn=1)
    emails.notify_user_turns(bob)
    assert len(mail.outbox) == 2
    latest = mail.outbox[1]
    assert f"/games/{second.pk}/" in latest.body
    assert f"/games/{first.pk}/" not in latest.body.split("more game")[0]
    assert "One more game is still waiting for you." in latest.body


def test_html_alternative_and_absolute_links():
    alice, bob = verified(), verified()
    game = game_between(alice, bob)
    emails.clock_pass()
    message = mail.outbox[0]
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html"
    assert f'href="https://carousel.example/games/{game.pk}/"' in html
    assert "https://carousel.example/notifications/" in message.body


def test_stale_claims_are_released_when_the_player_already_moved():
    """A notice that comes after the player moved does nothing (a race between reading
    the games and claiming them)."""
    alice, bob = verified(), verified()
    game = game_between(alice, bob)
    stale = Game.objects.get(pk=game.pk)
    for _ in range(3):
        game.refresh_from_db()
        play.draw(game.pk, alice, game.version)
    claimed = pipeline.claim(emails.EMAIL, alice, alice, [stale], Notice.Kind.YOUR_MOVE)
    assert claimed == []
    assert not Notice.objects.filter(user=alice).exists()


# --- Who gets nothing -----------------------------------------------------------------


def test_unverified_address_gets_no_email(django_capture_on_commit_callbacks):
    alice, bob = make_user(), make_user()  # email_verified=False
    game = game_between(alice, bob)
    emails.clock_pass()
    draw_until_turn_passes(game, alice, django_capture_on_commit_callbacks)
    with time_machine.travel(game.turn_deadline - datetime.timedelta(minutes=1)):
        assert emails.send_due_reminders() == 0
    assert mail.outbox == []
    assert not Notice.objects.exists()


def test_inactive_user_gets_no_email():
    alice, bob = verified(), verified()
    alice.is_active = False
    alice.save()
    game_between(alice, bob)
    emails.clock_pass()
    assert mail.outbox == []


def test_preferences_are_respected():
    alice, bob = verified(), verified()
    NotificationPrefs.objects.create(user=alice, your_move=False)
    game = game_between(alice, bob)
    emails.clock_pass()
    assert mail.outbox == []
    quarter_left = game.turn_deadline - (game.turn_deadline - game.turn_started_at) / 4
    with time_machine.travel(quarter_left + datetime.timedelta(seconds=1)):
        assert emails.send_due_reminders() == 1  # reminders are still on
    NotificationPrefs.objects.filter(user=alice).update(reminders=False)
    second = game_between(alice, bob)
    with time_machine.travel(second.turn_deadline - datetime.timedelta(minutes=1)):
        assert emails.send_due_reminders() == 0
    assert len(mail.outbox) == 1


def test_a_user_who_verifies_later_hears_of_waiting_games():
    alice, bob = make_user(), verified()
    first = game_between(alice, bob)
    emails.clock_pass()
    assert mail.outbox == []
    alice.email_verified = True
    alice.save()
    second = game_between(alice, bob)
    emails.clock_pass()
    assert len(mail.outbox) == 1
    assert f"/games/{first.pk}/" in mail.outbox[0].body
    assert f"/games/{second.pk}/" in mail.outbox[0].body


# --- Reminders ------------------------------------------------------------------------


def test_reminder_at_a_quarter_of_the_time_left_once():
    alice, bob = verified(), verified()
    game = game_between(alice, bob)  # 24 h: the reminder is due 6 h before the deadline
    due = game.turn_deadline - datetime.timedelta(hours=6)
    with time_machine.travel(due - datetime.timedelta(minutes=1)):
        assert emails.send_due_reminders() == 0
    with time_machine.travel(due + datetime.timedelta(seconds=1)):
        assert emails.send_due_reminders() == 1
        assert emails.send_due_reminders() == 0
    with time_machine.travel(due + datetime.timedelta(hours=3)):
        assert emails.send_due_reminders() == 0
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [alice.email]
    assert "Reminder" in message.subject and "in 5 h 59 min" in message.subject
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_no_reminder_after_the_deadline():
    alice, bob = verified(), verified()
    game = game_between(alice, bob)
    with time_machine.travel(game.turn_deadline + datetime.timedelta(seconds=1)):
        assert emails.send_due_reminders() == 0


def test_no_reminder_after_the_player_moved(django_capture_on_commit_callbacks):
    alice, bob = verified(), verified()
    game = game_between(alice, bob)
    old_deadline = game.turn_deadline
    with time_machine.travel(game.turn_started_at + datetime.timedelta(hours=12)):
        draw_until_turn_passes(game, alice, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    # The old turn's reminder time comes, but alice already moved and bob's turn is new.
    with time_machine.travel(old_deadline - datetime.timedelta(hours=1)):
        assert emails.send_due_reminders() == 0
    assert mail.outbox == []


def test_reminders_are_grouped_per_player():
    alice, bob = verified(), verified()
    first, second = game_between(alice, bob), game_between(alice, bob)
    later = max(first.turn_deadline, second.turn_deadline)
    with time_machine.travel(later - datetime.timedelta(hours=1)):
        assert emails.send_due_reminders() == 1
    assert len(mail.outbox) == 1
    assert "2 games" in mail.outbox[0].subject
    assert Notice.objects.filter(kind=Notice.Kind.REMINDER).count() == 2


def test_reminder_follows_the_turns_own_length():
    from tests.factories import make_season

    alice, bob = verified(), verified()
    league = make_league(alice, members=[bob])
    make_season(league, turn_seconds=3600)
    game = game_between(alice, bob, league=league)
    assert game.turn_deadline - game.turn_started_at == datetime.timedelta(hours=1)
    with time_machine.travel(game.turn_deadline - datetime.timedelta(minutes=16)):
        assert emails.send_due_reminders() == 0
    with time_machine.travel(game.turn_deadline - datetime.timedelta(minutes=14)):
        assert emails.send_due_reminders() == 1


def test_the_clock_sends_reminders_and_still_counts_timeouts():
    alice, bob = verified(), verified()
    game = game_between(alice, bob)
    with time_machine.travel(game.turn_deadline - datetime.timedelta(hours=1)):
        assert background_pass() == 0
        assert background_pass() == 0
    assert len(mail.outbox) == 1 and "Reminder" in mail.outbox[0].subject


def _at_once(work, threads=4):
    """Run ``work`` in ``threads`` threads released together, as that many clock
    processes would; the errors they raised."""
    from django.db import connections

    barrier = threading.Barrier(threads)
    errors = []

    def run():
        try:
            barrier.wait(timeout=10)
            work()
        except Exception as error:  # reported by the caller
            errors.append(error)
            barrier.abort()
        finally:
            connections.close_all()

    running = [threading.Thread(target=run) for _ in range(threads)]
    for t in running:
        t.start()
    for t in running:
        t.join()
    return errors


@pytest.mark.django_db(transaction=True)
def test_two_clock_processes_never_send_one_reminder_twice(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    alice, bob = verified(), verified()
    game = game_between(alice, bob)
    mail.outbox.clear()
    with time_machine.travel(game.turn_deadline - datetime.timedelta(hours=1)):
        errors = _at_once(emails.send_due_reminders)
    assert errors == []
    reminders = [m for m in mail.outbox if "Reminder" in m.subject]
    assert len(reminders) == 1
    assert Notice.objects.filter(kind=Notice.Kind.REMINDER).count() == 1


@pytest.mark.django_db(transaction=True)
def test_four_passes_at_once_send_one_your_move_email(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    alice, bob = verified(), verified()
    game_between(alice, bob)
    mail.outbox.clear()
    errors = _at_once(emails.clock_pass)
    assert errors == []
    assert len(sent_to(alice)) == 1
    assert Notice.objects.get(kind=Notice.Kind.YOUR_MOVE).sent_at is not None


# --- Timeouts and absence -------------------------------------------------------------


def test_a_timeout_hands_the_turn_over_and_announces_it():
    alice, bob = verified(), verified()
    game = game_between(alice, bob)
    Notice.objects.create(
        user=alice, game=game, kind=Notice.Kind.YOUR_MOVE, turn_started_at=game.turn_started_at
    )
    with time_machine.travel(game.turn_deadline + datetime.timedelta(seconds=1)):
        assert background_pass() == 1  # the timeout, then the same pass's emails
    assert len(sent_to(bob)) == 1
    assert Seat.objects.get(game=game, user=alice).timeouts_in_row == 1


# --- Results --------------------------------------------------------------------------


def test_result_email_once_to_each_player_who_wants_it(django_capture_on_commit_callbacks):
    alice, bob, carol = verified(), verified(), verified()
    NotificationPrefs.objects.create(user=carol, results=False)
    league = make_league(alice, members=[bob, carol])
    state = engine.position(
        hands=["2C 3D", "KS QS", "4H 5H"], stock=STOCK, scores=[40, 90, 10], rounds_won=[1, 2, 0]
    )
    game = started_game([alice, bob, carol], league=league, state=state)
    Seat.objects.filter(game=game, user=bob).update(timeouts_in_row=Seat.ABSENT_AFTER)
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        play.end_early(game.pk, alice, game.version)  # alice owns the league
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert mail.outbox == []  # not from the request that ended it: from the clock
    emails.clock_pass()
    assert len(sent_to(alice)) == 1 and len(sent_to(bob)) == 1 and sent_to(carol) == []
    assert sent_to(bob)[0].subject.startswith("You won")
    assert "ended your game" in sent_to(alice)[0].body
    assert "Bob" not in sent_to(bob)[0].subject
    emails.clock_pass()
    emails.catch_up()
    assert len(mail.outbox) == 2


# --- A failing mail server ------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("backend", ["FailingBackend", "RefusingConnectionBackend"])
def test_a_failing_mail_server_is_logged_and_retried_by_the_next_pass(settings, backend, caplog):
    settings.EMAIL_BACKEND = f"tests.mail_backends.{backend}"
    alice, bob = verified(), verified()
    game = game_between(alice, bob)
    before = game.version
    for _ in range(3):
        game.refresh_from_db()
        play.draw(game.pk, alice, game.version)
    game.refresh_from_db()
    assert game.to_move == bob and game.version == before + 3
    emails.clock_pass()  # the email fails: logged, not raised
    assert "could not send" in caplog.text
    # The failed email's claim is released, so the next pass retries it.
    assert not Notice.objects.filter(user=bob).exists()
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox = []
    emails.clock_pass()
    assert len(sent_to(bob)) == 1


@pytest.mark.django_db(transaction=True)
def test_an_unexpected_notification_error_never_stops_the_clock(settings, monkeypatch, caplog):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

    def broken(*args, **kwargs):
        raise RuntimeError("bug in notifications")

    monkeypatch.setattr(pipeline, "turns_of", broken)
    alice, bob = verified(), verified()
    game = game_between(alice, bob)
    with time_machine.travel(game.turn_deadline + datetime.timedelta(seconds=1)):
        assert background_pass() == 1  # the timeout is played; the email step fails alone
    assert "bug in notifications" in caplog.text  # logged, for one user, not raised
    assert Game.objects.get(pk=game.pk).to_move == bob


def test_catch_up_only_looks_back_an_hour():
    alice, bob = verified(), verified()
    game = game_between(alice, bob)
    with time_machine.travel(game.turn_started_at + datetime.timedelta(hours=2)):
        emails.catch_up()
    assert mail.outbox == []
    with time_machine.travel(game.turn_started_at + datetime.timedelta(minutes=10)):
        emails.catch_up()
    assert len(mail.outbox) == 1


# --- Unsubscribe headers --------------------------------------------------------------


@pytest.mark.parametrize("pref", ["your_move", "reminders", "results"])
def test_unsubscribe_token_round_trips(pref):
    alice = verified()
    user, read = tokens.read_unsubscribe_token(tokens.unsubscribe_token(alice, pref))
    assert (user, read) == (alice, pref)


def test_every_email_carries_its_own_one_click_unsubscribe():
    alice, bob = verified(), verified()
    game_between(alice, bob)
    emails.clock_pass()
    message = mail.outbox[0]
    header = message.extra_headers["List-Unsubscribe"]
    assert header.startswith("<https://carousel.example/notifications/unsubscribe/")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    token = header.strip("<>").rstrip("/").rsplit("/", 1)[1]
    assert tokens.read_unsubscribe_token(token) == (alice, "your_move")
    assert header.strip("<>") in message.body


# --- A worker killed between the claim and the send -----------------------------------


def test_a_claim_left_by_a_killed_worker_is_sent_once_after_it_goes_stale():
    alice, bob = verified(), verified()
    game = game_between(alice, bob)
    # A worker claimed alice's "your move" and was killed before the mail server had it.
    [(_game, claim)] = Notice.claim(alice, [game], Notice.Kind.YOUR_MOVE)
    assert claim.turn_started_at == game.turn_started_at and claim.sent_at is None
    emails.clock_pass()
    assert sent_to(alice) == []  # still claimed: maybe a worker is sending it right now
    with time_machine.travel(timezone.now() + emails.STALE + datetime.timedelta(seconds=1)):
        emails.clock_pass()
        emails.clock_pass()
    assert len(sent_to(alice)) == 1
    notice = Notice.objects.get(user=alice, kind=Notice.Kind.YOUR_MOVE)
    assert notice.sent_at is not None


class Killed(BaseException):
    """The worker's SIGKILL, as seen from the pass: nothing after it runs (no ``except
    Exception`` catches it, no release, no stamp)."""


@pytest.mark.parametrize("server_had_it", [True, False])
def test_a_pass_killed_during_the_send_never_sends_that_email_again(monkeypatch, server_had_it):
    alice, bob = verified(), verified()
    game_between(alice, bob)
    real_send = mail.EmailMessage.send

    def send_then_die(message, *args, **kwargs):
        if server_had_it:
            real_send(message, *args, **kwargs)
        raise Killed

    monkeypatch.setattr(mail.EmailMessage, "send", send_then_die)
    with pytest.raises(Killed):
        emails.clock_pass()
    monkeypatch.undo()
    assert len(sent_to(alice)) == int(server_had_it)
    # Later passes, another worker's included, and long after any claim went stale: the
    # notice was stamped before the send began, so it is never sent a second time. The
    # price, when the kill came before the mail server had it, is that email lost.
    emails.clock_pass()
    with time_machine.travel(timezone.now() + emails.STALE + datetime.timedelta(minutes=1)):
        emails.clock_pass()
        emails.clock_pass()
    assert len(sent_to(alice)) == int(server_had_it)
    assert Notice.objects.get(user=alice, kind=Notice.Kind.YOUR_MOVE).sent_at is not None


def test_a_sent_email_is_never_sent_again_however_old_its_notice():
    alice, bob = verified(), verified()
    game_between(alice, bob)
    emails.clock_pass()
    assert len(sent_to(alice)) == 1
    with time_machine.travel(timezone.now() + emails.STALE + datetime.timedelta(minutes=5)):
        emails.clock_pass()
    assert len(sent_to(alice)) == 1
