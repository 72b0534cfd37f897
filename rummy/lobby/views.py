"""The lobby's pages: the home page, and opening a table from a league's page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from leagues.access import get_league_for_member
from rummy import play
from rummy.lobby.forms import OpenTableForm
from rummy.lobby.games import home_games


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


@login_required
@require_POST
def open_table(request, slug):
    league = get_league_for_member(request.user, slug)
    form = OpenTableForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("A table has 2 to 5 seats."))
        return redirect(league)
    try:
        game = play.open_table(league, request.user, form.cleaned_data["seats"])
    except play.NotAllowed as refusal:
        raise PermissionDenied(refusal.message) from None
    except play.ActionRefused as refusal:
        messages.error(request, refusal.message)
        return redirect(league)
    return redirect(game)
