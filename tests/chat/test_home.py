"""The home page marks the games with chat messages the user has not read."""

from django.urls import reverse

from chat import services
from tests.leagues.test_concurrency import logged_in


def marked(world, name):
    page = logged_in(world["cast"][name]).get(reverse("home")).content.decode()
    return "new messages" in page


def test_a_game_with_unread_messages_is_marked_until_they_are_read(world):
    game = world["game"]
    assert not marked(world, "erin")
    message, _ = services.post(world["cast"]["carol"], game, text="hi", token="a")
    assert marked(world, "erin")
    assert not marked(world, "carol")  # her own message
    services.mark_read(world["cast"]["erin"], game, message.pk)
    assert not marked(world, "erin")


def test_a_blocked_authors_message_marks_nothing(world):
    services.post(world["cast"]["gus"], world["game"], text="hi", token="a")
    assert not marked(world, "carol")
    assert marked(world, "erin")
