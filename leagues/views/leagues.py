from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from chat import public as chat
from leagues import services
from leagues.access import get_league_for_member, membership_for
from leagues.forms import LeagueForm
from leagues.models import League, Season
from leagues.ratings.chances import CALIBRATION
from leagues.ratings.reads import leaderboard, with_ratings
from leagues.ratings.skill import PLAYER_GAMES, league_skill
from leagues.standings import past_seasons, standings_for, tie_break_for
from rummy.public import league_games, league_tables


@login_required
def league_list(request):
    mine = League.objects.filter(memberships__user=request.user)
    public = League.objects.filter(visibility=League.Visibility.PUBLIC).exclude(
        memberships__user=request.user
    )
    return render(request, "leagues/list.html", {"mine": mine, "public": public})


@login_required
def league_create(request):
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = services.create_league(request.user, **form.cleaned_data)
        except services.LeagueError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("League created. You are its owner."))
            return redirect(league)
    return render(request, "leagues/create.html", {"form": form})


def _skill(league):
    skill, results = league_skill(league)
    return {
        "skill": skill,
        "skill_percents": skill.percents() if skill else {},
        "player_results": results,
        "player_games": PLAYER_GAMES,
        "chance_calibration": CALIBRATION,
    }


@login_required
def league_detail(request, slug):
    league = get_league_for_member(request.user, slug)
    membership = membership_for(request.user, league)
    season = league.active_season()
    context = {
        "league": league,
        "membership": membership,
        "season": season,
        "standings": with_ratings(standings_for(season), league) if season else [],
        "with_ratings": True,
        "leaderboard": leaderboard(league),
        **_skill(league),
        "tie_break": tie_break_for(season),
        "scheduled": season is not None and season.format == Season.Format.SCHEDULED,
        **league_games(league),
        # The game app's part of the page, for members: its tables and their controls.
        "league_tables": league_tables(league, request.user) if membership else None,
        "past_seasons": past_seasons(league),
        "closed_seasons": league.seasons.filter(status=Season.Status.CLOSED).count(),
        "members": league.memberships.select_related("user").order_by("role", "user__display_name"),
        # its board (chat.public): the pinned announcements, the posts new to the member
        "board": chat.league_board(request.user, league),
    }
    return render(request, "leagues/detail.html", context)


@login_required
@require_POST
def join(request, slug):
    league = get_league_for_member(request.user, slug)
    try:
        services.join_public(request.user, league)
    except services.LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("You joined %(league)s.") % {"league": league})
    return redirect(league)


@login_required
@require_POST
def leave(request, slug):
    league = get_league_for_member(request.user, slug)
    try:
        services.leave(request.user, league)
    except services.LeagueError as error:
        messages.error(request, str(error))
        return redirect(league)
    messages.success(request, _("You left %(league)s.") % {"league": league})
    return redirect("leagues:list")
