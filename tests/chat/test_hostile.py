"""Hostile input to the chat, on both lanes (the HTTP post and the socket's chat frame):
oversized, nested, control and format characters, junk types, a flood, and the same
message sent fifty times at once. Every answer is a clear message or the message once;
never a 500, and nothing stored that breaks the rules."""

import json

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from chat import services
from chat.models import Message
from tests.chat.test_socket import joined
from tests.leagues.test_concurrency import at_once, logged_in

HOSTILE = [
    ({"text": "x" * 501}, "at most 500 characters"),
    ({"text": "x" * 100_000}, "at most 500 characters"),
    ({"text": "line\nbreak"}, "control characters"),
    ({"text": "nul\x00byte"}, "control characters"),
    ({"text": "bell\x07"}, "control characters"),
    ({"text": "evil\u202etxt.exe"}, "invisible characters"),
    ({"text": "zero\u200bwidth"}, "invisible characters"),
    ({"text": "bom\ufeff"}, "invisible characters"),
    ({"text": "   "}, "Write a message first."),
    ({"text": ""}, "Write a message first."),
    ({"phrase": "no_such_phrase"}, "no such quick phrase"),
    ({"phrase": "<script>"}, "no such quick phrase"),
    ({"text": "hi", "token": "bad token!"}, "could not be read"),
    ({"text": "hi", "token": "t" * 41}, "could not be read"),
]


def post(client, game, data, htmx=True):
    data = {"token": "tok", **data}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(reverse("chat:post", args=[game.pk]), data, headers=headers)


@pytest.mark.parametrize(("data", "words"), HOSTILE)
def test_http_refuses_in_words_and_stores_nothing(world, data, words):
    carol = logged_in(world["cast"]["carol"])
    response = post(carol, world["game"], data)
    assert response.status_code == 400
    assert words.lower() in response.content.decode().lower()
    assert Message.objects.count() == 0


def test_markup_is_kept_as_text_never_as_html(world):
    carol = logged_in(world["cast"]["carol"])
    text = '<img src=x onerror=alert(1)> <a href="https://evil.example">x</a>'
    assert post(carol, world["game"], {"text": text}).status_code == 200
    page = carol.get(reverse("rummy:table", args=[world["game"].pk])).content.decode()
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert 'href="https://evil.example"' not in page


def test_the_flood_limit_says_what_it_is(world):
    carol = logged_in(world["cast"]["carol"])
    for n in range(services.FLOOD_COUNT):
        assert post(carol, world["game"], {"text": f"m{n}", "token": f"t{n}"}).status_code == 200
    response = post(carol, world["game"], {"text": "one more", "token": "t-last"})
    assert response.status_code == 429
    assert "at most 5 messages in 10 seconds" in response.content.decode()
    assert Message.objects.count() == services.FLOOD_COUNT
    # Without JavaScript: the same words, on the chat's page.
    response = post(carol, world["game"], {"text": "again", "token": "t-again"}, htmx=False)
    assert response.status_code == 302
    assert "at most 5 messages" in carol.get(response["Location"]).content.decode()


def test_a_muted_member_is_refused_on_both_http_answers(world):
    erin = logged_in(world["cast"]["erin"])
    response = post(erin, world["game"], {"text": "hear me"})
    assert response.status_code == 403 and "Shouting at everyone" in response.content.decode()
    response = post(erin, world["game"], {"text": "hear me"}, htmx=False)
    assert "Shouting at everyone" in erin.get(response["Location"]).content.decode()
    assert Message.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_fifty_identical_sends_at_once_are_stored_once(world):
    carol = world["cast"]["carol"]
    game = world["game"]

    def send(client):
        return post(client, game, {"text": "double tap", "token": "same-token"})

    statuses, errors = at_once([(logged_in(carol), send) for _ in range(50)])
    assert not errors
    # Each answer is the message (stored, or found stored) or the flood's words: no 500.
    assert set(statuses) <= {200, 429}, statuses
    assert Message.objects.filter(text="double tap").count() == 1


@pytest.mark.django_db(transaction=True)
def test_hostile_frames_over_the_socket(world):
    import asyncio

    async def run():
        carol = await joined(world["game"].pk, world["cast"]["carol"])
        try:
            answers = []
            frames = [
                json.dumps({"chat": "send", "token": "a", **data}) for data, _words in HOSTILE
            ]
            frames += [
                json.dumps({"chat": "send", "text": ["nested", {"deep": [1]}], "token": "b"}),
                json.dumps({"chat": "send", "text": {"a": 1}, "token": "c"}),
                json.dumps({"chat": "send", "text": 7, "token": "d"}),
                json.dumps({"chat": "send", "text": "hi", "token": ["e"]}),
                json.dumps({"chat": "read", "last": "9" * 400}),
                json.dumps({"chat": "read", "last": -1}),
                "[" * 3000 + "]" * 3000,
            ]
            for frame in frames:
                await carol.send_to(text_data=frame)
                if '"read"' in frame:
                    continue
                answers.append(await carol.receive_from())
            assert all("chat-flash" in a or "could not be read" in a for a in answers)
            # Fifty of the same frame at once: one message, one copy of it.
            same = json.dumps({"chat": "send", "text": "once", "token": "same"})
            await asyncio.gather(*(carol.send_to(text_data=same) for _ in range(50)))
            copies = 0
            while not await carol.receive_nothing(timeout=0.3):
                copies += 'id="chat-msg-' in await carol.receive_from()
            assert copies == 1
        finally:
            await carol.disconnect()
        return await database_sync_to_async(list)(Message.objects.values_list("text", flat=True))

    assert asyncio.run(run()) == ["once"]
