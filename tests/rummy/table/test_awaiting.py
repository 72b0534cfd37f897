"""The header's count of games awaiting the user's move, kept by a socket from the
broadcasts (``rummy.table.awaiting``): by the table's socket, which carries the badge
on the table page (no ``/ws/me/`` there), and by ``/ws/me/`` on every other page."""

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from rummy import play
from rummy.models import Game
from rummy.play import broadcast
from rummy.table.awaiting import Awaiting, news
from tests.rummy.conftest import start_two
from tests.rummy.table.test_consumers import connect

# --- the count itself ------------------------------------------------------------------


def test_the_newest_version_of_a_game_wins():
    count = Awaiting(7)
    count.games = {1: (10, False), 2: (4, True)}
    assert count.count == 1
    assert count.told(1, 11, True) is True and count.count == 2
    # Older news of a game, arriving late, changes nothing.
    assert count.told(1, 9, False) is False and count.count == 2
    assert count.told(2, 4, False) is False and count.count == 2
    assert count.told(2, 5, False) is True and count.count == 1
    # The same answer at a newer version: no change to show.
    assert count.told(1, 12, True) is False


def test_a_game_not_read_before_is_kept_when_it_does_not_await_the_user():
    count = Awaiting(7)
    assert count.told(3, 5, False) is False and count.count == 0
    # Older news of it, now known as older.
    assert count.told(3, 4, True) is False and count.count == 0


def test_a_game_not_read_before_that_awaits_the_user_asks_for_the_database():
    """It may have just started, or be late news of a game that ended since the read:
    only the database can tell."""
    count = Awaiting(7)
    assert count.told(3, 5, True) is None and count.count == 0


def test_news_without_a_game_asks_for_the_database():
    assert news({"type": "moves.changed"}) is None
    assert news({"game_id": "1", "version": 2, "yours": True}) is None
    assert news({"game_id": 1, "version": 2, "yours": True}) == (1, 2, True)


def test_load_reads_the_running_games_of_the_user(league, cast):
    game = start_two(league, cast)  # alice to move
    alice, bob = Awaiting(cast["alice"].pk), Awaiting(cast["bob"].pk)
    alice.load()
    bob.load()
    assert alice.games == {game.pk: (game.version, True)} and alice.count == 1
    assert bob.games == {game.pk: (game.version, False)} and bob.count == 0
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    alice.load()
    assert alice.games == {} and alice.count == 0


# --- what the write path tells ---------------------------------------------------------


def test_a_turn_change_tells_both_players_which_game_version_and_whose(
    league, cast, monkeypatch, django_capture_on_commit_callbacks
):
    game = start_two(league, cast)
    sent = []
    monkeypatch.setattr(broadcast, "_send_all", _capture(sent))
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(3):  # alice draws three times: the turn passes to bob (R3.4)
            play.draw(game.pk, cast["alice"], game.version + i)
    told = [m for group, m in sent if m["type"] == "moves.changed"]
    version = game.version + 3
    assert sorted(told, key=lambda m: m["yours"]) == [
        {"type": "moves.changed", "game_id": game.pk, "version": version, "yours": False},
        {"type": "moves.changed", "game_id": game.pk, "version": version, "yours": True},
    ]
    groups = {group: m["yours"] for group, m in sent if m["type"] == "moves.changed"}
    assert groups == {
        broadcast.user_group(cast["alice"].pk): False,
        broadcast.user_group(cast["bob"].pk): True,
    }


def _capture(sent):
    async def send_all(layer, messages):
        sent.extend(messages)

    return send_all


# --- the sockets -----------------------------------------------------------------------


@pytest.fixture
def loads(monkeypatch):
    """How many times a socket read the count from the database."""
    calls = []
    real = Awaiting.load

    def load(self):
        calls.append(self.user_id)
        return real(self)

    monkeypatch.setattr(Awaiting, "load", load)
    return calls


def _badge(frame):
    start = frame.find('id="move-count"')
    return frame[start : frame.find("</span>", start)] if start >= 0 else None


def _shows(frame, n):
    badge = _badge(frame)
    return badge is not None and (badge.endswith(f">{n}") if n else "empty" in badge)


# The sockets tests run the real ASGI stack, its database calls in threads.
live = pytest.mark.django_db(transaction=True)


@live
async def test_the_table_socket_carries_the_badge_in_the_frame_of_the_turn(league, cast, loads):
    game = await database_sync_to_async(start_two)(league, cast)
    alice, ok = await connect(f"/ws/games/{game.pk}/?moves=1", cast["alice"])
    bob, ok2 = await connect(f"/ws/games/{game.pk}/?moves=0", cast["bob"])
    try:
        assert ok and ok2
        # The pages show the right counts already: the first frames leave the badge out.
        assert _badge(await alice.receive_from()) is None
        assert _badge(await bob.receive_from()) is None
        read_on_connect = len(loads)
        for i in range(2):  # draws within alice's turn: no count changes
            await database_sync_to_async(play.draw)(game.pk, cast["alice"], game.version + i)
            assert _badge(await alice.receive_from()) is None
            assert _badge(await bob.receive_from()) is None
        await database_sync_to_async(play.draw)(game.pk, cast["alice"], game.version + 2)
        # The turn passes to bob: each badge comes in the frame that shows it, one frame.
        alice_frame, bob_frame = await alice.receive_from(), await bob.receive_from()
        assert f'data-version="{game.version + 3}"' in alice_frame and _shows(alice_frame, 0)
        assert f'data-version="{game.version + 3}"' in bob_frame and _shows(bob_frame, 1)
        assert await alice.receive_nothing(timeout=0.2)
        assert await bob.receive_nothing(timeout=0.2)
        assert len(loads) == read_on_connect  # counted without the database
    finally:
        await alice.disconnect()
        await bob.disconnect()


@live
async def test_the_table_socket_follows_the_users_other_games_too(league, cast, loads):
    here = await database_sync_to_async(start_two)(league, cast)
    there = await database_sync_to_async(start_two)(league, cast)
    bob, ok = await connect(f"/ws/games/{here.pk}/", cast["bob"])
    try:
        assert ok
        # No ?moves=: the page's count is not known, so the first frame carries it.
        assert _shows(await bob.receive_from(), 0)
        read_on_connect = len(loads)
        for i in range(3):  # alice's turn passes to bob in the other game
            await database_sync_to_async(play.draw)(there.pk, cast["alice"], there.version + i)
        frame = await bob.receive_from()
        assert _shows(frame, 1) and "data-version" not in frame  # the badge alone
        assert await bob.receive_nothing(timeout=0.2)
        assert len(loads) == read_on_connect
        # A change that names no game (seats taken at an open table): counted again.
        await database_sync_to_async(broadcast.game_updated)(there.pk, there.version + 3)
        assert await bob.receive_nothing(timeout=0.2)  # read again; the count is the same
        assert len(loads) == read_on_connect + 1
    finally:
        await bob.disconnect()


@live
@pytest.mark.parametrize("moves", ["%C2%B2", "%D9%A3", "-1", "1e3", "9" * 40, ""])
async def test_a_count_in_the_address_that_is_no_count_is_ignored(league, cast, moves):
    game = await database_sync_to_async(start_two)(league, cast)
    bob, ok = await connect(f"/ws/games/{game.pk}/?moves={moves}", cast["bob"])
    try:
        assert ok
        # Taken as not known: the first frame carries the count.
        assert _shows(await bob.receive_from(), 0)
    finally:
        await bob.disconnect()


@live
async def test_a_game_that_starts_is_counted_from_the_database(league, cast, loads):
    here = await database_sync_to_async(start_two)(league, cast)
    bob, ok = await connect(f"/ws/games/{here.pk}/?moves=0", cast["bob"])
    try:
        assert ok
        await bob.receive_from()
        table = await database_sync_to_async(play.open_table)(league, cast["bob"], 2)
        await bob.receive_nothing(timeout=0.2)  # an open table awaits nobody
        read = len(loads)
        # Alice sits down and the game starts; its first move may be bob's. A game the
        # socket did not know that awaits its user is counted from the database.
        await database_sync_to_async(play.take_seat)(table.pk, cast["alice"])
        started = await database_sync_to_async(Game.objects.get)(pk=table.pk)
        frames = []
        while not await bob.receive_nothing(timeout=0.3):
            frames.append(await bob.receive_from())
        badges = [frame for frame in frames if _badge(frame) is not None]
        if started.to_move_id == cast["bob"].pk:
            assert badges and _shows(badges[-1], 1)
            assert len(loads) > read
        else:
            assert not badges or _shows(badges[-1], 0)
    finally:
        await bob.disconnect()


@live
async def test_the_header_socket_follows_the_news_without_the_database(league, cast, loads):
    game = await database_sync_to_async(start_two)(league, cast)
    bob, ok = await connect("/ws/me/", cast["bob"])
    try:
        assert ok
        assert _shows(await bob.receive_from(), 0)
        read_on_connect = len(loads)
        for i in range(3):
            await database_sync_to_async(play.draw)(game.pk, cast["alice"], game.version + i)
        assert _shows(await bob.receive_from(), 1)
        assert await bob.receive_nothing(timeout=0.2)
        assert len(loads) == read_on_connect
    finally:
        await bob.disconnect()


# --- the page --------------------------------------------------------------------------


def test_the_table_page_opens_no_header_socket_and_names_its_count(league, cast):
    game = start_two(league, cast)
    client = Client()
    client.force_login(cast["alice"])
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'ws-connect="/ws/me/' not in page
    assert f'ws-connect="/ws/games/{game.pk}/?sort=suit&amp;stamp=' in page
    assert "&amp;moves=1" in page
    # Other pages keep the header's own socket.
    assert 'ws-connect="/ws/me/"' in client.get("/leagues/").content.decode()
