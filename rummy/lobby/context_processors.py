import functools

from rummy.lobby import games


def move_count(request):
    """How many games await the signed-in user's move, for the header badge."""
    user = getattr(request, "user", None)
    if not (user and user.is_authenticated):
        return {}
    # A callable: the template engine calls it only where the header is rendered, so
    # partial (HTMX) responses do not pay for the query; once per response however often
    # the page shows it (the header, and the table's socket address).
    return {"move_count": functools.cache(lambda: games.move_count(user))}
