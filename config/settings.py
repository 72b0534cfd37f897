"""Carousel settings: every value comes from the environment, with a default that works.

With no variables at all the site runs as one process on SQLite with the in-memory
channel layer and DEBUG on. ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL``
(channels_redis) switch to the stack that runs several ASGI processes behind a proxy;
DEBUG is then off unless asked for.
"""

import os
from email.utils import parseaddr
from pathlib import Path
from urllib.parse import urlparse

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default):
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name, default):
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")

# DEBUG is on only for the embedded default (no database or secret given).
DEBUG = env_bool("DEBUG", not (DATABASE_URL or os.environ.get("SECRET_KEY")))
DEVELOPMENT_SECRET_KEY = "django-insecure-dev-only-key-do-not-use-in-production-7c1f"
SECRET_KEY = os.environ.get("SECRET_KEY", DEVELOPMENT_SECRET_KEY)
MIN_SECRET_KEY_LENGTH = 50
if not DEBUG and (
    len(SECRET_KEY) < MIN_SECRET_KEY_LENGTH
    or SECRET_KEY.startswith("django-insecure")
    or len(set(SECRET_KEY)) < 5
):
    # The key signs sessions, password-reset, unsubscribe and verification links: the
    # public development key (or a short one) would let anyone forge them. Refuse to
    # start rather than run a production site on it.
    raise ImproperlyConfigured(
        "SECRET_KEY must be set to 50 or more random characters when DEBUG is off "
        "(it is missing, too short, or the public development key). Make one with: "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "channels",
    "django_ratelimit",
    # the task queue of the background work (rummy.background): Django's Tasks
    # framework, its jobs stored in this database and run by `manage.py run_worker`
    "django_tasks",
    "django_tasks_db",
    "leagues",
    "rummy",
    "leagues.ratings",
    # the table chat and its moderation: its own room, reached through chat.public
    "chat",
]

MIDDLEWARE = [
    # Around everything: every request counted and timed (config.metrics).
    "config.middleware.Metrics",
    # First: everything below (the log-in throttle, the rate limits, logs) sees the
    # client's address as the proxy saw it, not one the client wrote in a header.
    "config.middleware.ClientAddress",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The player's stored time zone and language (after auth: it reads request.user).
    "config.middleware.UserLocale",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Under ASGI the chain runs synchronously, in one trip to the sync thread
    # (config.handler).
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "rummy.lobby.context_processors.move_count",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
if DATABASE_URL:
    # Under ASGI each request runs in a thread of its own, so persistent connections
    # (CONN_MAX_AGE) are not reused: every request would connect anew, and leftover
    # connections pile up towards PostgreSQL's max_connections (the load benchmark hit
    # both). A connection pool per worker process instead (Django 5.1+, psycopg-pool),
    # bounded: N workers x DB_POOL_MAX_SIZE must stay below max_connections.
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
        "DB_POOL", True
    ):
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": int(os.environ.get("DB_POOL_MIN_SIZE", 2)),
            "max_size": int(os.environ.get("DB_POOL_MAX_SIZE", 20)),
            "timeout": int(os.environ.get("DB_POOL_TIMEOUT", 10)),
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                # SQLite ignores SELECT ... FOR UPDATE. Taking the write lock when a
                # transaction begins (IMMEDIATE) serialises game actions instead, and the
                # version-checked UPDATE in rummy.play.store does the rest.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # Tests use a real file, not shared-cache memory: concurrency tests and the
            # browser tests' server process need real locking across connections.
            "TEST": {"NAME": os.environ.get("SQLITE_TEST_PATH", str(BASE_DIR / "test-db.sqlite3"))},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channels -------------------------------------------------------------------------
# Seconds a Redis read may take (the pub/sub layer's reader waits 0.1 s at a time).
CHANNEL_SOCKET_TIMEOUT = 30
if REDIS_URL:
    # Pub/sub channels belong to the whole Redis server, not to the database number in
    # REDIS_URL: two sites (or a site and its tests) on one server would hear each
    # other's groups. The prefix keeps them apart: the database number by default, or
    # CHANNEL_PREFIX for sites that share a database number.
    CHANNEL_PREFIX = os.environ.get("CHANNEL_PREFIX") or "carousel:{}".format(
        urlparse(REDIS_URL).path.strip("/") or "0"
    )
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub (README "The channel layer"): a group send is one
            # PUBLISH, and each process holds its own sockets' group memberships, so a
            # move costs one Redis round trip per group and each process receives it
            # once; the list-based RedisChannelLayer took two to four round trips per
            # group send and one per socket to receive (bench/load.py: a large share of an
            # action's server CPU, docs/benchmarks.md). Nothing is stored: what a
            # process misses while its Redis connection is down is lost, and the next
            # move or the page's reconnect brings the whole view back, as after any
            # socket drop.
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                # redis-py 8 times out any read after 5 s by default; a dead Redis
                # connection is still noticed (keep-alive), an idle one is kept.
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": CHANNEL_SOCKET_TIMEOUT,
                        "socket_keepalive": True,
                    }
                ],
                "prefix": CHANNEL_PREFIX,
            },
        }
    }
else:
    # One process only: the in-memory layer does not cross processes.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# --- Auth -----------------------------------------------------------------------------
AUTH_USER_MODEL = "leagues.User"
# ModelBackend with the read of a request's user compiled once (config.db.backends).
AUTHENTICATION_BACKENDS = ["config.db.backends.UserBackend"]
# Database sessions, with the read of every request's session compiled once.
SESSION_ENGINE = "config.db.sessions"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- The client's address ---------------------------------------------------------
# How many proxies of ours stand in front of the workers (README "Proxy"): each appends
# the address it saw to X-Forwarded-For, so the client's real address is the entry this
# many places from the right; anything left of it was written by the client. 0: no
# proxy, REMOTE_ADDR is the client (the default, and `make run`).
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", 0))

# --- Log-in throttle and rate limits (leagues.throttle, leagues.limits) -------------
# Wrong passwords: per account and per address from new devices, per account on a
# device that logged in before (README "Log-in throttle"); each pause lasts this long.
LOGIN_PAUSE_SECONDS = int(os.environ.get("LOGIN_PAUSE_SECONDS", 15 * 60))
LOGIN_ACCOUNT_LIMIT = int(os.environ.get("LOGIN_ACCOUNT_LIMIT", 5))
LOGIN_ADDRESS_LIMIT = int(os.environ.get("LOGIN_ADDRESS_LIMIT", 20))
LOGIN_DEVICE_LIMIT = int(os.environ.get("LOGIN_DEVICE_LIMIT", 10))
# POSTs per address (or per address mailed) that make the site send email or
# create accounts; django-ratelimit's "count/period" (README "Limits").
RATE_LIMITS = {
    "signup": os.environ.get("RATE_LIMIT_SIGNUP", "10/h"),
    "password_reset": os.environ.get("RATE_LIMIT_PASSWORD_RESET", "10/h"),
    "password_reset_email": os.environ.get("RATE_LIMIT_PASSWORD_RESET_EMAIL", "3/h"),
}
# --- What is kept about people, and for how long (leagues.privacy) -----------------
# The one place these periods are set: the privacy page states them and the background
# work (rummy.background.retention) removes what is older, so the two cannot disagree.
# An account whose address was never confirmed and that never logged in is removed
# this many days after sign-up; the ledgers of emails and pushes sent, this many days
# after the send. Log-in throttle and rate-limit counts expire on their own in the
# cache after the longest of their windows (LOGIN_PAUSE_SECONDS, RATE_LIMITS).
RETENTION_UNCONFIRMED_SIGNUP_DAYS = int(os.environ.get("RETENTION_UNCONFIRMED_SIGNUP_DAYS", 14))
RETENTION_NOTICE_DAYS = int(os.environ.get("RETENTION_NOTICE_DAYS", 90))
# Open WebSockets per user, over every worker (rummy.table.guarded).
MAX_SOCKETS_PER_USER = int(os.environ.get("MAX_SOCKETS_PER_USER", 20))
RATELIMIT_USE_CACHE = "default"

# The counts above live in the cache: Redis when REDIS_URL is set, so that every worker
# shares them; the single-process default keeps them in its own memory, which is all
# one process needs (django-ratelimit's check against that is silenced for it alone).
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            # Its own database where it can (CACHE_URL), apart from the channel layer.
            "LOCATION": os.environ.get("CACHE_URL", REDIS_URL),
            "KEY_PREFIX": "carousel",
        }
    }
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]  # Django's own Redis cache
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]

# --- Email ----------------------------------------------------------------------------
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if os.environ.get("EMAIL_HOST")
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", 25))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Carousel <noreply@localhost>")
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

# --- Web push (rummy.notifications.vapid, push) ---------------------------------------
# The site's VAPID key pair (RFC 8292): the private key as base64url (the raw 32 bytes,
# or DER), or a PEM file (`manage.py vapid_keys` makes either; `make run` keeps one
# outside the repository). Neither: no push, email only.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_KEY_FILE = os.environ.get("VAPID_KEY_FILE", "")
# Who push services may write to about our traffic (the JWT's "sub").
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT") or "mailto:" + (
    parseaddr(DEFAULT_FROM_EMAIL)[1] or "noreply@localhost"
)
# Seconds one push may take (connect, then the answer); a push service that hangs must
# not hold up the clock's pass.
PUSH_TIMEOUT = float(os.environ.get("PUSH_TIMEOUT", 10))
# Push endpoints must be on a browser's push service (rummy.notifications.subscriptions);
# the tests turn this on for their own push service at http://127.0.0.1:<port>.
PUSH_ALLOW_LOCAL_ENDPOINTS = False

# --- I18n -----------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("lv", _("Latvian")), ("et", _("Estonian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
# In development WhiteNoise serves straight from the app and project static folders, so
# daphne alone serves everything; production serves what collectstatic gathered.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# --- Security -------------------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
# The CSRF token travels in a header set from <body hx-headers>, so JavaScript never
# needs to read the cookie.
CSRF_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 31536000))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^healthz/live$", r"^healthz/queue$", r"^metrics$"]

# Content Security Policy: no inline scripts anywhere; htmx is served from our static.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        # The service worker (/sw.js) and the web app manifest (rummy.pwa): ours only.
        # default-src would cover both; said outright so that nobody widens them by
        # accident when default-src changes.
        "worker-src": ["'self'"],
        "manifest-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

# --- Background work (rummy.background) ----------------------------------------------
# The jobs wait in this database (django-tasks-db), whatever it is: SQLite on the
# embedded default, PostgreSQL in production. Any number of `manage.py run_worker`
# processes, on any machine, take them (README, "Production").
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# How often each worker runs the periodic passes (seconds): the emails and pushes of
# what changed, the vacations that began or ended, the quiet-hour holds, the reviews.
CLOCK_INTERVAL = int(os.environ.get("CLOCK_INTERVAL", 30))
# How often each worker looks for game work that is due (seconds): passed deadlines and
# bot turns; a bot answers within about this after its pause.
BOT_POLL_INTERVAL = float(os.environ.get("BOT_POLL_INTERVAL", 0.5))
# How many jobs each worker runs at once (`run_worker --threads`), each in a thread with
# its own connection: a job mostly waits for the database, so a few threads keep a core
# busy where one leaves it idle. SQLite takes one writer at a time: one thread there.
WORKER_THREADS = int(
    os.environ.get("WORKER_THREADS", 1 if DATABASES["default"]["ENGINE"].endswith("sqlite3") else 8)
)

# --- Game -----------------------------------------------------------------------------
# A bot's human-like pause before it acts: a random number of seconds in this range
# ("low,high"; "0,0" acts at the next poll, as the tests do).
BOT_DELAY = tuple(float(x) for x in os.environ.get("BOT_DELAY", "2,6").split(",")[:2])
# "Your move" is not emailed to a player who moved in that game this recently (seconds)
# or has its page open: they are playing live (rummy.notifications.emails).
AWAY_AFTER = 300

# --- Metrics (config.metrics) -----------------------------------------------------------
# The scraper's bearer token for /metrics (staff users may read it without one); unset,
# only staff can. PROMETHEUS_MULTIPROC_DIR (read by config.metrics itself) makes every
# worker's scrape the sum of all the processes of the machine.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")

# --- Error reports (config.sentry) ---------------------------------------------------
# Sentry's DSN: unset, nothing is reported. Every event is scrubbed before it leaves:
# nothing of a hand, the stock order, a password, an email address or a cookie.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    from config import sentry

    sentry.init(SENTRY_DSN, environment=os.environ.get("SENTRY_ENVIRONMENT", "production"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
