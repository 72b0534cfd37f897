"""New board posts appear live on an open board page, over the header's socket that
every page already has (``ws/me/?board=<slug>``): each member's socket gets only the
new post, rendered for them (their language, their blocks); an outsider's socket is
never told, whatever it asks for."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from chat import board
from chat.models import BoardReadMark
from config.asgi import application
from tests.chat.test_socket import _cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def board_socket(user, slug, language="en"):
    """The header socket of ``user``'s board page, past its first frame (the badge)."""
    cookie = await database_sync_to_async(_cookie)(user, language)
    communicator = WebsocketCommunicator(
        application,
        f"/ws/me/?board={slug}",
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie.encode())],
    )
    connected, _code = await communicator.connect()
    assert connected
    await communicator.receive_from()
    return communicator


async def test_a_new_post_reaches_the_open_board_pages_of_its_readers(world):
    cast, league = world["cast"], world["league"]
    hank = await board_socket(cast["hank"], league.slug, "lv")
    alice = await board_socket(cast["alice"], league.slug)
    dave = await board_socket(cast["dave"], league.slug)  # an outsider asks for it
    try:
        found, _ = await database_sync_to_async(board.post)(
            cast["carol"], league, "Season starts <b>Monday</b>", "live-1"
        )
        frames = {}
        for name, sock in (("hank", hank), ("alice", alice)):
            frame = frames[name] = await sock.receive_from()
            assert f'id="post-{found.pk}"' in frame
            assert 'hx-swap-oob="afterbegin:#board-posts"' in frame
            assert "Season starts &lt;b&gt;Monday&lt;/b&gt;" in frame
        assert await dave.receive_nothing()
        with translation.override("lv"):
            report_link = gettext("Report or block")
        assert report_link != "Report or block" and report_link in frames["hank"]
        assert "Actions" in frames["alice"]  # an admin's way to its pin, hide and mute
        # Hank reads it in Latvian; the page is open, so it is read.
        mark = await database_sync_to_async(BoardReadMark.objects.get)(user=cast["hank"])
        assert mark.last_seen == found.pk
    finally:
        for sock in (hank, alice, dave):
            await sock.disconnect()


async def test_a_blocked_authors_post_is_not_shown_live(world):
    cast, league = world["cast"], world["league"]
    carol = await board_socket(cast["carol"], league.slug)
    hank = await board_socket(cast["hank"], league.slug)
    try:
        await database_sync_to_async(board.post)(cast["gus"], league, "from gus", "g")
        assert "from gus" in await hank.receive_from()
        assert await carol.receive_nothing()  # Carol blocked Gus
    finally:
        await carol.disconnect()
        await hank.disconnect()


async def test_a_socket_without_the_board_or_with_junk_hears_nothing(world):
    cast, league = world["cast"], world["league"]
    socks = [
        await board_socket(cast["hank"], "no-such-league"),
        await board_socket(cast["hank"], "%0A<script>"),
        await board_socket(cast["hank"], league.slug + "%20"),
        await board_socket(cast["hank"], "x" * 5000),
        await board_socket(cast["hank"], "board=" + league.slug),
    ]
    try:
        await database_sync_to_async(board.post)(cast["carol"], league, "hello", "h")
        for sock in socks:
            assert await sock.receive_nothing()
    finally:
        for sock in socks:
            await sock.disconnect()


def test_the_board_page_opens_its_socket_with_the_board(world):
    client = Client()
    client.force_login(world["cast"]["hank"])
    page = client.get(reverse("chat:board", args=[world["league"].slug])).content.decode()
    assert f'ws-connect="/ws/me/?board={world["league"].slug}"' in page
    assert 'id="board-posts"' in page
