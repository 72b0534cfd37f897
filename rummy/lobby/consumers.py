"""The header's badge: how many games await the user's move (``ws/me/``), live; on the
home page (``ws/me/?home=1``) also its lists "Your move" and "Waiting for others".

Told by the write path's broadcast to the user's group whenever the player to move of
one of their games changes; a guarded socket like the game's (``rummy.table``). The
badge alone follows what the broadcast says (``rummy.table.awaiting``), reading the
database only for what it cannot place; the home page's lists are read and rendered for
the socket's own user on every change, in their language. The table page opens no such
socket: its game's socket carries the badge."""

from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils import translation

from chat import public as chat
from rummy.lobby.games import move_count, turn_games
from rummy.play import broadcast
from rummy.table.awaiting import Awaiting, badge_html
from rummy.table.fragments import fragment_from
from rummy.table.guarded import GuardedConsumer, in_language


def move_count_html(user):
    # The same few badges for everyone: rendered once per count and language.
    count = move_count(user)
    return fragment_from("rummy/_move_count.html", _count_context, (count,))


def home_frame_html(user):
    """The badge and the home page's two lists of games, each an out-of-band swap."""
    lists = render_to_string("lobby/_home_games.html", {"games": turn_games(user), "oob": True})
    return move_count_html(user) + lists


def wants_home_lists(scope):
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return query.get("home") == ["1"]


def board_asked(scope):
    """The slug of the league whose board the page shows (``?board=``), or None."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1")[:300])
    slugs = query.get("board") or [None]
    return slugs[0]


class MeConsumer(GuardedConsumer):
    awaiting = None  # the badge alone: the count kept from the broadcasts
    board_group = None  # the board whose new posts this page shows, if any

    async def connect(self):
        if not await self.admit():
            return
        self.frame = home_frame_html if wants_home_lists(self.scope) else move_count_html
        self.group = broadcast.user_group(self.user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        slug = board_asked(self.scope)
        if slug:
            self.board_group = await database_sync_to_async(chat.board_listening)(self.user, slug)
            if self.board_group:
                await self.channel_layer.group_add(self.board_group, self.channel_name)
        if self.frame is move_count_html:
            # Read after joining the group, so that no change is missed in between.
            self.awaiting = Awaiting(self.user.pk)
            await database_sync_to_async(self.awaiting.load)()
        await self.accept()
        if self.awaiting is not None:
            await self._send_badge()
        else:
            await self.moves_changed({})

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.board_group:
            await self.channel_layer.group_discard(self.board_group, self.channel_name)
        await super().disconnect(code)

    async def receive(self, text_data=None, bytes_data=None):
        """Nothing is sent on this socket by the page; ignore anything that arrives."""

    async def moves_changed(self, event):
        if self.ended:
            return
        if self.awaiting is None:
            html = await in_language(self.language, self.frame, self.zone)(self.user)
            await self.send(text_data=html)
            return
        # The badge alone follows the broadcast's news without the database
        # (rummy.table.awaiting); only what it cannot place is read again.
        changed = self.awaiting.heard(event)
        if changed is None:
            await database_sync_to_async(self.awaiting.load)()
        elif not changed:
            return
        await self._send_badge()

    async def board_post(self, event):
        """A new post on the board this page shows (``chat.public.BOARD_EVENT``): that
        post alone, rendered for this user (or nothing, if they may not see it)."""
        if self.ended:
            return
        html = await in_language(self.language, chat.board_post_html, self.zone)(self.user, event)
        if html:
            await self.send(text_data=html)

    async def _send_badge(self):
        with translation.override(self.language):
            html = badge_html(self.awaiting.count)
        await self.send(text_data=html)


def _count_context(count):
    return {"move_count": count}
