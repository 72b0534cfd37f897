"""What a logged-in player was shown is not kept by the browser: every answer to a
request that carries the session (the table page with the hand, the HTMX answer to an
action, the player's other pages, the redirect of log-out) and every page that varies
on cookies says ``Cache-Control: no-store, private``, so that a shared phone's cache or
back button does not show the hand after log-out. Through the whole ASGI application,
as daphne serves it."""

import secrets
from urllib.parse import urlencode

import pytest
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator
from django.test import Client

from config.asgi import application
from tests.security.matrix_world import make_cast

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cast():
    return make_cast()


def request(method, path, session=None, data=None, htmx=False):
    csrf = secrets.token_hex(16)
    cookies = f"csrftoken={csrf}" + (f"; sessionid={session}" if session else "")
    headers = [(b"host", b"testserver"), (b"cookie", cookies.encode())]
    body = b""
    if method == "POST":
        body = urlencode(data or {}).encode()
        headers += [
            (b"content-type", b"application/x-www-form-urlencoded"),
            (b"x-csrftoken", csrf.encode()),
            (b"origin", b"http://testserver"),
        ]
    if htmx:
        headers.append((b"hx-request", b"true"))
    return async_to_sync(answer)(method, path, body, headers)


async def answer(method, path, body=b"", headers=()):
    """Status, Cache-Control and body of the application's response (a body message
    may leave out "body", as WhiteNoise's do, which HttpCommunicator does not allow)."""
    communicator = HttpCommunicator(application, method, path, body, list(headers))
    await communicator.send_input({"type": "http.request", "body": body})
    start = await communicator.receive_output(10)
    content = b""
    while True:
        chunk = await communicator.receive_output(10)
        content += chunk.get("body", b"")
        if not chunk.get("more_body"):
            break
    # Let the application finish (request_finished gives its database connection back to
    # the pool): a communicator dropped mid-request kept one connection per request.
    await communicator.wait(10)
    cache = {k.lower(): v for k, v in start.get("headers", [])}.get(b"cache-control")
    return start["status"], cache, content


def private(cache):
    return cache is not None and b"no-store" in cache and b"private" in cache


def session_of(user):
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def test_the_table_page_and_an_htmx_action_answer_are_not_stored(cast):
    users, _values, game, _season = cast
    session = session_of(users["player"])
    status, cache, body = request("GET", f"/games/{game.pk}/", session)
    assert status == 200 and b'id="hand"' in body
    assert cache == b"no-store, private"
    status, cache, body = request(
        "POST",
        f"/games/{game.pk}/act/",
        session,
        {"action": "draw", "version": game.version},
        htmx=True,
    )
    assert status == 200 and b'id="hand"' in body and b"game-view" in body
    assert cache == b"no-store, private"
    # A refusal (the wrong version) shows the hand as well.
    status, cache, _body = request(
        "POST", f"/games/{game.pk}/act/", session, {"action": "draw", "version": 1}, htmx=True
    )
    assert cache == b"no-store, private"


def test_the_players_other_pages_and_the_log_out_are_not_stored(cast):
    users, values, _game, _season = cast
    session = session_of(users["member"])
    for path in (
        "/",
        "/leagues/",
        f"/leagues/{values['slug']}/",
        "/notifications/",
        f"/u/{values['username']}/",
        "/accounts/password_change/",
        "/no-such-page/",
    ):
        status, cache, _body = request("GET", path, session)
        assert cache == b"no-store, private", (path, status)
    status, cache, _body = request("POST", "/accounts/logout/", session)
    assert status == 302 and private(cache)


def test_pages_without_a_session_are_private_only_if_they_vary_on_cookies(cast):
    host = [(b"host", b"testserver")]
    # A first visit to the sign-up form sets the CSRF cookie (and varies on cookies).
    status, cache, _body = async_to_sync(answer)("GET", "/accounts/signup/", headers=host)
    assert status == 200 and private(cache)
    status, cache, _body = async_to_sync(answer)("GET", "/healthz/live", headers=host)
    assert status == 200 and cache is None


def test_static_files_keep_their_own_caching(cast):
    users, _values, _game, _season = cast
    status, cache, _body = request("GET", "/static/css/site.css", session_of(users["member"]))
    assert status == 200
    assert cache != b"no-store, private"
