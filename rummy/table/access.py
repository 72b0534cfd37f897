"""Who may look at a game. Views and consumers call these (DESIGN: access helpers).

A game belongs to its league: a private league's games exist only for its members
(404 for everybody else, so that not even their existence is confirmed); a public
league's games may be watched by any signed-in user. A practice game (no league)
exists only for its host, who plays it against bots.
"""

import time
from dataclasses import dataclass

from django.db.models import Prefetch
from django.http import Http404
from django.utils.translation import gettext as _

from leagues.access import can_view_league, membership_for
from rummy.models import Game, Seat, seats_of_game
from rummy.table import memory


def games_with_seats():
    """Games with their league and seated users loaded: every page of a game reads
    them, and loading them once keeps the query count independent of the seats."""
    return Game.objects.select_related("league", "season").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user"))
    )


def game_with_seats(game_id):
    """One game as ``games_with_seats`` loads it, or None, in one query when it has
    seats (through them; ``Game.with_seats``): every socket update reads one game."""
    game = Game.with_seats(seats_of_game(game_id))
    if game is None:  # no seats, or no game
        game = Game.objects.select_related("league", "season").filter(pk=game_id).first()
        if game is not None:
            game.keep_seats([])
    return game


def viewable_game(user, game_id, max_age=None):
    """The game if ``user`` may see it, else None (no exception: consumers use it).
    ``max_age``: as for ``rights``."""
    game = game_with_seats(game_id)
    if game is None or not may_view(user, game, max_age):
        return None
    return game


def get_game_for_viewer(user, game_id):
    """The game if ``user`` may see it; 404 otherwise."""
    game = viewable_game(user, game_id)
    if game is None:
        raise Http404(_("No such game."))
    return game


# --- Sockets: one load per game version per process ---------------------------------
#
# After a move every open socket of the game re-renders its user's view. The sockets
# of one server process share what they read: the game row with its seats and users at
# a given version is the same for all of them (only the rendering is per user), and a
# version never changes once written. So the first socket loads it and the others reuse
# it. Only a game at least as new as the broadcast version is reused.


def remember(game):
    memory.recent_games.put(game.pk, game)


def remembered_game(game_id, version):
    """The game at ``version`` or newer if this process has it in memory, else None.
    Never touches the database (safe on the event loop)."""
    game = memory.recent_games.get(game_id)
    return game if game is not None and game.version >= version else None


def game_at_least(game_id, version):
    """The game (seats and users loaded) at ``version`` or newer: from this process's
    memory when another socket already loaded it, else from the database."""
    game = remembered_game(game_id, version)
    if game is None:
        game = game_with_seats(game_id)
        if game is not None:
            remember(game)
    return game


# What a user may do at a league's tables, kept in each process for the sockets that
# re-render on every move and for page requests. A page request takes it at most
# VIEW_CHECK_SECONDS old. A socket is told when it changes (``forget_rights``: a
# membership made, changed or ended, a league's visibility; ``rummy.table.sockets``) and
# takes it up to SOCKET_RIGHTS_SECONDS old, in case a message was lost: re-read as often
# as a page's, it cost a good share of the sockets' renders a thread hop and a query.
VIEW_CHECK_SECONDS = 15
SOCKET_RIGHTS_SECONDS = 120


@dataclass(frozen=True)
class Rights:
    """What one user may do at one league's tables (the presenters' only source)."""

    may_view: bool
    is_member: bool
    is_admin: bool


def _practice_rights(user, game) -> Rights:
    """A practice game is its host's alone: no league to be a member or admin of."""
    owner = getattr(user, "is_authenticated", False) and user.pk == game.host_id
    return Rights(may_view=owner, is_member=owner, is_admin=False)


def remembered_rights(user, game, max_age=None):
    """``rights`` if this process read them at most ``max_age`` seconds ago (None:
    VIEW_CHECK_SECONDS), else None (no database)."""
    if game.league_id is None:
        return _practice_rights(user, game)
    hit = memory.view_checks.get((user.pk, game.league_id))
    age = VIEW_CHECK_SECONDS if max_age is None else max_age
    if hit is not None and time.monotonic() - hit[1] < age:
        return hit[0]
    return None


def rights(user, game, max_age=None) -> Rights:
    """What ``user`` may do at ``game`` (its league's rights; a practice game's own),
    read again when this process's are older than ``max_age`` (``remembered_rights``)."""
    found = remembered_rights(user, game, max_age)
    if found is None:
        forgotten = memory.forgotten_rights()
        league = game.league
        membership = membership_for(user, league)
        found = Rights(
            may_view=can_view_league(user, league, membership),
            is_member=membership is not None,
            is_admin=membership is not None and membership.is_admin,
        )
        # Not kept when a change was told while this was read: it may predate it.
        if memory.forgotten_rights() == forgotten:
            memory.view_checks.put((user.pk, league.pk), (found, time.monotonic()))
    return found


def forget_rights(user_id=None, league_id=None):
    """Drop this process's rights of ``user_id`` (None: everyone's) in ``league_id``
    (None: every league): they changed."""
    memory.forget_rights(
        lambda key: (
            (user_id is None or key[0] == user_id) and (league_id is None or key[1] == league_id)
        )
    )


def may_view(user, game, max_age=None):
    return rights(user, game, max_age).may_view


# --- Bots on the default set-up ------------------------------------------------------


def has_bots(game_id):
    """Whether a bot plays (or may come to play) a seat of the game."""
    return Seat.objects.filter(game_id=game_id).exclude(bot_level="", stand_in=False).exists()


def current_version(game_id):
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
