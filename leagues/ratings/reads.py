"""The ratings the pages show, each in one query however many games were rated."""

from django.db.models import Q

from leagues.ratings.display import shown
from leagues.ratings.models import Rating


def leaderboard(league):
    """The league's rated members, best first: established ratings, then provisional
    ones, each by mean skill (then name). Bots are never rated; former members are
    left out."""
    ratings = (
        Rating.objects.filter(league=league, user__memberships__league=league)
        .filter(user__bot_level="", user__is_active=True)
        .select_related("user")
    )
    rows = [{"user": r.user, "rating": shown(r), "mu": r.mu} for r in ratings]
    rows.sort(key=lambda row: (row["rating"].provisional, -row["mu"], row["user"].name.casefold()))
    return rows


def with_ratings(rows, league):
    """Standings ``rows`` (plain dicts with ``user_id``) as copies with each player's
    rating in ``league`` (``rating``: a ``Shown`` or None when not rated)."""
    user_ids = [row["user_id"] for row in rows]
    ratings = {
        r.user_id: shown(r) for r in Rating.objects.filter(league=league, user_id__in=user_ids)
    }
    return [{**row, "rating": ratings.get(row["user_id"])} for row in rows]


def player_ratings(player, leagues):
    """``player``'s site-wide rating (or None) and their ratings in ``leagues`` (those
    the viewer may see): (site, [(league, Shown)] by league name)."""
    ratings = Rating.objects.filter(user=player).filter(
        Q(league__isnull=True) | Q(league__in=leagues)
    )
    site, per_league = None, []
    for r in ratings.select_related("league"):
        if r.league is None:
            site = shown(r)
        else:
            per_league.append((r.league, shown(r)))
    per_league.sort(key=lambda pair: pair[0].name.casefold())
    return site, per_league
