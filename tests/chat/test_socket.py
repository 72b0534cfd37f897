"""The chat over the game's own socket (ws/games/<id>/): a "chat" frame is stored by the
chat's door, and each socket of the game gets only the new message, rendered for its
user; a page that reconnects gets only what it missed."""

import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from chat.models import LeagueChat, Message
from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def _cookie(user, language):
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return f"{settings.SESSION_COOKIE_NAME}={session}; {settings.LANGUAGE_COOKIE_NAME}={language}"


async def connect(game_id, user, language="en", query=""):
    headers = [(b"origin", b"http://testserver")]
    if user.is_authenticated:
        cookie = await database_sync_to_async(_cookie)(user, language)
        headers.append((b"cookie", cookie.encode()))
    communicator = WebsocketCommunicator(
        application, f"/ws/games/{game_id}/{query}", headers=headers
    )
    connected, _code = await communicator.connect()
    return communicator, connected


async def joined(game_id, user, language="en", query=""):
    """A socket past its first frame (the view)."""
    communicator, connected = await connect(game_id, user, language, query)
    assert connected
    await communicator.receive_from()
    return communicator


def send(text="", phrase="", token="t1"):
    return json.dumps({"chat": "send", "text": text, "phrase": phrase, "token": token})


def ids(frame):
    return [int(i) for i in re.findall(r'id="chat-msg-(\d+)"', frame)]


async def test_a_message_reaches_every_reader_alone_and_once(world):
    game, cast = world["game"], world["cast"]
    carol = await joined(game.pk, cast["carol"])
    erin = await joined(game.pk, cast["erin"])
    hank = await joined(game.pk, cast["hank"])
    alice = await joined(game.pk, cast["alice"])
    try:
        await carol.send_to(text_data=send("Good evening <b>all</b>"))
        answer = await carol.receive_from()
        # The sender's answer: a fresh token, the field emptied; then her copy.
        assert 'id="chat-token"' in answer and 'data-clear="1"' in answer
        mine = await carol.receive_from()
        (message,) = await database_sync_to_async(list)(Message.objects.all())
        for sock in (carol, erin, hank, alice):
            frame = mine if sock is carol else await sock.receive_from()
            # Only the new message, appended to the thread: never the game's view again.
            assert ids(frame) == [message.pk]
            assert 'hx-swap-oob="beforeend"' in frame and 'id="game-view"' not in frame
            assert "Good evening &lt;b&gt;all&lt;/b&gt;" in frame
            assert await sock.receive_nothing(timeout=0.1)
    finally:
        for sock in (carol, erin, hank, alice):
            await sock.disconnect()


async def test_a_blocked_authors_message_does_not_reach_the_blocker(world):
    game, cast = world["game"], world["cast"]
    carol = await joined(game.pk, cast["carol"])
    gus = await joined(game.pk, cast["gus"])
    hank = await joined(game.pk, cast["hank"])
    try:
        await gus.send_to(text_data=send("hello from gus"))
        await gus.receive_from()  # his token
        assert "hello from gus" in await gus.receive_from()
        assert "hello from gus" in await hank.receive_from()
        assert await carol.receive_nothing(timeout=0.2)
    finally:
        for sock in (carol, gus, hank):
            await sock.disconnect()


async def test_a_spectator_writes_only_when_the_league_allows_it(world):
    game, cast = world["game"], world["cast"]
    hank = await joined(game.pk, cast["hank"])
    carol = await joined(game.pk, cast["carol"])
    try:
        await hank.send_to(text_data=send("may I?"))
        refused = await hank.receive_from()
        assert "Only the players may write here" in refused
        assert await carol.receive_nothing(timeout=0.2)
        await database_sync_to_async(LeagueChat.objects.create)(
            league=world["league"], spectators_may_talk=True
        )
        await hank.send_to(text_data=send("may I?", token="t2"))
        await hank.receive_from()
        assert "may I?" in await carol.receive_from()
    finally:
        for sock in (carol, hank):
            await sock.disconnect()


async def test_a_muted_member_is_refused_with_the_reason(world):
    game, cast = world["game"], world["cast"]
    erin = await joined(game.pk, cast["erin"])
    carol = await joined(game.pk, cast["carol"])
    try:
        await erin.send_to(text_data=send("let me talk"))
        refused = await erin.receive_from()
        assert "You are muted" in refused and "Shouting at everyone" in refused
        assert await carol.receive_nothing(timeout=0.2)
        assert await database_sync_to_async(Message.objects.count)() == 0
    finally:
        for sock in (carol, erin):
            await sock.disconnect()


async def test_a_reconnecting_page_gets_only_what_it_missed(world):
    game, cast = world["game"], world["cast"]
    carol = await joined(game.pk, cast["carol"])
    try:
        for n in range(3):
            await carol.send_to(text_data=send(f"message {n}", token=f"m{n}"))
            await carol.receive_from()
            await carol.receive_from()
    finally:
        await carol.disconnect()
    first, second, third = await database_sync_to_async(list)(
        Message.objects.values_list("pk", flat=True)
    )
    hank, _ok = await connect(game.pk, cast["hank"], query=f"?chat={first}")
    try:
        # In the same frame as the view (a page without a stamp gets the whole view).
        missed = await hank.receive_from()
        assert ids(missed) == [second, third]
        assert await hank.receive_nothing(timeout=0.1)
    finally:
        await hank.disconnect()
    # A page that shows everything gets nothing more.
    hank, _ok = await connect(game.pk, cast["hank"], query=f"?chat={third}")
    try:
        assert ids(await hank.receive_from()) == []
    finally:
        await hank.disconnect()
