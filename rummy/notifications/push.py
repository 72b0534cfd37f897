"""Sending one web push (RFC 8030) to one device: the payload encrypted for it
(aes128gcm, RFC 8291) and signed with the site's VAPID key (RFC 8292), by pywebpush.

The payload is what the service worker (``/sw.js``) shows: JSON ``{"title", "body",
"url", "tag"}``, ``url`` a path on this site opened by a tap, ``tag`` the notification it
replaces. Errors are sorted, never raised: a device the push service no longer knows
(404, 410) is deleted, anything else is logged and left for the next pass. A device
whose endpoint is not on a browser's push service (``subscriptions.is_push_service``:
a row stored before that check was strict) is deleted unsent: the push never leaves.
"""

import json
import logging
import time

import requests
from django.conf import settings
from django.utils import timezone
from pywebpush import WebPushException, webpush

from rummy.models import PushSubscription
from rummy.notifications import subscriptions
from rummy.notifications.pipeline import Outcome

log = logging.getLogger(__name__)

# The VAPID token's lifetime; RFC 8292 allows at most 24 hours.
TOKEN_SECONDS = 12 * 3600
# The push service's answers that mean "this subscription is gone for good" (RFC 8030 8.3).
GONE_STATUSES = (404, 410)


class _NoRedirects(requests.Session):
    """Never follows a redirect: the endpoint was checked (``subscriptions``), the place
    a push service (or someone posing as one) redirects to was not."""

    def request(self, *args, **kwargs):
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


def message(title, body, url, tag) -> dict:
    return {"title": str(title), "body": str(body), "url": str(url), "tag": str(tag)}


def send(subscription, content, keys, ttl, urgency, sending=None) -> Outcome:
    """Push ``content`` (a ``message``) to ``subscription``. ``ttl``: seconds the push
    service keeps it for a device that is offline; ``urgency``: RFC 8030's "high" or
    "normal", which lets a phone on battery wake for what matters. ``sending``: called
    just before the push leaves (the pipeline stamps its claims)."""
    if not subscriptions.is_push_service(subscription.endpoint):
        log.warning("push subscription %s is not on a push service: deleted", subscription.pk)
        subscription.delete()
        return Outcome.GONE
    info = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    # A fresh dict per push: pywebpush writes the audience (the endpoint's origin) in.
    claims = {"sub": settings.VAPID_SUBJECT, "exp": int(time.time()) + TOKEN_SECONDS}
    if sending is not None:
        sending()
    try:
        with _NoRedirects() as session:
            webpush(
                info,
                data=json.dumps(content, ensure_ascii=False),
                vapid_private_key=keys.signer,
                vapid_claims=claims,
                content_encoding="aes128gcm",
                ttl=max(int(ttl), 0),
                headers={"Urgency": urgency},
                timeout=settings.PUSH_TIMEOUT,
                requests_session=session,
            )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE_STATUSES:
            log.info("push subscription %s is gone (%s): deleted", subscription.pk, status)
            subscription.delete()
            return Outcome.GONE
        log.warning("push to subscription %s failed: %s", subscription.pk, status or error)
        return Outcome.FAILED
    except (requests.RequestException, OSError) as error:
        log.warning("push to subscription %s failed: %r", subscription.pk, error)
        return Outcome.FAILED
    except Exception:
        log.exception("could not push to subscription %s", subscription.pk)
        return Outcome.FAILED
    PushSubscription.objects.filter(pk=subscription.pk).update(last_success_at=timezone.now())
    return Outcome.SENT
