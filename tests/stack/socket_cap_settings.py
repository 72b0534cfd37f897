"""The stack's settings with a small socket cap and the cache in Redis (as the
production settings make it when REDIS_URL is set), for test_socket_sessions."""

from config.settings import *  # noqa: F403
from config.settings import REDIS_URL

MAX_SOCKETS_PER_USER = 2
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "socket-cap-test",
    }
}
