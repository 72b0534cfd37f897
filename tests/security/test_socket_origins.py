"""Sockets open only from the site's own pages. In production (DEBUG off) the Origin
must be exactly one of CSRF_TRUSTED_ORIGINS (scheme, host and port), or SITE_URL's
origin when that list is empty: the plain-HTTP page or another port of the same host
is refused, as is another host and a socket without Origin. With DEBUG on the host
check of old stays, so the local default (http://127.0.0.1:8000) and the test servers
on random ports work."""

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from config.origins import SiteOriginValidator
from tests.security.production import production_env, run_json


async def accept(scope, receive, send):
    await receive()
    await send({"type": "websocket.accept"})
    await receive()


def opens(validator, origin):
    async def attempt():
        headers = [(b"origin", origin.encode())] if origin is not None else []
        communicator = WebsocketCommunicator(validator, "/ws/me/", headers=headers)
        connected, _ = await communicator.connect()
        await communicator.disconnect()
        return connected

    return async_to_sync(attempt)()


PRODUCTION_CASES = [
    ("https://carousel.example", True),
    ("https://carousel.example:443", True),  # the default port, spelt out
    ("HTTPS://Carousel.Example", True),
    ("http://carousel.example", False),  # wrong scheme
    ("https://carousel.example:4443", False),  # wrong port
    ("https://evil.example", False),
    ("https://carousel.example.evil.example", False),
    ("https://sub.carousel.example", False),
    ("null", False),
    ("https://carousel.example:99999", False),
    (None, False),  # no Origin header: refused, as channels' validator did
]


@pytest.mark.parametrize(("origin", "accepted"), PRODUCTION_CASES)
def test_production_accepts_exactly_the_trusted_origins(settings, origin, accepted):
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["carousel.example"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://carousel.example", "https://*.example.org"]
    assert opens(SiteOriginValidator(accept), origin) is accepted


def test_production_without_trusted_origins_uses_the_site_url(settings):
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["play.example"]
    settings.CSRF_TRUSTED_ORIGINS = []
    settings.SITE_URL = "https://play.example:8443/"
    validator = SiteOriginValidator(accept)
    assert opens(validator, "https://play.example:8443")
    assert not opens(validator, "https://play.example")
    assert not opens(validator, "http://play.example:8443")


@pytest.mark.parametrize(
    ("origin", "accepted"),
    [
        ("http://127.0.0.1:8000", True),  # make run
        ("http://localhost:8000", True),
        ("http://127.0.0.1:51234", True),  # a test server on a random port
        ("https://localhost:8000", True),
        ("http://testserver", True),
        ("http://evil.example", False),
        (None, False),
    ],
)
def test_debug_keeps_the_host_check(settings, origin, accepted):
    settings.DEBUG = True
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]", "testserver"]
    assert opens(SiteOriginValidator(accept), origin) is accepted


def test_the_production_application_refuses_the_wrong_scheme_and_port(tmp_path):
    """The real ``config.asgi.application`` in a production process: the origin check
    in front of its sockets (here in front of a stand-in for the routes)."""
    env = production_env(tmp_path, SITE_URL="https://carousel.example")
    result = run_json(
        "from asgiref.sync import async_to_sync\n"
        "from channels.testing import WebsocketCommunicator\n"
        "from django.urls import path\n"
        "import rummy.routing\n"
        "async def accept(scope, receive, send):\n"
        "    await receive(); await send({'type': 'websocket.accept'}); await receive()\n"
        "rummy.routing.websocket_urlpatterns[:] = [path('ws/me/', accept)]\n"
        "from config.asgi import application\n"
        "async def opens(origin):\n"
        "    c = WebsocketCommunicator(application, '/ws/me/',"
        " headers=[(b'origin', origin.encode())])\n"
        "    ok, _ = await c.connect(); await c.disconnect(); return ok\n"
        "origins = ['https://carousel.example', 'http://carousel.example',"
        " 'https://carousel.example:4443', 'https://evil.example']\n"
        "print(json.dumps({o: async_to_sync(opens)(o) for o in origins}))",
        env,
    )
    assert result == {
        "https://carousel.example": True,
        "http://carousel.example": False,
        "https://carousel.example:4443": False,
        "https://evil.example": False,
    }
