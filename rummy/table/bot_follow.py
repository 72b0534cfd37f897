"""Bots' moves for a socket that no broadcast reaches (in-memory layer): it polls the version."""

import asyncio
from collections.abc import Awaitable, Callable

from channels.db import database_sync_to_async
from django.conf import settings

from rummy.table.access import current_version, has_bots

# The bots play from the worker's process (rummy.clock.bots); a socket of a game with
# bots looks at the game's version this often (one indexed read).
BOT_FOLLOW_SECONDS = 1.0


def layer_is_local() -> bool:
    backend = str(settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", ""))
    return backend.endswith("InMemoryChannelLayer")


async def start(
    game_id: int, sent: Callable[[], int], newer: Callable[[int], Awaitable[None]]
) -> asyncio.Future | None:
    """The follower's task when the layer is local and the game has bots, else None.
    ``sent()``: the newest version the socket has sent; ``newer(version)``: show it, as
    ``game.updated`` would."""
    if not layer_is_local() or not await database_sync_to_async(has_bots)(game_id):
        return None
    return asyncio.ensure_future(_follow(game_id, sent, newer))


async def _follow(game_id, sent, newer):
    while True:
        await asyncio.sleep(BOT_FOLLOW_SECONDS)
        version = await database_sync_to_async(current_version)(game_id)
        if version is not None and version > sent():
            await newer(version)
