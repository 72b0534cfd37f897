from django.shortcuts import render

from rummy.home_games import home_games


def home(request):
    """Signed in: games where it is your move (most urgent first), games waiting for
    others, open tables in your leagues, and your leagues. Otherwise: the landing page."""
    context = {}
    if request.user.is_authenticated:
        context["memberships"] = request.user.memberships.select_related("league").order_by(
            "league__name"
        )
        context["games"] = home_games(request.user)
    return render(request, "home.html", context)
