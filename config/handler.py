"""Django's ASGI handler, with a request's middleware and view in one trip to the sync
thread (``config.asgi``).

Our middleware and views are synchronous. Django's own ASGI handler builds its chain for
an asynchronous server: the bottom of the chain (URL resolution, the view middleware, the
view) is asynchronous, so a synchronous chain above it enters the sync thread, comes back
to the event loop for the bottom, goes into the thread again for each view middleware
(the CSRF check) and once more for the view. Those three extra trips were a quarter to
two fifths of a trivial request's CPU under daphne (bench/load.py's ``/healthz``, issue
11; docs/benchmarks.md), and every request paid them. Here the chain is built as Django
builds it for WSGI, synchronous down to the view, and entered once, in the same thread
Django would use (``thread_sensitive``). Everything else (reading the request, the
signals, sending and streaming the response) is Django's ASGI handling, unchanged.
"""

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler


class OneTripASGIHandler(ASGIHandler):
    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)
