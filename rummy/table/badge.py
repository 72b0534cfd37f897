"""The header's badge, kept live by the game page's socket in the frames it sends anyway."""

from channels.db import database_sync_to_async
from django.utils import translation

from rummy.table.awaiting import Awaiting, badge_html


class Badge:
    """One socket's badge: what it last told the page, and how to tell it again."""

    def __init__(self, user_id: int, language: str) -> None:
        self.awaiting = Awaiting(user_id)
        self.user_id = user_id
        self.language = language

    async def load(self) -> None:
        """Read the count (one query, in a thread); join the user's group first, so that
        no change is missed in between (one older than the read is known as such)."""
        await database_sync_to_async(self.awaiting.load)()

    def html(self) -> str:
        with translation.override(self.language):
            return badge_html(self.awaiting.count)

    def unless_shown(self, page_count: int | None) -> str:
        """The badge when the page shows another count (or none), else nothing."""
        return self.html() if self.awaiting.count != page_count else ""

    def track(self, game_id: int, version: int, awaits: int | None) -> bool | None:
        """Tell the count whether this game, at the version just rendered, awaits the
        user (``Awaiting.told``: True, False, or None to read the count again). This
        game's turns reach the header this way, in the frame that shows them, not as a
        message and a frame of their own."""
        return self.awaiting.told(game_id, version, awaits == self.user_id)

    async def after_frames(self, game_id: int, version: int, awaits: int | None) -> str:
        """The badge to send with a frame of this game, when the frame changed it."""
        changed = self.track(game_id, version, awaits)
        if changed is None:
            return await self.count_again()
        return self.html() if changed else ""

    async def heard(self, event: dict) -> str:
        """Another game's turn (``moves.changed``): the badge, when it changed."""
        changed = self.awaiting.heard(event)
        if changed is None:
            return await self.count_again()
        return self.html() if changed else ""

    async def count_again(self) -> str:
        """Read the count from the database; the badge if it differs from the last."""
        before = self.awaiting.count
        await self.load()
        return self.html() if self.awaiting.count != before else ""
