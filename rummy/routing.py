"""WebSocket routes (config/asgi.py wraps them in AllowedHostsOriginValidator and
AuthMiddlewareStack)."""

from django.urls import path

from rummy.table import consumers

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", consumers.GameConsumer.as_asgi()),
    path("ws/me/", consumers.MeConsumer.as_asgi()),
]
