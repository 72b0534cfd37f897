"""After-commit notifications over the channel layer. Only ids and versions travel:
each consumer renders its own user's view from the database."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from rummy.models import Seat


def game_group(game_id):
    return f"game-{game_id}"


def user_group(user_id):
    return f"user-{user_id}"


def game_updated(game_id, version, movers=None, draft_free=False):
    """``movers``: users whose header count may have changed (the previous and the new
    player to move); None for every seated player. ``draft_free``: no draft belongs to
    this version (``rummy.play.store.announce``)."""
    layer = get_channel_layer()
    if layer is None:
        return
    if movers is None:
        movers = Seat.objects.filter(game_id=game_id).values_list("user_id", flat=True)
    update = {"type": "game.updated", "game_id": game_id, "version": version}
    if draft_free:
        update["draft_free"] = True
    messages = [(game_group(game_id), update)]
    # Their headers show how many games await their move.
    messages += [(user_group(user_id), {"type": "moves.changed"}) for user_id in movers]
    # One hop into the event loop for all of them: each async_to_sync costs a thread
    # switch, and this runs after every move.
    async_to_sync(_send_all)(layer, messages)


async def _send_all(layer, messages):
    for group, message in messages:
        await layer.group_send(group, message)
