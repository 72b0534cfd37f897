"""Push subscriptions as browsers hand them in (``PushSubscription.toJSON()``: the
endpoint and the keys ``p256dh`` and ``auth``), checked before anything is stored.

The clock later POSTs to whatever endpoint was stored, so an endpoint must be an https
URL on a public host: never this machine or a private network (the site would be made
to send requests inside its own network), except plain http to this machine where
``PUSH_ALLOW_LOCAL_ENDPOINTS`` says so (development and the tests' local push service).
A host name is not resolved here: a push service's name that points inside the network
is the operator's DNS, not a player's doing.
"""

import base64
import binascii
import ipaddress
import json
import re
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from rummy.models import PushSubscription

MAX_ENDPOINT = PushSubscription._meta.get_field("endpoint").max_length
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


class Refused(ValueError):
    """A subscription that is not stored; ``message`` says why, for the player."""

    def __init__(self, message):
        super().__init__(str(message))
        self.message = str(message)


def parse(body):
    """(endpoint, p256dh, auth) from the JSON a browser POSTed; Refused otherwise."""
    try:
        data = json.loads(body)
        endpoint = data["endpoint"]
        p256dh, auth = data["keys"]["p256dh"], data["keys"]["auth"]
    except (ValueError, UnicodeDecodeError, KeyError, TypeError):
        raise Refused(
            _("That is not a push subscription. Reload the page and try again.")
        ) from None
    if not all(isinstance(value, str) for value in (endpoint, p256dh, auth)):
        raise Refused(_("That is not a push subscription. Reload the page and try again."))
    check_endpoint(endpoint)
    point = _decoded(p256dh)
    try:
        # 65 bytes that are a point on P-256 (RFC 8291 section 3.1), not just any bytes.
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise Refused(_("This browser's push key is not valid.")) from None
    if len(point) != 65 or len(_decoded(auth)) != 16:
        raise Refused(_("This browser's push key is not valid."))
    return endpoint, p256dh.rstrip("="), auth.rstrip("=")


def _decoded(text):
    if not re.fullmatch(r"[A-Za-z0-9_-]+={0,2}", text):
        raise Refused(_("This browser's push key is not valid."))
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise Refused(_("This browser's push key is not valid.")) from None


def check_endpoint(endpoint):
    """Refused unless ``endpoint`` is a URL we are willing to POST to."""
    refusal = Refused(_("This browser's push service is not one we can send to."))
    if len(endpoint) > MAX_ENDPOINT or any(ch.isspace() or ord(ch) < 32 for ch in endpoint):
        raise refusal
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
        parts.port  # noqa: B018 (raises ValueError on a port that is not a number)
    except ValueError:
        raise refusal from None
    if not host or parts.username is not None or parts.password is not None:
        raise refusal
    local_allowed = getattr(settings, "PUSH_ALLOW_LOCAL_ENDPOINTS", False)
    if parts.scheme == "http" and local_allowed and host in LOCAL_HOSTS:
        return
    if parts.scheme != "https":
        raise refusal
    if host in LOCAL_HOSTS or host.endswith((".localhost", ".local", ".internal")):
        if not local_allowed:
            raise refusal
        return
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        if "." not in host:  # a bare name resolves inside the network, if anywhere
            raise refusal from None
        return
    if not address.is_global and not (local_allowed and address.is_loopback):
        raise refusal


def save(user, endpoint, p256dh, auth, device):
    """Store the subscription for ``user``: one row per endpoint, whoever sent it
    before (a browser that another account had subscribed now pushes to this one; its
    ledger goes with the old row). The same subscription posted many times at once
    still makes one row: a losing insert finds the winner's row and updates it."""
    for _attempt in range(3):
        try:
            with transaction.atomic():
                PushSubscription.objects.filter(endpoint=endpoint).exclude(user=user).delete()
                subscription, _made = PushSubscription.objects.update_or_create(
                    endpoint=endpoint,
                    defaults={"user": user, "p256dh": p256dh, "auth": auth, "device": device},
                )
                return subscription
        except IntegrityError:
            continue
    return PushSubscription.objects.get(endpoint=endpoint, user=user)


BROWSERS = (  # the first that matches; Chrome's token appears in Edge's and Opera's too
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("CrOS", "ChromeOS"),
    ("Mac OS X", "macOS"),
    ("Linux", "Linux"),
)


def device_label(user_agent):
    """What the list of devices calls a browser: "Firefox on Android"."""
    user_agent = user_agent or ""
    browser = next((name for token, name in BROWSERS if token in user_agent), None)
    system = next((name for token, name in SYSTEMS if token in user_agent), None)
    if browser and system:
        return _("%(browser)s on %(system)s") % {"browser": browser, "system": system}
    return browser or system or _("A browser")
