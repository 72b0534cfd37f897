"""Paused time on the turn clock: the arithmetic (pure),
and the reads of what pauses a mover's clock (no writes: ``reclock`` and ``store`` use
them inside the write path's transaction). A turn has ``turn_seconds`` of time that is
not paused; its deadline is where that time runs out when the paused spans (a vacation,
the mover's quiet hours when the season says the clock pauses then) are skipped."""

import heapq
from collections.abc import Iterable, Iterator
from datetime import datetime, time, timedelta, tzinfo

from leagues.models import Vacation
from leagues.quiet import MAX_QUIET, first_instant

# Quiet windows are looked for this many days ahead at most: a window of nearly a whole
# day with a week's turn would otherwise walk for years. Past it the clock runs.
QUIET_HORIZON_DAYS = 60


def quiet_stretch(seconds: int) -> timedelta:
    """The most the mover's quiet hours may add to a turn of ``seconds``.

    A window lasts at most ``MAX_QUIET`` (16 hours) of every day (``leagues.quiet``), so
    the clock runs at least 8 hours a day: ``seconds`` of running time take at most
    ``ceil(seconds / 8 h)`` awake stretches, each after at most one night. That is at
    most twice the turn's time plus one night more, and an hour for a daylight-saving
    change in it: a 1-hour turn ends within 20 hours, a day's within 3 days and 17
    hours, a week's within 21 days and 17 hours (a vacation's days come on top).
    ``turn_deadline`` holds every turn to it, also one whose quiet hours were stored
    before the settings page refused longer windows."""
    return 2 * timedelta(seconds=seconds) + MAX_QUIET + timedelta(hours=1)


def paused_deadline(
    start: datetime, seconds: int, pauses: Iterable[tuple[datetime, datetime]]
) -> datetime:
    """``start`` plus ``seconds`` of time outside ``pauses`` (spans sorted by their start,
    which may overlap each other)."""
    moment, left = start, timedelta(seconds=seconds)
    for opens, closes in pauses:
        if closes <= moment:
            continue
        if opens > moment:
            if opens - moment >= left:
                break
            left -= opens - moment
        moment = max(moment, closes)
    return moment + left


def quiet_windows(
    start_time: time, end_time: time, zone: tzinfo, since: datetime
) -> Iterator[tuple[datetime, datetime]]:
    """The mover's quiet windows (``leagues.quiet``) from the one ``since`` falls in, in
    order, for ``QUIET_HORIZON_DAYS``."""
    if start_time == end_time:
        return
    day = since.astimezone(zone).date() - timedelta(days=1)
    for n in range(QUIET_HORIZON_DAYS + 1):
        opens_on = day + timedelta(days=n)
        closes_on = opens_on + timedelta(days=1) if end_time < start_time else opens_on
        opens = first_instant(opens_on, start_time, zone)
        closes = first_instant(closes_on, end_time, zone)
        if closes > since and closes > opens:
            yield opens, closes


# --- What pauses a mover's clock (reads, no writes) -------------------------------------


def vacation_spans(user_id, season, since):
    """The spans of ``user_id``'s vacations in ``season`` that end after ``since``."""
    if season is None or not user_id:
        return []
    return list(
        Vacation.objects.filter(user_id=user_id, season=season, ends_at__gt=since)
        .order_by("starts_at")
        .values_list("starts_at", "ends_at")
    )


def may_pause(user, season, since):
    """Whether anything can pause ``user``'s clock from ``since`` on."""
    if season is None:
        return False
    if season.quiet_pause and user.quiet_start and user.quiet_end:
        return True
    return Vacation.objects.filter(user=user, season=season, ends_at__gt=since).exists()


def turn_deadline(user, season, started_at, seconds):
    """When the turn ``user`` began at ``started_at`` runs out: ``seconds`` of time in
    which their clock runs. Quiet hours add at most ``quiet_stretch(seconds)`` to the
    deadline the vacations alone give."""
    if user is None:
        return started_at + timedelta(seconds=seconds)
    if user.deleted_at is not None:
        # Nobody will ever play a deleted account's turn: the clock times it out at once.
        return started_at
    spans = vacation_spans(user.pk, season, started_at)
    if not (season is not None and season.quiet_pause and user.quiet_start and user.quiet_end):
        return paused_deadline(started_at, seconds, spans)
    quiet = quiet_windows(user.quiet_start, user.quiet_end, user.zone, started_at)
    deadline = paused_deadline(started_at, seconds, heapq.merge(spans, quiet))
    return min(deadline, paused_deadline(started_at, seconds, spans) + quiet_stretch(seconds))


def away_until(user_ids, season, now):
    """{user id: the end of their vacation} for those of ``user_ids`` on one at ``now``."""
    if season is None:
        return {}
    return dict(
        Vacation.objects.filter(
            user_id__in=user_ids, season=season, starts_at__lte=now, ends_at__gt=now
        ).values_list("user_id", "ends_at")
    )
