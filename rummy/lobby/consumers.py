"""The header's badge: how many games await the user's move (``ws/me/``), live.

Told by the write path's broadcast to the user's group whenever the player to move of
one of their games changes; a guarded socket like the game's (``rummy.table``)."""

from django.template.loader import render_to_string

from rummy.models import Game
from rummy.play import broadcast
from rummy.table.consumers import GuardedConsumer, in_language


def move_count_html(user):
    count = Game.objects.filter(status=Game.Status.ACTIVE, to_move=user).count()
    return render_to_string("rummy/_move_count.html", {"move_count": count})


class MeConsumer(GuardedConsumer):
    async def connect(self):
        if not await self.admit():
            return
        self.group = broadcast.user_group(self.user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.moves_changed({})

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await super().disconnect(code)

    async def receive(self, text_data=None, bytes_data=None):
        """Nothing is sent on this socket by the page; ignore anything that arrives."""

    async def moves_changed(self, event):
        if self.ended:
            return
        html = await in_language(self.language, move_count_html)(self.user)
        await self.send(text_data=html)
