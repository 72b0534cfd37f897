"""Who is at a game's page right now, so that "your move" is not emailed to a player
who is looking at the game (or just moved in it) and is emailed once they are away.

The game page's socket (``rummy.table.presence``, for ``GameConsumer``) marks its user present
for its game on connect, refreshes the mark while it lives and takes it back on
disconnect; the background pass reads the marks. The mark lives here, below the table,
because the emails that read it may not import the table (CONTRIBUTING, the rooms).

A mark is a count of the user's open sockets for that game in Django's cache (Redis in
production, shared by every worker process and the clock), with an expiry: a worker
that crashes never takes its marks back, so they lapse ``PRESENCE_TTL`` after the last
refresh. Live sockets refresh every ``REFRESH_SECONDS``, well inside that expiry.
"""

from django.core.cache import cache

# Short, so that a crashed worker's marks lapse within a couple of clock passes; the
# refresh comes three times per expiry, so one late refresh does not drop a live mark.
PRESENCE_TTL = 120
REFRESH_SECONDS = PRESENCE_TTL // 3


def _key(user_id, game_id):
    return f"present-{user_id}-at-game-{game_id}"


def arrive(user_id, game_id):
    """One more open socket of the user for the game."""
    key = _key(user_id, game_id)
    for _attempt in range(3):
        cache.add(key, 0, PRESENCE_TTL)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            continue
        cache.touch(key, PRESENCE_TTL)
        return


def refresh(user_id, game_id):
    """Keep the mark of a socket that is still open from lapsing. If it lapsed anyway (a
    late refresh, the cache restarted), this socket at least counts again."""
    key = _key(user_id, game_id)
    if not cache.touch(key, PRESENCE_TTL):
        cache.add(key, 1, PRESENCE_TTL)


def leave(user_id, game_id):
    """One socket of the user for the game closed."""
    key = _key(user_id, game_id)
    try:
        count = cache.decr(key)
    except ValueError:  # lapsed already: nothing to take back
        return
    if count <= 0:
        # Below zero when the mark lapsed and came back while older sockets were open;
        # gone at zero, so that an away player's mark costs nothing.
        cache.delete(key)


def present(user_id, game_ids):
    """The ids among ``game_ids`` whose page the user has open on some socket."""
    game_ids = list(game_ids)
    counts = cache.get_many([_key(user_id, game_id) for game_id in game_ids])
    return {game_id for game_id in game_ids if (counts.get(_key(user_id, game_id)) or 0) > 0}
