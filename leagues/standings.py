"""Season standings, computed from finished games.

Only games with status FINISHED and ``season`` = the season count; voided games and
games started outside a season count for nothing. Each player's row adds up their
seats: games played, games won, rounds won and total game points (final scores).

Tie-break order (shown on the season page): games won, then total game points, then
rounds won, then fewer games played, then name. Players equal on every key but the name
share a rank; the champions of a closed season are everyone sharing rank 1.

A scheduled season ranks by what a game is worth, since its members play their games
over the season's rounds, not all at once: the average game points per finished game,
then the share of games won, then rounds won per game, then more games played, then
name; members who have finished no game yet come last. Each row also says the games
still to play: those planned in rounds not dealt yet, and those under way.
"""

from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from leagues.models import Season, User, deleted_player_name
from leagues.schedules import running
from rummy.public import running_games, season_results

TIE_BREAK_DESCRIPTION = _(
    "Ranked by games won, then total game points, then rounds won, then fewer games "
    "played, then name."
)
SCHEDULED_TIE_BREAK_DESCRIPTION = _(
    "Ranked by average game points per finished game, then the share of games won, then "
    "rounds won per game, then more games played, then name. Members who have not "
    "finished a game yet come last."
)


def tie_break_for(season):
    """The ranking's words for the page: a scheduled season ranks otherwise."""
    if season is not None and season.format == Season.Format.SCHEDULED:
        return SCHEDULED_TIE_BREAK_DESCRIPTION
    return TIE_BREAK_DESCRIPTION


def _rank_key(row):
    """The keys that decide a rank (everything but the name)."""
    return (-row["won"], -row["points"], -row["rounds_won"], row["played"])


def _scheduled_rank_key(row):
    """A scheduled season's keys: exact fractions, so that equal averages tie."""
    played = row["played"]
    if not played:
        return (True, 0, 0, 0, 0)
    return (
        False,
        -Fraction(row["points"], played),
        -Fraction(row["won"], played),
        -Fraction(row["rounds_won"], played),
        -played,
    )


def _row(user):
    return {
        "user_id": user.pk,
        "username": user.username,
        "name": user.name,
        "is_bot": user.is_bot,
        "played": 0,
        "won": 0,
        "rounds_won": 0,
        "points": 0,
    }


def compute_standings(season):
    """The live standings of ``season``: a list of plain dicts, best first."""
    rows = {}
    for seat in season_results(season):
        row = rows.setdefault(seat.user_id, _row(seat.user))
        if seat.user.is_deleted:
            # Only then, so that every other row stays as it was: no profile to link to.
            row["is_deleted"] = True
        row["played"] += 1
        row["won"] += 1 if seat.is_winner else 0
        row["rounds_won"] += seat.rounds_won
        row["points"] += seat.final_score or 0
    key = _rank_key
    if season.format == Season.Format.SCHEDULED:
        key = _scheduled_rank_key
        _scheduled_figures(season, rows)
    ordered = sorted(rows.values(), key=lambda r: (key(r), r["name"].casefold()))
    previous_key, rank = None, 0
    for position, row in enumerate(ordered, start=1):
        row_key = key(row)
        if row_key != previous_key:
            rank, previous_key = position, row_key
        row["rank"] = rank
    return ordered


def _scheduled_figures(season, rows):
    """Every member of the schedule gets a row (also before their first game), with
    their average and the games they still have to play."""
    to_play = running.to_play(season)
    for game in running_games(season):
        for seat in game.seats.all():
            to_play[seat.user_id] = to_play.get(seat.user_id, 0) + 1
    missing = [user_id for user_id in running.in_schedule(season) if user_id not in rows]
    for user in User.objects.filter(pk__in=missing):
        rows[user.pk] = _row(user)
    for row in rows.values():
        played = row["played"]
        row["average"] = round(row["points"] / played, 2) if played else None
        row["to_play"] = to_play.get(row["user_id"], 0)


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
