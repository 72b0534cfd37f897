"""What every socket of ours checks besides its game: that the session it was opened
with is still a valid log-in, and that its user does not hold too many sockets.

A socket is authenticated once, at the handshake; a session that later ends (log-out,
password change or reset, account deactivated) must not leave it working. So:

- each socket joins the group of its session and the group of its user's log-ins; on
  log-out the session's sockets are told to close, and on a change of the user's
  password or active flag every socket of the user re-checks its own session (the
  session that changed the password gets a new key, so its sockets close too, and
  reconnect with the new cookie);
- an action arriving on a socket is applied only after that same check, in the same
  thread as the action (no extra hop), so a lost message cannot leave a hole;
- the table socket re-checks now and then before rendering a broadcast
  (``RECHECK_SECONDS``), which also catches sessions that simply expired.

What a user may do in a league (``rummy.table.access.rights``) is kept by each process
for its sockets; when it changes (a membership made, changed or ended; a league made
public or invite-only) the sockets it concerns are told (``rights.changed``), forget it
and render again at once, so a removed member's open table closes there and then.

The per-user socket count lives in Django's cache (shared by all worker processes when
it is Redis), with an expiry so that counts left by a crashed worker are forgotten.
Only ids and a hash of the session key travel on the channel layer: a session key is
a credential.
"""

import hashlib
from importlib import import_module

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.signals import user_logged_out
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver
from django.utils.crypto import constant_time_compare

from leagues.models import League, Membership
from rummy.models import Game
from rummy.play import broadcast
from rummy.table import access, dispatch

# Close codes (4000-4999 are the application's). Neither is one that the htmx ws
# extension reconnects on, so a refused page does not hammer the server.
CLOSE_SESSION_ENDED = 4401
CLOSE_TOO_MANY = 4429

RECHECK_SECONDS = 60

# A socket lives at most daphne's --websocket_timeout (12 h, README); the count of a
# user's sockets expires an hour after their last accepted one. Longer would keep a
# crashed worker's leftovers counted (and the user possibly refused) longer; shorter
# lets a long-lived socket drop out of the count sooner (counted low, never refused).
COUNT_TTL = 3600


def max_sockets_per_user():
    return getattr(settings, "MAX_SOCKETS_PER_USER", 20)


class SessionEnded(Exception):
    """The socket's session is no longer a valid log-in of its user."""


def session_group(session_key):
    digest = hashlib.sha256(f"carousel-socket:{session_key}".encode()).hexdigest()[:40]
    return f"session-{digest}"


def logins_group(user_id):
    return f"logins-{user_id}"


def session_is_valid(session_key, user_id):
    """What ``django.contrib.auth.get_user`` would decide for a request carrying this
    session now, read-only: the session still exists, names this user, the user may
    still log in (active), and the session's password hash is the user's current one
    (or one made with a SECRET_KEY_FALLBACKS key). Unlike get_user it never cycles or
    flushes the session: there is no response here to hand a new cookie to."""
    if not session_key:
        return False
    engine = import_module(settings.SESSION_ENGINE)
    data = engine.SessionStore(session_key).load()  # {} when gone or expired
    if data.get(SESSION_KEY) != str(user_id):
        return False
    backend_path = data.get(BACKEND_SESSION_KEY)
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return False
    user = load_backend(backend_path).get_user(user_id)  # None once inactive
    stored = data.get(HASH_SESSION_KEY)
    if user is None or not stored:
        return False
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    return any(constant_time_compare(stored, known) for known in hashes)


def perform(session_key, user, game_id, data):
    """``dispatch.perform`` for an action that arrived on a socket, once its session is
    found still valid (raises ``SessionEnded`` otherwise)."""
    if not session_is_valid(session_key, user.pk):
        raise SessionEnded
    return dispatch.perform(game_id, user, data)


# --- The per-user count -----------------------------------------------------------------


def _count_key(user_id):
    return f"sockets-of-user-{user_id}"


def take_place(user_id):
    """Count one more socket of the user; False (and nothing counted) over the cap."""
    key = _count_key(user_id)
    for _attempt in range(3):
        cache.add(key, 0, COUNT_TTL)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            continue
        if count > max_sockets_per_user():
            free_place(user_id)
            return False
        cache.touch(key, COUNT_TTL)
        return True
    return True  # the cache keeps losing the key: do not lock the user out over it


def free_place(user_id):
    key = _count_key(user_id)
    try:
        count = cache.decr(key)
    except ValueError:  # expired: nothing left to free
        return
    if count < 0:
        # The key expired and came back while older sockets were open: never let
        # those sockets' departures buy room beyond the cap.
        cache.incr(key, -count)


# --- Telling open sockets ---------------------------------------------------------------


def _send_after_commit(group, message):
    layer = get_channel_layer()
    if layer is None:
        return
    transaction.on_commit(lambda: async_to_sync(layer.group_send)(group, message))


@receiver(user_logged_out, dispatch_uid="rummy.table.sockets.close_on_logout")
def close_on_logout(sender, request, user, **kwargs):
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if key:
        # Sent while the session is being flushed: the sockets close without checking.
        _send_after_commit(session_group(key), {"type": "session.ended"})


_login_fields = ("password", "is_active")


@receiver(pre_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="rummy.table.sockets.pre_save")
def _note_login_change(sender, instance, update_fields=None, **kwargs):
    """A model hook rather than the views: it catches every way a password changes
    (change, reset, admin, changepassword) and a deactivation. Saves that name their
    fields (last_login on every log-in) and do not touch these cost nothing."""
    instance._logins_changed = False
    if instance.pk is None or instance._state.adding:
        return
    if update_fields is not None and not set(update_fields) & set(_login_fields):
        return
    before = (
        get_user_model()._default_manager.filter(pk=instance.pk).values_list(*_login_fields).first()
    )
    instance._logins_changed = before is not None and before != (
        instance.password,
        instance.is_active,
    )


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="rummy.table.sockets.post_save")
def _recheck_on_login_change(sender, instance, created, **kwargs):
    if getattr(instance, "_logins_changed", False):
        instance._logins_changed = False
        _send_after_commit(logins_group(instance.pk), {"type": "session.check"})


def _tell_after_commit(user_id, league_id, groups):
    """After commit: forget ``user_id``'s (None: everyone's) rights in ``league_id`` in
    this process, and tell the sockets in ``groups()`` (read then) to do the same."""
    layer = get_channel_layer()
    message = {"type": "rights.changed", "user_id": user_id, "league_id": league_id}

    def tell():
        access.forget_rights(user_id, league_id)
        if layer is not None:
            async_to_sync(_send_all)(layer, [(group, message) for group in groups()])

    transaction.on_commit(tell)


async def _send_all(layer, messages):
    for group, message in messages:
        await layer.group_send(group, message)


@receiver(post_save, sender=Membership, dispatch_uid="rummy.table.sockets.membership_saved")
@receiver(post_delete, sender=Membership, dispatch_uid="rummy.table.sockets.membership_gone")
def _tell_membership_change(sender, instance, **kwargs):
    """A membership made, changed (its role: ``leagues.services.set_role`` saves it) or
    ended: the user's sockets, wherever they are, forget what they knew of the league."""
    user_id = instance.user_id
    _tell_after_commit(user_id, instance.league_id, lambda: [logins_group(user_id)])


@receiver(pre_save, sender=League, dispatch_uid="rummy.table.sockets.league_saving")
def _note_visibility_change(sender, instance, **kwargs):
    instance._visibility_changed = False
    if instance.pk is None or instance._state.adding:
        return
    before = League.objects.filter(pk=instance.pk).values_list("visibility", flat=True).first()
    instance._visibility_changed = before is not None and before != instance.visibility


@receiver(post_save, sender=League, dispatch_uid="rummy.table.sockets.league_saved")
def _tell_visibility_change(sender, instance, **kwargs):
    """A league made public or invite-only: who may watch its games changed for every
    non-member, so every socket at one of its open or running games is told."""
    if not getattr(instance, "_visibility_changed", False):
        return
    instance._visibility_changed = False
    league_id = instance.pk

    def groups():
        games = Game.objects.filter(
            league_id=league_id, status__in=[Game.Status.OPEN, Game.Status.ACTIVE]
        ).values_list("pk", flat=True)
        return [broadcast.game_group(game_id) for game_id in games]

    _tell_after_commit(None, league_id, groups)
