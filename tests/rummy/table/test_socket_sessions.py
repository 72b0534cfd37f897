"""A socket does not outlive the log-in it was opened with: logging out closes that
session's sockets, a password change or reset or a deactivation closes every socket
whose session it invalidated, and an action arriving on a socket whose session ended
by any other way (deleted, expired, a password written behind the models' back) is
not applied: the sender gets a message and the socket closes. None of them receives
the hand again."""

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.contrib.sessions.models import Session
from django.test import Client

from config.asgi import application
from leagues.models import User
from rummy import play
from rummy.models import Game, Move
from rummy.table import sockets
from tests.cast import PASSWORD
from tests.rummy.conftest import cards_shown, start_two

pytestmark = pytest.mark.django_db(transaction=True)

ENDED_TEXT = "You are no longer logged in here."


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def session_of(client):
    return client.cookies[settings.SESSION_COOKIE_NAME].value


async def open_socket(path, client):
    cookie = f"{settings.SESSION_COOKIE_NAME}={session_of(client)}"
    communicator = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://testserver"), (b"cookie", cookie.encode())]
    )
    connected, _code = await communicator.connect()
    assert connected
    return communicator


async def closed_with(communicator, code, timeout=2):
    """Reads up to the close; returns the frames that came before it."""
    frames = []
    while True:
        output = await communicator.receive_output(timeout)
        if output["type"] == "websocket.close":
            assert output.get("code") == code, output
            return frames
        frames.append(output.get("text", ""))


@pytest.fixture
def table(league, cast):
    return start_two(league, cast), cast


async def test_logging_out_closes_that_sessions_sockets_only(table):
    game, cast = await database_sync_to_async(lambda: table)()
    phone = await database_sync_to_async(logged_in)(cast["alice"])
    laptop = await database_sync_to_async(logged_in)(cast["alice"])
    on_phone = await open_socket(f"/ws/games/{game.pk}/", phone)
    badge_on_phone = await open_socket("/ws/me/", phone)
    on_laptop = await open_socket(f"/ws/games/{game.pk}/", laptop)
    for socket in (on_phone, badge_on_phone, on_laptop):
        await socket.receive_from()
    try:
        response = await database_sync_to_async(phone.post)("/accounts/logout/")
        assert response.status_code == 302
        frames = await closed_with(on_phone, sockets.CLOSE_SESSION_ENDED)
        assert any(ENDED_TEXT in f for f in frames)
        assert all(cards_shown(f) == ([], []) for f in frames)
        await closed_with(badge_on_phone, sockets.CLOSE_SESSION_ENDED)
        assert await on_laptop.receive_nothing(timeout=0.2)
        # The laptop's log-in is untouched: it still plays, and gets its own view.
        await on_laptop.send_to(text_data=json.dumps({"action": "draw", "version": game.version}))
        assert f'data-version="{game.version + 1}"' in await on_laptop.receive_from()
    finally:
        for socket in (on_phone, badge_on_phone, on_laptop):
            await socket.disconnect()


async def test_a_password_change_closes_the_sockets_of_every_older_session(table):
    game, cast = await database_sync_to_async(lambda: table)()
    phone = await database_sync_to_async(logged_in)(cast["alice"])
    laptop = await database_sync_to_async(logged_in)(cast["alice"])
    on_phone = await open_socket(f"/ws/games/{game.pk}/", phone)
    on_laptop = await open_socket(f"/ws/games/{game.pk}/", laptop)
    bob = await open_socket(
        f"/ws/games/{game.pk}/", await database_sync_to_async(logged_in)(cast["bob"])
    )
    for socket in (on_phone, on_laptop, bob):
        await socket.receive_from()
    try:
        response = await database_sync_to_async(laptop.post)(
            "/accounts/password_change/",
            {
                "old_password": PASSWORD,
                "new_password1": "another-long-pass-99",
                "new_password2": "another-long-pass-99",
            },
        )
        assert response.status_code == 302
        # The laptop's page carries on with the new cookie it was given; the sockets of
        # both old sessions (the laptop's got a new key) close.
        await closed_with(on_phone, sockets.CLOSE_SESSION_ENDED)
        await closed_with(on_laptop, sockets.CLOSE_SESSION_ENDED)
        assert await bob.receive_nothing(timeout=0.2)
        again = await open_socket(f"/ws/games/{game.pk}/", laptop)
        assert 'id="hand"' in await again.receive_from()
        await again.disconnect()
    finally:
        for socket in (on_phone, on_laptop, bob):
            await socket.disconnect()


def _reset_password(user_id):
    # As the reset form and `manage.py changepassword` do: set_password, then save.
    user = User.objects.get(pk=user_id)
    user.set_password("reset-to-something-long-7")
    user.save()


def _deactivate(user_id):
    user = User.objects.get(pk=user_id)
    user.is_active = False
    user.save(update_fields=["is_active"])


@pytest.mark.parametrize("change", [_reset_password, _deactivate])
async def test_a_reset_or_deactivation_closes_the_users_sockets(table, change):
    game, cast = await database_sync_to_async(lambda: table)()
    alice = await open_socket(
        f"/ws/games/{game.pk}/", await database_sync_to_async(logged_in)(cast["alice"])
    )
    badge = await open_socket("/ws/me/", await database_sync_to_async(logged_in)(cast["alice"]))
    await alice.receive_from()
    await badge.receive_from()
    try:
        await database_sync_to_async(change)(cast["alice"].pk)
        await closed_with(alice, sockets.CLOSE_SESSION_ENDED)
        await closed_with(badge, sockets.CLOSE_SESSION_ENDED)
    finally:
        await alice.disconnect()
        await badge.disconnect()


def _delete_session(client):
    Session.objects.filter(session_key=session_of(client)).delete()


def _password_behind_the_models_back(client):
    User.objects.filter(pk=client.session["_auth_user_id"]).update(
        password=make_password("changed-in-sql-42")
    )


@pytest.mark.parametrize("end", [_delete_session, _password_behind_the_models_back])
async def test_an_action_on_a_socket_whose_session_ended_is_not_applied(table, end):
    """No hook fired here (the session or the password changed without a signal): the
    check made with every action is what refuses it."""
    game, cast = await database_sync_to_async(lambda: table)()
    client = await database_sync_to_async(logged_in)(cast["alice"])
    alice = await open_socket(f"/ws/games/{game.pk}/", client)
    await alice.receive_from()
    moves = database_sync_to_async(Move.objects.filter(game=game).count)
    logged = await moves()
    try:
        await database_sync_to_async(end)(client)
        await alice.send_to(text_data=json.dumps({"action": "draw", "version": game.version}))
        frames = await closed_with(alice, sockets.CLOSE_SESSION_ENDED)
        assert len(frames) == 1 and ENDED_TEXT in frames[0]
        assert cards_shown(frames[0]) == ([], [])
        fresh = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        assert fresh.version == game.version
        assert await moves() == logged
    finally:
        await alice.disconnect()


async def test_a_broadcast_does_not_render_the_hand_for_a_lapsed_session(table, monkeypatch):
    """The broadcast path re-checks the session from time to time (every time here), so
    a session that ended without a hook (expired, deleted) stops getting the hand."""
    monkeypatch.setattr(sockets, "RECHECK_SECONDS", 0)
    game, cast = await database_sync_to_async(lambda: table)()
    client = await database_sync_to_async(logged_in)(cast["bob"])
    bob = await open_socket(f"/ws/games/{game.pk}/", client)
    await bob.receive_from()
    try:
        await database_sync_to_async(_delete_session)(client)
        await database_sync_to_async(play.draw)(game.pk, cast["alice"], game.version)
        frames = await closed_with(bob, sockets.CLOSE_SESSION_ENDED)
        assert all('id="hand"' not in f and cards_shown(f) == ([], []) for f in frames)
    finally:
        await bob.disconnect()


def test_session_check_accepts_a_live_session_and_nothing_else(table):
    _game, cast = table
    client = logged_in(cast["alice"])
    key = session_of(client)
    assert sockets.session_is_valid(key, cast["alice"].pk)
    assert not sockets.session_is_valid(key, cast["bob"].pk)
    assert not sockets.session_is_valid("no-such-session-key-at-all", cast["alice"].pk)
    assert not sockets.session_is_valid(None, cast["alice"].pk)
