from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from leagues.forms import SignupForm
from leagues.models import League, User
from rummy.models import Game, Seat
from rummy.notifications import send_verification_email


def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # axes' backend needs the request to authenticate; the new account is known good.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to Carousel, %(name)s!") % {"name": user.name})
        # Game emails go only to verified addresses: ask right away. A mail failure is
        # logged by the sender and never stops the sign-up.
        if send_verification_email(user, request):
            messages.info(request, _("We sent you a link to confirm your email address."))
        return redirect("home")
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
