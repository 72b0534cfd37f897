"""Every per-process cache of the site is made here, and ``clear_all`` empties them all.

A cache is one of:

- ``memo(maxsize)``: a function's results by its arguments (``functools.lru_cache``);
  a function whose result depends on the active language or time zone takes them as
  arguments and activates them itself (``translation.override``), so that the key and
  what is made agree;
- ``Recent(size)``: the most recently stored values by key (``rummy.table.memory``:
  games, rights, fragments, views);
- ``statements()``: a dict of SQL written once per database and shape
  (``config.db``).

Nothing here is shared between processes. ``sizes()`` names them all (the tests check
that no module keeps a cache of its own). The pure engine, which may import nothing of
ours, keeps its meld verdicts' bounded memo itself (``rummy.engine.melds``); ``rummy.apps``
registers it here, so that ``clear_all`` empties it too.
"""

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

# name -> (empty it, how many entries it holds)
_caches: dict[str, tuple[Callable[[], None], Callable[[], int]]] = {}


def register(name: str, clear: Callable[[], None], size: Callable[[], int]) -> None:
    """Empty ``clear`` with the others (a cache of another kind: say, tasks in flight)."""
    _caches[name] = (clear, size)


def memo(maxsize: int | None = None) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize)``, registered (``maxsize`` None: unbounded, for
    what is bounded by the code itself: templates, models)."""

    def wrap(fn: F) -> F:
        cached = functools.lru_cache(maxsize=maxsize)(fn)
        name = f"{fn.__module__}.{fn.__qualname__}"
        register(name, cached.cache_clear, lambda: cached.cache_info().currsize)
        return cached  # type: ignore[return-value]

    return wrap


def statements(name: str) -> dict:
    """An empty dict for SQL statements by their shape, registered as ``name``."""
    made: dict = {}
    register(name, made.clear, made.__len__)
    return made


class Recent:
    """The ``size`` most recently stored values by key; the oldest goes first."""

    def __init__(self, name: str, size: int):
        self.size = size
        self._values: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        register(name, self.clear, self.__len__)

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


def sizes() -> dict[str, int]:
    """How many entries each cache holds, by name."""
    return {name: size() for name, (_clear, size) in sorted(_caches.items())}


def clear_all() -> None:
    """Forget everything (tests; a process that wants a clean start)."""
    for clear, _size in list(_caches.values()):
        clear()
