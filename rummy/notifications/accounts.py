"""The emails about an account rather than a game: the link that verifies an address
(the one email that goes to an unverified address) and the warning that someone tried
to sign up with an address that already has an account. Like every email, in the
user's language (``leagues.models.speaking_to``), whatever the request's."""

from django.core.cache import cache
from django.urls import reverse
from django.utils.translation import gettext as _

from leagues.models import speaking_to
from rummy.notifications.emails import send
from rummy.notifications.tokens import VERIFY_MAX_AGE, absolute_url, verification_token

# At most one "someone tried to sign up with your address" email per account this often:
# a stranger's repeated sign-ups cannot flood the owner's inbox.
SIGNUP_ATTEMPT_SECONDS = 600


def send_verification_email(user, request=None) -> bool:
    """Email ``user`` a link that verifies their address: the one email that goes to an
    unverified address. Links point at the request's host when there is a request, else
    at ``settings.SITE_URL``. True when the mail server accepted it."""
    if not (user and user.is_active and user.email):
        return False
    path = reverse("notifications:verify", args=[verification_token(user)])
    build_url = request.build_absolute_uri if request is not None else absolute_url
    context = {
        "verify_url": build_url(path),
        "valid_days": VERIFY_MAX_AGE.days,
    }
    with speaking_to(user):
        subject = _("Confirm your email address for Carousel")
    return send(user, subject, "verify", context, build_url=build_url)


def send_signup_attempt_email(user, request=None) -> bool:
    """Tell ``user`` that someone tried to sign up with their address, with links to log
    in and to reset the password. The sign-up page answers that attempt exactly as it
    answers a new account, so it never tells a stranger which addresses have accounts;
    this email is how the real owner finds out. True when the mail server accepted it."""
    if not (user and user.email):
        return False
    if not cache.add(f"notifications:signup-attempt:{user.pk}", True, SIGNUP_ATTEMPT_SECONDS):
        return False
    build_url = request.build_absolute_uri if request is not None else absolute_url
    context = {
        "login_url": build_url(reverse("login")),
        "reset_url": build_url(reverse("password_reset")),
    }
    with speaking_to(user):
        subject = _("Someone tried to sign up for Carousel with your address")
    return send(user, subject, "signup_attempt", context, build_url=build_url)
