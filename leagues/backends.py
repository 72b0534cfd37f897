"""The authentication backend: Django's ``ModelBackend``, with the read of a signed-in
request's user written once (``leagues.reads``).

Every signed-in request and socket reads its user after its session; through the ORM
the query compiler cost more CPU than the read (issue 11, bench/load.py). The user is
the same row, read the same way (``is_active`` still decides, as ``ModelBackend``'s
``user_can_authenticate`` does); logging in, passwords and permissions are
``ModelBackend``'s own. Sessions made before name ``ModelBackend`` itself: the session
store reads them as naming this one (``leagues.sessions``), so nobody is logged out.
"""

from django.contrib.auth.backends import ModelBackend

from leagues import reads
from leagues.models import User


class UserBackend(ModelBackend):
    def get_user(self, user_id):
        try:
            user = reads.first(User, pk=user_id)
        except (TypeError, ValueError):
            return None
        return user if user is not None and self.user_can_authenticate(user) else None
