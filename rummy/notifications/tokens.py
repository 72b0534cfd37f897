"""Signed links in emails: one-click unsubscribe (never expires, so an old email's link
keeps working) and address verification (bound to the address, three days)."""

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.translation import gettext as _

from leagues.models import User
from rummy.notifications.prefs import ALL, PREFS

UNSUBSCRIBE_SALT = "carousel.notifications.unsubscribe"
VERIFY_SALT = "carousel.notifications.verify-email"
VERIFY_MAX_AGE = timedelta(days=3)


class BadToken(Exception):
    """A token that is forged, damaged, expired or out of date; ``message`` says which."""

    def __init__(self, message):
        super().__init__(str(message))
        self.message = str(message)


def absolute_url(path):
    return settings.SITE_URL.rstrip("/") + path


def unsubscribe_token(user, pref):
    """A token that switches off ``pref`` (or ``ALL``) for ``user``. It does not expire:
    an old email's link must keep working."""
    return signing.dumps({"u": user.pk, "p": pref}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token):
    """(user, pref) from a token; BadToken when it is not one of ours."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
        user_id, pref = data["u"], data["p"]
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise BadToken(
            _(
                "This unsubscribe link is not valid. It may have been cut short "
                "by your email program; you can also change your emails in "
                "your notification settings."
            )
        ) from None
    if pref not in (*PREFS, ALL):
        raise BadToken(_("This unsubscribe link is not valid."))
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        raise BadToken(_("This unsubscribe link belongs to an account that no longer exists."))
    return user, pref


def unsubscribe_url(user, pref):
    return absolute_url(reverse("notifications:unsubscribe", args=[unsubscribe_token(user, pref)]))


def verification_token(user):
    # Bound to the address: a link sent to an old address cannot verify a new one.
    return signing.dumps({"u": user.pk, "e": user.email}, salt=VERIFY_SALT)


def read_verification_token(token):
    """The user whose current address the token proves; BadToken otherwise."""
    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=VERIFY_MAX_AGE)
        user_id, email = data["u"], data["e"]
    except signing.SignatureExpired:
        raise BadToken(
            _(
                "This verification link has expired. Ask for a new one from your "
                "notification settings."
            )
        ) from None
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise BadToken(
            _(
                "This verification link is not valid. It may have been cut short "
                "by your email program; ask for a new one from your notification "
                "settings."
            )
        ) from None
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise BadToken(_("This verification link belongs to an account that no longer exists."))
    if user.email.lower() != str(email).lower():
        raise BadToken(
            _(
                "This verification link was sent to an address you no longer "
                "use. Ask for a new one from your notification settings."
            )
        )
    return user
