"""The turn clock in words: durations, the time left, the deadline itself, and what a
game page shows of the clock. Used by pages (``clock_tags``, the presenters) and by
emails alike, so both say it the same way.

Also the site's few styles of dates and times, one per context, each in the active
language and time zone (a player's own: ``config.middleware.UserLocale`` for their
pages, ``leagues.models.speaking_to`` for their emails):

- ``day_text``: a calendar day (a season's dates, the day a game finished):
  Django's localized ``DATE_FORMAT`` ("Dec. 2, 2026", "2026. gada 2. decembris",
  "2. detsember 2026");
- ``month_text``: a month ("playing since"): ``YEAR_MONTH_FORMAT``;
- ``moment_text``: a point in time, months away or ago (an invite's expiry): the day,
  the time (``TIME_FORMAT``) and the zone ("Dec. 2, 2026, 7:26 a.m. EET");
- ``deadline_text``: a turn's deadline, never more than a week ahead, so the weekday
  instead of the year ("Wednesday, December 2, 7:26 a.m. EET").

Each is built from Django's localized named formats and nothing else, so a language
is right wherever Django's formats for it are; the day and the time are joined here
rather than taken from ``DATETIME_FORMAT``, which Django leaves unset for Estonian (it
would fall back to the American "dets. 2, 2026, 5:26 e.l.").
"""

import datetime

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def duration_text(seconds):
    """A short, translatable duration: "2 d 3 h", "5 h 12 min", "7 min"."""
    seconds = max(int(seconds), 0)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    day, hour, minute = (
        pgettext("days, short", "d"),
        pgettext("hours, short", "h"),
        pgettext("minutes, short", "min"),
    )
    if days:
        return f"{days} {day} {hours} {hour}" if hours else f"{days} {day}"
    if hours:
        return f"{hours} {hour} {minutes} {minute}" if minutes else f"{hours} {hour}"
    if minutes:
        return f"{minutes} {minute}"
    return _("less than a minute")


def time_left_text(deadline, now=None):
    """ "in 5 h 12 min" before the deadline, "overdue" after it."""
    return minutes_left_text(minutes_left(deadline, now))


def minutes_left(deadline, now=None):
    """The whole minutes left before the deadline, or None once it has passed: all that
    ``time_left_text`` says of it."""
    left = (deadline - (now or timezone.now())).total_seconds()
    return int(left) // 60 if left > 0 else None


def minutes_left_text(minutes):
    """``time_left_text`` from ``minutes_left``."""
    if minutes is None:
        return _("overdue")
    return _("in %(time)s") % {"time": duration_text(minutes * 60)}


def _local(value):
    """An aware datetime in the active time zone; a date (or a naive datetime) as is."""
    if isinstance(value, datetime.datetime) and timezone.is_aware(value):
        return timezone.localtime(value)
    return value


def _time_and_zone(local):
    if isinstance(local, datetime.datetime) and timezone.is_aware(local):
        return f"{date_format(local, 'TIME_FORMAT')} {date_format(local, 'T')}"
    return date_format(local, "TIME_FORMAT")


def day_text(value):
    """A calendar day: "Dec. 2, 2026" (en), "2026. gada 2. decembris" (lv)."""
    return date_format(_local(value), "DATE_FORMAT")


def month_text(value):
    """A month: "December 2026" (en), "detsember 2026" (et)."""
    return date_format(_local(value), "YEAR_MONTH_FORMAT")


def moment_text(value):
    """A point in time with its zone: "Dec. 2, 2026, 7:26 a.m. EET"."""
    local = _local(value)
    return f"{date_format(local, 'DATE_FORMAT')}, {_time_and_zone(local)}"


def deadline_text(deadline):
    """A turn's deadline (at most a week ahead), with its zone, for pages (before and
    without JavaScript) and emails: "Wednesday, December 2, 7:26 a.m. EET"."""
    local = _local(deadline)
    return (
        f"{date_format(local, 'l')}, {date_format(local, 'MONTH_DAY_FORMAT')}, "
        f"{_time_and_zone(local)}"
    )


def turn_clock(game, may_end_early_as_admin):
    """The turn clock's part of a game page: the running deadline, the seat numbers
    marked absent, and whether the viewer may end the game early (they are a league
    admin — the caller knows —, the game is in progress and somebody is absent). Seats
    come prefetched with the game: no query here."""
    active = game.status == game.Status.ACTIVE
    absent = {s.number for s in game.seated() if s.is_absent} if active else set()
    return {
        "deadline": game.turn_deadline if active else None,
        "absent": absent,
        "may_end_early": bool(absent) and may_end_early_as_admin,
    }
