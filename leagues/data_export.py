"""The download of a player's data: everything the site holds about them, as one JSON
document whose format is docs/data-export.md (a test holds the two to each other).

Each top-level section is made by one function here, or read from rummy's part
(``rummy.public.player_data``, read once); a part of the site that keeps something more about people
adds its own with ``leagues.personal.section`` (the chat's, from its app's ``ready``:
``chat.personal``), after these.
"""

from django.utils import timezone

from leagues import personal
from leagues.models import AdminAction, Membership, Vacation
from leagues.ratings.models import Rating, RatingChange
from rummy.public import player_data

FORMAT = "carousel-account-data/1"


def _iso(moment):
    return moment.isoformat() if moment is not None else None


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


def settings_of(user, notifications):
    return {
        "language": user.language,
        "time_zone": user.time_zone,
        "quiet_start": user.quiet_start.isoformat() if user.quiet_start else None,
        "quiet_end": user.quiet_end.isoformat() if user.quiet_end else None,
        "notifications": notifications,
    }


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


# rummy's sections, in the document's order.
RUMMY = ("seats", "moves", "email_notices", "push_devices", "push_notices", "games")


def export(user):
    """The whole document for ``user``, its sections in the order of the format."""
    games = player_data(user)
    document = {
        "format": FORMAT,
        "exported_at": _iso(timezone.now()),
        "account": account(user),
        "settings": settings_of(user, games["notification_settings"]),
        "memberships": memberships(user),
        "vacations": vacations(user),
        "admin_actions": admin_actions(user),
        "ratings": ratings(user),
    }
    document.update((name, games[name]) for name in RUMMY)
    document.update((name, function(user)) for name, function in personal.SECTIONS)
    return document


def filename(user):
    return f"carousel-data-{user.pk}.json"
