"""One user holds at most MAX_SOCKETS_PER_USER sockets, table and header sockets
together: one more is closed with code 4429 before anything is rendered for it; a
closed socket frees its place, and places left by a crashed worker expire."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from rummy.table import sockets
from tests.rummy.conftest import start_two

pytestmark = pytest.mark.django_db(transaction=True)


def _cookie(user):
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


async def connect(path, user):
    cookie = await database_sync_to_async(_cookie)(user)
    communicator = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://testserver"), (b"cookie", cookie.encode())]
    )
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def assert_refused_for_the_cap(communicator):
    output = await communicator.receive_output(timeout=2)
    # Closed at once: no view, no hand, not even a count.
    assert output["type"] == "websocket.close", output
    assert output["code"] == sockets.CLOSE_TOO_MANY


@pytest.fixture
def table(league, cast):
    return start_two(league, cast), cast


async def test_one_socket_over_the_cap_is_closed_unrendered_and_a_closed_one_frees_a_place(
    table, settings
):
    settings.MAX_SOCKETS_PER_USER = 3
    game, cast = await database_sync_to_async(lambda: table)()
    open_ = [
        await connect(f"/ws/games/{game.pk}/", cast["alice"]),
        await connect("/ws/me/", cast["alice"]),
        await connect(f"/ws/games/{game.pk}/", cast["alice"]),
    ]
    try:
        for socket in open_:
            await socket.receive_from()
        for path in (f"/ws/games/{game.pk}/", "/ws/me/"):
            extra = await connect(path, cast["alice"])
            await assert_refused_for_the_cap(extra)
            await extra.disconnect()
        # Another user has places of their own.
        bob = await connect(f"/ws/games/{game.pk}/", cast["bob"])
        assert 'id="game-view"' in await bob.receive_from()
        await bob.disconnect()
        # A socket that closes gives its place back (and refused ones took none).
        await open_.pop().disconnect()
        again = await connect(f"/ws/games/{game.pk}/", cast["alice"])
        assert 'id="hand"' in await again.receive_from()
        open_.append(again)
        extra = await connect("/ws/me/", cast["alice"])
        await assert_refused_for_the_cap(extra)
        await extra.disconnect()
    finally:
        for socket in open_:
            await socket.disconnect()


async def test_a_socket_turned_away_for_its_game_gives_its_place_back(table, settings):
    settings.MAX_SOCKETS_PER_USER = 1
    game, cast = await database_sync_to_async(lambda: table)()
    dave = cast["dave"]  # an outsider: the game's socket is refused after counting him
    for _ in range(3):
        cookie = await database_sync_to_async(_cookie)(dave)
        stranger = WebsocketCommunicator(
            application,
            f"/ws/games/{game.pk}/",
            headers=[(b"origin", b"http://testserver"), (b"cookie", cookie.encode())],
        )
        connected, _ = await stranger.connect()
        assert not connected
        await stranger.disconnect()
    badge = await connect("/ws/me/", dave)
    try:
        assert 'id="move-count"' in await badge.receive_from()
    finally:
        await badge.disconnect()


async def test_places_left_by_a_crashed_worker_expire(table, settings, monkeypatch):
    settings.MAX_SOCKETS_PER_USER = 2
    monkeypatch.setattr(sockets, "COUNT_TTL", 1)
    _game, cast = await database_sync_to_async(lambda: table)()
    # A worker took two places and died without its disconnects.
    assert sockets.take_place(cast["alice"].pk) and sockets.take_place(cast["alice"].pk)
    refused = await connect("/ws/me/", cast["alice"])
    await assert_refused_for_the_cap(refused)
    await refused.disconnect()
    import asyncio

    await asyncio.sleep(1.2)
    badge = await connect("/ws/me/", cast["alice"])
    try:
        assert 'id="move-count"' in await badge.receive_from()
    finally:
        await badge.disconnect()


def test_the_count_never_goes_below_zero(cast):
    user_id = cast["alice"].pk
    sockets.free_place(user_id)  # nothing counted: nothing to free
    assert sockets.take_place(user_id)
    sockets.free_place(user_id)
    sockets.free_place(user_id)  # one too many (e.g. after the key came back)
    from django.core.cache import cache

    assert cache.get(sockets._count_key(user_id)) == 0
