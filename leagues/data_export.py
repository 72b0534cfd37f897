"""The download of a player's data: everything the site holds about them, as one JSON
document whose format is docs/data-export.md (a test holds the two to each other).

Each top-level section is made by one function of ``SECTIONS``; a part of the site that
keeps something more about people adds its own with ``leagues.personal.section`` (the
chat's, from its app's ``ready``: ``chat.personal``), after these. rummy's sections come
through ``rummy.public``.
"""

from collections.abc import Callable
from typing import Any

from django.utils import timezone

from leagues import personal
from leagues.models import AdminAction, Membership, Vacation
from leagues.ratings.models import Rating, RatingChange
from rummy.public import player_data

FORMAT = "carousel-account-data/1"

# (name, function of the user), in the document's order.
SECTIONS: list[tuple[str, Callable[[Any], Any]]] = []


def section(name):
    """Register ``function(user) -> JSON-ready value`` as the section ``name``; a
    section registered again under the same name replaces the earlier one."""

    def register(function):
        SECTIONS[:] = [(n, f) for n, f in SECTIONS if n != name]
        SECTIONS.append((name, function))
        return function

    return register


def _iso(moment):
    return moment.isoformat() if moment is not None else None


@section("account")
def account(user):
    return {
        "id": user.pk,
        "username": user.username,
        "display_name": user.display_name,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
        "email_verified": user.email_verified,
        "date_joined": _iso(user.date_joined),
        "last_login": _iso(user.last_login),
        "is_staff": user.is_staff,
    }


@section("settings")
def settings_of(user):
    return {
        "language": user.language,
        "time_zone": user.time_zone,
        "quiet_start": user.quiet_start.isoformat() if user.quiet_start else None,
        "quiet_end": user.quiet_end.isoformat() if user.quiet_end else None,
        "notifications": _rummy(user)["notification_settings"],
    }


@section("memberships")
def memberships(user):
    rows = Membership.objects.filter(user=user).select_related("league").order_by("joined_at")
    return [
        {
            "league": m.league.name,
            "slug": m.league.slug,
            "role": m.role,
            "joined_at": _iso(m.joined_at),
        }
        for m in rows
    ]


@section("vacations")
def vacations(user):
    rows = Vacation.objects.filter(user=user).select_related("season__league")
    return [
        {
            "league": v.season.league.slug,
            "season": v.season.name,
            "starts_at": _iso(v.starts_at),
            "ends_at": _iso(v.ends_at),
            "days": v.days,
        }
        for v in rows
    ]


@section("admin_actions")
def admin_actions(user):
    """What the player did as a league's owner or admin (the league's record)."""
    rows = AdminAction.objects.filter(actor=user).select_related("league").order_by("at", "pk")
    return [
        {
            "league": a.league.slug,
            "at": _iso(a.at),
            "action": a.action,
            "subject": a.subject,
            "before": a.before,
            "after": a.after,
        }
        for a in rows
    ]


@section("ratings")
def ratings(user):
    current = Rating.objects.filter(user=user).select_related("league")
    history = RatingChange.objects.filter(user=user).select_related("league")
    return {
        "current": [
            {
                "league": r.league.slug if r.league else None,
                "mu": r.mu,
                "sigma": r.sigma,
                "games": r.games,
            }
            for r in current
        ],
        "history": [
            {
                "game": c.game_id,
                "scope": c.scope,
                "league": c.league.slug if c.league else None,
                "place": c.place,
                "mu_before": c.mu_before,
                "sigma_before": c.sigma_before,
                "mu_after": c.mu_after,
                "sigma_after": c.sigma_after,
                "finished_at": _iso(c.finished_at),
            }
            for c in history.order_by("finished_at", "pk")
        ],
    }


def _rummy(user):
    """rummy's sections, read once per document."""
    cached = getattr(user, "_export_rummy", None)
    if cached is None:
        cached = user._export_rummy = player_data(user)
    return cached


for _name in ("seats", "moves", "email_notices", "push_devices", "push_notices", "games"):
    section(_name)(lambda user, _name=_name: _rummy(user)[_name])


def export(user):
    """The whole document for ``user``."""
    document = {"format": FORMAT, "exported_at": _iso(timezone.now())}
    try:
        for name, function in [*SECTIONS, *personal.SECTIONS]:
            document[name] = function(user)
    finally:
        user.__dict__.pop("_export_rummy", None)
    return document


def filename(user):
    return f"carousel-data-{user.pk}.json"
