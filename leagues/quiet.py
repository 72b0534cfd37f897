"""Quiet hours: a daily window of wall-clock time, in the player's own time zone, when
nothing should wake them.

A window is a span of instants, not of wall times: it starts at the first moment the
wall clock shows ``start`` on some day and ends at the first moment it shows ``end``
afterwards (the next day when the window wraps midnight). Measuring in instants keeps
the answer right across daylight-saving changes: a repeated hour is not quiet twice,
and a wall time that does not exist (the hour skipped in spring) ends or starts the
window when the clock jumps past it. Pure: no database, ``now`` always passed in.

A window is set in whole minutes and lasts at most ``MAX_QUIET`` (16 hours) of wall
time, so that at least 8 hours of every day are awake: a season whose turn clock pauses
in quiet hours (``rummy.play.pauses``) then still runs each turn's clock a third of each
day. A window of 23 hours 59 minutes and 59 seconds once stretched a one-hour turn to a
deadline 60 days away.
"""

import math
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from django.utils.translation import gettext as _

# The longest quiet window, on the wall clock; the rest of the day is awake.
MAX_QUIET = timedelta(hours=16)


def wall_length(start: time, end: time) -> timedelta:
    """How long the window from ``start`` to ``end`` lasts on the wall clock (across
    midnight when ``end`` comes first); a daylight-saving change that day aside."""
    length = datetime.combine(date.min, end) - datetime.combine(date.min, start)
    return length if length > timedelta(0) else length + timedelta(days=1)


def window_errors(start: time, end: time) -> dict[str, str]:
    """What is wrong with quiet hours from ``start`` to ``end`` (both set, different),
    in words, by field (``quiet_start``, ``quiet_end``); empty when nothing is."""
    errors = {}
    for field, wall in (("quiet_start", start), ("quiet_end", end)):
        if wall.second or wall.microsecond:
            errors[field] = _("Quiet hours are set in whole minutes, such as 22:00 or 07:30.")
    if not errors and wall_length(start, end) > MAX_QUIET:
        errors["quiet_end"] = _(
            "Quiet hours can last at most 16 hours, so that at least 8 hours of your day are awake."
        )
    return errors


def quiet_until(start: time, end: time, zone: tzinfo, now: datetime) -> datetime | None:
    """The end (aware, in ``zone``) of the quiet window ``now`` falls in, else None.

    ``start == end`` is no window (the model refuses it); ``now`` must be aware, since a
    naive time could be in any zone and would answer wrongly without a sound.

    Python compares and subtracts two times of the same zone by their wall clocks, and a
    time in a repeated hour never equals one in another zone (PEP 495): order the answer
    against other instants with ``<``, or convert it to UTC first."""
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("quiet_until needs an aware datetime")
    if start == end:
        return None
    moment = now.astimezone(UTC)
    today = now.astimezone(zone).date()
    # Only a window that started on the local day of ``now`` or the day before can
    # contain it: every window is shorter than a day of wall time.
    for day in (today - timedelta(days=1), today):
        opens = first_instant(day, start, zone)
        closes = first_instant(day + timedelta(days=1) if end < start else day, end, zone)
        if opens <= moment < closes:
            return closes.astimezone(zone)
    return None


def first_instant(day: date, wall: time, zone: tzinfo) -> datetime:
    """The first instant (in UTC) at which the wall clock in ``zone`` shows ``wall`` on
    ``day`` or has just jumped past it: the first of a repeated time, and the moment of
    the jump for a time skipped by a daylight-saving change."""
    local = datetime.combine(day, wall, tzinfo=zone)  # fold=0: the first occurrence
    utc = local.astimezone(UTC)
    if _wall(utc, zone) == local.replace(tzinfo=None):
        return utc
    # In a gap fold=1 reads the wall time with the offset after the jump, an instant
    # before it; fold=0 one after it. The jump lies between, on a whole second (as every
    # tz database transition does): find it by halving, a dozen steps for an hour's gap.
    wanted = local.replace(tzinfo=None)
    low = math.floor(local.replace(fold=1).astimezone(UTC).timestamp())
    high = math.ceil(utc.timestamp())
    while high - low > 1:
        middle = (low + high) // 2
        if _wall(datetime.fromtimestamp(middle, UTC), zone) >= wanted:
            high = middle
        else:
            low = middle
    return datetime.fromtimestamp(high, UTC)


def _wall(moment: datetime, zone: tzinfo) -> datetime:
    """The naive wall-clock reading of ``moment`` in ``zone``."""
    return moment.astimezone(zone).replace(tzinfo=None)
