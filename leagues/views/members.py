from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from leagues import services
from leagues.access import get_league_for_member, require_league_admin, require_league_owner
from leagues.forms import RoleForm


@login_required
def members(request, slug):
    """Admins' page: everyone in the league, with remove and (for owners) role controls."""
    league = get_league_for_member(request.user, slug)
    membership = require_league_admin(request.user, league)
    memberships = league.memberships.select_related("user").order_by("role", "user__display_name")
    return render(
        request,
        "leagues/members.html",
        {
            "league": league,
            "membership": membership,
            "memberships": memberships,
            "role_form": RoleForm(),
        },
    )


@login_required
@require_POST
def remove_member(request, slug, pk):
    league = get_league_for_member(request.user, slug)
    by = require_league_admin(request.user, league)
    target = get_object_or_404(league.memberships.select_related("user"), pk=pk)
    try:
        services.remove_member(by, target)
    except services.LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("%(name)s is no longer a member.") % {"name": target.user.name})
    return redirect("leagues:members", league.slug)


@login_required
@require_POST
def set_role(request, slug, pk):
    league = get_league_for_member(request.user, slug)
    by = require_league_owner(request.user, league)
    target = get_object_or_404(league.memberships.select_related("user"), pk=pk)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Please choose a role."))
        return redirect("leagues:members", league.slug)
    try:
        services.set_role(by, target, form.cleaned_data["role"])
    except services.LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("%(name)s's role was changed.") % {"name": target.user.name})
    return redirect("leagues:members", league.slug)
