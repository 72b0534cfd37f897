"""A hint over the game page's socket: the player gets the hint laid out in
the editor with its words, which the broadcast of the same version does not wipe; the
other player gets the new version without a hand or the hint's words."""

import json

import pytest
from channels.db import database_sync_to_async

from rummy import engine
from rummy.models import Game
from tests.factories import make_season
from tests.rummy.conftest import cards_shown, set_state, start_two
from tests.rummy.table.test_consumers import connect

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def setup(league, cast):
    make_season(league, hints_allowed=True)
    state = engine.position(
        ["10H JH 2C 2D 2S KC", "3C 4C 9D 9S QD"], table=["7H 8H 9H"], stock="QC QS", drawn=1
    )
    return set_state(start_two(league, cast), state), cast


async def test_a_hint_over_the_socket_answers_the_player_with_its_words(setup):
    game, cast = await database_sync_to_async(lambda: setup)()
    alice, ok = await connect(f"/ws/games/{game.pk}/", cast["alice"])
    bob, ok2 = await connect(f"/ws/games/{game.pk}/", cast["bob"])
    assert ok and ok2
    await alice.receive_from()
    await bob.receive_from()
    try:
        await alice.send_to(text_data=json.dumps({"action": "hint", "version": game.version}))
        frame = await alice.receive_from(timeout=3)
        assert "Hint: the best meld leaves 10 points" in frame
        assert 'class="melds editing"' in frame and f'data-version="{game.version + 1}"' in frame
        # Nothing more for Alice: the broadcast of that version would have cleared the words.
        assert await alice.receive_nothing(timeout=0.3)
        other = await bob.receive_from(timeout=3)
        assert f'data-version="{game.version + 1}"' in other
        assert "Hint:" not in other and cards_shown(other) == ([], [])
    finally:
        await alice.disconnect()
        await bob.disconnect()


async def test_the_same_hint_again_answers_only_the_player(setup):
    """Asked again at the version the hint made, the kept hint is laid out for Alice
    with its words, and no other socket hears of it: Bob's next frame is that of
    Alice's meld, the version after the one hint."""
    game, cast = await database_sync_to_async(lambda: setup)()
    alice, ok = await connect(f"/ws/games/{game.pk}/", cast["alice"])
    bob, ok2 = await connect(f"/ws/games/{game.pk}/", cast["bob"])
    assert ok and ok2
    await alice.receive_from()
    await bob.receive_from()
    hinted = game.version + 1
    try:
        await alice.send_to(text_data=json.dumps({"action": "hint", "version": game.version}))
        await alice.receive_from(timeout=3)
        assert f'data-version="{hinted}"' in await bob.receive_from(timeout=3)
        # Alice undoes the hint's arrangement, then asks again.
        await alice.send_to(text_data=json.dumps({"action": "reset", "version": hinted}))
        assert "Hint:" not in await alice.receive_from(timeout=3)
        await alice.send_to(text_data=json.dumps({"action": "hint", "version": hinted}))
        again = await alice.receive_from(timeout=3)
        assert "Hint: the best meld leaves 10 points" in again
        # The page still holds the hint's version: its "Play" is taken, and that is
        # the next thing Bob's page hears of.
        await alice.send_to(text_data=json.dumps({"action": "play", "version": hinted}))
        assert f'data-version="{hinted + 1}"' in await bob.receive_from(timeout=3)
        played = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        assert played.version == hinted + 1
        assert [str(c) for c in played.engine_state().hands[0]] == ["KC"]
    finally:
        await alice.disconnect()
        await bob.disconnect()
