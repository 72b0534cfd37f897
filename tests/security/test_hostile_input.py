"""Hostile input: every POST endpoint and the game's WebSocket, fed malformed, oversized
and out-of-place data (property-based, bounded), answer 4xx or a clear error frame,
never a 5xx, and change nothing: the game's version, state and move log stay as they
were. The data never names the game's real version, so no example is a legal move.

Also, through the whole ASGI application and many at once: a NUL in an address, a
query or a cookie (a PostgreSQL DataError, a 500, before it was refused up front), and
a socket frame nested too deep for the JSON parser (it closed the socket with 1011)."""

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator, WebsocketCommunicator
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.asgi import application
from rummy.models import Game, Move
from tests.security.matrix_world import ROLES, make_cast
from tests.security.routes import all_routes

pytestmark = pytest.mark.django_db(transaction=True)

HTTP_EXAMPLES, WS_EXAMPLES = 200, 120

junk_text = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=300),
    st.sampled_from(
        [
            "",
            " ",
            "\x00",
            "-1",
            "1e9",
            "NaN",
            "null",
            "[]",
            "{}",
            "true",
            "select:",
            "select:999:x",
            "move:-1",
            "move:99999",
            "declare:h0:ZZ",
            "declare:::",
            "draw\x00",
            "../../etc/passwd",
            "<script>x</script>",
        ]
    ),
    st.integers(min_value=-(10**30), max_value=-1).map(str),
    st.builds(lambda n: "9" * n, st.integers(min_value=20, max_value=5000)),  # huge ints
    st.builds(lambda n: "A" * n, st.integers(min_value=65, max_value=200_000)),  # oversized
)
actions = st.one_of(
    st.sampled_from(
        [
            "draw",
            "pass",
            "knock",
            "meld",
            "play",
            "play_knock",
            "sit",
            "leave",
            "start",
            "close",
            "reset",
            "new_meld",
            "to_hand",
        ]
    ),
    junk_text,
)
# Never the real version (games here are at single-digit versions): junk or far away.
versions = st.one_of(junk_text, st.integers(min_value=1000, max_value=10**40).map(str))
field_names = st.sampled_from(
    [
        "action",
        "version",
        "seats",
        "role",
        "name",
        "slug",
        "email",
        "username",
        "password",
        "your_move",
        "next",
        "x",
    ]
)
form_data = st.fixed_dictionaries(
    {"action": st.one_of(actions, st.lists(actions, max_size=3)), "version": versions},
    optional={
        "seats": junk_text,
        "role": junk_text,
        "extra": st.dictionaries(
            field_names, st.one_of(junk_text, st.lists(junk_text, max_size=3)), max_size=4
        ),
    },
)
raw_bodies = st.tuples(
    st.sampled_from(
        [
            "application/json",
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=zzz",
            "application/octet-stream",
        ]
    ),
    st.one_of(st.binary(max_size=2000), junk_text.map(str.encode)),
)

POST_ROUTES = [r for r in all_routes() if r.name != "admin"]


@pytest.fixture
def cast():
    return make_cast()


def snapshot(game_id):
    game = Game.objects.get(pk=game_id)
    return game.version, game.state, Move.objects.filter(game_id=game_id).count()


def _flatten(data):
    extra = data.pop("extra", {})
    data.update({k: v for k, v in extra.items() if k not in data})
    return data


@settings(
    max_examples=HTTP_EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    route=st.sampled_from(POST_ROUTES),
    role=st.sampled_from(ROLES),
    data=st.one_of(form_data, raw_bodies),
    htmx=st.booleans(),
)
def test_post_endpoints_refuse_hostile_data(cast, route, role, data, htmx):
    users, values, game, season = cast
    before = snapshot(game.pk)
    client = Client()
    if users[role]:
        client.force_login(users[role])
    url = route.url(
        **dict(values, pk=season.pk if "seasons/<id:pk>" in route.route else values["pk"])
    )
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    if isinstance(data, tuple):
        content_type, body = data
        response = client.post(url, data=body, content_type=content_type, **headers)
    else:
        response = client.post(url, _flatten(dict(data)), **headers)
    assert response.status_code < 500, (url, response.status_code)
    assert snapshot(game.pk) == before


ws_frames = st.one_of(
    junk_text,
    form_data.map(lambda d: json.dumps(_flatten(dict(d)))),
    st.lists(junk_text, max_size=3).map(json.dumps),
    st.builds(
        lambda n: json.dumps({"action": "draw", "version": "1", "pad": "x" * n}),
        st.integers(min_value=4096, max_value=100_000),
    ),
    st.binary(min_size=1, max_size=2000),
    st.builds(lambda n: "[" * n, st.integers(min_value=900, max_value=4000)),  # deep
)


async def _one_frame(path, cookie, frame):
    communicator = WebsocketCommunicator(
        application,
        path,
        headers=[
            (b"origin", b"http://testserver"),
            (b"host", b"testserver"),
            (b"cookie", f"sessionid={cookie}".encode()),
        ],
    )
    connected, _ = await communicator.connect()
    assert connected
    try:
        await communicator.receive_from(timeout=5)  # the view on connect
        frame = frame or " "  # the test communicator cannot send an empty frame
        if isinstance(frame, bytes):
            await communicator.send_to(bytes_data=frame)
        else:
            await communicator.send_to(text_data=frame)
        # The answer: a refusal in words (#flash), or the view with one; never a crash
        # (a consumer exception would be raised here by the communicator).
        return await communicator.receive_from(timeout=5)
    finally:
        await communicator.disconnect()


@settings(
    max_examples=WS_EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(role=st.sampled_from(["member", "player", "waiting"]), frame=ws_frames)
def test_websocket_refuses_hostile_frames(cast, role, frame):
    users, _values, game, _season = cast
    before = snapshot(game.pk)
    client = Client()
    client.force_login(users[role])
    answer = async_to_sync(_one_frame)(
        f"/ws/games/{game.pk}/", client.cookies["sessionid"].value, frame
    )
    assert 'id="flash"' in answer
    assert "Traceback" not in answer
    assert snapshot(game.pk) == before


NUL_ADDRESSES = [
    "/u/%00/",
    "/leagues/invite/%00/",
    "/leagues/invite/abc%00def/",
    "/accounts/reset/MQ/%00/",
    "/leagues/?q=%00",
    "/games/1/?sort=%00",
    "/notifications/verify/%00/",
]
NUL_COOKIE = 'sessionid="\\000\\000\\000\\000\\000\\000\\000\\000"'


async def _get(path, cookie=None):
    headers = [(b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    return await HttpCommunicator(application, "GET", path, headers=headers).get_response(5)


def test_a_nul_in_an_address_query_or_cookie_is_a_bad_request_many_at_once(cast):
    users, _values, game, _season = cast
    client = Client()
    client.force_login(users["member"])
    session = f"sessionid={client.cookies['sessionid'].value}"
    requests = [
        (path.replace("/games/1/", f"/games/{game.pk}/"), cookie)
        for path in NUL_ADDRESSES
        for cookie in (None, session)
    ]
    requests += [("/", NUL_COOKIE), (f"/games/{game.pk}/", NUL_COOKIE)]

    async def all_at_once():
        return await asyncio.gather(*(_get(path, cookie) for path, cookie in requests * 3))

    for (path, cookie), response in zip(requests * 3, async_to_sync(all_at_once)(), strict=False):
        assert response["status"] == 400, (path, cookie, response["status"])
    # The site itself still answers.
    assert async_to_sync(_get)(f"/games/{game.pk}/", session)["status"] == 200


def test_a_socket_with_a_nul_in_its_query_or_cookie_is_refused(cast):
    users, _values, game, _season = cast
    client = Client()
    client.force_login(users["player"])
    session = f"sessionid={client.cookies['sessionid'].value}"

    async def attempt(path, cookie):
        communicator = WebsocketCommunicator(
            application,
            path,
            headers=[(b"origin", b"http://testserver"), (b"cookie", cookie.encode())],
        )
        connected, _ = await communicator.connect()
        await communicator.disconnect()
        return connected

    assert not async_to_sync(attempt)(f"/ws/games/{game.pk}/?sort=%00", session)
    assert not async_to_sync(attempt)(f"/ws/games/{game.pk}/", NUL_COOKIE)
    assert async_to_sync(attempt)(f"/ws/games/{game.pk}/", session)


DEEP = "[" * 3000


def test_frames_nested_too_deep_are_answered_and_the_sockets_stay_open(cast):
    users, _values, game, _season = cast
    before = snapshot(game.pk)
    cookies = []
    for role in ("player", "waiting", "member"):
        client = Client()
        client.force_login(users[role])
        cookies += [client.cookies["sessionid"].value] * 2

    async def one_socket(cookie):
        communicator = WebsocketCommunicator(
            application,
            f"/ws/games/{game.pk}/",
            headers=[
                (b"origin", b"http://testserver"),
                (b"cookie", f"sessionid={cookie}".encode()),
            ],
        )
        connected, _ = await communicator.connect()
        assert connected
        try:
            await communicator.receive_from(timeout=5)
            for frame in (DEEP, '{"a":[' * 600, DEEP):
                await communicator.send_to(text_data=frame)
            answers = [await communicator.receive_from(timeout=5) for _ in range(3)]
            # Still open and still answering.
            await communicator.send_to(text_data=json.dumps({"action": "draw", "version": 1}))
            answers.append(await communicator.receive_from(timeout=5))
            return answers
        finally:
            await communicator.disconnect()

    async def all_at_once():
        return await asyncio.gather(*(one_socket(cookie) for cookie in cookies))

    for answers in async_to_sync(all_at_once)():
        assert all("The request could not be read." in a for a in answers[:3])
        assert 'id="flash"' in answers[3]
    assert snapshot(game.pk) == before
