"""The turn clock in words: durations, the time left, the deadline itself, and what a
game page shows of the clock. Used by pages (``clock_tags``, the presenters) and by
emails alike, so both say it the same way."""

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
    now = now or timezone.now()
    left = (deadline - now).total_seconds()
    if left <= 0:
        return _("overdue")
    return _("in %(time)s") % {"time": duration_text(left)}


def absolute_text(deadline):
    """The deadline in UTC, for pages without JavaScript and for emails."""
    utc = timezone.localtime(deadline, datetime.UTC)
    return _("%(when)s UTC") % {"when": date_format(utc, "D j M, H:i")}


def turn_clock(game, may_end_early_as_admin):
    """The turn clock's part of a game page: the running deadline, the seat numbers
    marked absent, and whether the viewer may end the game early (they are a league
    admin — the caller knows —, the game is in progress and somebody is absent). Seats
    come prefetched with the game: no query here."""
    active = game.status == game.Status.ACTIVE
    absent = {s.number for s in game.seats.all() if s.is_absent} if active else set()
    return {
        "deadline": game.turn_deadline if active else None,
        "absent": absent,
        "may_end_early": bool(absent) and may_end_early_as_admin,
    }
