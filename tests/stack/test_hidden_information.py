"""Hidden information end to end: over a scripted game of several rounds, played
through the real HTTP endpoint and watched over real sockets on two workers, no
response and no frame to a player ever shows a card of the other hand or of the stock.

Two players, one deck: every card is unique, so a card marker (``data-card``) is
allowed only if the card is in the player's own hand or on the table at the version
that response or frame shows, and a revealed card (``data-revealed-card``) only if it
was in a hand revealed at the end of the last round."""

import time
from contextlib import ExitStack

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from rummy.models import Game
from tests.stack.clients import Player
from tests.stack.game_helpers import (
    cards_shown,
    legal_action,
    physical,
    state_at,
    two_player_game,
    version_of,
)

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]

ROUNDS = 2


def allowed(game, seat, version):
    state = state_at(game, version)
    own = {str(c.physical) for c in state.hands[seat]}
    table = {str(c.physical) for meld in state.table for c in meld}
    revealed = set()
    if state.last_round:
        for hand in state.last_round["hands"]:
            revealed |= {physical(c) for c in (hand.split() if isinstance(hand, str) else hand)}
    return own | table, revealed


def assert_no_leak(game, seat, html, seen_versions):
    version = version_of(html)
    shown, revealed = cards_shown(html)
    if version is None:
        assert not shown and not revealed, html[:300]
        return
    seen_versions.add(version)
    ok, ok_revealed = allowed(game, seat, version)
    assert shown <= ok, f"seat {seat} v{version} sees {sorted(shown - ok)}"
    assert revealed <= ok_revealed, f"seat {seat} v{version} sees {sorted(revealed - ok_revealed)}"


def test_no_response_or_frame_shows_a_hidden_card(servers):
    one, two = servers(2)
    game, a, b = two_player_game()
    seats = {s.user_id: s.number for s in game.seats.all()}
    players = {a.pk: Player(a, one), b.pk: Player(b, two)}
    seen = {uid: set() for uid in players}
    checked = 0
    with ExitStack() as stack:
        sockets = {
            uid: stack.enter_context(
                connect(
                    f"{p.server.ws_url}/ws/games/{game.pk}/",
                    additional_headers=p.ws_headers(),
                    open_timeout=15,
                )
            )
            for uid, p in players.items()
        }
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            game = Game.objects.get(pk=game.pk)
            state = game.engine_state()
            if state.game_over or state.round_no > ROUNDS:
                break
            uid = game.to_move_id
            player = players[uid]
            # The page, then the move, as the player's browser would (both checked).
            status, html = player.get(f"/games/{game.pk}/")
            assert status == 200
            assert_no_leak(game, seats[uid], html, seen[uid])
            action = legal_action(html)
            assert action, "the player to move is offered a draw or a pass"
            status, html = player.post(
                f"/games/{game.pk}/act/",
                {"action": action, "version": version_of(html)},
                headers={"HX-Request": "true"},
            )
            assert status == 200, html[:300]
            assert_no_leak(game, seats[uid], html, seen[uid])
            checked += 2
            # Everything the sockets received meanwhile.
            for other_uid, socket in sockets.items():
                while True:
                    try:
                        frame = socket.recv(timeout=0.02 if other_uid != uid else 0)
                    except (TimeoutError, ConnectionClosed):
                        break
                    assert_no_leak(game, seats[other_uid], frame, seen[other_uid])
                    checked += 1
        else:
            pytest.fail("the scripted game did not get through the rounds in time")
    game = Game.objects.get(pk=game.pk)
    # The script really played several rounds, and both players watched them live.
    assert game.rounds.count() >= ROUNDS - 1 and game.engine_state().round_no >= ROUNDS
    assert checked > 100
    assert all(len(versions) > 20 for versions in seen.values())
