"""Quiet hours as a window of instants in the player's zone (``leagues.quiet``): pure,
no database; ``now`` is always passed in. Riga moves its clocks on the last Sundays of
March (03:00 EET -> 04:00 EEST) and October (04:00 EEST -> 03:00 EET)."""

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from leagues.models import User
from leagues.quiet import MAX_QUIET, first_instant, quiet_until, wall_length, window_errors

RIGA = ZoneInfo("Europe/Riga")
SPRING = date(2026, 3, 29)  # 03:00-04:00 does not exist in Riga
AUTUMN = date(2026, 10, 25)  # 03:00-04:00 happens twice in Riga


def at(day, hh, mm=0, zone=RIGA, fold=0):
    return datetime.combine(day, time(hh, mm), tzinfo=zone).replace(fold=fold)


def utc(y, mo, d, hh, mm=0):
    return datetime(y, mo, d, hh, mm, tzinfo=UTC)


DAY = date(2026, 12, 1)


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        (at(DAY, 21, 59), None),
        (at(DAY, 22, 0), at(DAY + timedelta(days=1), 8)),  # the start is inside
        (at(DAY, 23, 30), at(DAY + timedelta(days=1), 8)),
        (at(DAY, 0, 0), at(DAY, 8)),  # midnight: the window began yesterday
        (at(DAY, 7, 59), at(DAY, 8)),
        (at(DAY, 8, 0), None),  # the end is outside
        (at(DAY, 12, 0), None),
    ],
)
def test_window_wrapping_midnight(now, expected):
    assert quiet_until(time(22), time(8), RIGA, now) == expected


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        (at(DAY, 12, 59), None),
        (at(DAY, 13, 0), at(DAY, 15)),
        (at(DAY, 14, 59), at(DAY, 15)),
        (at(DAY, 15, 0), None),
        (at(DAY, 23, 0), None),
        (at(DAY, 1, 0), None),
    ],
)
def test_window_within_one_day(now, expected):
    assert quiet_until(time(13), time(15), RIGA, now) == expected


def test_window_from_midnight_and_to_midnight():
    assert quiet_until(time(0), time(6), RIGA, at(DAY, 0)) == at(DAY, 6)
    assert quiet_until(time(0), time(6), RIGA, at(DAY, 23, 59)) is None
    assert quiet_until(time(20), time(0), RIGA, at(DAY, 23, 59)) == at(DAY + timedelta(1), 0)
    assert quiet_until(time(20), time(0), RIGA, at(DAY, 0)) is None


def test_a_window_of_almost_a_day():
    # 08:01 to 08:00: quiet all day but one minute.
    assert quiet_until(time(8, 1), time(8), RIGA, at(DAY, 8, 0)) is None
    assert quiet_until(time(8, 1), time(8), RIGA, at(DAY, 8, 1)) == at(DAY + timedelta(1), 8)
    assert quiet_until(time(8, 1), time(8), RIGA, at(DAY, 7, 0)) == at(DAY, 8)


def test_the_answer_is_in_the_zone_and_any_zone_of_now_works():
    # The same instant asked in UTC: 21:30 UTC is 23:30 in Riga in winter.
    end = quiet_until(time(22), time(8), RIGA, utc(2026, 12, 1, 21, 30))
    assert end == at(DAY + timedelta(1), 8)
    assert end.tzinfo is RIGA
    assert end.utcoffset() == timedelta(hours=2)
    assert quiet_until(time(22), time(8), RIGA, utc(2026, 12, 1, 19, 59)) is None


def test_the_same_wall_times_in_other_zones_are_other_instants():
    now = utc(2026, 12, 1, 23, 0)  # Riga 01:00, New York 18:00, Tokyo 08:00
    assert quiet_until(time(22), time(8), RIGA, now) is not None
    assert quiet_until(time(22), time(8), ZoneInfo("America/New_York"), now) is None
    assert quiet_until(time(22), time(8), ZoneInfo("Asia/Tokyo"), now) is None


def test_start_equal_to_end_is_no_window():
    assert quiet_until(time(8), time(8), RIGA, at(DAY, 8)) is None


def test_a_naive_now_is_refused():
    with pytest.raises(ValueError, match="aware"):
        quiet_until(time(22), time(8), RIGA, datetime(2026, 12, 1, 23, 0))


# --- Daylight-saving changes in Riga -------------------------------------------------


def test_spring_night_is_an_hour_shorter():
    # 22:00 EET on the 28th to 08:00 EEST on the 29th: nine hours, not ten.
    end = quiet_until(time(22), time(8), RIGA, at(SPRING - timedelta(1), 23))
    assert end == at(SPRING, 8)
    # Python subtracts two times of one zone by their wall clocks: measure in UTC.
    assert end.astimezone(UTC) - at(SPRING - timedelta(1), 22) == timedelta(hours=9)
    assert end.utcoffset() == timedelta(hours=3)


def test_autumn_night_is_an_hour_longer():
    end = quiet_until(time(22), time(8), RIGA, at(AUTUMN - timedelta(1), 23))
    assert end == at(AUTUMN, 8)
    assert end.astimezone(UTC) - at(AUTUMN - timedelta(1), 22) == timedelta(hours=11)


def test_an_end_that_does_not_exist_ends_at_the_jump():
    # 03:30 never shows in Riga on the spring day: quiet ends when the clock jumps,
    # 01:00 UTC (03:00 EET = 04:00 EEST).
    assert first_instant(SPRING, time(3, 30), RIGA) == utc(2026, 3, 29, 1)
    end = quiet_until(time(22), time(3, 30), RIGA, utc(2026, 3, 29, 0, 59))
    assert end == utc(2026, 3, 29, 1)
    assert end.astimezone(RIGA).hour == 4
    assert quiet_until(time(22), time(3, 30), RIGA, utc(2026, 3, 29, 1)) is None


def test_a_start_that_does_not_exist_starts_at_the_jump():
    assert quiet_until(time(3, 15), time(6), RIGA, utc(2026, 3, 29, 0, 59)) is None
    assert quiet_until(time(3, 15), time(6), RIGA, utc(2026, 3, 29, 1)) == at(SPRING, 6)


def test_a_window_inside_the_missing_hour_is_empty_that_day():
    for minute in range(0, 120, 5):
        now = utc(2026, 3, 29, 0) + timedelta(minutes=minute)
        assert quiet_until(time(3, 10), time(3, 40), RIGA, now) is None
    # ...and back the next day.
    nxt = SPRING + timedelta(1)
    assert quiet_until(time(3, 10), time(3, 40), RIGA, at(nxt, 3, 20)) == at(nxt, 3, 40)


def test_a_repeated_end_is_the_first_one():
    # 03:30 shows twice on the autumn day: at 00:30 UTC (EEST) and 01:30 UTC (EET).
    first = utc(2026, 10, 25, 0, 30)
    assert first_instant(AUTUMN, time(3, 30), RIGA) == first
    end = quiet_until(time(22), time(3, 30), RIGA, utc(2026, 10, 25, 0, 10))
    # A time in a repeated hour never equals one in another zone (PEP 495): compare in UTC.
    assert end.astimezone(UTC) == first
    assert end.utcoffset() == timedelta(hours=3)
    # The window is over: the second 03:10 (01:10 UTC, EET) is not quiet again.
    second_ten_past = at(AUTUMN, 3, 10, fold=1)
    assert second_ten_past.astimezone(UTC) == utc(2026, 10, 25, 1, 10)
    assert quiet_until(time(22), time(3, 30), RIGA, second_ten_past) is None


def test_a_repeated_start_is_the_first_one():
    # From 03:15 (the first one, 00:15 UTC) to 05:00: both passes through 03:20 are quiet.
    assert quiet_until(time(3, 15), time(5), RIGA, utc(2026, 10, 25, 0, 10)) is None
    assert quiet_until(time(3, 15), time(5), RIGA, utc(2026, 10, 25, 0, 20)) == at(AUTUMN, 5)
    assert quiet_until(time(3, 15), time(5), RIGA, utc(2026, 10, 25, 1, 20)) == at(AUTUMN, 5)


def test_every_minute_of_a_dst_week_answers_consistently():
    """For every minute around both changes: quiet exactly when the answer is later than
    now, and the answer never more than a window's length (plus the hour) away."""
    for start_day in (SPRING - timedelta(3), AUTUMN - timedelta(3)):
        moment = datetime.combine(start_day, time(0), tzinfo=UTC)
        for _ in range(6 * 24 * 12):
            end = quiet_until(time(22), time(3, 30), RIGA, moment)
            if end is not None:
                assert moment < end <= moment + timedelta(hours=6, minutes=30)
                assert end.astimezone(RIGA).time() in (time(3, 30), time(4, 0))
            moment += timedelta(minutes=5)


# --- The model method ------------------------------------------------------------------


def test_user_without_quiet_hours_is_never_quiet():
    assert User(time_zone="Europe/Riga").quiet_until(at(DAY, 23)) is None


def test_user_quiet_hours_are_in_their_zone():
    player = User(time_zone="Europe/Riga", quiet_start=time(22), quiet_end=time(8))
    assert player.quiet_until(utc(2026, 12, 1, 21)) == at(DAY + timedelta(1), 8)
    assert player.quiet_until(utc(2026, 12, 1, 19, 30)) is None


def test_user_without_a_time_zone_falls_back_to_the_site_default_utc():
    player = User(time_zone="", quiet_start=time(22), quiet_end=time(8))
    assert player.quiet_until(utc(2026, 12, 1, 21)) is None  # 21:00 UTC is not quiet
    end = player.quiet_until(utc(2026, 12, 1, 22))
    assert end == utc(2026, 12, 2, 8)
    assert player.quiet_until(utc(2026, 12, 1, 20, 30)) is None
    # A zone name we do not know falls back the same way.
    assert User(time_zone="Mars/Olympus", quiet_start=time(22), quiet_end=time(8)).quiet_until(
        utc(2026, 12, 1, 22)
    ) == utc(2026, 12, 2, 8)


# --- How long a window may be (leagues.quiet.window_errors) -----------------------------


def test_wall_length_wraps_midnight():
    assert wall_length(time(22), time(8)) == timedelta(hours=10)
    assert wall_length(time(8), time(22)) == timedelta(hours=14)
    assert wall_length(time(0, 0, 1), time(0)) == timedelta(hours=24) - timedelta(seconds=1)


def test_at_most_16_hours_in_whole_minutes():
    assert window_errors(time(22), time(14)) == {}
    assert window_errors(time(0), time(16)) == {}
    assert list(window_errors(time(22), time(14, 1))) == ["quiet_end"]
    assert list(window_errors(time(8, 1), time(8))) == ["quiet_end"]
    assert "16 hours" in window_errors(time(8, 1), time(8))["quiet_end"]
    # Seconds are refused, not rounded: the field that has them says so.
    assert list(window_errors(time(0, 0, 1), time(0))) == ["quiet_start"]
    assert list(window_errors(time(22), time(6, 0, 0, 1))) == ["quiet_end"]
    assert timedelta(hours=16) == MAX_QUIET
