"""The lobby's pages: the home page, and opening a table from a league's page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from chat import public as chat
from leagues.access import get_league_for_member
from leagues.views import invites
from rummy import play
from rummy.lobby.forms import OpenTableForm, PracticeForm
from rummy.lobby.games import home_games
from rummy.models import Game
from rummy.play import seating
from rummy.table.access import get_game_for_viewer


def home(request):
    """Signed in: games where it is your move (most urgent first), games waiting for
    others, open tables in your leagues, and your leagues; someone in no league and no
    game yet sees first the three ways into one. Otherwise: the landing page. Both show
    first the invite link this browser opened, until it is used."""
    context = {"invite": invites.pending_invite(request)}
    if request.user.is_authenticated:
        memberships = list(
            request.user.memberships.select_related("league").order_by("league__name")
        )
        games = home_games(request.user)
        context.update(
            memberships=memberships,
            games=games,
            show_games=bool(memberships or games["your_move"] or games["waiting"]),
            practice_form=PracticeForm(),
            # the pinned announcements of the user's leagues' boards
            announcements=chat.home_announcements(request.user),
            # Said on the form itself when the user has all the practice games open
            # that one may have (the start would refuse with the same words).
            practice_full=play.practice_full(request.user),
        )
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


@login_required
@require_POST
def practice(request):
    """Any signed-in user starts a private practice game against bots, dealt at once."""
    form = PracticeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose 1 to 4 bots and a level for a practice game."))
        return redirect("home")
    try:
        game = play.start_practice(
            request.user, form.cleaned_data["bots"], form.cleaned_data["level"]
        )
    except play.ActionRefused as refusal:
        if refusal.code != "too_many_practice_games":  # the form itself says so
            messages.error(request, refusal.message)
        return redirect("home")
    return redirect(game)


@login_required
@require_http_methods(["GET", "POST"])
def rematch(request, game_id):
    """After a finished game: GET says what a rematch would be (or where the one another
    player opened is), POST opens it or takes a seat at it (``seating.rematch``)."""
    game = get_game_for_viewer(request.user, game_id)
    if request.method == "POST":
        return _ask_for_rematch(request, game)
    if not any(seat.user_id == request.user.pk for seat in game.seated()):
        raise PermissionDenied(_("Only the players of this game can ask for a rematch."))
    if game.status != Game.Status.FINISHED:
        messages.error(request, _("A rematch can only follow a finished game."))
        return redirect(game)
    table = seating.rematch_of(game)
    if table is not None and table.seats.filter(user=request.user).exists():
        return redirect(table)
    closed, counts_for = seating.rematch_seasons(game)
    return render(
        request,
        "rummy/rematch.html",
        {
            "game": game,
            "players": [seat.user for seat in game.seated()],
            "table": table,
            "closed_season": closed,
            "counts_for": counts_for,
        },
    )


def _ask_for_rematch(request, game):
    try:
        result = seating.rematch(game, request.user)
    except play.NotAllowed as refusal:
        raise PermissionDenied(refusal.message) from None
    except play.ActionRefused as refusal:
        messages.error(request, refusal.message)
        return redirect(game)
    said = {
        seating.Rematch.OPENED: _(
            "Rematch table opened: it starts by itself once every player is back, "
            "or when you start it."
        ),
        seating.Rematch.SEATED: _("You sat at the rematch table."),
        seating.Rematch.ALREADY: _("You already have a seat at the rematch table."),
        seating.Rematch.STARTED: _("The rematch has already started without you."),
    }
    messages.success(request, said[result.outcome])
    closed, counts_for = seating.rematch_seasons(game)
    if result.game.status != Game.Status.OPEN:
        counts_for = result.game.season  # started: its season is settled
    if closed is not None and result.outcome != seating.Rematch.STARTED:
        if counts_for is None:
            note = _("“%(closed)s” has closed: this rematch counts for no season.")
        else:
            note = _("“%(closed)s” has closed: this rematch counts for “%(season)s” instead.")
        messages.warning(
            request, note % {"closed": closed.name, "season": getattr(counts_for, "name", "")}
        )
    return redirect(result.game)
