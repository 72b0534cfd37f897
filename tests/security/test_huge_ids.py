"""Every id in an address is bounded (``config.converters``): a number past the largest
64-bit id, sent to any page or socket that takes one, is a 404 (a refused handshake for a
socket), never the 500 of SQLite's OverflowError; also many at once through the whole
ASGI application, on either lane."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator, WebsocketCommunicator
from django.test import Client

from config.asgi import application
from config.converters import MAX_ID
from rummy.models import Game
from rummy.routing import websocket_urlpatterns
from tests.security.matrix_world import make_cast
from tests.security.routes import PARAM_RE, all_routes

HUGE = [MAX_ID + 1, 2**64, 10**30, int("9" * 60)]
ID_ROUTES = [r for r in all_routes() if r.name != "admin" and "<id:" in r.route]


def _ids(route):
    return [m.group("name") for m in PARAM_RE.finditer(route) if m.group("converter") == "id"]


def _url(route, values, number):
    """``route`` with every id in it ``number`` and the other parameters real."""
    return route.url(**dict(values, **dict.fromkeys(_ids(route.route), number)))


def test_no_address_takes_an_unbounded_number():
    routes = [r.route for r in all_routes()] + [str(p.pattern) for p in websocket_urlpatterns]
    assert not [r for r in routes if "<int:" in r], "use <id:…> (config.converters)"
    # The pages this guards: the game's and everything under it, seasons, members,
    # invites, vacations, voided games, push devices; and the game's socket.
    assert len(ID_ROUTES) >= 20, [r.route for r in ID_ROUTES]
    assert "ws/games/<id:game_id>/" in routes


@pytest.mark.django_db
@pytest.mark.parametrize("route", ID_ROUTES, ids=lambda r: r.name)
def test_every_page_with_an_id_is_a_404_past_the_largest_id(route):
    users, values, game, _season = make_cast()
    for role in ("anonymous", "member", "player"):
        client = Client()
        if users[role]:
            client.force_login(users[role])
        for number in HUGE:
            url = _url(route, values, number)
            assert client.get(url).status_code == 404, (role, url)
            assert client.post(url, {"action": "draw", "version": 1}).status_code == 404, url
    # The largest id itself reaches the page, which finds no such row (or sends an
    # anonymous visitor to log in): no 500 either.
    client = Client()
    client.force_login(users["member"])
    assert client.get(_url(route, values, MAX_ID)).status_code < 500
    assert Game.objects.get(pk=game.pk).version == game.version


async def _get(path, cookie, method="GET"):
    headers = [(b"host", b"testserver"), (b"cookie", cookie.encode())]
    communicator = HttpCommunicator(application, method, path, headers=headers)
    # Generous: a slow machine is no failure (the answers are what is tested).
    response = await communicator.get_response(timeout=120)
    # And the request's end with it (its request_finished, which hands the thread's
    # database connection back): a communicator left at the response, as a server never
    # is, kept each connection out of the pool, and PostgreSQL's ran dry at 20.
    await communicator.wait(timeout=120)
    return response


async def _socket(path, cookie):
    communicator = WebsocketCommunicator(
        application,
        path,
        headers=[
            (b"origin", b"http://testserver"),
            (b"host", b"testserver"),
            (b"cookie", cookie.encode()),
        ],
    )
    connected, _ = await communicator.connect(timeout=120)
    await communicator.disconnect()
    return connected


@pytest.mark.django_db(transaction=True)
def test_huge_ids_many_at_once_are_404s_and_refused_sockets():
    users, values, game, _season = make_cast()
    client = Client()
    client.force_login(users["player"])
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    # More at once than a worker's database pool holds (DB_POOL_MAX_SIZE, 20).
    pages = [
        (_url(route, values, number), method)
        for route in ID_ROUTES
        for number in HUGE[:2]
        for method in ("GET", "POST")
    ]
    sockets = [f"/ws/games/{number}/" for number in HUGE] * 4

    async def all_at_once():
        return await asyncio.gather(
            asyncio.gather(*(_get(path, cookie, method) for path, method in pages)),
            asyncio.gather(*(_socket(path, cookie) for path in sockets)),
        )

    answers, connected = async_to_sync(all_at_once)()
    assert [a["status"] for a in answers] == [404] * len(pages)
    assert connected == [False] * len(sockets)
    # The real game's page and socket still answer.
    assert async_to_sync(_get)(f"/games/{game.pk}/", cookie)["status"] == 200
    assert async_to_sync(_socket)(f"/ws/games/{game.pk}/", cookie)
