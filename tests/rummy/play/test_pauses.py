"""The turn clock's paused time: ``rummy.play.pauses`` arithmetic (pure), and
a turn's deadline in a season whose clock pauses in the mover's quiet hours, with time
travel (``now`` passed in, or the machine's clock moved)."""

import datetime
from datetime import UTC, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from leagues.models import Season, Vacation
from leagues.quiet import MAX_QUIET, first_instant, wall_length, window_errors
from rummy import engine
from rummy.clock import deadlines
from rummy.models import Game, Move
from rummy.play.pauses import paused_deadline, quiet_stretch, quiet_windows, turn_deadline
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


# --- The bound: quiet hours never stretch a turn past quiet_stretch ---------------------

EXTREME_ZONES = ["Europe/Riga", "America/New_York", "Australia/Lord_Howe"]
# The days of the spring and the autumn changes in those zones (and the day before).
CHANGE_DAYS = [datetime.date(2026, 3, 7), datetime.date(2026, 3, 28), datetime.date(2026, 10, 3)]


@pytest.mark.parametrize("zone", EXTREME_ZONES)
def test_the_longest_allowed_quiet_hours_stay_within_the_bound(zone):
    """Every allowed extreme (a 16-hour window, the most the settings page takes, opening
    at each hour of the day) with every turn time a season offers, each turn starting as
    the window opens (the worst moment) or just after, across daylight-saving changes:
    the deadline is within ``quiet_stretch`` of the turn's time, so the bound in
    ``turn_deadline`` never cuts an allowed setting short."""
    tz = ZoneInfo(zone)
    for hour in range(24):
        start_time = time(hour)
        end_time = time((hour + 16) % 24)
        assert wall_length(start_time, end_time) == MAX_QUIET
        assert window_errors(start_time, end_time) == {}
        for day in CHANGE_DAYS:
            for offset in (timedelta(0), timedelta(minutes=1)):
                start = first_instant(day, start_time, tz) + offset
                for seconds, _label in Season.TURN_LIMIT_CHOICES:
                    windows = quiet_windows(start_time, end_time, tz, start)
                    deadline = paused_deadline(start, seconds, windows)
                    bound = start + timedelta(seconds=seconds) + quiet_stretch(seconds)
                    assert deadline <= bound, (zone, start_time, start, seconds)


def test_the_bound_in_words():
    assert quiet_stretch(3600) + H == timedelta(hours=20)
    assert quiet_stretch(86400) + 24 * H == timedelta(days=3, hours=17)
    assert quiet_stretch(7 * 86400) + 7 * 24 * H == timedelta(days=21, hours=17)


@pytestmark_db
@pytest.mark.parametrize(
    "window",
    [
        (time(0, 0, 1), time(0)),  # the one-second waking window of the report
        (time(8, 1), time(8)),  # a minute awake
        (time(12), time(11, 59, 59, 999999)),
    ],
)
@pytest.mark.parametrize("seconds", [3600, 86400, 7 * 86400])
@time_machine.travel(utc(1, 19), tick=False)
def test_quiet_hours_stored_before_the_limit_never_stretch_a_turn_past_the_bound(window, seconds):
    """The settings page refuses such windows now; one already stored (or written by any
    other path) still cannot push a deadline 60 days away."""
    quiet = {"quiet_start": window[0], "quiet_end": window[1]}
    alice, bob = make_user(time_zone="Europe/Riga", **quiet), make_user(**quiet)
    league = make_league(alice, members=[bob])
    make_season(league, turn_seconds=seconds, quiet_pause=True)
    game = started_game([alice, bob], league=league)
    started = game.turn_started_at
    assert game.turn_deadline <= started + timedelta(seconds=seconds) + quiet_stretch(seconds)
    assert game.turn_deadline > started + timedelta(seconds=seconds)  # still paused, some


@pytestmark_db
@time_machine.travel(utc(1, 19), tick=False)
def test_a_vacation_comes_on_top_of_the_bound():
    alice = make_user(time_zone="Europe/Riga", quiet_start=time(0, 0, 1), quiet_end=time(0))
    bob = make_user()
    league = make_league(alice, members=[bob])
    season = make_season(league, turn_seconds=3600, quiet_pause=True, vacation_days=5)
    Vacation.objects.create(
        user=alice, season=season, starts_at=utc(1, 19), ends_at=utc(3, 19), days=2
    )
    start = utc(1, 19)
    deadline = turn_deadline(alice, season, start, 3600)
    assert utc(3, 20) < deadline <= utc(3, 20) + quiet_stretch(3600)
