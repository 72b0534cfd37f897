"""The privacy page: what the site keeps about people, why, and for how long. The
periods come from ``leagues.privacy``, which the background cleanup reads too."""

from django.shortcuts import render
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from leagues import privacy


def _days(period):
    days = period.days
    return ngettext("%(n)d day", "%(n)d days", days) % {"n": days}


def _span(period):
    """A period of at most a few days in the largest whole unit that fits."""
    seconds = int(period.total_seconds())
    if seconds % 86400 == 0:
        return _days(period)
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}
    minutes = max(1, seconds // 60)
    return ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}


@require_GET
def privacy_page(request):
    periods = privacy.periods()
    context = {
        "unconfirmed_signup": _days(periods.unconfirmed_signup),
        "notices": _days(periods.notices),
        "throttle": _span(periods.throttle),
        "session": _days(privacy.session_period()),
        "device_cookie": _days(privacy.device_cookie_period()),
    }
    return render(request, "leagues/privacy.html", context)
