"""A player's vacation days in a season (``leagues.vacations``): the page with their
vacations and the days left, taking days ahead, starting now, cancelling or ending one.
Members only (404 for strangers to an invite-only league, 403 for a non-member of a
public one); every refusal is a message, and nothing changes."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from leagues import vacations
from leagues.access import require_league_member
from leagues.forms import VacationAheadForm, VacationNowForm
from leagues.services import LeagueError
from leagues.views.seasons import _season


def _member_season(request, slug, pk):
    league, season = _season(request, slug, pk)
    membership = require_league_member(request.user, league)
    return league, season, membership


def _page(request, slug, pk):
    return redirect("leagues:vacation", slug, pk)


@login_required
@require_http_methods(["GET", "POST"])
def vacation_page(request, slug, pk):
    league, season, membership = _member_season(request, slug, pk)
    ahead = VacationAheadForm(request.POST or None)
    if request.method == "POST" and ahead.is_valid():
        try:
            vacations.take_ahead(request.user, season, **ahead.cleaned_data)
        except LeagueError as error:
            ahead.add_error(None, str(error))
        else:
            messages.success(request, _("Your vacation is booked: your clocks stop then."))
            return _page(request, slug, pk)
    now = timezone.now()
    context = {
        "league": league,
        "season": season,
        "membership": membership,
        "ahead_form": ahead,
        "now_form": VacationNowForm(),
        "vacations": [
            {"vacation": v, "running": v.starts_at <= now < v.ends_at, "over": v.ends_at <= now}
            for v in season.vacations.filter(user=request.user)
        ],
        "days_left": vacations.days_left(request.user, season),
    }
    return render(request, "leagues/vacation.html", context)


@login_required
@require_POST
def vacation_now(request, slug, pk):
    _league, season, _membership = _member_season(request, slug, pk)
    form = VacationNowForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return _page(request, slug, pk)
    try:
        vacations.start_now(request.user, season, form.cleaned_data["days"])
    except LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Your vacation has begun: your clocks are stopped."))
    return _page(request, slug, pk)


@login_required
@require_POST
def vacation_stop(request, slug, pk, vacation_pk):
    _league, season, _membership = _member_season(request, slug, pk)
    try:
        vacation = vacations.stop(request.user, season, vacation_pk)
    except LeagueError as error:
        messages.error(request, str(error))
    else:
        if vacation is None:
            messages.success(request, _("Your vacation is cancelled: its days are yours again."))
        else:
            messages.success(request, _("Your vacation has ended: your clocks run again."))
    return _page(request, slug, pk)
