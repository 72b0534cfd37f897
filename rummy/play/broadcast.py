"""After-commit notifications over the channel layer: ids and versions, and after a turn
the game itself as written, as plain data in one JSON text (``rummy.play.snapshot``). Each consumer
renders its own user's view, from that game or from the database."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from rummy.models import Seat
from rummy.play import snapshot as play_snapshot


def game_group(game_id):
    return f"game-{game_id}"


def user_group(user_id):
    return f"user-{user_id}"


def game_updated(game_id, version, movers=None, draft_free=False, snapshot=None):
    """``movers``: {user id: whether the game at ``version`` awaits their move} for the
    users whose header count may have changed (the previous and the new player to
    move); None for every seated player, told only that something changed (their
    sockets count again). ``draft_free``: no draft belongs to this version
    (``rummy.play.store.announce``). ``snapshot``: the game at ``version``
    (``rummy.play.snapshot.dump``): a socket process that holds no newer one renders from it
    instead of reading the game (two or more reads per move otherwise, one per
    process). It travels as one JSON text (``snapshot.to_text``)."""
    layer = get_channel_layer()
    if layer is None:
        return
    update = {"type": "game.updated", "game_id": game_id, "version": version}
    if draft_free:
        update["draft_free"] = True
    if snapshot is not None:
        update["game"] = play_snapshot.to_text(snapshot)
    messages = [(game_group(game_id), update)]
    # Their headers show how many games await their move (rummy.table.awaiting).
    if movers is None:
        seated = Seat.objects.filter(game_id=game_id).values_list("user_id", flat=True)
        messages += [(user_group(user_id), {"type": "moves.changed"}) for user_id in seated]
    else:
        messages += [
            (
                user_group(user_id),
                {"type": "moves.changed", "game_id": game_id, "version": version, "yours": yours},
            )
            for user_id, yours in movers.items()
        ]
    # One hop into the event loop for all of them: each async_to_sync costs a thread
    # switch, and this runs after every move.
    async_to_sync(_send_all)(layer, messages)


async def _send_all(layer, messages):
    for group, message in messages:
        await layer.group_send(group, message)
