from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from leagues import seasons as season_service
from leagues.access import get_league_for_member, membership_for, require_league_admin
from leagues.forms import SeasonForm
from leagues.models import Season
from leagues.ratings.reads import with_ratings
from leagues.schedule_preview import preview
from leagues.schedules import running
from leagues.services import LeagueError
from leagues.standings import standings_for, tie_break_for
from rummy.public import finished_games


def _season(request, slug, pk):
    league = get_league_for_member(request.user, slug)
    return league, get_object_or_404(league.seasons, pk=pk)


@login_required
def season_list(request, slug):
    """All seasons of a league: the current one, planned ones and the archive."""
    league = get_league_for_member(request.user, slug)
    return render(
        request,
        "leagues/seasons.html",
        {
            "league": league,
            "membership": membership_for(request.user, league),
            "seasons": league.seasons.prefetch_related("champions"),
        },
    )


@login_required
def season_detail(request, slug, pk):
    league, season = _season(request, slug, pk)
    membership = membership_for(request.user, league)
    finished = finished_games(season)
    # The planned schedule, for its admins, before the season starts.
    schedule = (
        preview(season)
        if membership is not None
        and membership.is_admin
        and season.format == Season.Format.SCHEDULED
        and season.status == Season.Status.PLANNED
        else None
    )
    rounds, next_games = [], []
    if season.format == Season.Format.SCHEDULED and season.status != Season.Status.PLANNED:
        rounds = running.rounds_shown(season)
        if membership is not None and season.is_active:
            next_games = running.next_games(season, request.user)
    return render(
        request,
        "leagues/season.html",
        {
            "league": league,
            "season": season,
            "membership": membership,
            "standings": with_ratings(standings_for(season), league),
            "with_ratings": True,
            "tie_break": tie_break_for(season),
            "scheduled": season.format == Season.Format.SCHEDULED,
            "rounds": rounds,
            "next_games": next_games,
            "running_games": season_service.running_games(season),
            "finished_games": finished,
            "champions": season.champions.all(),
            "schedule": schedule,
        },
    )


@login_required
def season_create(request, slug):
    league = get_league_for_member(request.user, slug)
    require_league_admin(request.user, league)
    form = SeasonForm(request.POST or None, instance=Season(league=league))
    if request.method == "POST" and form.is_valid():
        try:
            season = season_service.create_season(league, by=request.user, **form.cleaned_data)
        except LeagueError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Season created. Start it when you are ready."))
            return redirect(season)
    return render(request, "leagues/season_form.html", {"league": league, "form": form})


@login_required
@require_POST
def season_start(request, slug, pk):
    league, season = _season(request, slug, pk)
    require_league_admin(request.user, league)
    try:
        season_service.start_season(season, by=request.user)
    except LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The season has started: new games count for it."))
    return redirect(season)


@login_required
@require_http_methods(["GET", "POST"])
def season_close(request, slug, pk):
    """GET: what closing does, the games still running and who would be champion, with
    the button that closes (the confirmation). POST: close, once (``close_season``
    locks the season; a second request is told it is already closed)."""
    league, season = _season(request, slug, pk)
    membership = require_league_admin(request.user, league)
    if request.method == "GET":
        if season.status != Season.Status.ACTIVE:
            return redirect(season)
        standings = standings_for(season)
        return render(
            request,
            "leagues/season_close.html",
            {
                "league": league,
                "season": season,
                "membership": membership,
                "running_games": season_service.running_games(season),
                "champions": [row for row in standings if row["rank"] == 1],
            },
        )
    try:
        season_service.close_season(season, by=request.user)
    except LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The season is closed and its standings are final."))
        if season_service.running_games(season).exists():
            messages.warning(
                request,
                _(
                    "Some games are still running: let them finish (they will count) "
                    "or void them below."
                ),
            )
    return redirect(season)


@login_required
@require_POST
def void_game(request, slug, pk, game_pk):
    league, season = _season(request, slug, pk)
    require_league_admin(request.user, league)
    game = get_object_or_404(season.games, pk=game_pk)
    try:
        season_service.void_game(game, request.user)
    except LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The game was voided; it counts for nothing."))
    return redirect(season)
