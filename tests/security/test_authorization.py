"""The authorization matrix: every HTTP route and every WebSocket route, for each role
(anonymous, outsider, member, the seated player to move, the seated player waiting),
with the status expected for GET and for POST. The routes come from the URL resolver
and the WebSocket router, so a route added without an entry here fails
``test_every_route_has_a_matrix_entry``.

Reading the numbers: 302 for anonymous is the log-in redirect; 404 hides a private
league's pages (and games) from outsiders; 403 is a member without the right; 405 a GET
to a POST-only control; 302 after a POST is the success (or the message) redirect.
"""

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from rummy.models import Game
from rummy.routing import websocket_urlpatterns
from tests.security.matrix_world import ROLES, make_cast
from tests.security.routes import all_routes

#          route name: (GET statuses, POST statuses) for the ROLES in order
MATRIX = {
    "admin": ("302 302 302 302 302", "302 302 302 302 302"),
    # the parts' health (config.health): up or down, no one's data
    "healthz": ("200 200 200 200 200", "200 200 200 200 200"),
    "healthz_live": ("200 200 200 200 200", "200 200 200 200 200"),
    # the scraper's bearer token or staff only (config.metrics); none of these roles
    "metrics": ("404 404 404 404 404", "404 404 404 404 404"),
    # figures of the background work's queue, no one's data: open like the probe above
    "healthz_queue": ("200 200 200 200 200", "200 200 200 200 200"),
    "set_language": ("302 302 302 302 302", "302 302 302 302 302"),
    "home": ("200 200 200 200 200", "200 200 200 200 200"),
    "signup": ("200 302 302 302 302", "200 302 302 302 302"),
    "login": ("200 200 200 200 200", "200 200 200 200 200"),
    "logout": ("405 405 405 405 405", "302 302 302 302 302"),
    "password_change": ("302 200 200 200 200", "302 200 200 200 200"),
    # one's own account only: a POST without the password is the form again
    "delete_account": ("302 200 200 200 200", "302 200 200 200 200"),
    "download_data": ("302 200 200 200 200", "302 405 405 405 405"),
    "password_change_done": ("302 200 200 200 200", "302 405 405 405 405"),
    "password_reset": ("200 200 200 200 200", "200 200 200 200 200"),
    "password_reset_done": ("200 200 200 200 200", "405 405 405 405 405"),
    "password_reset_confirm": ("200 200 200 200 200", "200 200 200 200 200"),
    "password_reset_complete": ("200 200 200 200 200", "405 405 405 405 405"),
    "profile": ("302 200 200 200 200", "302 200 200 200 200"),
    "leagues:list": ("302 200 200 200 200", "302 200 200 200 200"),
    "leagues:create": ("302 200 200 200 200", "302 200 200 200 200"),
    # Open to anyone holding a link (the league's name, and who invited); this token is none.
    "leagues:join_invite": ("404 404 404 404 404", "404 404 404 404 404"),
    "leagues:detail": ("302 404 200 200 200", "302 404 200 200 200"),
    "leagues:join": ("302 405 405 405 405", "302 404 302 302 302"),
    "leagues:leave": ("302 405 405 405 405", "302 404 302 302 302"),
    "leagues:members": ("302 404 403 403 403", "302 404 403 403 403"),
    "leagues:remove_member": ("302 405 405 405 405", "302 404 403 403 403"),
    "leagues:set_role": ("302 405 405 405 405", "302 404 403 403 403"),
    "leagues:invites": ("302 404 403 403 403", "302 404 403 403 403"),
    "leagues:revoke_invite": ("302 405 405 405 405", "302 404 403 403 403"),
    # The admin record: to read only (POST refused before anything else).
    "leagues:admin_record": ("302 404 403 403 403", "302 405 405 405 405"),
    "leagues:seasons": ("302 404 200 200 200", "302 404 200 200 200"),
    "leagues:season_create": ("302 404 403 403 403", "302 404 403 403 403"),
    "leagues:season": ("302 404 200 200 200", "302 404 200 200 200"),
    "leagues:season_start": ("302 405 405 405 405", "302 404 403 403 403"),
    # GET: the confirmation page (what closing does), for admins only.
    "leagues:season_close": ("302 404 403 403 403", "302 404 403 403 403"),
    "leagues:void_game": ("302 405 405 405 405", "302 404 403 403 403"),
    # A player's own vacation days: any member (a bad or empty form is answered on the page).
    "leagues:vacation": ("302 404 200 200 200", "302 404 200 200 200"),
    "leagues:vacation_now": ("302 405 405 405 405", "302 404 302 302 302"),
    # Another's vacation is "no longer there" (a message): nobody stops someone else's.
    "leagues:vacation_stop": ("302 405 405 405 405", "302 404 302 302 302"),
    "rummy:table": ("302 404 200 200 200", "302 404 200 200 200"),
    # The icon and the rule book are for everyone, logged in or not.
    "favicon": ("302 302 302 302 302", "302 302 302 302 302"),
    "how_to_play": ("200 200 200 200 200", "405 405 405 405 405"),
    "privacy": ("200 200 200 200 200", "405 405 405 405 405"),
    # The site as an app (rummy.pwa): the same for everyone, and nothing to post.
    "manifest": ("200 200 200 200 200", "405 405 405 405 405"),
    "service_worker": ("200 200 200 200 200", "405 405 405 405 405"),
    "offline": ("200 200 200 200 200", "405 405 405 405 405"),
    # Only a player of the game; this one is still running, so its players are sent back
    # to it with a message.
    "rummy:rematch": ("302 404 403 302 302", "302 404 403 302 302"),
    # The turn check: only the player to move gets through (302 = applied, redirect).
    "rummy:act": ("302 405 405 405 405", "302 404 403 302 403"),
    "rummy:end_early": ("302 405 405 405 405", "302 404 403 403 403"),
    "rummy:open_table": ("302 405 405 405 405", "302 404 302 302 302"),
    # Anyone signed in may start a practice game (this empty form is refused: redirect).
    "rummy:practice": ("302 405 405 405 405", "302 302 302 302 302"),
    # A game's history (read-only): the download waits for the game's end (409).
    "rummy:record": ("302 404 200 200 200", "302 405 405 405 405"),
    "rummy:replay": ("302 404 200 200 200", "302 405 405 405 405"),
    "rummy:record_json": ("302 404 409 409 409", "302 405 405 405 405"),
    "rummy:season_games": ("302 404 403 403 403", "302 405 405 405 405"),
    "rummy:season_results": ("302 404 403 403 403", "302 405 405 405 405"),
    "notifications:settings": ("302 200 200 200 200", "302 302 302 302 302"),
    "notifications:send_verification": ("302 405 405 405 405", "302 302 302 302 302"),
    # The browser's time zone report: 400 is the refusal of a post without a zone.
    "notifications:time_zone": ("302 405 405 405 405", "302 400 400 400 400"),
    "notifications:verify": ("400 400 400 400 400", "405 405 405 405 405"),
    "notifications:unsubscribe": ("400 400 400 400 400", "400 400 400 400 400"),
    # Push: a form post is no subscription (400, nothing stored; and no VAPID keys here);
    # a device that is not the user's own is a 404.
    "notifications:push_subscribe": ("302 405 405 405 405", "302 400 400 400 400"),
    "notifications:push_remove": ("302 405 405 405 405", "302 404 404 404 404"),
    # The game's chat (chat.views): its readers are the game's players and the league's
    # members; a member who only watches may not write (the refusal is a message: 302).
    "chat:thread": ("302 404 200 200 200", "302 405 405 405 405"),
    "chat:post": ("302 405 405 405 405", "302 404 302 302 302"),
    "chat:read": ("302 405 405 405 405", "302 404 204 204 204"),
    # A message's actions: this id is no message (a user's), so no one finds it.
    "chat:message": ("302 404 404 404 404", "302 404 404 404 404"),
    # The league's chat moderation: owners and admins only.
    "chat:league": ("302 404 403 403 403", "302 404 403 403 403"),
    # The league's board: its members read and post (this form posts nothing: a message).
    "chat:board": ("302 404 200 200 200", "302 404 302 302 302"),
    # A board post's actions: this id is no post of the league (a user's), so no one
    # finds it (tests/chat/test_board_reports.py has the matrix of a real post).
    "chat:board_post": ("302 404 404 404 404", "302 404 404 404 404"),
}

#          WebSocket route: accepted? for the ROLES in order
WS_MATRIX = {
    "ws/games/<id:game_id>/": (False, False, True, True, True),
    "ws/me/": (False, True, True, True, True),
    # Any other address (rummy.routing.no_such_socket): "/" stands for them all here.
    "": (False, False, False, False, False),
}

ROUTES = {route.name: route for route in all_routes()}


def url_for(route, values, season):
    if route.name == "admin":
        return "/admin/"
    if "seasons/<id:pk>" in route.route:
        values = dict(values, pk=season.pk)
    return route.url(**values)


def test_every_route_has_a_matrix_entry():
    assert sorted(ROUTES) == sorted(MATRIX), "add the new route to MATRIX"
    routes = sorted(str(p.pattern) for p in websocket_urlpatterns)
    assert routes == sorted(WS_MATRIX), "add the new WebSocket route to WS_MATRIX"


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(MATRIX))
def test_http_matrix(name):
    route = ROUTES[name]
    expected_get, expected_post = ([int(x) for x in row.split()] for row in MATRIX[name])
    users, values, game, season = make_cast()
    got = []
    for role in ROLES:
        client = Client()
        if users[role]:
            client.force_login(users[role])
        got.append(client.get(url_for(route, values, season)).status_code)
    assert got == expected_get, f"GET {route.route}: {dict(zip(ROLES, got, strict=False))}"
    got = []
    for role in ROLES:
        users, values, game, season = make_cast()  # a POST may change things: fresh cast
        client = Client()
        if users[role]:
            client.force_login(users[role])
        data = {"action": "draw", "version": game.version, "role": "admin", "seats": 2}
        got.append(client.post(url_for(route, values, season), data).status_code)
    assert got == expected_post, f"POST {route.route}: {dict(zip(ROLES, got, strict=False))}"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("route", sorted(WS_MATRIX))
async def test_websocket_matrix(route):
    from asgiref.sync import sync_to_async

    def cast_with_sessions():
        users, values, _game, _season = make_cast()
        cookies = {}
        for role, user in users.items():
            if user:
                client = Client()
                client.force_login(user)
                cookies[role] = client.cookies["sessionid"].value
        return values, cookies

    values, cookies = await sync_to_async(cast_with_sessions)()
    path = "/" + route.replace("<id:game_id>", str(values["game_id"]))
    got = []
    for role in ROLES:
        headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
        if role in cookies:
            headers.append((b"cookie", f"sessionid={cookies[role]}".encode()))
        communicator = WebsocketCommunicator(application, path, headers=headers)
        connected, _ = await communicator.connect()
        got.append(connected)
        await communicator.disconnect()
    assert tuple(got) == WS_MATRIX[route], dict(zip(ROLES, got, strict=False))


@pytest.mark.django_db(transaction=True)
async def test_websocket_with_a_foreign_origin_is_rejected():
    """Another site cannot open a player's socket with the player's cookies: the
    origin is checked against ALLOWED_HOSTS before anything else runs."""
    from asgiref.sync import sync_to_async

    def player_cookie():
        users, values, _game, _season = make_cast()
        client = Client()
        client.force_login(users["player"])
        return values["game_id"], client.cookies["sessionid"].value

    game_id, cookie = await sync_to_async(player_cookie)()
    for origin, accepted in (
        (b"http://evil.example", False),
        (b"null", False),
        (b"http://testserver", True),
    ):
        communicator = WebsocketCommunicator(
            application,
            f"/ws/games/{game_id}/",
            headers=[
                (b"origin", origin),
                (b"host", b"testserver"),
                (b"cookie", f"sessionid={cookie}".encode()),
            ],
        )
        connected, _ = await communicator.connect()
        await communicator.disconnect()
        assert connected is accepted, origin
    assert await sync_to_async(Game.objects.filter(pk=game_id).count)() == 1
