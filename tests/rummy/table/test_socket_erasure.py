"""Deleting an account (``leagues.erasure``) closes every open socket of its user, on
every browser, and the other players' open game pages redraw at once with the neutral
name in place of theirs."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.urls import reverse

from config.asgi import application
from leagues.models import User
from rummy.table import sockets
from tests.cast import PASSWORD
from tests.rummy.conftest import start_two
from tests.rummy.table.test_socket_sessions import closed_with, logged_in, session_of

pytestmark = pytest.mark.django_db(transaction=True)

# Only a failure waits this long (a loaded machine renders a first page slowly).
PATIENCE = 20


async def open_socket(path, client):
    cookie = f"{settings.SESSION_COOKIE_NAME}={session_of(client)}"
    communicator = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://testserver"), (b"cookie", cookie.encode())]
    )
    connected, _code = await communicator.connect(timeout=PATIENCE)
    assert connected
    return communicator


@pytest.fixture
def table(league, cast):
    return start_two(league, cast), cast


async def test_deleting_an_account_closes_all_its_sockets_and_tells_the_others(table):
    game, cast = await database_sync_to_async(lambda: table)()
    phone = await database_sync_to_async(logged_in)(cast["bob"])
    laptop = await database_sync_to_async(logged_in)(cast["bob"])
    on_phone = await open_socket(f"/ws/games/{game.pk}/", phone)
    badge = await open_socket("/ws/me/", phone)
    on_laptop = await open_socket(f"/ws/games/{game.pk}/", laptop)
    alice = await open_socket(
        f"/ws/games/{game.pk}/", await database_sync_to_async(logged_in)(cast["alice"])
    )
    for socket in (on_phone, badge, on_laptop, alice):
        first = await socket.receive_from(timeout=PATIENCE)
    assert "Bob" in first
    try:
        response = await database_sync_to_async(laptop.post)(
            reverse("delete_account"), {"password": PASSWORD}
        )
        assert response.status_code == 302
        for socket in (on_phone, badge, on_laptop):
            await closed_with(socket, sockets.CLOSE_SESSION_ENDED, timeout=PATIENCE)
        bob = await database_sync_to_async(User.objects.get)(pk=cast["bob"].pk)
        redrawn = await alice.receive_from(timeout=PATIENCE)
        assert f"Deleted player {bob.pk}" in redrawn and "Bob" not in redrawn
    finally:
        for socket in (on_phone, badge, on_laptop, alice):
            await socket.disconnect()
