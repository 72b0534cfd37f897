"""ASGI entry point: HTTP through Django, WebSockets through Channels.

Sockets are accepted only from the site's own pages (``config.origins``), so another
site cannot open a player's socket with the player's cookies. Around everything, the
protocol-level guards of ``config.asgi_guards``: NUL characters refused, private
responses not cached.
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before anything imports models (as get_asgi_application does).
django.setup(set_prefix=False)

from config.daphne_requests import leave_bodies_to_the_application
from config.daphne_sockets import compress_socket_frames
from config.handler import OneTripASGIHandler

# Twisted would parse every POST body as well; only Django's parse is used.
leave_bodies_to_the_application()
# A browser that offers permessage-deflate gets its frames compressed.
compress_socket_frames()

from config import shutdown

# SIGTERM drains: the requests in progress answer, the sockets close as "restarting".
shutdown.install()

# Django's handler, the middleware and view entered in one trip to the sync thread.
django_asgi_app = OneTripASGIHandler()

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter

from config.asgi_guards import PrivateResponses, RejectNul
from config.metrics import CountSockets
from config.origins import SiteOriginValidator
from rummy.routing import websocket_urlpatterns

websocket_app = CountSockets(
    SiteOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
)

application = RejectNul(
    ProtocolTypeRouter(
        {
            "http": shutdown.Draining(PrivateResponses(django_asgi_app)),
            "websocket": websocket_app,
        }
    )
)

# Everything is imported: what the process holds now lives as long as it does
# (config.collector).
from config import collector

collector.set_up()
