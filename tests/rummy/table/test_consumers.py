"""The table's WebSocket (ws/games/<id>/) and the header badge socket (ws/me/), through
the real ASGI stack (origin check, session auth) with the in-memory channel layer."""

import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from rummy.models import Game
from tests.rummy.conftest import cards_shown, start_two

pytestmark = pytest.mark.django_db(transaction=True)


def _cookie(user):
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


async def connect(path, user=None, origin=b"http://testserver"):
    headers = [(b"origin", origin)] if origin else []
    if user is not None:
        headers.append((b"cookie", (await database_sync_to_async(_cookie)(user)).encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _code = await communicator.connect()
    return communicator, connected


@pytest.fixture
def setup(league, cast):
    return start_two(league, cast), cast


async def hand_of(game_id, seat):
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    return sorted(str(c) for c in game.engine_state().hands[seat])


async def test_connect_sends_the_users_own_view(setup):
    game, cast = await database_sync_to_async(lambda: setup)()
    alice, ok = await connect(f"/ws/games/{game.pk}/", cast["alice"])
    carol, ok2 = await connect(f"/ws/games/{game.pk}/", cast["carol"])
    try:
        assert ok and ok2
        frame = await alice.receive_from()
        assert 'id="game-view"' in frame and 'id="flash"' in frame
        assert sorted(cards_shown(frame)[0]) == await hand_of(game.pk, 0)
        # No CSRF token in socket frames: they are rendered without a request.
        assert "csrfmiddlewaretoken" not in frame
        spectator = await carol.receive_from()
        assert cards_shown(spectator) == ([], []) and 'id="hand"' not in spectator
    finally:
        await alice.disconnect()
        await carol.disconnect()


async def test_outsider_anonymous_and_foreign_origin_are_turned_away(setup):
    game, cast = await database_sync_to_async(lambda: setup)()
    for user, origin in (
        (cast["dave"], b"http://testserver"),
        (None, b"http://testserver"),
        (cast["alice"], b"http://evil.example"),
    ):
        communicator, ok = await connect(f"/ws/games/{game.pk}/", user, origin)
        assert not ok
        await communicator.disconnect()


async def test_an_action_over_the_socket_updates_everyone_with_their_own_view(setup):
    game, cast = await database_sync_to_async(lambda: setup)()
    sockets = {}
    for name in ("alice", "bob", "carol"):
        sockets[name], ok = await connect(f"/ws/games/{game.pk}/", cast[name])
        assert ok
        await sockets[name].receive_from()
    try:
        await sockets["alice"].send_to(
            text_data=json.dumps(
                {"action": "draw", "version": str(game.version), "HEADERS": {"HX-Request": "true"}}
            )
        )
        frames = {name: await sockets[name].receive_from(timeout=1) for name in sockets}
        for frame in frames.values():
            assert f'data-version="{game.version + 1}"' in frame
        # One frame for the sender too, with her hand (she drew); the others get only
        # what changed for them: not Bob's hand, which did not change.
        assert await sockets["alice"].receive_nothing(timeout=0.2)
        assert sorted(cards_shown(frames["alice"])[0]) == await hand_of(game.pk, 0)
        assert 'id="hand"' not in frames["bob"] and cards_shown(frames["bob"]) == ([], [])
        assert 'id="status"' in frames["bob"] and 'id="players"' in frames["bob"]
        assert cards_shown(frames["carol"]) == ([], [])
        assert 'value="meld"' in frames["alice"] and 'name="action"' not in frames["bob"]
    finally:
        for s in sockets.values():
            await s.disconnect()


async def test_a_refusal_goes_to_the_sender_only(setup):
    game, cast = await database_sync_to_async(lambda: setup)()
    alice, _ = await connect(f"/ws/games/{game.pk}/", cast["alice"])
    bob, _ = await connect(f"/ws/games/{game.pk}/", cast["bob"])
    await alice.receive_from()
    await bob.receive_from()
    try:
        await bob.send_to(text_data=json.dumps({"action": "draw", "version": game.version}))
        frame = await bob.receive_from()
        assert "It is not your turn." in frame and 'id="game-view"' not in frame
        assert await alice.receive_nothing(timeout=0.2)
        for junk in (
            "not json",
            "[1, 2]",
            json.dumps({"action": "x" * 9000}),
            json.dumps({"action": "draw"}),
            json.dumps({"action": "fly", "version": 1}),
        ):
            await bob.send_to(text_data=junk)
            assert 'class="message error"' in await bob.receive_from()
        assert await alice.receive_nothing(timeout=0.2)
        fresh = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        assert fresh.version == game.version
    finally:
        await alice.disconnect()
        await bob.disconnect()


async def test_stale_version_gets_a_message_and_a_fresh_view(setup):
    game, cast = await database_sync_to_async(lambda: setup)()
    alice, _ = await connect(f"/ws/games/{game.pk}/", cast["alice"])
    await alice.receive_from()
    try:
        await alice.send_to(text_data=json.dumps({"action": "draw", "version": game.version - 1}))
        frame = await alice.receive_from()
        assert "The table changed before your action arrived" in frame
        assert f'data-version="{game.version}"' in frame
    finally:
        await alice.disconnect()


async def test_draft_edits_answer_the_player_only(setup):
    game, cast = await database_sync_to_async(lambda: setup)()
    alice, _ = await connect(f"/ws/games/{game.pk}/", cast["alice"])
    bob, _ = await connect(f"/ws/games/{game.pk}/", cast["bob"])
    await alice.receive_from()
    await bob.receive_from()
    try:
        await alice.send_to(text_data=json.dumps({"action": "draw", "version": game.version}))
        await alice.receive_from()
        await bob.receive_from()
        await alice.send_to(text_data=json.dumps({"action": "meld", "version": game.version + 1}))
        frame = await alice.receive_from()
        assert 'class="melds editing"' in frame
        await alice.send_to(
            text_data=json.dumps({"action": "select:h0", "version": game.version + 1})
        )
        # Selecting a hand card changes the hand alone: nothing else travels.
        frame = await alice.receive_from()
        assert 'aria-pressed="true"' in frame and frame.startswith('<section id="hand"')
        assert 'id="table-melds"' not in frame and 'id="status"' not in frame
        assert await bob.receive_nothing(timeout=0.2)
    finally:
        await alice.disconnect()
        await bob.disconnect()


async def test_reconnect_catches_up_with_the_current_view(setup):
    game, cast = await database_sync_to_async(lambda: setup)()
    bob, _ = await connect(f"/ws/games/{game.pk}/", cast["bob"])
    await bob.receive_from()
    await bob.disconnect()  # the phone sleeps while alice plays
    from rummy import play

    await database_sync_to_async(play.draw)(game.pk, cast["alice"], game.version)
    bob, _ = await connect(f"/ws/games/{game.pk}/", cast["bob"])
    try:
        assert f'data-version="{game.version + 1}"' in await bob.receive_from()
    finally:
        await bob.disconnect()


async def test_me_socket_sends_the_move_count_on_connect_and_on_change(setup):
    game, cast = await database_sync_to_async(lambda: setup)()
    alice, ok = await connect("/ws/me/", cast["alice"])
    bob, ok2 = await connect("/ws/me/", cast["bob"])
    try:
        assert ok and ok2
        frame = await alice.receive_from()
        assert 'id="move-count"' in frame and ">1</span>" in frame
        assert 'class="badge empty"' in await bob.receive_from()
        from rummy import play

        # Alice draws three times: the turn passes to bob (R3.4).
        for i in range(3):
            await database_sync_to_async(play.draw)(game.pk, cast["alice"], game.version + i)
        # Only the turn change moves the counts: one frame each, none for the draws
        # within alice's turn.
        assert ">1</span>" in await bob.receive_from()
        assert 'class="badge empty"' in await alice.receive_from()
        assert await bob.receive_nothing(timeout=0.2)
        assert await alice.receive_nothing(timeout=0.2)
    finally:
        await alice.disconnect()
        await bob.disconnect()
    anonymous, ok = await connect("/ws/me/")
    assert not ok
    await anonymous.disconnect()


def test_sockets_of_one_process_share_the_game_they_load(django_assert_num_queries, setup):
    """After a move, the second socket of the same game renders without reloading the
    game (the first one loaded it at that version); a newer version is loaded again."""
    from rummy.table.live import render_view

    game, cast = setup
    render_view(cast["alice"], game.pk, "suit", version=game.version)
    with django_assert_num_queries(1):  # bob's membership check only; no game load
        html = render_view(cast["bob"], game.pk, "suit", version=game.version).html
    assert f'data-version="{game.version}"' in html
    from rummy import play

    play.draw(game.pk, game.to_move, game.version)
    html = render_view(cast["bob"], game.pk, "suit", version=game.version + 1).html
    assert f'data-version="{game.version + 1}"' in html


async def test_an_update_already_shown_is_not_rendered_again(setup):
    """Under load a socket may render a newer game than the message it is handling; the
    messages for versions it has already shown are then skipped, not rendered again."""
    from channels.layers import get_channel_layer

    from rummy import play
    from rummy.play import broadcast

    game, cast = await database_sync_to_async(lambda: setup)()
    bob, ok = await connect(f"/ws/games/{game.pk}/", cast["bob"])
    try:
        assert ok
        await bob.receive_from()  # the view on connect
        layer = get_channel_layer()
        stale = {"type": "game.updated", "game_id": game.pk, "version": game.version}
        await layer.group_send(broadcast.game_group(game.pk), stale)
        assert await bob.receive_nothing(timeout=0.2)
        mover = await database_sync_to_async(lambda: game.to_move)()
        await database_sync_to_async(play.draw)(game.pk, mover, game.version)
        frame = await bob.receive_from()
        assert f'data-version="{game.version + 1}"' in frame
    finally:
        await bob.disconnect()


def test_the_event_loop_fast_path_renders_the_same_view_or_declines(setup):
    """After a move, sockets whose game and access check are already in memory render
    on the event loop; the result is the same view, and whatever would need the
    database (the player to move, an unknown viewer) is left to the thread path."""
    from rummy.table.live import render_view
    from rummy.table.rendering import render_remembered

    game, cast = setup
    mover = game.to_move
    other = cast["bob"] if mover == cast["alice"] else cast["alice"]
    assert render_remembered(other, game.pk, "suit", game.version) is None  # cold
    expected = render_view(other, game.pk, "suit", version=game.version)  # warms both
    fast = render_remembered(other, game.pk, "suit", game.version)
    assert (fast.digests, fast.html) == (expected.digests, expected.html)
    assert render_remembered(mover, game.pk, "suit", game.version) is None
    assert render_remembered(cast["carol"], game.pk, "suit", game.version) is None
    assert render_remembered(other, game.pk, "suit", game.version + 1) is None


async def test_sockets_waiting_for_the_same_version_read_the_game_once(setup, monkeypatch):
    """After a move every socket of the game in this process asks for the new version at
    once; one of them reads it from the database and the others wait for that read."""
    import asyncio

    from rummy.table import loading
    from rummy.table.access import remembered_game

    game, _cast = await database_sync_to_async(lambda: setup)()
    reads = []
    real = loading.game_at_least

    def counting(game_id, version):
        reads.append(version)
        return real(game_id, version)

    monkeypatch.setattr(loading, "game_at_least", counting)
    await asyncio.gather(*(loading.load_once(game.pk, game.version) for _ in range(4)))
    assert reads == [game.version]
    assert remembered_game(game.pk, game.version) is not None
    await loading.load_once(game.pk, game.version)  # in memory: no read at all
    assert reads == [game.version]


@pytest.mark.parametrize("name", ["bob", "carol"])  # a seated admin, a watching member
async def test_a_member_removed_from_the_league_stops_receiving_the_table_at_once(setup, name):
    """A socket opened while its user was a member closes as soon as they are removed:
    the removal tells the user's sockets (``rights.changed``), which read their rights
    again there and then, without waiting for a move or for the remembered rights to
    age (``access.SOCKET_RIGHTS_SECONDS``). The other player's socket stays."""
    from leagues import services
    from leagues.models import Membership
    from rummy import play

    game, cast = await database_sync_to_async(lambda: setup)()
    removed = cast[name]
    sockets = {}
    for who in ("alice", name):
        sockets[who], ok = await connect(f"/ws/games/{game.pk}/", cast[who])
        assert ok
        await sockets[who].receive_from()
    try:
        # A first move while still a member: the rights are remembered.
        await database_sync_to_async(play.draw)(game.pk, cast["alice"], game.version)
        assert f'data-version="{game.version + 1}"' in await sockets[name].receive_from()
        await sockets["alice"].receive_from()

        def remove():
            owner = Membership.objects.get(user=cast["alice"], league=game.league_id)
            target = Membership.objects.get(user=removed, league=game.league_id)
            services.remove_member(owner, target)

        await database_sync_to_async(remove)()
        output = await sockets[name].receive_output(timeout=1)
        assert output["type"] == "websocket.close", output.get("text", "")[:200]
        assert await sockets["alice"].receive_nothing(timeout=0.2)
        await database_sync_to_async(play.draw)(game.pk, cast["alice"], game.version + 1)
        assert f'data-version="{game.version + 2}"' in await sockets["alice"].receive_from()
        # (The test's client never completes the close, so the socket hears the move;
        # it sends no view of it.)
        while not await sockets[name].receive_nothing(timeout=0.2):
            assert (await sockets[name].receive_output())["type"] == "websocket.close"
    finally:
        for s in sockets.values():
            await s.disconnect()


async def test_a_role_change_is_read_again_at_once_and_other_leagues_tables_are_left_alone(
    setup, monkeypatch
):
    """A member made admin: their socket forgets the remembered rights and reads them
    again at once (an admin's controls follow the role), without a move; a change in
    another league makes the socket read nothing."""
    from leagues import services
    from leagues.models import League, Membership
    from rummy.table import access, memory

    game, cast = await database_sync_to_async(lambda: setup)()
    carol, ok = await connect(f"/ws/games/{game.pk}/", cast["carol"])
    reads = []
    real = access.membership_for
    try:
        assert ok
        await carol.receive_from()
        key = (cast["carol"].pk, game.league_id)
        assert memory.view_checks.get(key)[0].is_admin is False

        def promote():
            owner = Membership.objects.get(user=cast["alice"], league=game.league_id)
            target = Membership.objects.get(user=cast["carol"], league=game.league_id)
            services.set_role(owner, target, Membership.Role.ADMIN)

        monkeypatch.setattr(
            access,
            "membership_for",
            lambda user, league: reads.append(league.pk) or real(user, league),
        )
        await database_sync_to_async(promote)()
        assert await carol.receive_nothing(timeout=0.3)  # nothing on the page changed
        assert reads == [game.league_id]
        assert memory.view_checks.get(key)[0].is_admin is True

        def join_another():
            other = League.objects.create(name="Elsewhere", slug="elsewhere")
            Membership.objects.create(league=other, user=cast["carol"])
            return other.pk

        other = await database_sync_to_async(join_another)()
        assert await carol.receive_nothing(timeout=0.3)
        assert reads == [game.league_id] and other != game.league_id
        assert memory.view_checks.get(key) is not None  # this league's rights are kept
    finally:
        await carol.disconnect()


async def test_a_league_made_invite_only_closes_its_outside_watchers_at_once(public_league, cast):
    """A non-member watching a public league's game: when the league becomes
    invite-only every socket at its games is told, and the outsider's closes; a
    player's stays."""
    from leagues.models import League

    game = await database_sync_to_async(start_two)(public_league, cast)
    alice, ok = await connect(f"/ws/games/{game.pk}/", cast["alice"])
    dave, ok2 = await connect(f"/ws/games/{game.pk}/", cast["dave"])
    try:
        assert ok and ok2
        await alice.receive_from()
        await dave.receive_from()

        def hide():
            league = League.objects.get(pk=public_league.pk)
            league.visibility = League.Visibility.INVITE
            league.save()

        await database_sync_to_async(hide)()
        output = await dave.receive_output(timeout=1)
        assert output["type"] == "websocket.close", output.get("text", "")[:200]
        assert await alice.receive_nothing(timeout=0.2)
    finally:
        await alice.disconnect()
        await dave.disconnect()


async def test_first_frame_is_skipped_when_the_page_holds_that_view(setup):
    """The page names its view (the stamp in ws-connect): a socket whose first view is the
    same sends nothing, a later move still arrives as a difference, and so does a
    reconnect from a page that missed moves."""
    game, cast = await database_sync_to_async(lambda: setup)()

    def page_socket_url():
        client = Client()
        client.force_login(cast["bob"])
        html = client.get(f"/games/{game.pk}/").content.decode()
        return re.search(r'ws-connect="(/ws/games/[^"]+)"', html).group(1).replace("&amp;", "&")

    url = await database_sync_to_async(page_socket_url)()
    assert "stamp=" in url
    bob, ok = await connect(url, cast["bob"])
    alice, _ = await connect(f"/ws/games/{game.pk}/", cast["alice"])
    try:
        assert ok and await bob.receive_nothing(timeout=0.3)
        await alice.receive_from()  # no stamp: the whole view
        await alice.send_to(text_data=json.dumps({"action": "draw", "version": game.version}))
        frame = await bob.receive_from()
        assert f'data-version="{game.version + 1}"' in frame and 'id="game-view"' not in frame
        # The same page reconnecting one move later, still naming its first view: only
        # what changed since, as the move's frame was.
        stale, _ = await connect(url, cast["bob"])
        again = await stale.receive_from()
        assert f'data-version="{game.version + 1}"' in again and 'id="game-view"' not in again
        await stale.disconnect()
        # Naming the view it holds now (the frame's stamp, as table.js does): nothing.
        now = re.search(r'id="view-stamp" value="([0-9a-f]+)"', frame).group(1)
        current, _ = await connect(re.sub(r"stamp=[0-9a-f]*", f"stamp={now}", url), cast["bob"])
        assert await current.receive_nothing(timeout=0.3)
        await current.disconnect()
        # A view this process never rendered: the whole view.
        unknown, _ = await connect(re.sub(r"stamp=[0-9a-f]*", "stamp=00", url), cast["bob"])
        assert 'id="game-view"' in await unknown.receive_from()
        await unknown.disconnect()
    finally:
        await alice.disconnect()
        await bob.disconnect()


def test_the_player_to_move_renders_on_the_event_loop_after_a_turn(setup):
    """A turn's broadcast says that no draft belongs to its version (``draft_free``): the
    player to move then renders from memory too, the same view as the thread path; not
    without that word, nor from a game newer than the version it was said of."""
    from rummy import play
    from rummy.table.live import render_view
    from rummy.table.rendering import render_remembered

    game, _cast = setup
    mover = game.to_move
    version = play.draw(game.pk, mover, game.version).version
    expected = render_view(mover, game.pk, "suit", version=version)  # warms game and rights
    fast = render_remembered(mover, game.pk, "suit", version, draft_free=True)
    assert (fast.digests, fast.html) == (expected.digests, expected.html)
    assert 'id="hand"' in fast.html and 'value="meld"' in fast.html
    assert render_remembered(mover, game.pk, "suit", version) is None
    assert render_remembered(mover, game.pk, "suit", version - 1, draft_free=True) is None


def test_only_a_turn_announces_its_version_draft_free(setup, monkeypatch):
    from django.db import transaction

    from rummy import play
    from rummy.play import broadcast

    game, cast = setup
    sent = []
    monkeypatch.setattr(
        broadcast, "game_updated", lambda *args, **kwargs: sent.append(kwargs["draft_free"])
    )
    with transaction.atomic():
        play.draw(game.pk, game.to_move, game.version)
        play.void_game(game.pk, cast["alice"])  # no turn: says nothing of drafts
    assert sent == [True, False]


async def test_a_draw_reaches_the_player_to_move_without_the_thread_path(setup, monkeypatch):
    """After a draw the drawing player's socket renders its new view (hand and all) on
    the event loop: no thread hop, no draft read."""
    from rummy import play
    from rummy.table import live

    game, cast = await database_sync_to_async(lambda: setup)()
    alice, ok = await connect(f"/ws/games/{game.pk}/", cast["alice"])
    try:
        assert ok
        await alice.receive_from()
        threaded = []
        real = live.render_view
        monkeypatch.setattr(
            live, "render_view", lambda *a, **k: threaded.append(a) or real(*a, **k)
        )
        await database_sync_to_async(play.draw)(game.pk, cast["alice"], game.version)
        frame = await alice.receive_from()
        assert f'data-version="{game.version + 1}"' in frame and 'id="hand"' in frame
        assert threaded == []
    finally:
        await alice.disconnect()


async def test_after_a_turn_no_socket_reads_the_game(setup, monkeypatch):
    """A turn's broadcast carries the game (``Game.snapshot``): a process whose sockets
    did not make the move (nothing of it in memory) renders every view from it, and reads
    no game from the database; the views are those of the new version."""
    from rummy import play
    from rummy.table import access, memory

    game, cast = await database_sync_to_async(lambda: setup)()
    alice, ok = await connect(f"/ws/games/{game.pk}/", cast["alice"])
    bob, ok2 = await connect(f"/ws/games/{game.pk}/", cast["bob"])
    reads = []
    real = access.game_with_seats

    def counting(game_id):
        reads.append(game_id)
        return real(game_id)

    try:
        assert ok and ok2
        await alice.receive_from()
        await bob.receive_from()
        memory.recent_games.clear()  # as in a process that did not serve the move
        monkeypatch.setattr(access, "game_with_seats", counting)
        await database_sync_to_async(play.draw)(game.pk, cast["alice"], game.version)
        version = game.version + 1
        mine, theirs = await alice.receive_from(), await bob.receive_from()
        assert f'data-version="{version}"' in mine and f'data-version="{version}"' in theirs
        assert sorted(cards_shown(mine)[0]) == await hand_of(game.pk, 0)  # the drawn card too
        assert reads == []
        assert access.remembered_game(game.pk, version).version == version
    finally:
        await alice.disconnect()
        await bob.disconnect()


async def test_a_broadcast_frame_costs_no_hop_into_the_sync_thread(setup, monkeypatch):
    """channels' dispatch would close old connections in the sync thread before every
    message; ours skips it (every database use here closes them itself), so a move's
    frame is rendered and sent from the event loop alone."""
    from channels import consumer

    from rummy import play

    game, cast = await database_sync_to_async(lambda: setup)()
    bob, ok = await connect(f"/ws/games/{game.pk}/", cast["bob"])
    hops = []

    async def counting():
        hops.append(1)

    try:
        assert ok
        await bob.receive_from()
        monkeypatch.setattr(consumer, "aclose_old_connections", counting)
        await database_sync_to_async(play.draw)(game.pk, cast["alice"], game.version)
        assert f'data-version="{game.version + 1}"' in await bob.receive_from()
        assert hops == []
    finally:
        await bob.disconnect()


async def test_rights_aged_out_are_read_again_and_the_frame_renders_on_the_event_loop(
    setup, monkeypatch
):
    """When only the user's remembered rights have aged out (``SOCKET_RIGHTS_SECONDS``), the
    socket reads them again and renders the frame from memory as usual, not the whole
    view in the sync thread (``render_view``); the rights are fresh again after it."""
    import time

    from rummy import play
    from rummy.table import access, live, memory

    game, cast = await database_sync_to_async(lambda: setup)()
    bob, ok = await connect(f"/ws/games/{game.pk}/", cast["bob"])
    slow = []
    real = live.render_view

    def counting(*args, **kwargs):
        slow.append(args)
        return real(*args, **kwargs)

    try:
        assert ok
        await bob.receive_from()
        key = (cast["bob"].pk, game.league_id)
        allowed, _checked = memory.view_checks.get(key)
        aged = time.monotonic() - access.SOCKET_RIGHTS_SECONDS - 1
        memory.view_checks.put(key, (allowed, aged))
        monkeypatch.setattr(live, "render_view", counting)
        await database_sync_to_async(play.draw)(game.pk, cast["alice"], game.version)
        assert f'data-version="{game.version + 1}"' in await bob.receive_from()
        assert slow == []
        assert time.monotonic() - memory.view_checks.get(key)[1] < 5
    finally:
        await bob.disconnect()
