"""Django's ASGI handler, with a request's middleware and view in one trip to the sync
thread, and that thread kept for the next request (``config.asgi``).

Our middleware and views are synchronous. Django's own ASGI handler builds its chain for
an asynchronous server: the bottom of the chain (URL resolution, the view middleware, the
view) is asynchronous, so a synchronous chain above it enters the sync thread, comes back
to the event loop for the bottom, goes into the thread again for each view middleware
(the CSRF check) and once more for the view. Those three extra trips were a large share
of a trivial request's CPU under daphne (bench/load.py's ``/healthz``; figures:
docs/benchmarks.md), and every request paid them. Here the chain is built as Django
builds it for WSGI, synchronous down to the view, and entered once, in the same thread
Django would use (``thread_sensitive``). Everything else (reading the request, the
signals, sending and streaming the response) is Django's ASGI handling, unchanged.

**The request's thread.** Django runs each request's synchronous code in a thread of its
own (asgiref's ``ThreadSensitiveContext``): a new one-thread executor per request, and,
when the request ends, another new thread to wait for that one to stop. Starting and
stopping those two threads cost most of a trivial request's own work
(docs/benchmarks.md). ``RequestThreads`` keeps the idle ones instead: a request still gets
a thread of its own (two requests at once never share one, and all of one request's
synchronous code runs in its thread, as Django's), only not a new one each time.
"""

import threading
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler


class RequestThread(ThreadPoolExecutor):
    """One thread, counting the work handed to it that has not finished yet."""

    def __init__(self):
        super().__init__(max_workers=1, thread_name_prefix="request")
        self._lock = threading.Lock()
        self.unfinished = 0

    def submit(self, fn, /, *args, **kwargs):
        with self._lock:
            self.unfinished += 1
        try:
            future = super().submit(fn, *args, **kwargs)
        except BaseException:
            self._finished()
            raise
        future.add_done_callback(self._finished)
        return future

    def _finished(self, _future=None):
        with self._lock:
            self.unfinished -= 1


class RequestThreads:
    """Idle request threads of this process, the most recently used first. Used from
    the event loop only (``take``/``give`` never block)."""

    def __init__(self, keep=16):
        self.keep = keep  # idle threads kept; more at once are stopped as they finish
        self.idle: list[RequestThread] = []

    def take(self) -> RequestThread:
        return self.idle.pop() if self.idle else RequestThread()

    def give(self, thread: RequestThread):
        # A thread still busy (a request whose client went away leaves its view running
        # on) is not handed to the next request, which would wait behind it: it stops
        # once its work is done, as Django's own request threads do.
        if thread.unfinished == 0 and len(self.idle) < self.keep:
            self.idle.append(thread)
        else:
            thread.shutdown(wait=False)


class OneTripASGIHandler(ASGIHandler):
    threads = RequestThreads()

    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":  # as Django's: this handler serves HTTP only
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        thread = self.threads.take()
        try:
            async with ThreadSensitiveContext(executor=thread):
                await self.handle(scope, receive, send)
        finally:
            self.threads.give(thread)
