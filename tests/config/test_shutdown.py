"""A draining worker (SIGTERM received, config/shutdown.py) answers a request that
still arrives on a kept-alive connection at once, 503 with Connection: close, and runs
nothing of it: it may be sent again to another worker. Before the signal, requests pass.
The drain itself, under load, is proven by tests/stack/test_rolling_restart.py (each
worker exits by itself, no action lost)."""

import pytest
from channels.testing import HttpCommunicator

from config import shutdown


async def application(scope, receive, send):
    ran.append(scope["path"])
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"done"})


ran: list = []


@pytest.fixture
def draining():
    shutdown._draining["since"] = 0.0
    yield
    shutdown._draining.clear()


async def get(path):
    communicator = HttpCommunicator(shutdown.Draining(application), "POST", path)
    return await communicator.get_response(timeout=5)


@pytest.mark.asyncio
async def test_requests_pass_until_the_signal():
    ran.clear()
    response = await get("/games/1/act/")
    assert response["status"] == 200 and ran == ["/games/1/act/"]


@pytest.mark.asyncio
async def test_a_request_arriving_while_draining_is_refused_unread(draining):
    ran.clear()
    response = await get("/games/1/act/")
    assert response["status"] == 503
    assert (b"connection", b"close") in response["headers"]
    assert ran == []
