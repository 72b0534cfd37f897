"""The turn clock's paused time (issue 15): ``rummy.play.pauses`` arithmetic (pure), and
a turn's deadline in a season whose clock pauses in the mover's quiet hours, with time
travel (``now`` passed in, or the machine's clock moved)."""

import datetime
from datetime import UTC, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from rummy import engine
from rummy.clock import deadlines
from rummy.models import Game, Move
from rummy.play.pauses import paused_deadline, quiet_windows
from tests.factories import make_league, make_season, make_user, started_game

RIGA = ZoneInfo("Europe/Riga")
H = timedelta(hours=1)


def utc(d, hh, mm=0):
    return datetime.datetime(2026, 12, d, hh, mm, tzinfo=UTC)


# --- Pure -----------------------------------------------------------------------------


def test_no_pauses_is_plain_addition():
    assert paused_deadline(utc(1, 10), 3600, []) == utc(1, 11)


def test_a_pause_inside_the_turn_is_added():
    assert paused_deadline(utc(1, 10), 3 * 3600, [(utc(1, 11), utc(1, 12))]) == utc(1, 14)


def test_a_pause_after_the_time_runs_out_changes_nothing():
    assert paused_deadline(utc(1, 10), 3600, [(utc(1, 11), utc(1, 12))]) == utc(1, 11)
    assert paused_deadline(utc(1, 10), 3600, [(utc(1, 12), utc(1, 13))]) == utc(1, 11)


def test_a_turn_that_starts_inside_a_pause_starts_counting_at_its_end():
    assert paused_deadline(utc(1, 10), 3600, [(utc(1, 9), utc(1, 12))]) == utc(1, 13)


def test_overlapping_and_past_pauses_count_once():
    pauses = [(utc(1, 1), utc(1, 2)), (utc(1, 11), utc(1, 13)), (utc(1, 12), utc(1, 14))]
    assert paused_deadline(utc(1, 10), 2 * 3600, pauses) == utc(1, 15)


def test_quiet_windows_wrap_midnight_in_the_zone():
    windows = quiet_windows(time(22), time(8), RIGA, utc(1, 12))
    first, second = next(windows), next(windows)
    # 22:00-08:00 in Riga (UTC+2 in December) is 20:00-06:00 UTC.
    assert (first[0].astimezone(UTC), first[1].astimezone(UTC)) == (utc(1, 20), utc(2, 6))
    assert (second[0].astimezone(UTC), second[1].astimezone(UTC)) == (utc(2, 20), utc(3, 6))


def test_quiet_windows_begin_with_the_one_now_falls_in():
    first = next(quiet_windows(time(22), time(8), RIGA, utc(2, 3)))
    assert (first[0].astimezone(UTC), first[1].astimezone(UTC)) == (utc(1, 20), utc(2, 6))


def test_a_day_turn_through_a_night_wrapping_midnight():
    # 24 hours of play from noon, quiet 22:00-08:00 Riga: the night's 10 hours are added,
    # and the next night's too, since 24 hours of waking time run out after it.
    start = utc(1, 10)  # 12:00 Riga
    deadline = paused_deadline(start, 24 * 3600, quiet_windows(time(22), time(8), RIGA, start))
    # Awake 12:00-22:00 (10 h), 08:00-22:00 (14 h): the 24 hours end at 22:00 on the 2nd.
    assert deadline.astimezone(RIGA) == datetime.datetime(2026, 12, 2, 22, 0, tzinfo=RIGA)


def test_a_turn_that_starts_in_the_quiet_hours_waits_for_the_morning():
    start = utc(1, 23)  # 01:00 Riga on the 2nd
    deadline = paused_deadline(start, 3600, quiet_windows(time(22), time(8), RIGA, start))
    assert deadline.astimezone(RIGA) == datetime.datetime(2026, 12, 2, 9, 0, tzinfo=RIGA)


def test_a_window_of_nearly_a_whole_day_still_ends():
    start = utc(1, 10)
    deadline = paused_deadline(start, 7 * 86400, quiet_windows(time(8, 1), time(8), RIGA, start))
    assert deadline < start + timedelta(days=200)


# --- A season whose clock pauses in quiet hours -----------------------------------------

pytestmark_db = pytest.mark.django_db


def _season_game(quiet_pause, mover_quiet=(time(22), time(8)), zone="Europe/Riga"):
    # Both with the same quiet hours: the game's start sets the deadline of whoever the
    # first deal made the mover, before the test's position is put in.
    quiet = {"quiet_start": mover_quiet[0], "quiet_end": mover_quiet[1]}
    alice, bob = make_user(time_zone=zone, **quiet), make_user(time_zone=zone, **quiet)
    league = make_league(alice, members=[bob])
    make_season(league, turn_seconds=3 * 3600, quiet_pause=quiet_pause)
    state = engine.position(hands=["2C 3D", "KS QS"], stock="9H 5D 6D 7C 8C 2S 3S")
    return started_game([alice, bob], league=league, state=state), alice, bob


@pytestmark_db
@time_machine.travel(utc(1, 19), tick=False)  # 21:00 in Riga: an hour before quiet hours
def test_the_deadline_skips_the_movers_night_when_the_season_says_so():
    game, alice, _bob = _season_game(quiet_pause=True)
    assert game.to_move == alice
    # One hour before 22:00, then the night (to 08:00), then two more: 10:00 Riga.
    assert game.turn_deadline.astimezone(RIGA) == datetime.datetime(2026, 12, 2, 10, tzinfo=RIGA)
    assert game.turn_seconds == 3 * 3600


@pytestmark_db
@time_machine.travel(utc(1, 19), tick=False)
def test_without_the_setting_the_night_counts():
    game, _alice, _bob = _season_game(quiet_pause=False)
    assert game.turn_deadline == utc(1, 22)


@pytestmark_db
@time_machine.travel(utc(1, 19), tick=False)
def test_a_mover_without_quiet_hours_has_no_pause():
    game, _alice, _bob = _season_game(quiet_pause=True, mover_quiet=(None, None))
    assert game.turn_deadline == utc(1, 22)


@pytestmark_db
def test_no_timeout_in_the_night_and_one_after_it():
    with time_machine.travel(utc(1, 19), tick=False):
        game, _alice, bob = _season_game(quiet_pause=True)
    deadline = game.turn_deadline
    # 3 hours after the start (the old deadline): Alice sleeps; nothing is played.
    with time_machine.travel(utc(1, 22, 30), tick=False):
        assert deadlines.tick(utc(1, 22, 30)) == 0
    assert Game.objects.get(pk=game.pk).version == game.version
    with time_machine.travel(deadline + timedelta(seconds=1), tick=False):
        assert deadlines.tick(deadline + timedelta(seconds=1)) == 1
    game = Game.objects.get(pk=game.pk)
    assert game.moves.filter(kind=Move.Kind.TIMEOUT).count() == 1
    assert game.to_move == bob
    # Bob's turn began at 10:00 Riga (awake): 3 hours, no night in them.
    assert game.turn_deadline == deadline + timedelta(seconds=1) + 3 * H
