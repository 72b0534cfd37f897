"""Twenty submissions of the same action on the same version, at once, through the real
HTTP endpoint of two worker processes (twenty sessions: tabs, phones, double taps):
exactly one is applied, every other one gets a clear refusal (409 with a message)."""

import threading

import pytest

from rummy.models import Game, Move
from rummy.play.replay import check
from tests.stack.clients import Player
from tests.stack.game_helpers import STALE_TEXT, two_player_game

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]


def test_twenty_concurrent_draws_apply_once(servers):
    one, two = servers(2)
    game, a, b = two_player_game()
    mover = a if game.to_move_id == a.pk else b
    sessions = [Player(mover, (one, two)[i % 2]) for i in range(20)]
    moves_before = Move.objects.filter(game=game).count()
    barrier = threading.Barrier(len(sessions))
    results = [None] * len(sessions)

    def submit(i):
        barrier.wait()
        results[i] = sessions[i].post(
            f"/games/{game.pk}/act/",
            {"action": "draw", "version": game.version},
            headers={"HX-Request": "true"},
        )

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(len(sessions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    statuses = sorted(status for status, _ in results)
    assert statuses == [200] + [409] * 19, statuses
    for status, body in results:
        if status == 409:
            assert STALE_TEXT in body
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.version == game.version + 1
    assert Move.objects.filter(game=game).count() == moves_before + 1
    check(fresh)
    # One card moved from the stock to the mover's hand, once.
    assert len(fresh.engine_state().stock) == len(game.engine_state().stock) - 1
