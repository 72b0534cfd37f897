"""The permission matrix on the socket lane: who may open the game's socket at all, who
may send a chat frame over it, and whose copy of a message arrives."""

import pytest
from channels.db import database_sync_to_async

from chat.models import Message
from tests.chat.conftest import CHAT_ROLES, person
from tests.chat.test_permissions import WRITE
from tests.chat.test_socket import connect, send

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("role", list(CHAT_ROLES))
async def test_sending_a_chat_frame(world, role):
    communicator, connected = await connect(world["game"].pk, person(world, role))
    if WRITE[role] in (404, "login"):
        # No socket at all: logged out, or an outsider of a private league's game.
        assert not connected
        await communicator.disconnect()
        return
    try:
        assert connected
        await communicator.receive_from()
        await communicator.send_to(text_data=send("from the socket"))
        answer = await communicator.receive_from()
        stored = await database_sync_to_async(
            Message.objects.filter(text="from the socket").exists
        )()
        assert ("ok" if stored else "refused") == WRITE[role]
        if not stored:
            assert 'class="chat-flash shown"' in answer
    finally:
        await communicator.disconnect()


async def test_every_reader_gets_a_copy_but_the_blocker_of_its_author(world):
    readers = [r for r in CHAT_ROLES if r not in ("outsider", "anonymous")]
    sockets = {}
    try:
        for role in readers:
            sockets[role], ok = await connect(world["game"].pk, person(world, role))
            assert ok
            await sockets[role].receive_from()
        await sockets["blocked"].send_to(text_data=send("gus speaking"))
        await sockets["blocked"].receive_from()  # his token
        for role in readers:
            if role == "member":  # Carol blocked Gus
                assert await sockets[role].receive_nothing(timeout=0.2)
            else:
                assert "gus speaking" in await sockets[role].receive_from()
    finally:
        for communicator in sockets.values():
            await communicator.disconnect()
