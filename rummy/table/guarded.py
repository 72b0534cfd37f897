"""Every socket of the site: held against its user's socket cap, closed when its session
ends (``rummy.table.sockets``), in the language and time zone of the user's pages."""

import time

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import parse_accept_lang_header

from rummy.table import rendering, sockets
from rummy.table.access import forget_rights


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
                    text_data=rendering.flash_html(
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
