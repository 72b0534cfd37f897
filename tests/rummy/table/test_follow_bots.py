"""On the default set-up (in-memory channel layer) the worker's broadcast of a bot's move
cannot reach another process's sockets: a socket of a game with bots follows the game's
version instead (rummy.table.bot_follow). On the stack lane the
same test proves the other half: there the broadcast travels through Redis."""

import pytest
from channels.db import database_sync_to_async

from rummy import play
from rummy.clock import bots as bot_worker
from rummy.models import Game
from rummy.play import broadcast
from rummy.table import bot_follow
from tests.factories import make_user
from tests.rummy.table.test_consumers import connect

pytestmark = pytest.mark.django_db(transaction=True)


def _practice_with_the_bot_to_move():
    person = make_user()
    game = play.start_practice(person, 1, "beginner")
    while Game.objects.get(pk=game.pk).to_move_id == person.pk:
        play.draw(game.pk, person, Game.objects.get(pk=game.pk).version)
    return person, Game.objects.get(pk=game.pk)


async def test_a_bot_move_from_another_process_reaches_the_page(monkeypatch):
    monkeypatch.setattr(bot_follow, "BOT_FOLLOW_SECONDS", 0.05)
    person, game = await database_sync_to_async(_practice_with_the_bot_to_move)()
    page, ok = await connect(f"/ws/games/{game.pk}/", person)
    try:
        assert ok
        await page.receive_from()  # the view on connect
        if bot_follow.layer_is_local():
            # As if from the worker's own process: its broadcast reaches nobody here.
            monkeypatch.setattr(broadcast, "game_updated", lambda *args, **kwargs: None)
        # On the stack (Redis) the worker's broadcast reaches every process's sockets.
        assert await database_sync_to_async(bot_worker.play_bot_step)(game.pk)
        frame = await page.receive_from(timeout=5)
        assert 'id="view-version"' in frame and f'value="{game.version + 1}"' in frame
    finally:
        await page.disconnect()
