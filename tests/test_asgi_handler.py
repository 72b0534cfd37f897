"""config.handler: under ASGI a request's middleware chain and view run in one trip to
the sync thread, with Django's own answers: a page, a redirect, a 404; and a
request's thread is one kept from an earlier request, never one another request is
using."""

import asyncio
import threading

import pytest
from asgiref import sync
from channels.testing import HttpCommunicator
from django.http import HttpResponse
from django.urls import path

from config.asgi import application
from config.handler import RequestThreads

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def trips(monkeypatch):
    """Every trip between the event loop and the sync thread, by what it runs."""
    seen = []
    for cls in (sync.SyncToAsync, sync.AsyncToSync):
        real = cls.__call__

        def call(self, *args, _real=real, _cls=cls, **kwargs):
            fn = getattr(self, "func", None) or getattr(self, "awaitable", None)
            seen.append((_cls.__name__, getattr(fn, "__qualname__", repr(fn))))
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(cls, "__call__", call)
    return seen


async def _get(path):
    communicator = HttpCommunicator(application, "GET", path, headers=[(b"host", b"testserver")])
    return await communicator.get_response(timeout=10)


@pytest.mark.asyncio
async def test_a_request_enters_the_sync_thread_once_for_its_middleware_and_view(trips):
    response = await _get("/healthz/live")
    assert response["status"] == 200
    chain = [t for t in trips if not t[1].startswith("Signal.") and "close" not in t[1]]
    # One trip for the whole chain; none back to the event loop from inside it, none more
    # for the CSRF check or the view (Django's own handler makes three more).
    assert [kind for kind, _fn in chain] == ["SyncToAsync"], trips
    assert not any(kind == "AsyncToSync" for kind, _fn in trips), trips


@pytest.mark.asyncio
async def test_pages_redirects_and_missing_pages_answer_as_before():
    page = await _get("/accounts/login/")
    assert page["status"] == 200 and b"<form" in page["body"]
    # A page for the signed-in only: to the log-in page (the middleware and view ran).
    assert (await _get("/leagues/new/"))["status"] == 302
    assert (await _get("/no-such-page/"))["status"] == 404


# --- the request's thread (config.handler.RequestThreads) ---------------------------

_barrier = threading.Barrier(2, timeout=5)
_seen_threads = []


def _both_at_once(request):
    """Waits until a second request is in its view too: two requests served at the same
    time must be in two threads, or this never returns."""
    _seen_threads.append(threading.get_ident())
    _barrier.wait()
    return HttpResponse("ok")


urlpatterns = [path("both-at-once", _both_at_once)]


@pytest.fixture
def thread_starts(monkeypatch):
    started = []
    real = threading.Thread.start

    def start(self):
        started.append(self.name)
        return real(self)

    monkeypatch.setattr(threading.Thread, "start", start)
    return started


@pytest.mark.asyncio
async def test_requests_one_after_another_start_no_thread_of_their_own(thread_starts):
    await _get("/healthz/live")  # a thread to keep, if none is idle yet
    thread_starts.clear()
    for _ in range(5):
        assert (await _get("/healthz/live"))["status"] == 200
    # Django's handler starts two threads a request (its executor's, and one to wait for
    # that one to stop): ten here.
    assert thread_starts == []


@pytest.mark.asyncio
async def test_requests_at_the_same_time_run_in_threads_of_their_own(settings):
    settings.ROOT_URLCONF = __name__
    _barrier.reset()
    _seen_threads.clear()
    answers = await asyncio.gather(_get("/both-at-once"), _get("/both-at-once"))
    assert [a["status"] for a in answers] == [200, 200]
    assert len(set(_seen_threads)) == 2


def test_a_thread_still_busy_is_not_handed_to_the_next_request():
    threads = RequestThreads()
    first = threads.take()
    assert first.submit(lambda: None).result(timeout=5) is None
    threads.give(first)
    assert threads.take() is first  # idle: kept, and taken again

    release = threading.Event()
    first.submit(release.wait, 5)  # a view left running by a client that went away
    threads.give(first)
    try:
        assert threads.idle == []
        assert threads.take() is not first
    finally:
        release.set()
    first.shutdown(wait=True)  # it stops once that work is done


def test_no_more_idle_threads_are_kept_than_asked():
    threads = RequestThreads(keep=2)
    taken = [threads.take() for _ in range(3)]
    for thread in taken:
        threads.give(thread)
    assert threads.idle == taken[:2]
