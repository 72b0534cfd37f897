"""A worker killed with SIGKILL in the middle of a stream of moves loses nothing and
corrupts nothing: after a restart every game's stored state equals the replay of its
move log, every physical card is accounted for, and every move that was answered with
success is in the log."""

import threading
import time

import pytest

from rummy.models import Game
from rummy.play.replay import check
from tests.stack.clients import Player
from tests.stack.game_helpers import legal_action, physical_cards, two_player_game, version_of

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]

GAMES = 4


def play_stream(game_id, players, server, stop, confirmed, errors):
    """Move after move in one game through ``server``, as fast as the answers come."""
    by_user = {p.user.pk: p for p in players}
    while not stop.is_set():
        game = Game.objects.get(pk=game_id)
        if game.to_move_id is None:
            return
        player = by_user[game.to_move_id]
        try:
            status, html = player.get(
                f"/games/{game_id}/", headers={"HX-Request": "true"}, server=server, timeout=5
            )
            action = legal_action(html) if status == 200 else None
            if action is None:
                continue
            status, html = player.post(
                f"/games/{game_id}/act/",
                {"action": action, "version": version_of(html)},
                headers={"HX-Request": "true"},
                server=server,
                timeout=5,
            )
        except OSError:
            errors.append(game_id)  # the worker died under us: expected
            time.sleep(0.05)
            continue
        if status == 200:
            confirmed.append((game_id, version_of(html)))


def test_sigkill_mid_stream_loses_no_confirmed_move(servers):
    (victim, survivor) = servers(2)
    games = [two_player_game() for _ in range(GAMES)]
    stop, confirmed, errors = threading.Event(), [], []
    streams = []
    for game, a, b in games:
        # Half of the games through the worker that will die, half through the other.
        server = victim if game.pk % 2 else survivor
        players = [Player(a, server), Player(b, server)]
        streams.append(
            threading.Thread(
                target=play_stream, args=(game.pk, players, server, stop, confirmed, errors)
            )
        )
    for thread in streams:
        thread.start()
    deadline = time.monotonic() + 20
    while len(confirmed) < 30 and time.monotonic() < deadline:
        time.sleep(0.05)
    victim.kill()  # SIGKILL: no clean shutdown, requests cut mid-flight
    time.sleep(0.5)
    victim.start()  # the supervisor restarts it
    time.sleep(1.0)  # a little more play through both, the restarted one included
    stop.set()
    for thread in streams:
        thread.join(30)
    assert len(confirmed) >= 30, "the stream did not get going"
    assert errors, "the kill did not cut into the stream"

    for game, _a, _b in games:
        game = Game.objects.get(pk=game.pk)
        state = check(game)  # stored state == replay of the log
        cards = physical_cards(state)
        assert len(cards) == 53  # two players: one deck and its joker
        assert len(set(cards)) == 53  # each card exactly once
    for game_id, version in confirmed:
        game = Game.objects.get(pk=game_id)
        assert game.moves.filter(seq=version).exists(), (game_id, version)
        assert game.version >= version
