"""Two ASGI worker processes, one PostgreSQL database, one Redis channel layer: a player
whose socket is on one worker sees, live, a move submitted through the other; and a
socket that reconnects (to either worker) gets the full current view at once."""

import pytest
from websockets.sync.client import connect

from tests.stack.clients import Player
from tests.stack.game_helpers import cards_shown, two_player_game, version_of

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]


def open_socket(player, server, game):
    return connect(
        f"{server.ws_url}/ws/games/{game.pk}/",
        additional_headers=player.ws_headers(server),
        open_timeout=15,
    )


def next_view(socket, newer_than, timeout=10):
    """The first frame holding the game view with a version above ``newer_than``."""
    while True:
        html = socket.recv(timeout=timeout)
        version = version_of(html)
        if version is not None and version > newer_than:
            return version, html


def test_a_move_on_one_worker_reaches_a_socket_on_the_other(servers):
    one, two = servers(2)
    game, a, b = two_player_game()
    mover, watcher = (a, b) if game.to_move_id == a.pk else (b, a)
    watching = Player(watcher, one)
    moving = Player(mover, two)
    with open_socket(watching, one, game) as socket:
        version, html = next_view(socket, -1)
        assert version == game.version  # the full view on connect
        before_stock = html.count('id="stock-size"')
        status, reply = moving.post(
            f"/games/{game.pk}/act/",
            {"action": "draw", "version": game.version},
            headers={"HX-Request": "true"},
        )
        assert status == 200, reply[:500]
        version, html = next_view(socket, game.version)
    assert version == game.version + 1
    assert before_stock == html.count('id="stock-size"') == 1
    # The watcher's view, not the mover's: the drawn card is not in it.
    game.refresh_from_db()
    state = game.engine_state()
    watcher_seat = game.seats.get(user=watcher).number
    shown, _ = cards_shown(html)
    assert shown <= {str(c.physical) for c in state.hands[watcher_seat]} | {
        str(c.physical) for meld in state.table for c in meld
    }


def test_a_reconnecting_socket_gets_the_current_view(servers):
    one, two = servers(2)
    game, a, b = two_player_game()
    mover, watcher = (a, b) if game.to_move_id == a.pk else (b, a)
    watching, moving = Player(watcher, one), Player(mover, one)
    with open_socket(watching, one, game) as socket:
        assert next_view(socket, -1)[0] == game.version
    # While the phone sleeps, two moves happen.
    version = game.version
    for _ in range(2):
        status, reply = moving.post(
            f"/games/{game.pk}/act/",
            {"action": "draw", "version": version},
            headers={"HX-Request": "true"},
        )
        assert status == 200, reply[:300]
        version = version_of(reply)
    # It wakes up connected to the other worker: the first frame is the table as it is.
    with open_socket(watching, two, game) as socket:
        assert next_view(socket, -1)[0] == version == game.version + 2
