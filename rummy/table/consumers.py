"""WebSocket consumers (DESIGN "Consumers"): thin, as in the Channels docs.

``GameConsumer`` (``ws/games/<id>/``): one per open table page. On connect, and on every
``game.updated`` in group ``game-<id>``, it renders ITS user's view from the database and
sends the fragments htmx swaps by id, so a phone that slept catches up by itself and a
spectator never receives a hand. Actions arrive as htmx ``ws-send`` JSON (the fields of
the page's form) and go through ``rummy.table.dispatch`` like the HTTP view (once
``rummy.table.sockets`` has found the socket's session still valid); a refusal is
answered to the sender alone. The channel layer carries ids and versions and, after a
turn, the game as plain data (``rummy.play.snapshot``), never a hand of its own.

Every socket of the site is a ``GuardedConsumer``: counted against the user's socket
cap, and closed when the session it was opened with ends (``rummy.table.sockets``).
The header's count has its own socket on other pages (``rummy.lobby.consumers``); on
the table page this one carries it too (group ``user-<id>``, ``rummy.table.awaiting``),
inside the frame of the move that changed it when the move is this game's.
"""

import asyncio
import json
import logging
import time
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import parse_accept_lang_header

from chat import public as chat
from rummy import play
from rummy.clock import deadlines
from rummy.notifications import presence
from rummy.play import broadcast
from rummy.table import loading, memory, rendering, sockets
from rummy.table.access import (
    SOCKET_RIGHTS_SECONDS,
    current_version,
    forget_rights,
    game_at_least,
    has_bots,
    may_view,
    remember,
    remembered_game,
    remembered_rights,
    rights,
    viewable_game,
)
from rummy.table.awaiting import Awaiting, badge_html
from rummy.table.presenters import SORTS

log = logging.getLogger(__name__)

MAX_FRAME = 4096  # a form's fields are a few hundred bytes; anything bigger is refused


def scope_language(scope):
    """The language LocaleMiddleware would pick for this user's pages (the language
    cookie, then Accept-Language), since sockets do not pass through the middleware."""
    headers = dict(scope.get("headers") or [])
    cookies = scope.get("cookies") or {}
    candidates = [cookies.get(settings.LANGUAGE_COOKIE_NAME)]
    accept = headers.get(b"accept-language", b"").decode("latin-1")[:200]
    candidates += [code for code, _q in parse_accept_lang_header(accept) if code != "*"]
    for code in candidates:
        if not code:
            continue
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def in_language(language, function, zone=None):
    """``function`` run (in the sync thread) with ``language`` active, and ``zone`` (the
    user's time zone, ``User.zone``: the dates it renders) when given, as
    ``config.middleware.UserLocale`` does for their pages."""

    def run(*args, **kwargs):
        with translation.override(language), timezone.override(zone):
            return function(*args, **kwargs)

    return database_sync_to_async(run)


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


def render_flash(message):
    return render_to_string("rummy/_flash.html", {"flash": message})


async def _presence(function, user_id, game_id):
    """A presence mark's step (``rummy.notifications.presence``), off the event loop like
    the socket count (the cache is Redis in production). A failing cache costs at worst
    one email too many or too late, never the socket: logged, not raised."""
    try:
        await sync_to_async(function, thread_sensitive=False)(user_id, game_id)
    except Exception:
        log.warning("presence %s failed for user %s", function.__name__, user_id, exc_info=True)


class GuardedConsumer(AsyncWebsocketConsumer):
    """A socket of a logged-in user that holds one of the user's places (the cap) and
    closes when its session ends (see ``rummy.table.sockets``)."""

    holds_place = False
    guard_groups: tuple[str, ...] = ()
    checked_at = 0.0
    ended = False  # the session ended: nothing more is sent, even before the close lands
    says_goodbye = False  # whether a page's message area shows why the socket closed
    zone = None  # the user's time zone (set on admit): the dates this socket renders

    async def dispatch(self, message):
        """channels' own dispatch, without its ``aclose_old_connections()`` before every
        message: that is a hop into the sync thread and back for each frame of each
        socket (four or more per move), and nothing here touches the database on the
        event loop. Every read or write of ours runs through ``database_sync_to_async``,
        which closes old connections around each call itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def admit(self):
        """True if the socket may go on; otherwise it has been closed, nothing sent."""
        self.user = self.scope.get("user")
        self.language = scope_language(self.scope)
        if not (self.user and self.user.is_authenticated):
            await self.close()
            return False
        self.zone = self.user.zone
        if not await sync_to_async(sockets.take_place, thread_sensitive=False)(self.user.pk):
            # Accepted only to be closed with a code that says why (a refused handshake
            # carries none), and one the page does not reconnect on.
            await self.accept()
            await self.close(code=sockets.CLOSE_TOO_MANY, reason="too many sockets")
            return False
        self.holds_place = True
        self.session_key = getattr(self.scope.get("session"), "session_key", None)
        self.guard_groups = (
            sockets.session_group(self.session_key),
            sockets.logins_group(self.user.pk),
        )
        for group in self.guard_groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.checked_at = time.monotonic()
        return True

    async def refuse(self):
        """Close a socket that was admitted but will not be accepted."""
        await self.release()
        await self.close()

    async def release(self):
        for group in self.guard_groups:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.guard_groups = ()
        if self.holds_place:
            self.holds_place = False
            await sync_to_async(sockets.free_place, thread_sensitive=False)(self.user.pk)

    async def disconnect(self, code):
        await self.release()

    async def session_ended(self, event=None):
        if self.ended:
            return
        self.ended = True
        await self.release()
        if self.says_goodbye:
            with translation.override(self.language):
                await self.send(
                    text_data=render_flash(
                        _("You are no longer logged in here. Log in again to go on.")
                    )
                )
        await self.close(code=sockets.CLOSE_SESSION_ENDED)

    async def rights_changed(self, event):
        """What a user may do in a league changed (``rummy.table.sockets``): this process
        forgets what it knew of it, for every socket it holds."""
        forget_rights(event.get("user_id"), event.get("league_id"))

    async def session_check(self, event=None):
        """Whether the session is still valid (closing the socket when it is not)."""
        self.checked_at = time.monotonic()
        valid = await database_sync_to_async(sockets.session_is_valid)(
            self.session_key, self.user.pk
        )
        if not valid:
            await self.session_ended()
        return valid

    async def session_lapsed(self):
        """A cheap safety net before a broadcast render: re-check the session at most
        every RECHECK_SECONDS (a session may expire, or a message be lost)."""
        if time.monotonic() - self.checked_at < sockets.RECHECK_SECONDS:
            return False
        return not await self.session_check()


# The in-memory channel layer reaches only this process's sockets, and the bots play
# from the worker's process (rummy.clock.bots): on the default set-up a socket of a game
# with bots looks at the game's version this often instead (one indexed read).
BOT_FOLLOW_SECONDS = 1.0


def layer_is_local():
    backend = str(settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", ""))
    return backend.endswith("InMemoryChannelLayer")


class GameConsumer(GuardedConsumer):
    sent_version = -1  # the newest game version this socket has been sent
    shown = None  # digests of the parts the page shows (rendering.Frames.since)
    says_goodbye = True
    present_task = None  # keeps this socket's presence mark alive (rummy.notifications)
    bots_task = None  # follows the bots' moves where no broadcast can (layer_is_local)
    moves_group = None  # the user's group: the header's count (rummy.table.awaiting)
    awaiting = None

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
        frames = await in_language(self.language, render_view, self.zone)(
            self.user, self.game_id, self.sort, enforce_clock=True
        )
        if frames is None:
            await self.refuse()
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        # Joined before the count is read, so that no change is missed in between (one
        # older than the read is known as such: rummy.table.awaiting).
        self.moves_group = broadcast.user_group(self.user.pk)
        await self.channel_layer.group_add(self.moves_group, self.channel_name)
        self.awaiting = Awaiting(self.user.pk)
        await database_sync_to_async(self.awaiting.load)()
        await self.accept()
        # The user is at the game while this socket lives: no "your move" email for it.
        await _presence(presence.arrive, self.user.pk, self.game_id)
        self.present_task = asyncio.ensure_future(self._stay_present())
        if layer_is_local() and await database_sync_to_async(has_bots)(self.game_id):
            self.bots_task = asyncio.ensure_future(self._follow_bots())
        # On every (re)connect what changed while away, so nothing is missed: nothing
        # when the page already shows exactly this view; only the parts that differ when
        # this process rendered the view the page names (its stamp, kept current by
        # every frame: table.js puts it in the address on reconnect); else the whole.
        self.sent_version = frames.version
        self._track_own_game(frames)
        html = ""
        if frames.stamp != self.page_stamp:
            html, _shown = frames.since(
                memory.views.get(self.page_stamp) if self.page_stamp else None
            )
        if self.awaiting.count != self.page_moves:
            html += self._badge()
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
        if self.present_task is not None:
            self.present_task.cancel()
            self.present_task = None
            await _presence(presence.leave, self.user.pk, self.game_id)
        await super().disconnect(code)

    async def _stay_present(self):
        """Refresh the presence mark while the socket is open: a socket with no moves in
        its game for a while still means the player is looking at it."""
        while True:
            await asyncio.sleep(presence.REFRESH_SECONDS)
            await _presence(presence.refresh, self.user.pk, self.game_id)

    async def _follow_bots(self):
        """The default set-up's stand-in for the broadcast of a bot's move: when the game
        is newer than what this socket sent, send it, as ``game.updated`` would."""
        while True:
            await asyncio.sleep(BOT_FOLLOW_SECONDS)
            version = await database_sync_to_async(current_version)(self.game_id)
            if version is not None and version > self.sent_version:
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
        frames = None
        if version is not None and flash is None:
            await loading.load_once(self.game_id, version)
            frames = self._render_remembered(version, draft_free)
            if frames is None and await self._refresh_rights(version):
                frames = self._render_remembered(version, draft_free)
        if frames is None:
            frames = await in_language(self.language, render_view, self.zone)(
                self.user, self.game_id, self.sort, flash, version=version
            )
        if frames is None:
            await self.close()
            return
        self.sent_version = max(self.sent_version, frames.version)
        # Only the parts that differ from what this page shows (rendering.Frames.since),
        # and the header's count when this game's turn changed it: in the same frame.
        html, self.shown = frames.since(self.shown)
        changed = self._track_own_game(frames)
        if changed is None:
            html += await self._count_again()
        elif changed:
            html += self._badge()
        if html:
            await self.send(text_data=html)

    def _track_own_game(self, frames):
        """Tell the count whether this game, at the version just rendered, awaits the
        user (``Awaiting.told``: True, False, or None to read the count again). This
        game's turns reach the header this way, in the frame that shows them, not as a
        message and a frame of their own."""
        if self.awaiting is None:
            return False
        return self.awaiting.told(self.game_id, frames.version, frames.awaits == self.user.pk)

    async def _count_again(self):
        """Read the count from the database; the badge if it differs from the last."""
        awaiting = self.awaiting
        assert awaiting is not None
        before = awaiting.count
        await database_sync_to_async(awaiting.load)()
        return self._badge() if awaiting.count != before else ""

    def _badge(self):
        assert self.awaiting is not None
        with translation.override(self.language):
            return badge_html(self.awaiting.count)

    async def moves_changed(self, event):
        """Another game's turn changed this user's count of games awaiting their move
        (``rummy.play.broadcast``): the header's badge, when it changed. This game's
        own turns come with its frames (``_send_view``)."""
        if self.ended or self.awaiting is None:
            return
        if event.get("game_id") == self.game_id:
            return
        changed = self.awaiting.heard(event)
        if changed is None:
            html = await self._count_again()
        else:
            html = self._badge() if changed else ""
        if html:
            await self.send(text_data=html)

    def _render_remembered(self, version, draft_free):
        with translation.override(self.language), timezone.override(self.zone):
            return rendering.render_remembered(
                self.user, self.game_id, self.sort, version, draft_free
            )

    async def _refresh_rights(self, version):
        """When the game is in memory and only this user's rights there have aged out
        (``access.SOCKET_RIGHTS_SECONDS``), read them again (one query, in a thread) and say
        so: the view then renders on the event loop like any other, instead of whole in
        a thread (about one render in six under load went that way)."""
        game = remembered_game(self.game_id, version)
        if game is None or game.state is None:
            return False
        if remembered_rights(self.user, game, SOCKET_RIGHTS_SECONDS) is not None:
            return False
        await database_sync_to_async(rights)(self.user, game, SOCKET_RIGHTS_SECONDS)
        return True

    async def _send_flash(self, message):
        """A refusal, to this page alone; remembered as shown, so that the next view
        clears it."""
        with translation.override(self.language):
            html = render_flash(message)
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
