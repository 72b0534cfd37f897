"""Where the rooms above leagues hook into a player's data: ``account_deleted``, sent
inside an account's deletion (``leagues.erasure``), and ``section``, which adds a part to
the download of a player's data (``leagues.data_export``). Apart from both, with nothing
imported, so that a room above (the chat: ``chat.personal``) reaches them without
reaching through them into the games.
"""

from collections.abc import Callable
from typing import Any

from django.dispatch import Signal

# Sent inside the deletion's transaction, after the row was made anonymous, with
# ``user`` and ``old_names`` (the names and address it had): a part of the site that
# keeps more about people removes or anonymises its own there; an exception undoes the
# whole deletion.
account_deleted = Signal()

# (name, function of the user) of the rooms above leagues, in the order they registered;
# the download puts them after its own sections.
SECTIONS: list[tuple[str, Callable[[Any], Any]]] = []


def section(name):
    """Register ``function(user) -> JSON-ready value`` as the download's section
    ``name``; registered again under the same name, it replaces the earlier one."""

    def register(function):
        SECTIONS[:] = [(n, f) for n, f in SECTIONS if n != name]
        SECTIONS.append((name, function))
        return function

    return register
