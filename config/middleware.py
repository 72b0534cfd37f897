"""Middleware of our own."""

import ipaddress

from django.conf import settings


class SyncMiddlewareChain:
    """Keeps Django's whole middleware chain in synchronous mode under ASGI.

    Our views are synchronous. Under ASGI, Django runs a middleware that can do both in
    the mode of the handler below it, and the handler at the bottom is asynchronous, so
    every ``MiddlewareMixin`` (sessions, CSRF, auth, messages, …) would run its hooks
    through a thread hop of its own: a dozen hops per request, the largest cost of a
    request under load (measured with bench/load.py). A synchronous-only middleware at
    the very bottom turns every one above it synchronous: the request then enters one
    thread and stays there. It must stay last in MIDDLEWARE.
    """

    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)


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
