"""``{% countdown deadline %}``: a turn's deadline as a countdown (async-play issue).

The server renders the time left and the deadline itself, in the viewer's language and
time zone (``rummy.clock.text.deadline_text``), so that the page is right without
JavaScript; ``static/js/countdown.js`` then keeps the time left current. It leaves the
deadline as the server wrote it: one style of a deadline on every page and email.
"""

import datetime
import functools

from django import template
from django.utils import timezone, translation
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from rummy.clock.text import deadline_text, minutes_left, minutes_left_text

register = template.Library()


@register.simple_tag
def countdown(deadline, now=None):
    """A ``<time class="countdown">`` element, or nothing when there is no deadline."""
    if not deadline:
        return ""
    # The element says the time left in whole minutes (or "overdue"), so it is the same
    # for every render in one language and zone until that figure changes: made once
    # per (deadline, minutes left, language, zone), not once per status line (a move's
    # status lines rendered it for each socket role; the deadline's words were 2/3 of
    # a status line's render, issue 11).
    minutes = minutes_left(deadline, now)
    return _countdown(
        deadline, minutes, translation.get_language(), timezone.get_current_timezone_name()
    )


@functools.lru_cache(maxsize=4096)
def _countdown(deadline, minutes, language, zone):
    # ``language`` and ``zone`` are the cache's key only: the words are made in the
    # active ones.
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
        absolute=deadline_text(deadline),
        left=minutes_left_text(minutes),
    )
