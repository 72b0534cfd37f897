"""ASGI entry point: HTTP through Django, WebSockets through Channels.

Sockets are accepted only from the site's own pages (``config.origins``), so another
site cannot open a player's socket with the player's cookies. Around everything, the
protocol-level guards of ``config.asgi_guards``: NUL characters refused, private
responses not cached.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before anything imports models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter

from config.asgi_guards import PrivateResponses, RejectNul
from config.origins import SiteOriginValidator
from rummy.routing import websocket_urlpatterns

websocket_app = SiteOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))

application = RejectNul(
    ProtocolTypeRouter({"http": PrivateResponses(django_asgi_app), "websocket": websocket_app})
)
