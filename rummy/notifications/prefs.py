"""Who wants which email: a user's notification preferences (every kind on until they
choose), and switching kinds off (the settings page and one-click unsubscribe)."""

from rummy.models import Notice, NotificationPrefs

# The preference each kind of notice obeys (the names are NotificationPrefs fields).
PREF_OF_KIND = {
    Notice.Kind.YOUR_MOVE: "your_move",
    Notice.Kind.REMINDER: "reminders",
    Notice.Kind.RESULT: "results",
}
PREFS = ("your_move", "reminders", "results")
ALL = "all"


def prefs_for(user) -> NotificationPrefs:
    """The user's preferences; unsaved defaults (everything on) when they never chose."""
    try:
        return user.notification_prefs
    except NotificationPrefs.DoesNotExist:
        return NotificationPrefs(user=user)


def can_email(user) -> bool:
    return bool(user and user.is_active and user.email and user.email_verified)


def wants(user, kind) -> bool:
    return can_email(user) and getattr(prefs_for(user), PREF_OF_KIND[kind])


def unsubscribe(user, pref):
    """Switch off ``pref`` (or every kind) for ``user``."""
    prefs = prefs_for(user)
    for name in PREFS if pref == ALL else (pref,):
        setattr(prefs, name, False)
    prefs.save()
    return prefs
