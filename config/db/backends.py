"""The authentication backend: Django's ``ModelBackend``, with the read of a signed-in
request's user written once (``config.db.reads``).

Every signed-in request and socket reads its user after its session; through the ORM
the query compiler cost more CPU than the read (bench/load.py). The user is
the same row, read the same way (``is_active`` still decides, as ``ModelBackend``'s
``user_can_authenticate`` does); logging in, passwords and permissions are
``ModelBackend``'s own. Sessions made before name ``ModelBackend`` itself: the session
store reads them as naming this one (``config.db.sessions``), so nobody is logged out.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from config.db import reads


class UserBackend(ModelBackend):
    def get_user(self, user_id):
        try:
            user = reads.first(get_user_model(), pk=user_id)
        except (TypeError, ValueError):
            return None
        return user if user is not None and self.user_can_authenticate(user) else None
