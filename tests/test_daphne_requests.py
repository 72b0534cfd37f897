"""``config.daphne_requests``: under daphne, Twisted no longer parses a POST body that
only Django reads (``config.asgi`` turns it off at import)."""

import io
from types import SimpleNamespace

import pytest

daphne_http = pytest.importorskip("daphne.http_protocol")

import config.asgi  # noqa: E402, F401  (what daphne imports: it makes the change)
from config.daphne_requests import leave_bodies_to_the_application  # noqa: E402


def received(body, content_type):
    """A POST as daphne's request class receives it, up to where daphne takes over."""
    server = SimpleNamespace(protocol_connected=lambda request: None)
    channel = SimpleNamespace(
        getPeer=lambda: None,
        getHost=lambda: None,
        transport=None,
        factory=SimpleNamespace(server=server),
    )
    request = daphne_http.WebRequest(channel, False)
    request.process = lambda: None  # daphne's own handling, not under test
    request.requestHeaders.setRawHeaders(b"Content-Type", [content_type])
    request.content = io.BytesIO()
    request.content.write(body)
    request.requestReceived(b"POST", b"/games/1/act/", b"HTTP/1.1")
    return request


def test_a_form_post_is_left_for_django_to_parse(monkeypatch):
    parsed = []
    real = daphne_http.http._parseContentType
    monkeypatch.setattr(
        daphne_http.http, "_parseContentType", lambda line: parsed.append(line) or real(line)
    )
    request = received(b"action=draw&version=7", b"application/x-www-form-urlencoded")
    assert parsed == [] and request.args == {}
    assert request.content.read() == b"action=draw&version=7"  # the body, untouched
    request = received(
        b'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
        b"multipart/form-data; boundary=x",
    )
    assert parsed == [] and request.args == {}


def test_turning_it_off_twice_wraps_once():
    init = daphne_http.WebRequest.__init__
    leave_bodies_to_the_application()
    assert daphne_http.WebRequest.__init__ is init
