"""WebSocket routes (config/asgi.py wraps them in the site's origin check and
AuthMiddlewareStack): the game page's socket (the table) and the header's (the lobby).
Any other address, a game id past the largest one included (``config.converters``), is
refused at the handshake, as a game the player may not see is."""

from django.urls import path, re_path

import config.converters  # noqa: F401  (registers <id:…>, the bounded id of every address)
from rummy.lobby.consumers import MeConsumer
from rummy.table.consumers import GameConsumer


async def no_such_socket(scope, receive, send):
    """Refuse the handshake: the client sees the socket closed before it opened. (With no
    route at all Channels raised an error inside the application instead.)"""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close"})


websocket_urlpatterns = [
    path("ws/games/<id:game_id>/", GameConsumer.as_asgi()),
    path("ws/me/", MeConsumer.as_asgi()),
    # Last: every address the routes above do not match.
    re_path(r"", no_such_socket, name="no_such_socket"),
]
