"""Across processes: a socket held by worker 1 closes when its user logs out through
worker 2 (the close travels over the Redis channel layer), and the per-user socket cap
counts the sockets of both workers (the count lives in the Redis cache)."""

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from rummy.table.sockets import CLOSE_SESSION_ENDED, CLOSE_TOO_MANY
from tests.stack.clients import Player
from tests.stack.game_helpers import two_player_game, version_of

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]


def open_socket(player, server, path):
    return connect(
        f"{server.ws_url}{path}", additional_headers=player.ws_headers(server), open_timeout=15
    )


def close_code(socket, timeout=10):
    """Reads until the server closes the socket; its close code."""
    try:
        while True:
            socket.recv(timeout=timeout)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


def test_logging_out_on_one_worker_closes_the_socket_on_the_other(servers):
    one, two = servers(2)
    game, a, _b = two_player_game()
    player = Player(a, one)
    with open_socket(player, one, f"/ws/games/{game.pk}/") as table:
        assert version_of(table.recv(timeout=10)) == game.version
        status, _body = player.post("/accounts/logout/", server=two)
        assert status == 302
        assert close_code(table) == CLOSE_SESSION_ENDED
    # The old cookie opens nothing any more.
    # Refused at the handshake: whichever error the client library raises for it.
    with pytest.raises(Exception):  # noqa: B017, SIM117 (the refusal is the first, the socket the second)
        with open_socket(player, one, f"/ws/games/{game.pk}/") as again:
            again.recv(timeout=5)


def test_the_socket_cap_counts_the_sockets_of_both_workers(servers):
    one, two = servers(2, DJANGO_SETTINGS_MODULE="tests.stack.socket_cap_settings")
    game, a, _b = two_player_game()
    player = Player(a, one)
    with (
        open_socket(player, one, f"/ws/games/{game.pk}/") as first,
        open_socket(player, two, "/ws/me/") as second,
    ):
        first.recv(timeout=10)
        second.recv(timeout=10)
        with open_socket(player, two, f"/ws/games/{game.pk}/") as third:
            assert close_code(third) == CLOSE_TOO_MANY
    # Both closed: their places are free again, on either worker.
    with (
        open_socket(player, two, f"/ws/games/{game.pk}/") as again,
        open_socket(player, one, "/ws/me/") as badge,
    ):
        assert version_of(again.recv(timeout=10)) == game.version
        assert "move-count" in badge.recv(timeout=10)
