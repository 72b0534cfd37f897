"""The home page's "Your move" and "Waiting for others" follow the turn live, as the
header's badge does: the home page opens the header's socket with
``?home=1``, and each frame then carries both lists as out-of-band swaps, read and
rendered for that socket's own user only. Other pages' sockets still get the badge alone.
"""

import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from config.asgi import application
from rummy import engine, play
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


async def me_socket(user, query=""):
    cookie = await database_sync_to_async(_cookie)(user)
    communicator = WebsocketCommunicator(
        application,
        "/ws/me/" + query,
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie.encode())],
    )
    connected, _code = await communicator.connect()
    assert connected
    return communicator


def _setup():
    alice = make_user(display_name="Alice", email_verified=True)
    bob = make_user(display_name="Bob", email_verified=True)
    carol = make_user(display_name="Carol")
    league = make_league(alice, members=[bob, carol])
    make_season(league, turn_seconds=3600)
    state = engine.position(hands=["2C 3D", "KS QS"], stock=STOCK)  # alice to move
    game = started_game([alice, bob], league=league, state=state)
    # A game of others in the same league: never in alice's or bob's frames.
    others = started_game([carol, make_user(display_name="Erin")])
    return alice, bob, game, others


def section(frame, section_id):
    found = re.search(rf'<section[^>]*id="{section_id}".*?</section>', frame, re.S)
    assert found, f"no #{section_id} in {frame[:300]}"
    return found.group(0)


def lists_game(part, game):
    return f'data-game="{game.pk}"' in part


async def receive_until(communicator, check, limit=10):
    frame = ""
    for _ in range(limit):
        frame = await communicator.receive_from(timeout=5)
        if check(frame):
            return frame
    raise AssertionError(f"never got the expected frame; last: {frame[:500]}")


async def test_the_lists_follow_the_turn_live_for_each_player():
    alice, bob, game, others = await database_sync_to_async(_setup)()
    alice_socket = await me_socket(alice, "?home=1")
    bob_socket = await me_socket(bob, "?home=1")
    try:
        first = await alice_socket.receive_from(timeout=5)
        assert 'id="move-count"' in first
        assert lists_game(section(first, "your-move"), game)
        assert 'hx-swap-oob="true"' in section(first, "your-move")
        await bob_socket.receive_from(timeout=5)

        for i in range(3):  # R3.4: alice's third draw passes the turn to bob
            await database_sync_to_async(play.draw)(game.pk, alice, game.version + i)

        def moved_to_waiting(frame):
            return 'id="your-move"' in frame and not lists_game(section(frame, "your-move"), game)

        frame = await receive_until(alice_socket, moved_to_waiting)
        waiting = section(frame, "waiting")
        assert lists_game(waiting, game) and "Bob to move" in waiting
        assert 'hx-swap-oob="true"' in waiting

        def now_bobs(frame):
            return 'id="your-move"' in frame and lists_game(section(frame, "your-move"), game)

        frame = await receive_until(bob_socket, now_bobs)
        # Bob's frame is Bob's own: his games only, not the game of Carol and Erin.
        assert not lists_game(frame, others)
        assert not lists_game(section(frame, "waiting"), game)
    finally:
        await alice_socket.disconnect()
        await bob_socket.disconnect()


async def test_other_pages_get_the_badge_alone():
    alice, _bob, _game, _others = await database_sync_to_async(_setup)()
    socket = await me_socket(alice)
    try:
        frame = await socket.receive_from(timeout=5)
        assert 'id="move-count"' in frame
        assert 'id="your-move"' not in frame and 'id="waiting"' not in frame
    finally:
        await socket.disconnect()


async def test_the_lists_come_in_the_users_language():
    alice, _bob, _game, _others = await database_sync_to_async(_setup)()
    cookie = await database_sync_to_async(_cookie)(alice)
    communicator = WebsocketCommunicator(
        application,
        "/ws/me/?home=1",
        headers=[
            (b"origin", b"http://testserver"),
            (b"cookie", f"{cookie}; {settings.LANGUAGE_COOKIE_NAME}=lv".encode()),
        ],
    )
    connected, _code = await communicator.connect()
    assert connected
    try:
        frame = await communicator.receive_from(timeout=5)
        with translation.override("lv"):
            heading = translation.gettext("Your move")
        assert heading != "Your move"  # the catalogue has it
        assert heading in section(frame, "your-move")
    finally:
        await communicator.disconnect()


def test_the_home_page_asks_its_socket_for_the_lists(client):
    alice = make_user()
    make_league(alice)
    client.force_login(alice)
    page = client.get(reverse("home")).content.decode()
    assert 'ws-connect="/ws/me/?home=1"' in page
    other = client.get(reverse("leagues:list")).content.decode()
    assert 'ws-connect="/ws/me/"' in other
