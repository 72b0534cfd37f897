"""The game page's socket (DESIGN "Consumers"): its door, and nothing else.

``GameConsumer`` (``ws/games/<id>/``): one per open game page. On connect, and on every
``game.updated`` in group ``game-<id>``, it sends ITS user's view as the parts htmx swaps
by id, so a phone that slept catches up by itself and a spectator never receives a hand.
Actions arrive as htmx ``ws-send`` JSON (the fields of the page's form) and go through
``rummy.table.dispatch`` like the HTTP view (once ``rummy.table.sockets`` has found the
socket's session still valid); a refusal is answered to the sender alone. The channel
layer carries ids and versions and, after a turn, the game as plain data
(``rummy.play.snapshot``), never a hand of its own.

What the socket does besides reading frames and sending views lives in its own module:

- ``rummy.table.guarded``: every socket of the site (the cap, the session guard, the
  user's language and zone);
- ``rummy.table.live``: the view to send, from memory or from the database, and
  ``rummy.table.loading``: a broadcast's game read once per process, or adopted;
- ``rummy.table.badge``: the header's count, in the frames of this game's turns
  (group ``user-<id>``; on other pages its own socket, ``rummy.lobby.consumers``);
- ``rummy.table.presence``: no "your move" email while the page is open;
- ``rummy.table.bot_follow``: bots' moves where no broadcast reaches (in-memory layer).
"""

import json
from urllib.parse import parse_qs

from django.utils import translation
from django.utils.translation import gettext as _

from chat import public as chat
from rummy import play
from rummy.play import broadcast
from rummy.table import bot_follow, live, loading, memory, rendering, sockets
from rummy.table.badge import Badge
from rummy.table.guarded import GuardedConsumer, in_language
from rummy.table.presence import Presence
from rummy.table.presenters import SORTS

MAX_FRAME = 4096  # a form's fields are a few hundred bytes; anything bigger is refused


class GameConsumer(GuardedConsumer):
    sent_version = -1  # the newest game version this socket has been sent
    shown = None  # digests of the parts the page shows (rendering.Frames.since)
    says_goodbye = True
    presence = None  # the user is at the game while this socket lives (table.presence)
    bots_task = None  # follows the bots' moves where no broadcast can (table.bot_follow)
    moves_group = None  # the user's group: the header's count (rummy.table.badge)
    badge = None

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        sort = (query.get("sort") or ["suit"])[0]
        self.sort = sort if sort in SORTS else "suit"
        # The view the page was rendered with (rendering.Frames.stamp): when this socket's
        # first view is the same, there is nothing to send.
        self.page_stamp = (query.get("stamp") or [""])[0][:32]
        # The header's count as the page shows it: this socket keeps it live too (the
        # table page opens no /ws/me/ of its own, rummy.lobby.consumers).
        moves = (query.get("moves") or [""])[0]
        # (ASCII digits only: str.isdigit also takes "²", which int() refuses.)
        self.page_moves = (
            int(moves) if moves.isascii() and moves.isdigit() and len(moves) < 6 else None
        )
        self.group = broadcast.game_group(self.game_id)
        if not await self.admit():
            return
        frames = await live.first_view(self.user, self.game_id, self.sort, self.language, self.zone)
        if frames is None:
            await self.refuse()
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        # Joined before the count is read, so that no change is missed in between.
        self.moves_group = broadcast.user_group(self.user.pk)
        await self.channel_layer.group_add(self.moves_group, self.channel_name)
        self.badge = Badge(self.user.pk, self.language)
        await self.badge.load()
        await self.accept()
        self.presence = Presence(self.user.pk, self.game_id)
        await self.presence.arrive()
        self.bots_task = await bot_follow.start(
            self.game_id, lambda: self.sent_version, self._follow_bot
        )
        # On every (re)connect what changed while away, so nothing is missed: nothing
        # when the page already shows exactly this view; only the parts that differ when
        # this process rendered the view the page names (its stamp, kept current by
        # every frame: table.js puts it in the address on reconnect); else the whole.
        self.sent_version = frames.version
        self.badge.track(self.game_id, frames.version, frames.awaits)
        html = ""
        if frames.stamp != self.page_stamp:
            html, _shown = frames.since(
                memory.views.get(self.page_stamp) if self.page_stamp else None
            )
        html += self.badge.unless_shown(self.page_moves)
        # The chat's messages this page missed while away (it names the newest it shows).
        html += await in_language(self.language, chat.missed, self.zone)(
            self.user, self.game_id, (query.get("chat") or [""])[0]
        )
        if html:
            await self.send(text_data=html)
        self.shown = frames.digests

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.moves_group is not None:
            await self.channel_layer.group_discard(self.moves_group, self.channel_name)
        if self.bots_task is not None:
            self.bots_task.cancel()
            self.bots_task = None
        if self.presence is not None:
            await self.presence.leave()
        await super().disconnect(code)

    async def _follow_bot(self, version):
        """A bot's move seen by ``bot_follow`` (no broadcast reached this process)."""
        await self.game_updated({"version": version})

    async def receive(self, text_data=None, bytes_data=None):
        if self.ended:
            return
        data = self._read(text_data)
        if data is None:
            with translation.override(self.language):
                await self._send_flash(_("The request could not be read."))
            return
        if "chat" in data:
            await self._chat(data)
            return
        try:
            outcome = await in_language(self.language, sockets.perform, self.zone)(
                self.session_key, self.user, self.game_id, data
            )
        except sockets.SessionEnded:
            await self.session_ended()
            return
        except play.StaleVersion as refusal:
            # The page is behind what this socket believes it shows (a frame crossed the
            # tap): the whole view again, not a difference.
            self.shown = None
            await self._send_view(flash=refusal.message)
            return
        except play.ActionRefused as refusal:
            await self._send_flash(refusal.message)
            return
        if outcome.flash:
            # Words for this player alone (a hint): their view now, with the words, so
            # that the broadcast of this version, which would clear them, is not sent.
            await self._send_view(flash=outcome.flash)
        elif not outcome.game_changed:
            # A draft edit is private to the player: answer this page only.
            await self._send_view()
        # Otherwise everyone, this page too, gets the new view through game.updated, and
        # its frames carry the (now empty) message area as well.

    async def _chat(self, data):
        """A chat frame: the chat's own door decides; this page gets its answer (a fresh
        token, or the refusal's words), everyone their copy through ``chat_message``."""
        if await self.session_lapsed():
            return
        html = await in_language(self.language, chat.receive, self.zone)(
            self.user, self.game_id, data
        )
        if html:
            await self.send(text_data=html)

    async def chat_message(self, event):
        """A new or changed chat message: only that message, rendered for this user
        (their language, their blocks), or nothing when they may not read it."""
        if self.ended:
            return
        html = await in_language(self.language, chat.deliver, self.zone)(
            self.user, self.game_id, event
        )
        if html:
            await self.send(text_data=html)

    def _read(self, text_data):
        if not isinstance(text_data, str) or len(text_data) > MAX_FRAME:
            return None
        try:
            data = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested deep
            return None
        if not isinstance(data, dict):
            return None
        data.pop("HEADERS", None)
        return data

    async def _send_view(self, flash=None, version=None, draft_free=False):
        frames = await live.view(
            self.user,
            self.game_id,
            self.sort,
            self.language,
            self.zone,
            flash,
            version,
            draft_free,
        )
        if frames is None:
            await self.close()
            return
        self.sent_version = max(self.sent_version, frames.version)
        # Only the parts that differ from what this page shows (rendering.Frames.since),
        # and the header's count when this game's turn changed it: in the same frame.
        html, self.shown = frames.since(self.shown)
        if self.badge is not None:
            html += await self.badge.after_frames(self.game_id, frames.version, frames.awaits)
        if html:
            await self.send(text_data=html)

    async def moves_changed(self, event):
        """Another game's turn changed this user's count of games awaiting their move
        (``rummy.play.broadcast``): the header's badge, when it changed. This game's
        own turns come with its frames (``_send_view``)."""
        if self.ended or self.badge is None:
            return
        if event.get("game_id") == self.game_id:
            return
        html = await self.badge.heard(event)
        if html:
            await self.send(text_data=html)

    async def _send_flash(self, message):
        """A refusal, to this page alone; remembered as shown, so that the next view
        clears it."""
        with translation.override(self.language):
            html = rendering.flash_html(message)
        if self.shown is not None:
            self.shown = {**self.shown, "flash": rendering.digest(html)}
        await self.send(text_data=html)

    async def rights_changed(self, event):
        """Rights in a league changed: read them again now for this game (if it is in
        that league), so that a removed member's or a newly hidden game's page closes
        at once and an admin's controls follow their role."""
        await super().rights_changed(event)
        game = memory.recent_games.get(self.game_id)
        if self.ended or (game is not None and game.league_id != event.get("league_id")):
            return
        await self._send_view()

    async def game_updated(self, event):
        version = event.get("version", 0)
        if self.ended or version <= self.sent_version:
            # Already shown: under load the view rendered for an earlier message may
            # have come from a newer game than that message named.
            return
        if await self.session_lapsed():
            return
        loading.adopt_snapshot(self.game_id, version, event.get("game"))
        await self._send_view(version=version, draft_free=event.get("draft_free") is True)
