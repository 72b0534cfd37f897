"""The session store: Django's database sessions, with the read of a request's session
written once (``SESSION_ENGINE = "config.db.sessions"``).

Every signed-in request, and every socket's session check, reads its session row before
anything else; through the ORM the query compiler cost about twice the read itself
(bench/load.py). This is the same read with the same result: the row of that
key that has not expired, of which ``load()`` uses only ``session_data``. The database
stays the only truth (no cache): a session deleted or expired there is gone at once.
The stored rows and the cookie are Django's own, so sessions made before stay valid.

A session made before ``config.db.backends.UserBackend`` names Django's ``ModelBackend``
(or ours under its old path, ``leagues.backends``); it is read as naming ours (a
subclass of ``ModelBackend``, which reads the same user), since a session naming a
backend not in ``AUTHENTICATION_BACKENDS`` would be logged out.
"""

from __future__ import annotations

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone

from config import caches
from config.db.reads import column

_sql: dict[str, str] = caches.statements("config.db.sessions")  # per database vendor


# The backend paths of sessions made before config.db.backends (Django's own, and ours
# when it lived in the leagues app), and the one that reads them.
_RENAMED = {
    "django.contrib.auth.backends.ModelBackend": "config.db.backends.UserBackend",
    "leagues.backends.UserBackend": "config.db.backends.UserBackend",
}


def _renamed(data):
    path = data.get(BACKEND_SESSION_KEY)
    if path in _RENAMED:
        data[BACKEND_SESSION_KEY] = _RENAMED[path]
    return data


class SessionStore(db.SessionStore):
    def load(self):
        return _renamed(super().load())

    async def aload(self):
        return _renamed(await super().aload())

    def _get_session_from_db(self):
        key = self.session_key
        if key:
            model = self.model
            alias = router.db_for_read(model)
            connection = connections[alias]
            q = connection.ops.quote_name
            sql = _sql.get(connection.vendor)
            if sql is None:
                sql = _sql[connection.vendor] = (
                    f"SELECT {q(column(model, 'session_data'))} FROM {q(model._meta.db_table)}"
                    f" WHERE {q(column(model, 'session_key'))} = %s"
                    f" AND {q(column(model, 'expire_date'))} > %s"
                )
            now = model._meta.get_field("expire_date").get_db_prep_value(timezone.now(), connection)
            with connection.cursor() as cursor:
                cursor.execute(sql, [key, now])
                row = cursor.fetchone()
            if row is not None:
                return model(session_key=key, session_data=row[0])
        self._session_key = None
        return None
