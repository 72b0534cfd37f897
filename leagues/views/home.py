from django.shortcuts import render

from rummy.models import Game


def home(request):
    """Signed in: your leagues and your games in progress. Otherwise: the landing page."""
    context = {}
    if request.user.is_authenticated:
        context["memberships"] = request.user.memberships.select_related("league").order_by(
            "league__name"
        )
        context["my_games"] = (
            Game.objects.filter(
                seats__user=request.user, status__in=[Game.Status.OPEN, Game.Status.ACTIVE]
            )
            .select_related("league", "to_move")
            .order_by("turn_deadline", "-created_at")
        )
    return render(request, "home.html", context)
