"""A chat message is no move: it never triggers a "your move" email or push, changes no
game, and reaches only the game's own socket group, as an id."""

import pytest
from django.core import mail

from chat import announce, services
from rummy.models import Game, Notice
from rummy.notifications import emails
from rummy.play.broadcast import game_group
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


class RecordingLayer:
    """Stands in for the channel layer: what was sent, to which group."""

    def __init__(self):
        self.sent = []

    async def group_send(self, group, message):
        self.sent.append((group, message))


def test_a_message_is_announced_to_the_games_group_only(
    django_capture_on_commit_callbacks, monkeypatch
):
    alice, bob = verified(), verified()
    game = game_between(alice, bob)
    layer = RecordingLayer()
    monkeypatch.setattr(announce, "get_channel_layer", lambda: layer)
    with django_capture_on_commit_callbacks(execute=True):
        message, _ = services.post(alice, game, text="secret words", token="a")
    # One event, to the game's group, with the id only: nothing for the header's count of
    # games awaiting a move (the users' groups), no words on the layer.
    assert layer.sent == [
        (game_group(game.pk), {"type": "chat.message", "message_id": message.pk, "new": True})
    ]
