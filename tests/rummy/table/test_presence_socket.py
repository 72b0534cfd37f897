"""The game page's socket marks its player present at that game, so the background
pass holds back "your move" while it is open and sends it once it closes."""

import pytest
from channels.db import database_sync_to_async
from django.core import mail

from rummy.models import Game
from rummy.notifications import emails, presence
from tests.rummy.conftest import start_two
from tests.rummy.table.test_consumers import connect

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _locmem_email(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://carousel.example"


@pytest.fixture
def game(league, cast):
    for user in cast.values():
        user.email_verified = True
        user.save()
    return start_two(league, cast)


def _player_to_move(game_id):
    return Game.objects.select_related("to_move").get(pk=game_id).to_move


async def _emails_to(user):
    await database_sync_to_async(emails.clock_pass)()
    return [m for m in mail.outbox if m.to == [user.email]]


async def test_an_open_game_page_holds_the_email_until_it_closes(game):
    game = await database_sync_to_async(lambda: game)()
    player = await database_sync_to_async(_player_to_move)(game.pk)
    socket, ok = await connect(f"/ws/games/{game.pk}/", player)
    try:
        assert ok
        await socket.receive_from()
        assert presence.present(player.pk, [game.pk]) == {game.pk}
        assert await _emails_to(player) == []
    finally:
        await socket.disconnect()
    assert presence.present(player.pk, [game.pk]) == set()
    assert len(await _emails_to(player)) == 1
    assert len(await _emails_to(player)) == 1


async def test_a_page_of_another_game_does_not_hold_the_email(game, league, cast):
    game = await database_sync_to_async(lambda: game)()
    other = await database_sync_to_async(start_two)(league, cast, None, 2)
    player = await database_sync_to_async(_player_to_move)(game.pk)
    socket, ok = await connect(f"/ws/games/{other.pk}/", player)
    try:
        assert ok
        await socket.receive_from()
        assert await database_sync_to_async(_player_to_move)(other.pk) == player
        [email] = await _emails_to(player)
        # Told of this game; the one whose page is open waits.
        assert game.get_absolute_url() in email.body
        assert other.get_absolute_url() not in email.body
    finally:
        await socket.disconnect()
