"""Middleware of our own."""


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
