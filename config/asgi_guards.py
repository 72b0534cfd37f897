"""ASGI wrappers around the whole application (config/asgi.py), for what is about the
protocol rather than any one page, so that no route, error page or socket escapes them.

``RejectNul``: a NUL character cannot be stored in a PostgreSQL text value, so a NUL
reaching a database lookup (``/u/%00/``, an invite token, a session cookie such as
``"\\000\\000..."``, which Django's cookie parser unescapes) raised DataError, a 500.
No real address, query or cookie of this site holds one: such a request is answered
400 (a socket is refused) before Django or Channels sees it.

``PrivateResponses``: a response to a request that carries the session cookie, or one
that varies on cookies, may show a player's hand or account. It gets
``Cache-Control: no-store, private`` (unless the view chose its own), so that a shared
phone's cache or back button does not keep it after log-out. Static files set their
own caching and carry nothing private.
"""

from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.http import parse_cookie
from django.utils.translation import gettext as _

NO_STORE = b"no-store, private"


def _cookies(scope):
    for name, value in scope.get("headers") or []:
        if name == b"cookie":
            return parse_cookie(value.decode("latin-1"))
    return {}


def _has_nul(scope, cookies):
    if "\x00" in scope.get("path", ""):
        return True
    for raw in (scope.get("raw_path") or b"", scope.get("query_string") or b""):
        if b"\x00" in unquote_to_bytes(raw):
            return True
    return any("\x00" in name or "\x00" in value for name, value in cookies.items())


class RejectNul:
    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            cookies = _cookies(scope)
            if _has_nul(scope, cookies):
                return await self._refuse(scope, receive, send)
        return await self.application(scope, receive, send)

    async def _refuse(self, scope, receive, send):
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.close"})  # refused handshake (403)
            return
        body = _("The request could not be read.").encode()
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                    (b"cache-control", NO_STORE),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _varies_on_cookie(headers):
    return any(name.lower() == b"vary" and b"cookie" in value.lower() for name, value in headers)


class PrivateResponses:
    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("path", "").startswith(
            "/" + settings.STATIC_URL.lstrip("/")
        ):
            return await self.application(scope, receive, send)
        with_session = settings.SESSION_COOKIE_NAME in _cookies(scope)

        async def send_private(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                if not any(name.lower() == b"cache-control" for name, _v in headers) and (
                    with_session or _varies_on_cookie(headers)
                ):
                    headers.append((b"cache-control", NO_STORE))
                    message = dict(message, headers=headers)
            await send(message)

        return await self.application(scope, receive, send_private)
