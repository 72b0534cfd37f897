"""Every per-process cache of the table, in one place, and ``clear_all`` to empty them.

After a move every open socket of a game would otherwise read or render the same thing
again. The sockets of one server process share instead:

- ``recent_games``: the game row with its seats and users at a version (a version never
  changes once written), read by ``rummy.table.access``;
- ``view_checks``: what a user may do in a league, for a few seconds, or for a socket
  until it is told of a change (``rummy.table.access.rights``);
- ``fragments``: rendered fragments that hold no hand, per content and language
  (``rummy.table.presenters.fragment``);
- ``views``: the digests of each part of a view rendered here, by the view's stamp
  (``rummy.table.rendering.Frames``), so that a POST from a page that says which view it
  shows is answered with only what changed;
- ``loading``: the reads of a game version in flight (``rummy.table.consumers``), so
  that sockets waiting for the same version read it once.

Nothing here is shared between processes, and nothing holds a hand.
"""

import threading
from collections import OrderedDict


class Recent:
    """The ``size`` most recently stored values by key; the oldest goes first."""

    def __init__(self, size):
        self.size = size
        self._values = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key, value):
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def clear(self):
        with self._lock:
            self._values.clear()

    def discard_where(self, drop):
        """Remove every value whose key ``drop(key)`` is true of."""
        with self._lock:
            for key in [key for key in self._values if drop(key)]:
                del self._values[key]

    def __len__(self):
        return len(self._values)


recent_games = Recent(1024)  # game id -> Game (seats and users loaded)
view_checks = Recent(50_000)  # (user id, league id) -> (allowed, checked at)
fragments = Recent(2048)  # (template, key, language) -> HTML
views = Recent(8192)  # stamp -> {part id: digest} (a few hundred bytes each)
loading: dict = {}  # game id -> the asyncio task reading it
_rights_forgotten = [0]  # how many times view_checks were told of a change


def forgotten_rights():
    """A number that changes whenever ``forget_rights`` runs: a read of rights that
    began before a change was told is not kept (``rummy.table.access.rights``)."""
    return _rights_forgotten[0]


def forget_rights(drop):
    """Drop the view checks whose key ``drop(key)`` is true of."""
    _rights_forgotten[0] += 1
    view_checks.discard_where(drop)


def clear_all():
    """Forget everything (tests; a process that wants a clean start)."""
    for cache in (recent_games, view_checks, fragments, views):
        cache.clear()
    loading.clear()
