"""Rate limits on what makes the site send email or create accounts (README "Limits").

django-ratelimit counts in the shared cache (Redis in production, so the limits hold
across workers). The rates are settings (``RATE_LIMITS``); a request over a limit
changes nothing, sends nothing and is answered 429 with a page that says why and when
to try again. Only POSTs count: showing a form costs nothing.
"""

from functools import wraps

from django.conf import settings
from django.shortcuts import render
from django_ratelimit.core import is_ratelimited

DEFAULT_RATES = {
    # One address: a family or a club signing up together fits, a script does not.
    "signup": "10/h",
    # Password-reset emails: per address asking, and per address the email goes to.
    "password_reset": "10/h",
    "password_reset_email": "3/h",
}
# (Verification emails: rummy.notifications.views sends at most one per user per two minutes,
# counted in the same shared cache.)


def rate(group):
    return getattr(settings, "RATE_LIMITS", {}).get(group, DEFAULT_RATES[group])


def posted_email(group, request):
    """The address a password reset would mail, normalised, as the counting key."""
    return (request.POST.get("email") or "").strip().casefold()[:254]


def limited(group, key="ip", also=()):
    """A view decorator: refuse POSTs over the ``group`` rate by ``key`` (and over each
    ``(group, key)`` of ``also``) with a 429 page. Every limit is counted on every POST,
    so none of them can be dodged by tripping another first."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method == "POST":
                over = [
                    is_ratelimited(request, group=g, key=k, rate=rate(g), increment=True)
                    for g, k in ((group, key), *also)
                    # A form without the address sends nothing: nothing to count it on.
                    if not callable(k) or k(g, request)
                ]
                if any(over):
                    return render(request, "limited.html", status=429)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator
