"""Who may look at a game. Views and consumers call these (DESIGN: access helpers).

A game belongs to its league: a private league's games exist only for its members
(404 for everybody else, so that not even their existence is confirmed); a public
league's games may be watched by any signed-in user.
"""

from django.db.models import Prefetch
from django.http import Http404
from django.utils.translation import gettext as _

from leagues.access import can_view_league
from rummy.models import Game, Seat


def games_with_seats():
    """Games with their league and seated users loaded: every page of a game reads
    them, and loading them once keeps the query count independent of the seats."""
    return Game.objects.select_related("league", "host").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user"))
    )


def viewable_game(user, game_id):
    """The game if ``user`` may see it, else None (no exception: consumers use it)."""
    game = games_with_seats().filter(pk=game_id).first()
    if game is None or not can_view_league(user, game.league):
        return None
    return game


def get_game_for_viewer(user, game_id):
    """The game if ``user`` may see it; 404 otherwise."""
    game = viewable_game(user, game_id)
    if game is None:
        raise Http404(_("No such game."))
    return game
