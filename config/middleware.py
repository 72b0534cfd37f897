"""Middleware of our own."""

import ipaddress
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone, translation

from config import metrics
from leagues.models import supported_language


class Metrics:
    """Counts every request and its time for the metrics (``config.metrics``)."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        metrics.REQUEST_SECONDS.observe(time.perf_counter() - started)
        metrics.REQUESTS.labels(request.method, metrics.status_class(response.status_code)).inc()
        return response


class ClientAddress:
    """Sets ``REMOTE_ADDR`` to the client's address as our proxy saw it.

    Behind ``TRUSTED_PROXY_COUNT`` proxies that each append the address they saw to
    ``X-Forwarded-For`` (nginx's ``$proxy_add_x_forwarded_for``, or ``$remote_addr``
    for a single proxy), the client's address is the entry that many places from the
    right: everything left of it came from the client, who can write anything there.
    (daphne's ``--proxy-headers`` takes the LEFT-most entry, so it is not used.) A
    missing or malformed header leaves the connection's own address.
    """

    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        count = settings.TRUSTED_PROXY_COUNT
        if count:
            address = proxied_address(request.META.get("HTTP_X_FORWARDED_FOR", ""), count)
            if address:
                request.META["REMOTE_ADDR"] = address
        return self.get_response(request)


def proxied_address(header, count):
    """The entry ``count`` places from the right of an X-Forwarded-For value, if it is
    an IP address."""
    entries = [entry.strip() for entry in header.split(",") if entry.strip()]
    if len(entries) < count:
        return None
    try:
        return str(ipaddress.ip_address(entries[-count]))
    except ValueError:
        return None


def cookie_language(request):
    """The supported language a request's language cookie names, or None."""
    code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def set_language_cookie(response, code):
    """The language cookie as Django's ``set_language`` view sets it."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class UserLocale:
    """A logged-in player's own time zone and language (``User.time_zone``,
    ``User.language``) for their pages. After ``AuthenticationMiddleware`` (it reads
    ``request.user``), so after ``LocaleMiddleware`` too.

    - The stored time zone is active for the whole request (USE_TZ: templates and the
      date styles of ``rummy.clock.text`` show times in it); none stored: UTC. It is
      switched off again afterwards, so the next request on this thread starts clean.
    - A language cookie (the switcher on this browser) wins, as ``LocaleMiddleware``
      chose. Without one, the stored language replaces the browser's Accept-Language,
      and the cookie is set to it, so that the page's sockets, which read the cookie
      (``rummy.table.guarded.scope_language``), speak it too.
    - A language picked with the switcher is stored for the player, so that their
      emails follow it: when it is picked (a response that sets the cookie: Django's
      ``set_language``), or on their next visit for one picked before it was stored.
      One picked on a page of ours (the view changed ``request.user.language``: the
      settings page) becomes this browser's cookie.
    """

    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # Without a session cookie nobody is logged in; asking request.user would still
        # mark the session used, and the answer private (Vary: Cookie): /healthz.
        if settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return self.get_response(request)
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return self.get_response(request)
        before = user.language
        stored = supported_language(before)
        browser = cookie_language(request)
        if stored and browser is None:
            translation.activate(stored)
            request.LANGUAGE_CODE = stored
        with timezone.override(user.zone):
            response = self.get_response(request)
        chosen = response.cookies.get(settings.LANGUAGE_COOKIE_NAME)
        if chosen is not None:
            self._store(user, supported_language(chosen.value))
        elif user.language != before and supported_language(user.language):
            set_language_cookie(response, user.language)
        elif browser and not stored:
            self._store(user, browser)
        elif stored and browser is None:
            set_language_cookie(response, stored)
        return response

    @staticmethod
    def _store(user, language):
        if language and language != user.language:
            get_user_model().objects.filter(pk=user.pk).update(language=language)
            user.language = language
