"""Vacation days: a season gives each player a number
of days (``Season.vacation_days``, none by default) on which their turn clocks stop.

A vacation is taken ahead (whole days in the player's own time zone, from midnight to
midnight) or started now by a tap (N times 24 hours from now); it never starts in the
past, and one taken ahead ends within ``AHEAD_DAYS`` of the player's today. It can be
cancelled before it starts (all its days come back) or ended early: then every day it
has begun counts as used, and the days after come back (a day is 24 hours from the
vacation's start, so a vacation ended 25 hours in has used two).

The turn clock is told after commit (``rummy.public.vacation_changed``): the write path
moves the player's deadlines and shows the vacation on their game pages.
"""

import math
from datetime import time, timedelta

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from leagues.models import Season, User, Vacation
from leagues.quiet import first_instant
from leagues.services import LeagueError
from rummy.public import vacation_changed

DAY = timedelta(days=1)

# How far ahead a vacation may be taken: its last day at most this many days from the
# player's today. A season has no length of its own to measure by (its dates are the
# admin's), and a year covers any season worth planning a holiday in.
AHEAD_DAYS = 365

PAST = gettext_lazy(
    "A vacation cannot begin in the past, and today has begun: "
    "to stop your clocks from now, use “Start now”."
)


def days_left(user, season, exclude=None):
    """The days ``user`` may still take in ``season``."""
    taken = Vacation.objects.filter(user=user, season=season)
    if exclude is not None:
        taken = taken.exclude(pk=exclude.pk)
    used = taken.aggregate(n=Sum("days"))["n"] or 0
    return max(season.vacation_days - used, 0)


def take_ahead(user, season, first_day, last_day, now=None):
    """A vacation on the days ``first_day`` to ``last_day`` (both included) of the
    player's own calendar."""
    now = now or timezone.now()
    if last_day < first_day:
        raise LeagueError(_("The last day of a vacation cannot come before its first day."))
    zone = user.zone
    # The days are checked against today before any instant is made of them: a date near
    # the end (or start) of the calendar has no midnight after it to compute.
    today = now.astimezone(zone).date()
    if first_day < today:
        raise LeagueError(PAST)
    if last_day > today + timedelta(days=AHEAD_DAYS):
        raise LeagueError(
            _("A vacation can be booked up to %(days)d days ahead, its last day included.")
            % {"days": AHEAD_DAYS}
        )
    starts_at = first_instant(first_day, time(0), zone)
    ends_at = first_instant(last_day + DAY, time(0), zone)
    if starts_at < now:
        raise LeagueError(PAST)
    return _take(user, season, starts_at, ends_at, (last_day - first_day).days + 1, now)


def start_now(user, season, days, now=None):
    """A vacation of ``days`` times 24 hours from ``now``."""
    now = now or timezone.now()
    return _take(user, season, now, now + days * DAY, days, now)


def _take(user, season, starts_at, ends_at, days, now):
    with transaction.atomic():
        # One player's vacations are decided one at a time: the same tap sent twice at
        # once must not take the days twice. (On SQLite the write lock of the
        # transaction does this already.)
        User.objects.select_for_update().filter(pk=user.pk).first()
        season = Season.objects.get(pk=season.pk)
        _check_season(season)
        if days < 1:
            raise LeagueError(_("A vacation is at least one day."))
        left = days_left(user, season)
        if days > left:
            raise LeagueError(
                ngettext(
                    "That is more than you have left: %(left)d vacation day in this season.",
                    "That is more than you have left: %(left)d vacation days in this season.",
                    left,
                )
                % {"left": left}
            )
        if Vacation.objects.filter(
            user=user, season=season, starts_at__lt=ends_at, ends_at__gt=starts_at
        ).exists():
            raise LeagueError(_("You already have a vacation on some of those days."))
        vacation = Vacation.objects.create(
            user=user, season=season, starts_at=starts_at, ends_at=ends_at, days=days
        )
        _tell_the_clock(user, season)
    return vacation


def stop(user, season, vacation_pk, now=None):
    """Cancel ``user``'s vacation in ``season`` (not begun yet) or end it now (begun).
    Returns the vacation as it stands, or None when it was cancelled."""
    now = now or timezone.now()
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        vacation = Vacation.objects.filter(pk=vacation_pk, user=user, season=season).first()
        if vacation is None:
            # Stopped by a second tap a moment ago (or never this player's).
            raise LeagueError(_("That vacation is no longer there."))
        if vacation.ends_at <= now:
            raise LeagueError(_("That vacation is already over."))
        if vacation.starts_at >= now:
            vacation.delete()
            vacation = None
        else:
            vacation.days = max(1, math.ceil((now - vacation.starts_at) / DAY))
            vacation.ends_at = now
            vacation.save(update_fields=["days", "ends_at"])
        _tell_the_clock(user, season)
    return vacation


def _check_season(season):
    if season.is_closed:
        raise LeagueError(_("This season is closed."))
    if season.vacation_days < 1:
        raise LeagueError(_("This season gives no vacation days."))


def _tell_the_clock(user, season):
    transaction.on_commit(lambda: vacation_changed(user, season))
