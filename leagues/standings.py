"""Season standings, computed from finished games.

Only games with status FINISHED and ``season`` = the season count; voided games and
games started outside a season count for nothing. Each player's row adds up their
seats: games played, games won, rounds won and total game points (final scores).

Tie-break order (shown on the season page): games won, then total game points, then
rounds won, then fewer games played, then name. Players equal on every key but the name
share a rank; the champions of a closed season are everyone sharing rank 1.
"""

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from leagues.models import deleted_player_name
from rummy.public import season_results

TIE_BREAK_DESCRIPTION = _(
    "Ranked by games won, then total game points, then rounds won, then fewer games "
    "played, then name."
)


def _rank_key(row):
    """The keys that decide a rank (everything but the name)."""
    return (-row["won"], -row["points"], -row["rounds_won"], row["played"])


def compute_standings(season):
    """The live standings of ``season``: a list of plain dicts, best first."""
    rows = {}
    for seat in season_results(season):
        row = rows.setdefault(
            seat.user_id,
            {
                "user_id": seat.user_id,
                "username": seat.user.username,
                "name": seat.user.name,
                "is_bot": seat.user.is_bot,
                "played": 0,
                "won": 0,
                "rounds_won": 0,
                "points": 0,
            },
        )
        if seat.user.is_deleted:
            # Only then, so that every other row stays as it was: no profile to link to.
            row["is_deleted"] = True
        row["played"] += 1
        row["won"] += 1 if seat.is_winner else 0
        row["rounds_won"] += seat.rounds_won
        row["points"] += seat.final_score or 0
    ordered = sorted(rows.values(), key=lambda r: (_rank_key(r), r["name"].casefold()))
    previous_key, rank = None, 0
    for position, row in enumerate(ordered, start=1):
        key = _rank_key(row)
        if key != previous_key:
            rank, previous_key = position, key
        row["rank"] = rank
    return ordered


def champions_of(rows):
    """User ids of everyone tied at the top (by every key except the name)."""
    return [row["user_id"] for row in rows if row["rank"] == 1]


def standings_for(season):
    """What the season page shows: the frozen table once closed, live ones before."""
    if season.is_closed and season.final_standings is not None:
        return in_words(season.final_standings)
    return compute_standings(season)


def in_words(rows):
    """Frozen rows as the reader sees them: a deleted player's stored name is worded
    again in the reader's language."""
    return [
        {**row, "name": deleted_player_name(row["user_id"])} if row.get("is_deleted") else row
        for row in rows
    ]


# The league page shows this many closed seasons and this many of each one's rows;
# the seasons page has them all. Fixed, so that the page's queries and size do not
# grow with the league's age.
PAST_SEASONS_SHOWN = 5
PODIUM = 3


def past_seasons(league, shown=PAST_SEASONS_SHOWN):
    """The league's latest closed seasons, newest first, each with its champions
    (prefetched: two queries however many) and ``podium``, the first rows of its
    frozen standings."""
    seasons = list(
        league.seasons.filter(status=league.seasons.model.Status.CLOSED)
        .prefetch_related("champions")
        .order_by("-ends_on", "-pk")[:shown]
    )
    for season in seasons:
        season.podium = in_words((season.final_standings or [])[:PODIUM])
    return seasons


@transaction.atomic
def freeze(season):
    """Store the season's standings and champions as they stand now."""
    rows = compute_standings(season)
    season.final_standings = rows
    season.save(update_fields=["final_standings"])
    season.champions.set(champions_of(rows))
    return rows


def on_game_finished(sender, game, **kwargs):
    """rummy's ``game_finished`` signal (connected in ``leagues/apps.py``)."""
    game_finished(game)


def game_finished(game):
    """Call when a game ends or is voided. A game of a closed season
    that the admin let run updates the frozen standings; otherwise nothing happens
    (live standings are computed on demand)."""
    if game.season_id is None:
        return
    season = type(game.season).objects.get(pk=game.season_id)
    if season.is_closed:
        freeze(season)
