"""What the site keeps about people, and for how long: the periods that the privacy page
states and that the background work keeps to (``rummy.background.retention``). Both read
them here, from the settings (``RETENTION_*``, the throttle's and the rate limits'
windows), so the page and the cleanup cannot disagree."""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django_ratelimit.core import _split_rate

from leagues import limits, throttle


@dataclass(frozen=True)
class Periods:
    # An account whose address was never confirmed and that never logged in.
    unconfirmed_signup: timedelta
    # The ledgers of emails and pushes sent (who was told what about which game).
    notices: timedelta
    # The log-in throttle's and the rate limits' counts: they expire in the cache.
    throttle: timedelta


def _rate_window(group):
    return _split_rate(limits.rate(group))[1]


def periods() -> Periods:
    # A failure count lives a pause long, and the pause it may end in another pause.
    windows = [2 * throttle.pause_seconds(), *(_rate_window(g) for g in limits.DEFAULT_RATES)]
    return Periods(
        unconfirmed_signup=timedelta(days=settings.RETENTION_UNCONFIRMED_SIGNUP_DAYS),
        notices=timedelta(days=settings.RETENTION_NOTICE_DAYS),
        throttle=timedelta(seconds=max(windows)),
    )


def session_period() -> timedelta:
    """How long a log-in lasts without logging out (the session cookie and its row)."""
    return timedelta(seconds=settings.SESSION_COOKIE_AGE)


def device_cookie_period() -> timedelta:
    """How long a browser keeps the log-in throttle's device cookie (it stays there)."""
    return timedelta(seconds=throttle.DEVICE_MAX_AGE)
