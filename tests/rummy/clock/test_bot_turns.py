"""Bots act from the background worker through the write path."""

import pytest
from django.core.management import call_command

from rummy import background, play
from rummy.models import Game, Move, Seat
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _bot_to_move(game):
    game.refresh_from_db()
    seat = game.seats.get(number=game.engine_state().turn)
    return bool(seat.bot_level)


def _practice(level="steady", bots=1):
    person = make_user()
    game = play.start_practice(person, bots, level)
    return person, game


def test_a_bot_turn_is_due_as_data_and_the_poll_plays_it_through_the_write_path():
    _person, game = _practice()
    # Until the person's turn, each poll plays one step of the bot to move.
    for _ in range(10):
        if not _bot_to_move(game):
            break
        assert game.bot_due_at is not None
        before = game.version
        assert background.bot_poll() == 1
        game.refresh_from_db()
        assert game.version == before + 1 or game.version > before
        move = game.moves.get(seq=before + 1)
        assert move.bot_level == "steady" and move.user.is_bot
    assert not _bot_to_move(game)
    assert game.bot_due_at is None  # a person's turn: nothing is due
    assert background.bot_poll() == 0


def test_a_request_never_plays_a_bot_turn(client):
    person, game = _practice()
    client.force_login(person)
    game.refresh_from_db()
    moves = game.moves.count()
    client.get(game.get_absolute_url())
    assert game.moves.count() == moves


@pytest.mark.django_db(transaction=True)  # the worker closes and reopens its connection
def test_due_work_survives_a_killed_worker():
    # A worker died after the bot's turn became due: the row still says so, and a fresh
    # worker's look (here: the command's one look and the jobs it enqueued) plays it.
    person, game = _practice()
    while not _bot_to_move(game):
        play.draw(game.pk, person, game.version)
        game.refresh_from_db()
    due_version = game.version
    assert Game.objects.filter(pk=game.pk, bot_due_at__isnull=False).exists()
    call_command("run_worker", "--once", verbosity=0)
    game.refresh_from_db()
    assert game.version > due_version
    assert game.moves.filter(seq=due_version + 1, bot_level="steady").exists()


def test_a_refused_bot_action_is_logged_and_retried(caplog, monkeypatch):
    person, game = _practice()
    while not _bot_to_move(game):
        play.draw(game.pk, person, game.version)
        game.refresh_from_db()

    def stale(*args, **kwargs):
        raise play.StaleVersion()

    monkeypatch.setattr(play, "bot_act", stale)
    assert background.bot_poll() == 0
    assert "bot action refused" in caplog.text
    game.refresh_from_db()
    assert game.bot_due_at is not None  # still due: the next poll tries again
    monkeypatch.undo()
    assert background.bot_poll() == 1


def test_bot_act_refuses_a_person_seat():
    person, game = _practice()
    seat = Seat.objects.get(game=game, user=person)
    with pytest.raises(play.NotAllowed):
        play.bot_act(game.pk, seat.number, game.version, {"do": "draw"})
    assert Move.objects.filter(game=game).count() == 1
