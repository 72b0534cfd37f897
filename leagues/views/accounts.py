from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _

from leagues import services
from leagues.forms import SignupForm
from leagues.models import League, User, reported_time_zone, supported_language
from leagues.views import invites
from rummy.public import player_record, send_signup_attempt_email, send_verification_email


def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    invite = invites.pending_invite(request)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # A new account keeps the language this browser was shown (its switcher's
        # cookie, else its Accept-Language) and the time zone it reports.
        form.instance.language = supported_language(translation.get_language())
        form.instance.time_zone = reported_time_zone(request.POST.get("time_zone"))
        try:
            user, created = services.sign_up(form)
        except services.UsernameTaken as error:
            form.add_error("username", str(error))
        else:
            # The same answer whether the address was new or already had an account
            # (then its owner is told by email): the page must not tell a stranger which
            # addresses have accounts. So nobody is logged in here: the newcomer
            # confirms the address from the email and logs in. A mail failure is logged
            # by the sender and changes nothing in the answer.
            if created:
                send_verification_email(user, request)
                if invite is not None:
                    invites.join_at_signup(request, user, invite)
            else:
                send_signup_attempt_email(user, request)
            messages.success(
                request,
                _(
                    "Thank you for signing up! We sent an email to %(email)s: open the "
                    "link in it to confirm your address, then log in here."
                )
                % {"email": form.cleaned_data["email"]},
            )
            if invite is not None:
                # After log-in, the invite's page: the league, joined (or one tap away).
                return redirect_to_login(invites.join_invite_url(invite))
            return redirect("login")
    return render(request, "registration/signup.html", {"form": form, "invite": invite})


@login_required
def profile(request, username):
    """A player's leagues, games and results, as far as the viewer may see them:
    invite-only leagues (and their games) show only to fellow members."""
    player = get_object_or_404(User, username=username, is_active=True)
    visible = Q(visibility=League.Visibility.PUBLIC) | Q(memberships__user=request.user)
    visible_leagues = League.objects.filter(visible).distinct()
    memberships = player.memberships.filter(league__in=visible_leagues).select_related("league")
    context = {
        "player": player,
        "memberships": memberships,
        **player_record(player, visible_leagues),
        "championships": player.championships.filter(league__in=visible_leagues).select_related(
            "league"
        ),
    }
    return render(request, "leagues/profile.html", context)
