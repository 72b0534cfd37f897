"""Who wants what, per kind and per channel: a user's notification preferences (every
kind on, on both channels, until they choose), and switching kinds off (the settings
page and one-click unsubscribe).

Email is the fallback: a kind that one of the player's devices is pushed (push set up on
the site, a subscribed device, that kind's push switch on) is not emailed too, so that a
player with push gets one notice, not two; with no device, or push switched off for a
kind, email carries it as it always did."""

from rummy.models import Notice, NotificationPrefs, PushSubscription
from rummy.notifications import vapid

# The email preference each kind of notice obeys (the names are NotificationPrefs fields).
PREF_OF_KIND = {
    Notice.Kind.YOUR_MOVE: "your_move",
    Notice.Kind.REMINDER: "reminders",
    Notice.Kind.RESULT: "results",
}
PREFS = ("your_move", "reminders", "results")
# The push preference of each kind.
PUSH_PREF_OF_KIND = {
    Notice.Kind.YOUR_MOVE: "push_your_move",
    Notice.Kind.REMINDER: "push_reminders",
    Notice.Kind.RESULT: "push_results",
}
PUSH_PREFS = ("push_your_move", "push_reminders", "push_results")
ALL = "all"


def prefs_for(user) -> NotificationPrefs:
    """The user's preferences; unsaved defaults (everything on) when they never chose."""
    try:
        return user.notification_prefs
    except NotificationPrefs.DoesNotExist:
        return NotificationPrefs(user=user)


def can_email(user) -> bool:
    return bool(user and user.is_active and user.email and user.email_verified)


def wants_push(user, kind) -> bool:
    """The player takes ``kind`` by push, if a device of theirs is subscribed."""
    return bool(user and user.is_active) and getattr(prefs_for(user), PUSH_PREF_OF_KIND[kind])


def pushed(user, kind) -> bool:
    """``kind`` reaches ``user`` by push: push is set up, they want it, a device is there."""
    return (
        vapid.site_keys() is not None
        and wants_push(user, kind)
        and PushSubscription.objects.filter(user=user).exists()
    )


def wants(user, kind) -> bool:
    """``kind`` is emailed to ``user``: they want it by email and no device is pushed it."""
    return (
        can_email(user) and getattr(prefs_for(user), PREF_OF_KIND[kind]) and not pushed(user, kind)
    )


def unsubscribe(user, pref):
    """Switch off ``pref`` (or every kind) for ``user``: email only, which is what the
    links in emails are about."""
    prefs = prefs_for(user)
    for name in PREFS if pref == ALL else (pref,):
        setattr(prefs, name, False)
    prefs.save()
    return prefs
