"""A game version in this process's memory for the sockets to render: read from the
database at most once however many sockets ask at once (``load_once``), or taken from
the broadcast that announced it (``adopt_snapshot``)."""

import asyncio

from channels.db import database_sync_to_async

from rummy.play import snapshot
from rummy.table import memory
from rummy.table.access import game_at_least, remember, remembered_game


def adopt_snapshot(game_id, version, text):
    """Keep the game a broadcast carried (``rummy.play.snapshot``, as text) when this
    process holds no game as new: the sockets then render it without reading the
    database. Only the game and version the message names (a message is never taken for
    another game)."""
    if not isinstance(text, str) or remembered_game(game_id, version) is not None:
        return
    game = snapshot.from_text(text)
    if game.pk == game_id and game.version == version:
        remember(game)


async def load_once(game_id, version):
    """Make sure the game at ``version`` or newer is in this process's memory, reading it
    from the database at most once however many sockets ask at the same time: after a
    move every socket of the game on this process gets ``game.updated`` at the same
    moment, and each would otherwise find the new version missing and read it
    (``memory.loading``: game id -> the task reading it)."""
    if remembered_game(game_id, version) is not None:
        return
    task = memory.loading.get(game_id)
    if task is not None:
        await asyncio.shield(task)  # another socket's read: wait for it, do not cancel it
        if remembered_game(game_id, version) is not None:
            return
    task = asyncio.ensure_future(database_sync_to_async(game_at_least)(game_id, version))
    memory.loading[game_id] = task
    try:
        await asyncio.shield(task)
    finally:
        if memory.loading.get(game_id) is task:
            del memory.loading[game_id]
