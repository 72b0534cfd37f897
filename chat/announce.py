"""Telling the game's sockets that a message is new or changed, and the sockets of the
pages that show a league's board that a post is new: its id only, on the game's own
group (or the board's). Each socket renders it for its user (their language, their
blocks, their rights): the layer never carries a message's words to a socket that may
not read them."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from rummy.play.broadcast import game_group

EVENT = "chat.message"
BOARD_EVENT = "board.post"


def board_group(league_id):
    """The sockets of the pages that show ``league_id``'s board (``ws/me/?board=``)."""
    return f"board-{int(league_id)}"


def message(game_id, message_id, new):
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(
        game_group(game_id), {"type": EVENT, "message_id": message_id, "new": bool(new)}
    )


def board_post(league_id, post_id):
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(
        board_group(league_id), {"type": BOARD_EVENT, "post_id": post_id}
    )
