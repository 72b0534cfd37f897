"""Push subscriptions as browsers hand them in (``PushSubscription.toJSON()``: the
endpoint and the keys ``p256dh`` and ``auth``), checked before anything is stored, and
checked again before anything is sent.

The clock later POSTs to the stored endpoint, so the endpoint decides where this server
opens connections. An open list ("any public host") would have to resolve every name
and refuse every address that is not globally routable, in each of its spellings
(``127.1``, ``0x7f.0.0.1``, ``0177.0.0.1``, IPv4 inside IPv6, names that public wildcard
DNS points anywhere) and then connect to exactly the address it checked: many places
to get wrong, for no gain, since a real browser only ever hands in an endpoint of its
own push service. So the list is closed: ``https``, port 443, no user or password, and
a host that is one of the push services of the browsers we know (``PUSH_SERVICES``),
spelt exactly as browsers spell it (lower case, no trailing dot, no IP literal, ASCII
only). Those names belong to Google, Mozilla, Apple and Microsoft, whose DNS we trust
to point at their own servers. ``PUSH_ALLOW_LOCAL_ENDPOINTS`` adds one thing, for the
tests' own push service: ``http://127.0.0.1:<port>``.

A browser keeps one endpoint per site, so an endpoint names one device: the account
that registered it first keeps it, and another account posting it is refused (it can
neither take nor drop the first account's device).
"""

import base64
import binascii
import json
import re
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from rummy.models import PushSubscription

MAX_ENDPOINT = PushSubscription._meta.get_field("endpoint").max_length
# A subscription as browsers post it is a few hundred bytes; JSON much larger than this
# is not one, and is not parsed.
MAX_BODY = 4096

# The push services of real browsers, by host name. Chrome, Edge on Android, Opera,
# Samsung Internet and Brave: Firebase Cloud Messaging. Firefox: Mozilla's autopush.
# Safari (macOS, and iPhone and iPad apps on the home screen): Apple's web push service,
# whose hosts Apple documents as *.push.apple.com. Edge on Windows: the Windows Push
# Notification Services, one host per region (wns2-db5p.notify.windows.com).
PUSH_SERVICES = frozenset(
    {"fcm.googleapis.com", "updates.push.services.mozilla.com", "web.push.apple.com"}
)
PUSH_SERVICE_DOMAINS = ("push.apple.com", "notify.windows.com")  # one label in front
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
# What a push service's URL is made of (RFC 3986's characters): no space, no
# backslash, nothing outside ASCII, so every URL parser splits it the same way.
_URL_CHARACTERS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+")


class Refused(ValueError):
    """A subscription that is not stored; ``message`` says why, for the player."""

    def __init__(self, message):
        super().__init__(str(message))
        self.message = str(message)


def parse(body):
    """(endpoint, p256dh, auth) from the JSON a browser POSTed; Refused otherwise."""
    try:
        if len(body) > MAX_BODY:
            raise ValueError("too long for a subscription")
        data = json.loads(body)
        endpoint = data["endpoint"]
        p256dh, auth = data["keys"]["p256dh"], data["keys"]["auth"]
    # RecursionError: arrays or objects nested deeper than the parser goes ("[[[[...").
    except (ValueError, UnicodeDecodeError, KeyError, TypeError, RecursionError):
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
    """Refused unless ``endpoint`` is a URL on a browser's push service (the module's
    docstring says why the list is closed)."""
    if not is_push_service(endpoint):
        raise Refused(_("This browser's push service is not one we can send to."))


def is_push_service(endpoint):
    """Whether the clock may POST to ``endpoint``: at subscription, and again before
    each push (a row stored before this check was this strict is never sent to)."""
    if not isinstance(endpoint, str) or len(endpoint) > MAX_ENDPOINT:
        return False
    if not _URL_CHARACTERS.fullmatch(endpoint):
        return False
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return False
    host = parts.hostname or ""
    if _local_test_service(endpoint, parts, port):
        return True
    # Scheme and authority exactly as browsers write them: "https://", the host, at most
    # ":443" after it (no user or password, no upper case); then a host of the list,
    # which leaves out IP literals of every spelling and a trailing dot.
    if not endpoint.startswith("https://") or parts.netloc not in (host, f"{host}:443"):
        return False
    if host in PUSH_SERVICES:
        return True
    label, _dot, domain = host.partition(".")
    return domain in PUSH_SERVICE_DOMAINS and _LABEL.fullmatch(label) is not None


def _local_test_service(endpoint, parts, port):
    return (
        getattr(settings, "PUSH_ALLOW_LOCAL_ENDPOINTS", False)
        and port is not None
        and endpoint.startswith(f"http://127.0.0.1:{port}/")
        and parts.netloc == f"127.0.0.1:{port}"
    )


def save(user, endpoint, p256dh, auth, device):
    """Store the subscription for ``user``: one row per endpoint. The same browser
    subscribing again updates its keys; an endpoint that another account registered is
    Refused, and that account's device stays as it was. Posted many times at once, it
    still makes one row: a losing insert finds the winner's row and goes by it."""
    values = {"p256dh": p256dh, "auth": auth, "device": device}
    for _attempt in range(3):
        if PushSubscription.objects.filter(endpoint=endpoint).exclude(user=user).exists():
            raise Refused(
                _(
                    "This browser already gets push notifications for another account. "
                    "Sign in to that account and remove this device there first."
                )
            )
        mine = PushSubscription.objects.filter(endpoint=endpoint, user=user)
        if mine.update(**values):
            subscription = mine.first()
            if subscription is not None:  # else removed meanwhile: look again
                return subscription
            continue
        try:
            with transaction.atomic():
                return PushSubscription.objects.create(user=user, endpoint=endpoint, **values)
        except IntegrityError:  # another request stored this endpoint meanwhile: look again
            continue
    raise Refused(_("That is not a push subscription. Reload the page and try again."))


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
