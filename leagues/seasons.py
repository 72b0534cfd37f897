"""Running a league's seasons: create, start, close, and voiding games at the close."""

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.models import AdminAction, League, Season
from leagues.record import record, season_values
from leagues.schedules import running
from leagues.services import LeagueError, lock_league
from leagues.standings import freeze, game_finished
from rummy import public


def _messages(error):
    return " ".join(error.messages)


@transaction.atomic
def create_season(league, *, by=None, **fields):
    """A new planned season. Dates may not overlap another season of the league.
    ``by``: the admin who creates it, for the league's record."""
    # The overlap check reads the league's seasons: under the league's lock, ten
    # identical requests at once make one season, not several overlapping ones.
    lock_league(league.pk)
    season = Season(league=league, status=Season.Status.PLANNED, **fields)
    try:
        season.full_clean()
        with transaction.atomic():
            season.save()
    except ValidationError as error:
        raise LeagueError(_messages(error)) from None
    except IntegrityError:
        raise LeagueError(_("This season could not be saved; check its dates.")) from None
    record(
        league,
        by,
        AdminAction.Action.SEASON_CREATED,
        subject=season.name,
        after=season_values(season),
    )
    return season


@transaction.atomic
def start_season(season, by=None):
    """Make a planned season the league's active one (at most one at a time)."""
    # Lock the league row so that two admins starting two seasons at once queue up.
    League.objects.select_for_update().get(pk=season.league_id)
    season.refresh_from_db()
    if season.status == Season.Status.ACTIVE:
        raise LeagueError(_("This season has already started."))
    if season.status == Season.Status.CLOSED:
        raise LeagueError(_("This season is closed; it cannot start again."))
    active = season.league.active_season()
    if active is not None:
        raise LeagueError(
            _("“%(name)s” is still active: close it before starting another season.")
            % {"name": active.name}
        )
    season.status = Season.Status.ACTIVE
    season.started_at = timezone.now()
    try:
        with transaction.atomic():
            season.save(update_fields=["status", "started_at"])
    except IntegrityError:
        raise LeagueError(_("Another season of this league is already active.")) from None
    if season.format == Season.Format.SCHEDULED:
        # Its plan, stored: round 1 is dealt by the background work once it is due.
        running.store_plan(season, season.started_at)
    record(
        season.league_id,
        by,
        AdminAction.Action.SEASON_STARTED,
        subject=season.name,
        before={"status": Season.Status.PLANNED},
        after={"status": Season.Status.ACTIVE},
    )
    return season


@transaction.atomic
def close_season(season, by=None):
    """Close an active season: freeze its standings and name its champion(s).

    Games still running keep playing; the admin decides (season page) whether to let
    them finish and count (``standings.game_finished`` refreezes) or to void them.
    """
    season = Season.objects.select_for_update().get(pk=season.pk)
    if season.status == Season.Status.CLOSED:
        raise LeagueError(_("This season is already closed."))
    if season.status != Season.Status.ACTIVE:
        raise LeagueError(_("Only an active season can be closed; this one has not started."))
    season.status = Season.Status.CLOSED
    season.closed_at = timezone.now()
    season.save(update_fields=["status", "closed_at"])
    freeze(season)
    # Closed before its last day: the record says so, with the end it had.
    early = timezone.localdate(season.closed_at) < season.ends_on
    record(
        season.league_id,
        by,
        AdminAction.Action.SEASON_ENDED_EARLY if early else AdminAction.Action.SEASON_CLOSED,
        subject=season.name,
        before={"status": Season.Status.ACTIVE, "ends_on": season.ends_on},
        after={"status": Season.Status.CLOSED, "closed_on": timezone.localdate(season.closed_at)},
    )
    return season


def running_games(season):
    """Games of ``season`` that have not ended yet."""
    return public.running_games(season)


@transaction.atomic
def void_game(game, by_user):
    """Void an open or running game: it ends now and counts for nothing.

    Permission is the caller's business (league owners/admins; see leagues.access). The
    change itself is the game service's (logged, version-checked, broadcast); here the
    season's frozen standings follow.
    """
    try:
        result = public.void_game(game.pk, by_user)
    except public.ActionRefused as refusal:
        raise LeagueError(refusal.message) from None
    game_finished(result.game)
    if result.game.league_id is not None:
        record(
            result.game.league_id,
            by_user,
            AdminAction.Action.GAME_VOIDED,
            subject=_game_subject(result.game),
            before={"status": game.status},
            after={"status": result.game.status},
        )
    return result.game


def _game_subject(game):
    season = f" · {game.season.name}" if game.season_id else ""
    return f"#{game.pk}{season}"
