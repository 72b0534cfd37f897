from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from leagues import services
from leagues.forms import SignupForm
from leagues.models import League, User
from rummy.models import Game, Seat
from rummy.notifications import send_signup_attempt_email, send_verification_email


def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
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
            else:
                send_signup_attempt_email(user, request)
            messages.success(
                request,
                _("Thank you for signing up! We sent an email to %(email)s: open the "
                  "link in it to confirm your address, then log in here.")
                % {"email": form.cleaned_data["email"]},
            )
            return redirect("login")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def profile(request, username):
    """A player's leagues, games and results, as far as the viewer may see them:
    invite-only leagues (and their games) show only to fellow members."""
    player = get_object_or_404(User, username=username, is_active=True)
    visible = Q(visibility=League.Visibility.PUBLIC) | Q(memberships__user=request.user)
    visible_leagues = League.objects.filter(visible).distinct()
    memberships = player.memberships.filter(league__in=visible_leagues).select_related("league")
    seats = (
        Seat.objects.filter(user=player, game__league__in=visible_leagues)
        .exclude(game__status=Game.Status.VOIDED)
        .select_related("game", "game__league", "game__season")
        .order_by("-game__finished_at", "-game__created_at")
    )
    finished = [s for s in seats if s.game.status == Game.Status.FINISHED]
    context = {
        "player": player,
        "memberships": memberships,
        "current_seats": [s for s in seats if s.game.status != Game.Status.FINISHED],
        "results": finished[:30],
        "games_played": len(finished),
        "games_won": sum(1 for s in finished if s.is_winner),
        "championships": player.championships.filter(league__in=visible_leagues).select_related(
            "league"
        ),
    }
    return render(request, "leagues/profile.html", context)
