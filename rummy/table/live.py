"""A socket's view of its game: rendered from this process's memory on the event loop when
it can, from the database in a thread when it must (the socket only sends it)."""

from channels.db import database_sync_to_async
from django.utils import timezone, translation

from rummy.clock import deadlines
from rummy.table import loading, rendering
from rummy.table.access import (
    SOCKET_RIGHTS_SECONDS,
    game_at_least,
    may_view,
    remember,
    remembered_game,
    remembered_rights,
    rights,
    viewable_game,
)
from rummy.table.guarded import in_language


def render_view(user, game_id, sort, flash=None, enforce_clock=False, version=None):
    """The user's frames for the game as it is now, or None if it is gone/hidden.
    With ``enforce_clock`` (on connect) a passed deadline is played first, so a page
    that opens after a missed clock tick never shows a stuck game. With ``version`` (a
    broadcast) the game may come from what another socket of this process loaded.
    Rights are a socket's (``access.SOCKET_RIGHTS_SECONDS``): it is told of changes."""
    age = SOCKET_RIGHTS_SECONDS
    if version is None:
        game = viewable_game(user, game_id, age)
        if game is not None:
            remember(game)
    else:
        game = game_at_least(game_id, version)
        if game is not None and not may_view(user, game, age):
            game = None
    if game is None:
        return None
    if enforce_clock and deadlines.enforce_deadline(game):
        game = viewable_game(user, game_id, age)
    return rendering.render_frames(game, user, sort, flash, rights_age=age)


async def view(user, game_id, sort, language, zone, flash=None, version=None, draft_free=False):
    """The user's frames now (None: the game is gone or hidden from them). After a
    broadcast (``version``, no words of its own to show) the game is read once for all
    of this process's sockets and each view renders from memory, on the event loop."""
    frames = None
    if version is not None and flash is None:
        await loading.load_once(game_id, version)
        frames = _remembered(user, game_id, sort, language, zone, version, draft_free)
        if frames is None and await _refresh_rights(user, game_id, version):
            frames = _remembered(user, game_id, sort, language, zone, version, draft_free)
    if frames is None:
        frames = await in_language(language, render_view, zone)(
            user, game_id, sort, flash, version=version
        )
    return frames


async def first_view(user, game_id, sort, language, zone):
    """The view on connect, with a passed deadline played first."""
    return await in_language(language, render_view, zone)(user, game_id, sort, enforce_clock=True)


def _remembered(user, game_id, sort, language, zone, version, draft_free):
    with translation.override(language), timezone.override(zone):
        return rendering.render_remembered(user, game_id, sort, version, draft_free)


async def _refresh_rights(user, game_id, version):
    """When the game is in memory and only this user's rights there have aged out
    (``access.SOCKET_RIGHTS_SECONDS``), read them again (one query, in a thread) and say
    so: the view then renders on the event loop like any other, instead of whole in
    a thread."""
    game = remembered_game(game_id, version)
    if game is None or game.state is None:
        return False
    if remembered_rights(user, game, SOCKET_RIGHTS_SECONDS) is not None:
        return False
    await database_sync_to_async(rights)(user, game, SOCKET_RIGHTS_SECONDS)
    return True
