"""After-commit notifications over the channel layer. Only ids and versions travel:
each consumer renders its own user's view from the database."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from rummy.models import Seat


def game_group(game_id):
    return f"game-{game_id}"


def user_group(user_id):
    return f"user-{user_id}"


def game_updated(game_id, version, movers=None):
    """``movers``: users whose header count may have changed (the previous and the new
    player to move); None for every seated player."""
    layer = get_channel_layer()
    if layer is None:
        return
    send = async_to_sync(layer.group_send)
    send(game_group(game_id), {"type": "game.updated", "game_id": game_id, "version": version})
    if movers is None:
        movers = Seat.objects.filter(game_id=game_id).values_list("user_id", flat=True)
    # Their headers show how many games await their move.
    for user_id in movers:
        send(user_group(user_id), {"type": "moves.changed"})
