"""The harness itself: two daphne processes on the shared PostgreSQL test database and
Redis serve the same logged-in player (the session lives in the database, not in a
process), and a killed process comes back."""

import pytest

from tests.factories import make_user
from tests.stack.clients import Player

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]


def test_two_processes_share_sessions_and_data(servers):
    one, two = servers(2)
    user = make_user("shared", display_name="Shared Sam")
    player = Player(user, one)
    for server in (one, two):
        status, page = player.get("/notifications/", server=server)
        assert status == 200, page[:500]
        assert "shared@example.com" in page or "Shared Sam" in page


def test_a_killed_process_restarts(servers):
    (server,) = servers(1)
    server.kill()
    assert server.process.poll() is not None
    server.restart()
    status, _ = Player(make_user(), server).get("/healthz")
    assert status == 200
