"""WebSocket routes (config/asgi.py wraps them in the site's origin check and
AuthMiddlewareStack): the game page's socket (the table) and the header's (the lobby)."""

from django.urls import path

from rummy.lobby.consumers import MeConsumer
from rummy.table.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/me/", MeConsumer.as_asgi()),
]
