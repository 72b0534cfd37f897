"""The record of league admins' actions (``AdminAction``): written by the service that
performs the action, inside its transaction, so that only actions that happened are
recorded."""

import datetime

from django.db import transaction
from django.db.models import Model
from django.utils.functional import Promise

from leagues.models import AdminAction, Season

# The season's settings as the record shows them (the values an admin chose).
SEASON_FIELDS = (
    "name",
    "starts_on",
    "ends_on",
    "target_score",
    "knock_limit",
    "turn_seconds",
    "hints_allowed",
    "quiet_pause",
    "vacation_days",
    "bot_games_count",
    "bot_stands_in",
    "format",
    "games_each",
    "table_size",
    "round_start",
    "round_days",
    "leaver_games",
)


def _plain(value):
    """A value as JSON keeps it: dates and times as ISO text, objects by their name."""
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    if isinstance(value, Model | Promise):
        return str(value)
    return value


def season_values(season: Season):
    return {field: _plain(getattr(season, field)) for field in SEASON_FIELDS}


def record(league, actor, action, *, subject="", before=None, after=None):
    """Add one entry. Must run inside the action's own transaction."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("An admin action is recorded inside the action's transaction.")
    return AdminAction.objects.create(
        league_id=league.pk if hasattr(league, "pk") else league,
        actor=actor if actor is not None and actor.is_authenticated else None,
        actor_name=actor.name if actor is not None and actor.is_authenticated else "",
        action=action,
        subject=str(subject)[:200],
        before={key: _plain(value) for key, value in (before or {}).items()},
        after={key: _plain(value) for key, value in (after or {}).items()},
    )
