"""PostgreSQL's ``timestamptz`` values read by psycopg's C parser instead of its Python
one, with the result Django's own loader gives.

Django (5.2, psycopg 3) reads every ``timestamptz`` through its ``BaseTzLoader``, a
subclass of psycopg's *Python* ``TimestamptzLoader``: a regular-expression parse per
value, which psycopg's binary package does in C. The read behind every move (a game's
seats with their users, league and season: about fifty timestamps for four players)
spent a large share of its CPU there (figures: docs/benchmarks.md). The C
class cannot be subclassed, so ``UtcTimestamptzLoader`` calls it, and gives what
Django's loader gives: the value with ``datetime.timezone.utc`` as its zone (Django
sets each connection's TimeZone to UTC, so the C parser's answer already is that; any
other zone it would be told is replaced, as Django's loader replaces it).

Used only where Django's own would read in UTC (``USE_TZ`` on, no database TIME_ZONE)
and psycopg's C implementation is installed; otherwise nothing changes.
"""

import datetime

from django.conf import settings
from psycopg.adapt import Loader

UTC = datetime.UTC


def _c_loader():
    """psycopg's C text loader of ``timestamptz``, or None without the C module."""
    from psycopg import postgres, pq

    if pq.__impl__ not in ("c", "binary"):
        return None
    return postgres.adapters.get_loader(postgres.types["timestamptz"].oid, pq.Format.TEXT)


class UtcTimestamptzLoader(Loader):
    # Django's cursors compare this with the connection's zone (base.create_cursor):
    # equal, they keep the connection's loaders.
    timezone = UTC
    _parser: type | None = None  # psycopg's C loader (set by ``install``)

    def __init__(self, oid, context=None):
        super().__init__(oid, context)
        assert self._parser is not None, "install() sets it before any connection"
        self._load = self._parser(oid, context).load

    def load(self, data):
        value = self._load(data)
        return value if value.tzinfo is UTC else value.replace(tzinfo=UTC)


def install():
    """Put ``UtcTimestamptzLoader`` in the adapters Django gives every new PostgreSQL
    connection (its template for USE_TZ and UTC). Called once, before any connection
    (``leagues.apps``). True if installed."""
    if not settings.USE_TZ or any(db.get("TIME_ZONE") for db in settings.DATABASES.values()):
        return False
    from django.db.backends.postgresql import psycopg_any  # type: ignore[attr-defined]

    parser = _c_loader()
    if parser is None:
        return False
    UtcTimestamptzLoader._parser = parser
    psycopg_any.get_adapters_template(True, UTC).register_loader(
        "timestamptz", UtcTimestamptzLoader
    )
    return True
