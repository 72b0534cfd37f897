"""The site's health, for a monitor: ``/healthz`` checks each part the site needs and
answers 200 when all of them work, 503 when one does not, with a JSON body that says
which (README, "What to watch").

- **database**: one ``SELECT 1`` on the default connection;
- **redis** (only when ``REDIS_URL`` is set): a ``PING`` to the channel layer's Redis
  and, when it is another one, to the cache's (``CACHE_URL``);
- **queue**: the background work's figures (``rummy.background.queue.status``); it is
  down while the oldest due job has waited longer than ``queue.BEHIND_AFTER``, the
  threshold the body states.

``/healthz/live`` stays the trivial probe (no database, no Redis): whether the process
answers at all, for the proxy, the start-up waits and the load benchmark's baseline.
A failing part is named with the exception's class only: its message could hold a host
name or a password of a URL.
"""

from django.conf import settings
from django.db import connection

from rummy.background import queue

REDIS_TIMEOUT = 2  # seconds: a monitor must get an answer even when Redis hangs


def database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:
        return {"ok": False, "error": type(error).__name__}
    return {"ok": True}


def redis_urls() -> list[str]:
    if not settings.REDIS_URL:
        return []
    cache = settings.CACHES["default"].get("LOCATION", "")
    return [settings.REDIS_URL] + ([cache] if cache and cache != settings.REDIS_URL else [])


def redis() -> dict | None:
    urls = redis_urls()
    if not urls:
        return None
    import redis as redis_py

    for url in urls:
        client = redis_py.Redis.from_url(
            url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT
        )
        try:
            client.ping()
        except Exception as error:
            return {"ok": False, "error": type(error).__name__}
        finally:
            client.close()
    return {"ok": True}


def background_queue() -> dict:
    try:
        figures = queue.status()
    except Exception as error:
        return {"ok": False, "error": type(error).__name__}
    return {
        "ok": figures["keeping_up"],
        "lag_seconds": figures["oldest_due_seconds"],
        "threshold_seconds": queue.BEHIND_AFTER.total_seconds(),
        "depth": figures["depth"],
        "running": figures["running"],
        "failed_last_hour": figures["failed_last_hour"],
    }


def report() -> dict:
    """Every part's check, and ``ok``: whether all of them pass."""
    checked = {"database": database(), "redis": redis(), "queue": background_queue()}
    parts = {name: part for name, part in checked.items() if part is not None}
    return {"ok": all(part["ok"] for part in parts.values()), **parts}
