"""The table's per-process caches (made and registered in ``config.caches``, which holds
every per-process cache of the site), and ``clear_all`` to empty them all.

After a move every open socket of a game would otherwise read or render the same thing
again. The sockets of one server process share instead:

- ``recent_games``: the game row with its seats and users at a version (a version never
  changes once written), read by ``rummy.table.access``;
- ``view_checks``: what a user may do in a league, for a few seconds, or for a socket
  until it is told of a change (``rummy.table.access.rights``);
- ``fragments``: rendered fragments that hold no hand, per content and language
  (``rummy.table.fragments``);
- ``views``: the digests of each part of a view rendered here, by the view's stamp
  (``rummy.table.rendering.Frames``), so that a POST from a page that says which view it
  shows is answered with only what changed;
- ``loading``: the reads of a game version in flight (``rummy.table.loading``), so
  that sockets waiting for the same version read it once.

Nothing here is shared between processes, and nothing holds a hand.
"""

from config import caches

recent_games = caches.Recent("recent_games", 1024)  # game id -> Game (seats and users loaded)
view_checks = caches.Recent("view_checks", 50_000)  # (user id, league id) -> (allowed, at)
fragments = caches.Recent("fragments", 2048)  # (template, language, zone, key) -> HTML
views = caches.Recent("views", 8192)  # stamp -> {part id: digest} (a few hundred bytes each)
loading: dict = {}  # game id -> the asyncio task reading it
caches.register("loading", loading.clear, loading.__len__)
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
    """Forget everything, every other per-process cache of the site too
    (``config.caches``): tests; a process that wants a clean start."""
    caches.clear_all()
