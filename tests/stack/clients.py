"""A logged-in player as a real browser would be one: a session cookie, a CSRF cookie
and header, an Origin, over plain HTTP (urllib) and WebSocket (websockets) clients."""

import http.client
import secrets
import urllib.parse

from django.test import Client


def session_cookie(user):
    """A session for ``user`` stored in the (shared) database, as its cookie value."""
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


class Player:
    def __init__(self, user, server):
        self.user = user
        self.server = server
        self.session = session_cookie(user)
        # A valid CSRF secret: the cookie and the header carry the same value.
        self.csrf = secrets.token_hex(16)

    @property
    def cookie_header(self):
        return f"sessionid={self.session}; csrftoken={self.csrf}"

    @property
    def origin(self):
        return self.server.base_url

    def request(self, method, path, data=None, headers=None, server=None, timeout=20):
        server = server or self.server
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
        body = None
        all_headers = {
            "Cookie": self.cookie_header,
            "Origin": server.base_url,
            "Host": f"127.0.0.1:{server.port}",
        }
        if method == "POST":
            body = urllib.parse.urlencode(data or {}, doseq=True)
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
            all_headers["X-CSRFToken"] = self.csrf
        all_headers.update(headers or {})
        try:
            conn.request(method, path, body=body, headers=all_headers)
            reply = conn.getresponse()
            return reply.status, reply.read().decode(errors="replace")
        finally:
            conn.close()

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, data=None, **kw):
        return self.request("POST", path, data, **kw)

    def ws_headers(self, server=None):
        server = server or self.server
        return {"Cookie": self.cookie_header, "Origin": server.base_url}
