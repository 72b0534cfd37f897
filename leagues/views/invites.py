from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from leagues import services
from leagues.access import get_league_for_member, membership_for, require_league_admin
from leagues.forms import InviteForm
from leagues.models import Invite


@login_required
def invites(request, slug):
    """List the league's invite links (GET) and create one (POST)."""
    league = get_league_for_member(request.user, slug)
    membership = require_league_admin(request.user, league)
    form = InviteForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            services.create_invite(
                request.user,
                league,
                expires_at=form.expires_at(),
                max_uses=form.cleaned_data["max_uses"],
            )
            messages.success(request, _("Invite link created: copy or share it from the list below."))
            return redirect("leagues:invites", league.slug)
        messages.error(request, _("Please correct the errors below."))
    invite_rows = [
        {
            "invite": invite,
            "problem": invite.problem(),
            "url": request.build_absolute_uri(invite.get_absolute_url()),
        }
        for invite in league.invites.select_related("created_by")
    ]
    return render(
        request,
        "leagues/invites.html",
        {"league": league, "membership": membership, "form": form, "invite_rows": invite_rows},
    )


@login_required
@require_POST
def revoke_invite(request, slug, pk):
    league = get_league_for_member(request.user, slug)
    require_league_admin(request.user, league)
    invite = get_object_or_404(league.invites, pk=pk)
    try:
        services.revoke_invite(invite)
    except services.LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The invite link was revoked; it no longer works."))
    return redirect("leagues:invites", league.slug)


def _unusable(request):
    # One neutral page, and the same status, for a link that never existed and for one
    # revoked, expired or used up: neither tells whoever holds the link which league it
    # was for, nor whether that league exists.
    return render(request, "leagues/invite_unusable.html", status=404)


@login_required
def join_invite(request, token):
    """Anyone with a usable link (signed in) may see the league's name and join with it.
    Members are sent to their league whatever the state of the link."""
    invite = Invite.objects.select_related("league").filter(token=token).first()
    if invite is None:
        return _unusable(request)
    league = invite.league
    if membership_for(request.user, league):
        messages.info(request, _("You are already a member of %(league)s.") % {"league": league})
        return redirect(league)
    if invite.problem():
        return _unusable(request)
    if request.method == "POST":
        try:
            services.join_by_invite(request.user, invite)
        except services.LeagueError:
            # The link stopped working since the page was shown (revoked, or its last
            # use taken a moment ago): the neutral page, nothing changed.
            return redirect("leagues:join_invite", token)
        messages.success(request, _("You joined %(league)s.") % {"league": league})
        return redirect(league)
    return render(request, "leagues/join_invite.html", {"league": league, "invite": invite})
