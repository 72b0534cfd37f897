"""``{% countdown deadline %}``: a turn's deadline as a countdown (async-play issue).

The server renders the time left and the absolute time (UTC) so that the page is right
without JavaScript; ``static/js/countdown.js`` then keeps the countdown current and
shows the absolute time in the viewer's own time zone.
"""

import datetime

from django import template
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

register = template.Library()


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


@register.simple_tag
def countdown(deadline, now=None):
    """A ``<time class="countdown">`` element, or nothing when there is no deadline."""
    if not deadline:
        return ""
    iso = deadline.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return format_html(
        '<time class="countdown" datetime="{iso}" data-deadline="{iso}" '
        'data-overdue="{overdue}" data-in="{in_fmt}" data-units="{units}" data-less="{less}" '
        'title="{absolute}"><span class="countdown-left">{left}</span> '
        '<span class="countdown-at muted">({absolute})</span></time>',
        iso=iso,
        overdue=_("overdue"),
        in_fmt=_("in %(time)s"),
        units=" ".join(
            [
                pgettext("days, short", "d"),
                pgettext("hours, short", "h"),
                pgettext("minutes, short", "min"),
            ]
        ),
        less=_("less than a minute"),
        absolute=absolute_text(deadline),
        left=time_left_text(deadline, now),
    )


@register.simple_tag
def table_clock(game, user):
    """The turn clock's part of a table page: the running deadline, the seat numbers
    marked absent, and whether ``user`` may end the game early (a league admin, a game
    in progress, somebody absent). Seats come prefetched with the game."""
    from leagues.access import membership_for

    active = game.status == game.Status.ACTIVE
    absent = {s.number for s in game.seats.all() if s.is_absent} if active else set()
    may_end_early = False
    if absent and getattr(user, "is_authenticated", False):
        membership = membership_for(user, game.league)
        may_end_early = membership is not None and membership.is_admin
    return {
        "deadline": game.turn_deadline if active else None,
        "absent": absent,
        "may_end_early": may_end_early,
    }
