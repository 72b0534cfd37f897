"""A turn's deadline as a countdown (the ``{% countdown deadline %}`` tag,
``rummy.templatetags.clock_tags``, and the game page's status line).

The server renders the time left and the deadline itself, in the viewer's language and
time zone (``rummy.clock.text.deadline_text``), so that the page is right without
JavaScript; ``static/js/countdown.js`` then keeps the time left current. It leaves the
deadline as the server wrote it: one style of a deadline on every page and email.
"""

import datetime

from django.utils import timezone, translation
from django.utils.html import conditional_escape, format_html
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from config import caches
from rummy.clock.text import deadline_text, minutes_left, minutes_left_text


def countdown(deadline, now=None):
    """A ``<time class="countdown">`` element, or nothing when there is no deadline."""
    if not deadline:
        return ""
    # The element says the time left in whole minutes (or "overdue"), so it is the same
    # for every render in one language and zone until that figure changes: made once
    # per (deadline, minutes left, language, zone), not once per status line (a move's
    # status lines rendered it for each socket role; the deadline's words were 2/3 of
    # a status line's render).
    minutes = minutes_left(deadline, now)
    return _countdown(
        deadline, minutes, translation.get_language(), timezone.get_current_timezone_name()
    )


@caches.memo(maxsize=4096)
def _countdown(deadline, minutes, language, zone):
    # Made in ``language`` and ``zone`` (the cache's key). A new turn is a new deadline,
    # so every process makes this once per turn: what does not depend on the deadline
    # is made once per language (``_countdown_words``), and the deadline's words once
    # per minute they name.
    iso = deadline.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    absolute = _deadline_words(deadline.replace(second=0, microsecond=0), language, zone)
    with translation.override(language):
        left = minutes_left_text(minutes)
    return format_html(
        '<time class="countdown" datetime="{iso}" data-deadline="{iso}" {words} '
        'title="{absolute}"><span class="countdown-left">{left}</span> '
        '<span class="countdown-at muted">({absolute})</span></time>',
        iso=iso,
        words=_countdown_words(language),
        absolute=absolute,
        left=left,
    )


@caches.memo(maxsize=64)
def _countdown_words(language):
    """The countdown's words for ``static/js/countdown.js``, in ``language``."""
    with translation.override(language):
        return _countdown_words_here()


def _countdown_words_here():
    return format_html(
        'data-overdue="{overdue}" data-in="{in_fmt}" data-units="{units}" data-less="{less}"',
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
    )


@caches.memo(maxsize=4096)
def _deadline_words(minute, language, zone):
    """``deadline_text``, escaped, for a deadline cut to its minute (which is all it
    says: no language's time format shows seconds), in ``language`` and ``zone``. At a
    busy hour many games' turns end in the same minute."""
    with translation.override(language), timezone.override(zone):
        return conditional_escape(deadline_text(minute))
