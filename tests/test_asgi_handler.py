"""config.handler: under ASGI a request's middleware chain and view run in one trip to
the sync thread (issue 11), with Django's own answers: a page, a redirect, a 404."""

import pytest
from asgiref import sync
from channels.testing import HttpCommunicator

from config.asgi import application

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
    response = await _get("/healthz")
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
