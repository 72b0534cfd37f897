from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
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
            messages.success(
                request, _("Invite link created: copy or share it from the list below.")
            )
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
        services.revoke_invite(invite, request.user)
    except services.LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The invite link was revoked; it no longer works."))
    return redirect("leagues:invites", league.slug)


# The invite link a visitor opened before having an account or logging in: kept in their
# session (never in a URL parameter that could be swapped for another address), so that
# sign-up, the email check and log-in all lead back to it.
PENDING_INVITE = "leagues:pending_invite"
# Set by sign-up when the new account joined the league of the pending invite, so that
# the invite page can greet the newcomer after log-in instead of "already a member".
JOINED_AT_SIGNUP = "leagues:joined_at_signup"


def remember_invite(request, invite):
    request.session[PENDING_INVITE] = invite.token


def forget_invite(request):
    request.session.pop(PENDING_INVITE, None)


def pending_invite(request):
    """The usable invite this browser opened and has not used yet, or None. A link that
    stopped working, or whose league the user has joined since, is forgotten."""
    token = request.session.get(PENDING_INVITE)
    if not isinstance(token, str):
        return None
    invite = Invite.objects.select_related("league", "created_by").filter(token=token).first()
    if invite is None or invite.problem() or membership_for(request.user, invite.league):
        forget_invite(request)
        return None
    return invite


def join_invite_url(invite):
    """Where sign-up and log-in send someone who holds ``invite``: its own page, which
    joins or offers the one tap. A path of ours, never one taken from the request."""
    return reverse("leagues:join_invite", args=[invite.token])


def _unusable(request):
    # One neutral page, and the same status, for a link that never existed and for one
    # revoked, expired or used up: neither tells whoever holds the link which league it
    # was for, nor whether that league exists.
    forget_invite(request)
    return render(request, "leagues/invite_unusable.html", status=404)


def join_invite(request, token):
    """Anyone holding a usable link sees the league it is for (its name, description and
    who invited; not its members). Signed in, one tap joins; signed out, the link is kept
    in the session through sign-up (which joins the new account), the email check and
    log-in. Members are sent to their league whatever the state of the link."""
    invite = Invite.objects.select_related("league", "created_by").filter(token=token).first()
    if invite is None:
        return _unusable(request)
    league = invite.league
    if membership_for(request.user, league):
        forget_invite(request)
        if request.session.pop(JOINED_AT_SIGNUP, None) == invite.token:
            messages.success(request, _("Welcome to %(league)s!") % {"league": league})
        else:
            messages.info(
                request, _("You are already a member of %(league)s.") % {"league": league}
            )
        return redirect(league)
    if invite.problem():
        return _unusable(request)
    if not request.user.is_authenticated:
        remember_invite(request, invite)
        if request.method == "POST":
            return redirect_to_login(join_invite_url(invite))
        return render(request, "leagues/join_invite.html", {"league": league, "invite": invite})
    if request.method == "POST":
        try:
            services.join_by_invite(request.user, invite)
        except services.LeagueError:
            # The link stopped working since the page was shown (revoked, or its last
            # use taken a moment ago), or a second tap raced the first: the page again
            # says which (the league, or the neutral page); nothing changed.
            return redirect("leagues:join_invite", token)
        forget_invite(request)
        messages.success(request, _("You joined %(league)s.") % {"league": league})
        return redirect(league)
    return render(request, "leagues/join_invite.html", {"league": league, "invite": invite})


def join_at_signup(request, user, invite):
    """Sign-up made ``user`` while this browser held ``invite``: join its league now, so
    that the invitation survives the email check whichever device opens that link."""
    try:
        services.join_by_invite(user, invite)
    except services.LeagueError:
        # Used up or revoked a moment ago: log-in leads to the page that says so.
        return
    request.session[JOINED_AT_SIGNUP] = invite.token
