"""A small bounded, thread-safe memory of recently used values, per server process.

Used where every open socket of a game would otherwise read or render the same thing
again after a move (``rummy.table.access`` for games, ``rummy.table.presenters`` for fragments).
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

    def __len__(self):
        return len(self._values)
