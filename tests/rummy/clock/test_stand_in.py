"""An absent player played by a beginner bot: after three timeouts in a row,
if the season allows it, until the player is back (any action of theirs, or "I'm
back"); marked "played by a bot" at the table and in the record."""

import datetime

import pytest
import time_machine
from django.urls import reverse

from rummy import background, play
from rummy.clock import deadlines
from rummy.models import Game, Move, Seat
from tests.factories import make_season
from tests.rummy.conftest import start_two

pytestmark = pytest.mark.django_db


def fresh(game):
    return Game.objects.get(pk=game.pk)


def bob_times_out_three_times(game, cast, traveller):
    """Alice draws her turns away; Bob's deadline passes three times."""
    alice = cast["alice"]
    for _ in range(3):
        while fresh(game).to_move_id == alice.pk:
            play.draw(game.pk, alice, fresh(game).version)
        traveller.shift(fresh(game).turn_deadline - datetime.datetime.now(datetime.UTC))
        traveller.shift(datetime.timedelta(seconds=1))
        assert deadlines.tick() == 1
    while fresh(game).to_move_id == alice.pk:
        play.draw(game.pk, alice, fresh(game).version)


@pytest.fixture
def traveller():
    with time_machine.travel(datetime.datetime(2026, 3, 1, 12, tzinfo=datetime.UTC)) as t:
        yield t


def bob_seat(game, cast):
    return Seat.objects.get(game=game, user=cast["bob"])


def test_without_the_season_setting_the_turns_wait_for_the_clock(cast, league, traveller):
    make_season(league)
    game = start_two(league, cast)
    bob_times_out_three_times(game, cast, traveller)
    seat = bob_seat(game, cast)
    assert seat.is_absent and not seat.stand_in
    assert fresh(game).bot_due_at is None and background.bot_poll() == 0


def test_a_beginner_bot_plays_for_the_absent_player_until_they_tap_back(
    client, cast, league, traveller
):
    make_season(league, bot_stands_in=True)
    game = start_two(league, cast)
    bob_times_out_three_times(game, cast, traveller)
    assert bob_seat(game, cast).stand_in
    assert fresh(game).bot_due_at is not None
    before = fresh(game).version
    assert background.bot_poll() == 1
    move = Move.objects.get(game=game, seq=before + 1)
    # Bob's seat and user, played by a beginner: the log says so.
    assert (move.user, move.bot_level, move.seat) == (cast["bob"], "beginner", 1)
    assert bob_seat(game, cast).is_absent  # the bot's move does not bring Bob back
    client.force_login(cast["alice"])
    page = client.get(game.get_absolute_url()).content.decode()
    assert "played by a bot" in page
    replay = client.get(reverse("rummy:replay", args=[game.pk]), {"at": move.seq})
    assert "(Played by a bot.)" in replay.content.decode()
    # Bob sees "I'm back" and taps it.
    client.force_login(cast["bob"])
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'id="btn-back"' in page
    while fresh(game).to_move_id != cast["bob"].pk:
        background.bot_poll() or play.draw(game.pk, cast["alice"], fresh(game).version)
    version = fresh(game).version
    response = client.post(
        reverse("rummy:act", args=[game.pk]), {"action": "back", "version": version}
    )
    assert response.status_code == 302
    seat = bob_seat(game, cast)
    assert not seat.stand_in and not seat.is_absent
    assert fresh(game).bot_due_at is None and fresh(game).version == version
    assert background.bot_poll() == 0
    # Tapping it again says so and changes nothing.
    again = client.post(
        reverse("rummy:act", args=[game.pk]), {"action": "back", "version": version}
    )
    assert again.status_code == 400 and "already playing" in again.content.decode()


def test_any_action_of_the_player_brings_them_back(cast, league, traveller):
    make_season(league, bot_stands_in=True)
    game = start_two(league, cast)
    bob_times_out_three_times(game, cast, traveller)
    # Bob is back before the bot's pause is over: his own draw.
    play.draw(game.pk, cast["bob"], fresh(game).version)
    seat = bob_seat(game, cast)
    assert not seat.stand_in and seat.timeouts_in_row == 0
    assert fresh(game).bot_due_at is None
    assert not Move.objects.filter(game=game).exclude(bot_level="").exists()
