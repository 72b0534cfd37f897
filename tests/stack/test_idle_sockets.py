"""Quiet sockets stay open on the Redis channel layer. redis-py 8 gave every read a 5 s
timeout, shorter than the layer's blocking receive: each idle consumer crashed with
TimeoutError and its socket closed (1011) every few seconds, so every open page
reconnected and re-rendered over and over. Here a game socket and a header socket sit
silent for over 30 s, then still receive a move made through the other worker."""

import time

import pytest
from websockets.sync.client import connect

from tests.stack.clients import Player
from tests.stack.game_helpers import two_player_game, version_of

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]

SILENCE = 31  # seconds: several of the layer's 5 s blocking reads


def test_idle_sockets_stay_open_and_receive_the_next_move(servers):
    one, two = servers(2)
    game, a, b = two_player_game()
    mover, watcher = (a, b) if game.to_move_id == a.pk else (b, a)
    watching, moving = Player(watcher, one), Player(mover, two)
    with (
        connect(
            f"{one.ws_url}/ws/games/{game.pk}/",
            additional_headers=watching.ws_headers(),
            open_timeout=15,
        ) as table,
        connect(
            f"{one.ws_url}/ws/me/", additional_headers=watching.ws_headers(), open_timeout=15
        ) as header,
    ):
        assert version_of(table.recv(timeout=10)) == game.version
        assert "move-count" in header.recv(timeout=10)
        time.sleep(SILENCE)
        # Three draws end the mover's turn (R3.4): the watcher's header count changes.
        version = game.version
        for _ in range(3):
            status, reply = moving.post(
                f"/games/{game.pk}/act/",
                {"action": "draw", "version": version},
                headers={"HX-Request": "true"},
            )
            assert status == 200, reply[:300]
            version = version_of(reply)
        # Both sockets are still the ones opened before the silence, and both hear it.
        assert version_of(table.recv(timeout=10)) == game.version + 1
        count = header.recv(timeout=10)
        assert 'id="move-count"' in count and ">1<" in count
    for server in (one, two):
        assert "TimeoutError" not in server.log_tail(20000)
