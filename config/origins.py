"""Which pages may open our WebSockets.

A browser sends the cookies of this site with a socket that any page opens, and tells
us which page in ``Origin``. Channels' AllowedHostsOriginValidator compares only the
host name, so ``http://carousel.example`` (a network attacker's plain-HTTP page) and
``https://carousel.example:4443`` passed in production. With DEBUG off only the
site's own origins pass, compared exactly (scheme, host and port): those listed in
CSRF_TRUSTED_ORIGINS (entries with a wildcard are not used here), or the origin of
SITE_URL when that list is empty. With DEBUG on (``make run``, the test suites, the
browser tests' server on a random port) the host check of old stays.

A socket without an Origin header is refused, as channels' validator does: browsers
always send one, and an Origin-less client is not a page of ours.

Settings are read once, when the application is built, as channels' validator does.
"""

from urllib.parse import urlparse

from channels.security.websocket import OriginValidator
from django.conf import settings

DEFAULT_PORTS = {"http": 80, "https": 443}


def normalized(parsed):
    """``scheme://host[:port]``, lower case, without the scheme's default port; None for
    anything that is not an http(s) origin."""
    scheme = (parsed.scheme or "").lower()
    if scheme not in DEFAULT_PORTS or not parsed.hostname:
        return None
    try:
        port = parsed.port
    except ValueError:  # not a number, or out of range
        return None
    host = parsed.hostname.lower()
    if ":" in host:  # IPv6
        host = f"[{host}]"
    if port is None or port == DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def site_origins():
    listed = [o for o in settings.CSRF_TRUSTED_ORIGINS if "*" not in o]
    origins = {normalized(urlparse(o.rstrip("/"))) for o in listed or [settings.SITE_URL]}
    origins.discard(None)
    return frozenset(origins)


def debug_hosts():
    """What AllowedHostsOriginValidator allows (host names, any scheme and port)."""
    return list(settings.ALLOWED_HOSTS) or ["localhost", "127.0.0.1", "[::1]"]


class SiteOriginValidator(OriginValidator):
    def __init__(self, application):
        self.exact = not settings.DEBUG
        super().__init__(application, [] if self.exact else debug_hosts())
        self.origins = site_origins() if self.exact else frozenset()

    def valid_origin(self, parsed_origin):
        if parsed_origin is None:
            return False
        if self.exact:
            return normalized(parsed_origin) in self.origins
        return super().valid_origin(parsed_origin)
