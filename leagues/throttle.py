"""The log-in throttle, designed for phones (README "Log-in throttle").

Wrong passwords are counted three ways, each with a limit of its own, in the shared
cache (Redis in production, so every worker sees the same counts):

- per account (any address, new devices): after ``LOGIN_ACCOUNT_LIMIT`` failures,
  log-ins to that account from devices it was never used on pause for
  ``LOGIN_PAUSE``. That stops guessing one password from many (forged or rented)
  addresses.
- per address (any account, new devices): after ``LOGIN_ADDRESS_LIMIT`` failures,
  log-ins from that address on new devices pause. That stops one address trying many
  accounts. The limit is high because a carrier NAT, a home or an office puts many
  honest players behind one address.
- per known device and account: a browser that logged in to an account before carries
  a signed device cookie; it is never held by the two pauses above, so a real player
  on their own phone is never locked out by what others do, but it has its own
  allowance of ``LOGIN_DEVICE_LIMIT`` failures.

A pause is not renewed by attempts made during it. A successful log-in clears the
account's count; a successful password reset lifts the account's pause and makes that
browser a known device, so an owner on a new phone gets in by resetting.

The address is ``REMOTE_ADDR`` as ``config.middleware.ClientAddress`` set it from the
proxy's own entry in ``X-Forwarded-For``: a client cannot choose it.
"""

import hashlib
import secrets
import time
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.utils.translation import ngettext

from leagues.models import User

DEVICE_COOKIE = "carousel_device"
DEVICE_SALT = "carousel.leagues.throttle.device"
DEVICE_MAX_AGE = 365 * 86400
DEVICE_MAX_ACCOUNTS = 8  # accounts remembered per browser (a shared family tablet)


def _limit(name, default):
    return int(getattr(settings, name, default))


def pause_seconds():
    return _limit("LOGIN_PAUSE_SECONDS", 15 * 60)


def _digest(*parts):
    # Keys never hold a raw username or address (they may end up in a cache dump).
    raw = "\x1f".join(str(p) for p in parts).encode()
    return hashlib.sha256(raw).hexdigest()[:32]


def account_key(username):
    # Case-folded, so that "Alice" and "alice" share one count.
    return "login:account:" + _digest(username.strip().casefold())


def address_key(address):
    return "login:address:" + _digest(address)


def device_key(device_id, username):
    return "login:device:" + _digest(device_id, username.strip().casefold())


# --- The device cookie ------------------------------------------------------------------


def _read_device(request):
    """(device id, set of user ids) from the request's device cookie, or (None, set())."""
    raw = request.COOKIES.get(DEVICE_COOKIE)
    if not raw:
        return None, set()
    try:
        data = signing.loads(raw, salt=DEVICE_SALT, max_age=DEVICE_MAX_AGE)
        device_id, users = str(data["d"]), {int(u) for u in data["u"]}
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None, set()
    return device_id, users


def known_device(request, username):
    """The device id when this browser has logged in to ``username``'s account before."""
    device_id, users = _read_device(request)
    if device_id is None or not users:
        return None
    user_id = User.objects.filter(username=username).values_list("pk", flat=True).first()
    return device_id if user_id in users else None


def remember_device(request, response, user):
    """Mark this browser as one ``user`` logged in on (after a log-in or a reset)."""
    device_id, users = _read_device(request)
    device_id = device_id or secrets.token_urlsafe(16)
    users = [u for u in users if u != user.pk][-(DEVICE_MAX_ACCOUNTS - 1) :] + [user.pk]
    response.set_cookie(
        DEVICE_COOKIE,
        signing.dumps({"d": device_id, "u": users}, salt=DEVICE_SALT),
        max_age=DEVICE_MAX_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


# --- Counting ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Pause:
    message: str


def _paused_for(key):
    """Seconds left on the pause stored at ``key`` (0: none)."""
    until = cache.get(key + ":paused")
    if until is None:
        return 0
    return max(0, int(until - time.time()))


def _count(key, limit):
    """Count one failure at ``key``; pause it once ``limit`` is reached. A failure
    during a pause is not counted, so trying on does not lengthen the pause."""
    if _paused_for(key):
        return
    window = pause_seconds()
    cache.add(key, 0, timeout=window)
    try:
        failures = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=window)
        failures = 1
    if failures >= limit:
        cache.set(key + ":paused", time.time() + window, timeout=window)
        cache.delete(key)


def _minutes(seconds):
    return max(1, -(-seconds // 60))


def check(request, username):
    """The pause that holds this log-in attempt back, or None to go ahead."""
    device_id = known_device(request, username)
    if device_id is not None:
        left = _paused_for(device_key(device_id, username))
        if left:
            minutes = _minutes(left)
            return Pause(
                ngettext(
                    "Too many wrong passwords on this device. Try again in %(minutes)d "
                    "minute, or reset your password by email.",
                    "Too many wrong passwords on this device. Try again in %(minutes)d "
                    "minutes, or reset your password by email.",
                    minutes,
                )
                % {"minutes": minutes}
            )
        return None
    left = _paused_for(account_key(username))
    if left:
        minutes = _minutes(left)
        return Pause(
            ngettext(
                "Too many wrong passwords were tried for this account. For its safety, "
                "log-ins from new devices are paused for %(minutes)d minute. On a device "
                "you have logged in on before you can log in as usual, and resetting your "
                "password by email lifts the pause.",
                "Too many wrong passwords were tried for this account. For its safety, "
                "log-ins from new devices are paused for %(minutes)d minutes. On a device "
                "you have logged in on before you can log in as usual, and resetting your "
                "password by email lifts the pause.",
                minutes,
            )
            % {"minutes": minutes}
        )
    left = _paused_for(address_key(request.META.get("REMOTE_ADDR", "")))
    if left:
        minutes = _minutes(left)
        return Pause(
            ngettext(
                "Too many wrong passwords came from your network. Log-ins from new devices "
                "on it are paused for %(minutes)d minute. On a device you have logged in on "
                "before you can log in as usual.",
                "Too many wrong passwords came from your network. Log-ins from new devices "
                "on it are paused for %(minutes)d minutes. On a device you have logged in "
                "on before you can log in as usual.",
                minutes,
            )
            % {"minutes": minutes}
        )
    return None


def failed(request, username):
    """Count a wrong password for ``username`` (an account that may not exist: counting
    the same either way tells a stranger nothing about which accounts exist)."""
    device_id = known_device(request, username)
    if device_id is not None:
        _count(device_key(device_id, username), _limit("LOGIN_DEVICE_LIMIT", 10))
        return
    _count(account_key(username), _limit("LOGIN_ACCOUNT_LIMIT", 5))
    _count(address_key(request.META.get("REMOTE_ADDR", "")), _limit("LOGIN_ADDRESS_LIMIT", 20))


# Warn only when the pause is near: a count after every typo would be noise.
WARN_WHEN_LEFT = 3


def _left(key, limit):
    """Failures ``key`` may still take before it pauses (0: paused now)."""
    if _paused_for(key):
        return 0
    return max(0, limit - int(cache.get(key) or 0))


def tries_left(request, username):
    """(failures left, known device): how many more wrong passwords this attempt's
    browser may make before the pause that would hold it back soonest. A known device
    has only its own count; a new one is held by the account's or the address's,
    whichever comes first."""
    device_id = known_device(request, username)
    if device_id is not None:
        return _left(device_key(device_id, username), _limit("LOGIN_DEVICE_LIMIT", 10)), True
    left = min(
        _left(account_key(username), _limit("LOGIN_ACCOUNT_LIMIT", 5)),
        _left(address_key(request.META.get("REMOTE_ADDR", "")), _limit("LOGIN_ADDRESS_LIMIT", 20)),
    )
    return left, False


def tries_left_warning(request, username):
    """After a wrong password: how many tries remain before the pause, while it is near
    (``WARN_WHEN_LEFT`` or fewer), so that nobody walks into it unwarned; else None.
    None too once the pause has begun: the next attempt says so itself (``check``)."""
    left, known = tries_left(request, username)
    if not 0 < left <= WARN_WHEN_LEFT:
        return None
    values = {"n": left, "minutes": _minutes(pause_seconds())}
    if known:
        return (
            ngettext(
                "%(n)d try left before log-ins on this device pause for %(minutes)d minutes.",
                "%(n)d tries left before log-ins on this device pause for %(minutes)d minutes.",
                left,
            )
            % values
        )
    return (
        ngettext(
            "%(n)d try left before log-ins from new devices pause for %(minutes)d minutes.",
            "%(n)d tries left before log-ins from new devices pause for %(minutes)d minutes.",
            left,
        )
        % values
    )


def succeeded(request, user):
    """The right password: the account's count starts again."""
    cache.delete(account_key(user.username))
    device_id, _users = _read_device(request)
    if device_id is not None:
        cache.delete_many(
            [device_key(device_id, user.username), device_key(device_id, user.username) + ":paused"]
        )


def lift_account_pause(user):
    """A successful password reset proves the owner: lift the account's pause."""
    key = account_key(user.username)
    cache.delete_many([key, key + ":paused"])
