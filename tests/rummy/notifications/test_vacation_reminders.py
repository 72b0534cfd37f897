"""Reminders follow a deadline moved by a vacation: due when a quarter of the
turn's own time is left, not a quarter of the time it spans with the vacation in it, so
that no reminder comes in the middle of the vacation. By email and by push alike: both
are the one pipeline's."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail

from leagues import vacations
from rummy import engine
from rummy.models import Game
from rummy.notifications import emails, pipeline, pushes
from tests.factories import make_league, make_season, make_user, started_game

# The clock hears of the vacation after commit.
pytestmark = pytest.mark.django_db(transaction=True)

START = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
H = timedelta(hours=1)


@pytest.fixture(autouse=True)
def _mail(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def test_no_reminder_during_the_vacation_and_one_before_the_moved_deadline():
    with time_machine.travel(START, tick=False):
        alice, bob = make_user(email_verified=True), make_user(email_verified=True)
        league = make_league(alice, members=[bob])
        make_season(league, turn_seconds=3 * 3600, vacation_days=3)
        state = engine.position(hands=["2C 3D", "KS QS"], stock="9H 5D 6D 7C 8C 2S 3S")
        game = started_game([alice, bob], league=league, state=state)
    mover = game.to_move
    with time_machine.travel(START + H, tick=False):
        vacations.start_now(mover, game.season, 1, now=START + H)
    deadline = Game.objects.get(pk=game.pk).turn_deadline
    assert deadline == START + 3 * H + timedelta(days=1)
    mail.outbox.clear()
    during = deadline - 5 * H  # still on vacation (it ends two hours before the deadline)
    with time_machine.travel(during, tick=False):
        assert emails.send_due_reminders(during) == 0
    # A quarter of the turn's three hours: 45 minutes before the deadline.
    with time_machine.travel(deadline - 50 * timedelta(minutes=1), tick=False):
        assert emails.send_due_reminders(deadline - 50 * timedelta(minutes=1)) == 0
    with time_machine.travel(deadline - 40 * timedelta(minutes=1), tick=False):
        assert emails.send_due_reminders(deadline - 40 * timedelta(minutes=1)) == 1
    assert "Reminder" in mail.outbox[-1].subject


@pytest.mark.parametrize("sender", [emails.EMAIL, pushes.PUSH], ids=["email", "push"])
def test_both_senders_remind_after_the_vacation_only(sender, request):
    with time_machine.travel(START, tick=False):
        alice, bob = make_user(email_verified=True), make_user(email_verified=True)
        league = make_league(alice, members=[bob])
        make_season(league, turn_seconds=3 * 3600, vacation_days=3)
        state = engine.position(hands=["2C 3D", "KS QS"], stock="9H 5D 6D 7C 8C 2S 3S")
        game = started_game([alice, bob], league=league, state=state)
    mover = game.to_move
    if sender is pushes.PUSH:
        request.getfixturevalue("service").subscribe(mover)
    with time_machine.travel(START + H, tick=False):
        vacations.start_now(mover, game.season, 1, now=START + H)
    deadline = Game.objects.get(pk=game.pk).turn_deadline
    for before, sent in (
        (5 * H, 0),
        (50 * timedelta(minutes=1), 0),
        (40 * timedelta(minutes=1), 1),
    ):
        with time_machine.travel(deadline - before, tick=False):
            assert pipeline.reminders(sender, deadline - before, sender.ready()) == sent
