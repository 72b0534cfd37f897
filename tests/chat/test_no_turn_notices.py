"""A chat message is no move: it never triggers a "your move" email or push, changes no
game, and reaches only the game's own socket group, as an id."""

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core import mail

from chat import services
from rummy.models import Game, Notice
from rummy.notifications import emails
from rummy.play.broadcast import game_group, user_group
from tests.rummy.notifications.test_emails import game_between, verified

pytestmark = pytest.mark.django_db


def test_chat_sends_no_email_and_changes_no_turn(django_capture_on_commit_callbacks):
    alice, bob = verified(), verified()
    game = game_between(alice, bob, turn=1)  # Bob to move
    emails.clock_pass()
    assert [m.to for m in mail.outbox] == [[bob.email]]
    mail.outbox.clear()
    before = Game.objects.values("version", "turn_started_at", "to_move_id").get(pk=game.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.post(alice, game, phrase="your_move", token="a")
        services.post(alice, game, text="Bob, your move please", token="b")
        services.post(bob, game, text="coming", token="c")
    emails.clock_pass()
    emails.clock_pass()
    assert mail.outbox == []
    assert Notice.objects.count() == 1
    after = Game.objects.values("version", "turn_started_at", "to_move_id").get(pk=game.pk)
    assert after == before


def test_a_message_is_announced_to_the_games_group_only(django_capture_on_commit_callbacks):
    alice, bob = verified(), verified()
    game = game_between(alice, bob)
    layer = get_channel_layer()
    game_channel = async_to_sync(layer.new_channel)()
    user_channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(game_group(game.pk), game_channel)
    async_to_sync(layer.group_add)(user_group(bob.pk), user_channel)
    with django_capture_on_commit_callbacks(execute=True):
        message, _ = services.post(alice, game, text="secret words", token="a")
    event = async_to_sync(layer.receive)(game_channel)
    assert event == {"type": "chat.message", "message_id": message.pk, "new": True}
    # Nothing for the header's count of games awaiting a move (the user's group): the
    # first thing there is what the test sends after the message.
    async_to_sync(layer.send)(user_channel, {"type": "after.the.message"})
    assert async_to_sync(layer.receive)(user_channel) == {"type": "after.the.message"}
