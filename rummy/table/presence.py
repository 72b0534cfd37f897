"""Marks the socket's user present at the game, so no "your move" email goes while they look."""

import asyncio
import logging

from asgiref.sync import sync_to_async

from rummy.notifications import presence

log = logging.getLogger(__name__)


async def _mark(function, user_id, game_id):
    """A presence mark's step, off the event loop like the socket count (the cache is
    Redis in production). A failing cache costs at worst one email too many or too late,
    never the socket: logged, not raised."""
    try:
        await sync_to_async(function, thread_sensitive=False)(user_id, game_id)
    except Exception:
        log.warning("presence %s failed for user %s", function.__name__, user_id, exc_info=True)


class Presence:
    """The user is at the game while the socket lives: no "your move" email for it."""

    def __init__(self, user_id: int, game_id: int) -> None:
        self.user_id = user_id
        self.game_id = game_id
        self.task: asyncio.Future | None = None

    async def arrive(self) -> None:
        await _mark(presence.arrive, self.user_id, self.game_id)
        self.task = asyncio.ensure_future(self._stay())

    async def leave(self) -> None:
        if self.task is None:
            return
        self.task.cancel()
        self.task = None
        await _mark(presence.leave, self.user_id, self.game_id)

    async def _stay(self) -> None:
        """Refresh the mark while the socket is open: a socket with no moves in its game
        for a while still means the player is looking at it."""
        while True:
            await asyncio.sleep(presence.REFRESH_SECONDS)
            await _mark(presence.refresh, self.user_id, self.game_id)
