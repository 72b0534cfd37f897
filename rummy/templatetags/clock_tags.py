"""``{% countdown deadline %}``: a turn's deadline as a countdown (async-play issue).

The server renders the time left and the deadline itself, in the viewer's language and
time zone (``rummy.clock.text.deadline_text``), so that the page is right without
JavaScript; ``static/js/countdown.js`` then keeps the time left current. It leaves the
deadline as the server wrote it: one style of a deadline on every page and email.
"""

import datetime

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from rummy.clock.text import deadline_text, time_left_text

register = template.Library()


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
        absolute=deadline_text(deadline),
        left=time_left_text(deadline, now),
    )
