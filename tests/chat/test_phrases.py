"""Quick phrases: stored as an id, read in each reader's own language."""

import pytest
from channels.db import database_sync_to_async
from django.utils import translation

from chat.models import Message
from chat.phrases import PHRASES, words
from tests.chat.test_socket import joined, send


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "Well played"), ("lv", "Labi nospēlēts"), ("et", "Hästi mängitud")],
)
def test_a_phrase_in_each_language(language, expected):
    with translation.override(language):
        assert words("well_played") == expected


@pytest.mark.parametrize("language", ["lv", "et"])
def test_every_phrase_is_translated(language):
    for key in PHRASES:
        with translation.override("en"):
            english = words(key)
        with translation.override(language):
            assert words(key) != english, (language, key)


@pytest.mark.django_db(transaction=True)
async def test_each_socket_reads_the_phrase_in_its_users_language(world):
    game, cast = world["game"], world["cast"]
    carol = await joined(game.pk, cast["carol"], "et")
    erin = await joined(game.pk, cast["erin"], "lv")
    hank = await joined(game.pk, cast["hank"], "en")
    try:
        await carol.send_to(text_data=send(phrase="well_played"))
        await carol.receive_from()  # her token
        assert "Hästi mängitud" in await carol.receive_from()
        assert "Labi nospēlēts" in await erin.receive_from()
        assert "Well played" in await hank.receive_from()
    finally:
        for sock in (carol, erin, hank):
            await sock.disconnect()
    # The record keeps the id, never the words.
    message = await database_sync_to_async(Message.objects.get)()
    assert (message.phrase, message.text) == ("well_played", "")
