"""How many games await one user's move (the header's badge), kept up to date by a
socket from the broadcasts instead of counted in the database after every move.

A turn's broadcast tells each user whose count may have changed (the player who moved
and the one to move now) which game, at which version, and whether it now awaits them
(``rummy.play.broadcast``: ``moves.changed`` with ``game_id``, ``version``, ``yours``).
A socket reads the user's running games once (``load``) and then applies what it is
told: the newest version of a game wins, so messages that cross (two processes publish
moves of two games, or of one game, in either order) change nothing. Anything it cannot
place (a message that names no game, a game it did not read) makes it read again.

Why: counting in the database cost each badge socket a thread, a pooled connection and
a query on every turn change of every game of its user.
"""

from rummy.models import Game
from rummy.table.fragments import fragment_from


class Awaiting:
    """Per running game of one user: (version, whether it awaits their move)."""

    def __init__(self, user_id):
        self.user_id = user_id
        self.games: dict[int, tuple[int, bool]] = {}

    def load(self):
        """Read the user's running games (one query; call it in a thread)."""
        rows = Game.objects.filter(status=Game.Status.ACTIVE, seats__user_id=self.user_id)
        self.games = {
            pk: (version, to_move_id == self.user_id)
            for pk, version, to_move_id in rows.values_list("pk", "version", "to_move_id")
        }

    @property
    def count(self):
        return sum(1 for _version, yours in self.games.values() if yours)

    def told(self, game_id, version, yours):
        """Apply one game's news: True if the count changed, False if not, None when
        this cannot tell (then ``load`` again). The newest version of a game wins.

        A game not read before that does not await the user changes nothing (a game the
        user watches, or one that started without it being their move), and is kept so
        that older news of it is known as such. One that awaits them may have just
        started, or be older news of a game that has ended since ``load`` read the
        running ones: only the database can tell which."""
        before = self.games.get(game_id)
        if before is None:
            if yours:
                return None
            self.games[game_id] = (version, False)
            return False
        if before[0] >= version:
            return False
        self.games[game_id] = (version, yours)
        return before[1] != yours

    def heard(self, event):
        """``told`` what a ``moves.changed`` message says (``news``); None, too, when it
        names no game."""
        told = news(event)
        return self.told(*told) if told is not None else None


def news(event):
    """(game id, version, yours) from a ``moves.changed`` message, or None when it names
    no game (then the count must be read again)."""
    game_id, version, yours = event.get("game_id"), event.get("version"), event.get("yours")
    if not isinstance(game_id, int) or not isinstance(version, int) or yours is None:
        return None
    return game_id, version, bool(yours)


def badge_html(count):
    """The header's badge: the same few for everyone, rendered once per count and
    language (an out-of-band swap of ``#move-count``)."""
    return fragment_from("rummy/_move_count.html", _count_context, (count,))


def _count_context(count):
    return {"move_count": count}
