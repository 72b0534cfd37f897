"""A game page's fragments for one user, and the version they show.

The presenters read nothing from the database; what they need besides the game (what
the user may do in the league, and their draft when they are arranging) is read here,
once per render. ``render_remembered`` is the fast path after a move: everything comes
from this process's memory, so it runs on the event loop without a thread hop.
"""

from dataclasses import dataclass

from django.template.loader import render_to_string

from rummy import play
from rummy.play import drafts
from rummy.table import access
from rummy.table.presenters import table_context

FRAMES_TEMPLATE = "rummy/_game_frames.html"


@dataclass(frozen=True)
class Frames:
    """Rendered fragments and the game version they were rendered from."""

    html: str
    version: int


def page_context(game, user, sort, flash=None):
    """The table templates' context for ``user`` (reads rights and draft: 1-2 queries)."""
    seat = play.seat_of(game, user)
    state = game.engine_state()
    draft = None
    if seat is not None and state is not None and seat.number == state.turn:
        # Only the player to move can be arranging.
        draft = drafts.current_draft(game, seat.number)
    rights = access.rights(user, game.league)
    return table_context(game, user, sort, flash, rights=rights, draft=draft)


def render_frames(game, user, sort, flash=None) -> Frames:
    return Frames(
        render_to_string(FRAMES_TEMPLATE, page_context(game, user, sort, flash)), game.version
    )


def render_remembered(user, game_id, sort, version):
    """The frames after a move without the database, or None when something is not in
    memory (then the caller renders in a thread): the game at ``version``, and what
    ``user`` may do in its league. The player to move (who may have a draft) and an open
    table (the seats may change) always go the long way."""
    game = access.remembered_game(game_id, version)
    if game is None or game.state is None or game.to_move_id == user.pk:
        return None
    rights = access.remembered_rights(user, game.league)
    if rights is None or not rights.may_view:
        return None
    context = table_context(game, user, sort, rights=rights)
    return Frames(render_to_string(FRAMES_TEMPLATE, context), game.version)
