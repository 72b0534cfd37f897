"""End to end over the real ASGI stack: when a game becomes a player's move, their
header badge (``ws/me/``) updates live and they get one "your move" email, whether
another player moved or the turn clock played a timeout."""

import datetime
import re

import pytest
import time_machine
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core import mail
from django.test import Client

from config.asgi import application
from rummy import engine, play
from rummy.background import background_pass
from rummy.models import Game
from rummy.notifications import emails
from tests.factories import make_league, make_season, make_user, started_game

pytestmark = pytest.mark.django_db(transaction=True)

STOCK = "9H 5D 6D 7C 8C 2S 3S 4S 5S 6S"


@pytest.fixture(autouse=True)
def _locmem_email(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def _cookie(user):
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


async def me_socket(user):
    cookie = await database_sync_to_async(_cookie)(user)
    communicator = WebsocketCommunicator(
        application,
        "/ws/me/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie.encode())],
    )
    connected, _code = await communicator.connect()
    assert connected
    return communicator


def _setup(games=1):
    alice = make_user(email_verified=True)
    bob = make_user(email_verified=True)
    league = make_league(alice, members=[bob])
    # One-hour turns: the in-memory channel layer forgets group members after a day of
    # (travelled) time, so the clock test must not jump further than that.
    make_season(league, turn_seconds=3600)
    state = engine.position(hands=["2C 3D", "KS QS"], stock=STOCK)  # alice to move
    made = [started_game([alice, bob], league=league, state=state) for _ in range(games)]
    mail.outbox.clear()
    return alice, bob, made


def _badge_shows(frame, n):
    return 'id="move-count"' in frame and f">{n}</span>" in frame


async def _drain_until(communicator, n, limit=10):
    """Read frames until the badge shows ``n`` (each change sends one frame)."""
    frame = ""
    for _ in range(limit):
        frame = await communicator.receive_from(timeout=5)
        if _badge_shows(frame, n):
            return frame
    raise AssertionError(f"the badge never showed {n}; last frame: {frame}")


async def test_another_players_move_updates_the_badge_and_the_clock_emails_once():
    alice, bob, (game,) = await database_sync_to_async(_setup)()
    bob_socket = await me_socket(bob)
    try:
        first = await bob_socket.receive_from(timeout=5)
        assert 'id="move-count"' in first and 'class="badge empty"' in first
        for i in range(3):  # R3.4: alice's third draw passes the turn to bob
            await database_sync_to_async(play.draw)(game.pk, alice, game.version + i)
        frame = await _drain_until(bob_socket, 1)
        assert 'hx-swap-oob="true"' in frame
        assert mail.outbox == []  # the moves' own requests send nothing
        await database_sync_to_async(emails.clock_pass)()
        assert [m.to for m in mail.outbox if m.to == [bob.email]] == [[bob.email]]
    finally:
        await bob_socket.disconnect()


async def test_a_timeout_played_by_the_clock_updates_the_badge():
    _alice, bob, (game, second) = await database_sync_to_async(_setup)(games=2)
    bob_socket = await me_socket(bob)
    try:
        await bob_socket.receive_from(timeout=5)
        deadline = max(game.turn_deadline, second.turn_deadline)
        with time_machine.travel(deadline + datetime.timedelta(seconds=1)):
            played = await database_sync_to_async(background_pass)()
        assert played == 2
        await _drain_until(bob_socket, 2)
        to_bob = [m for m in mail.outbox if m.to == [bob.email]]
        # Two games became bob's move in one clock pass: each is announced exactly once.
        listed = sorted(g for m in to_bob for g in re.findall(r"/games/(\d+)/", m.body))
        assert listed == sorted([str(game.pk), str(second.pk)])
        assert (
            await database_sync_to_async(
                Game.objects.filter(to_move=bob, status=Game.Status.ACTIVE).count
            )()
            == 2
        )
    finally:
        await bob_socket.disconnect()
