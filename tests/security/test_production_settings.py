"""With production variables the settings are safe: ``check --deploy`` is clean, the
session and CSRF cookies are Secure, HttpOnly and SameSite, HSTS is on, HTTP goes to
HTTPS behind the proxy, and every page carries a Content Security Policy."""

import pytest

from tests.security.production import production_env, run, run_json


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return production_env(tmp_path_factory.mktemp("prod"))


def test_check_deploy_reports_nothing(env):
    done = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout + done.stderr


def test_production_settings_values(env):
    values = run_json(
        "from django.conf import settings as s\n"
        "print(json.dumps({k: getattr(s, k, None) for k in ["
        "'DEBUG', 'SESSION_COOKIE_SECURE', 'SESSION_COOKIE_HTTPONLY', 'SESSION_COOKIE_SAMESITE',"
        "'CSRF_COOKIE_SECURE', 'CSRF_COOKIE_HTTPONLY', 'CSRF_COOKIE_SAMESITE',"
        "'SECURE_HSTS_SECONDS', 'SECURE_HSTS_INCLUDE_SUBDOMAINS', 'SECURE_SSL_REDIRECT',"
        "'SECURE_PROXY_SSL_HEADER', 'ALLOWED_HOSTS', 'CSRF_TRUSTED_ORIGINS']}"
        " | {'layer': s.CHANNEL_LAYERS['default']['BACKEND'],"
        " 'engine': s.DATABASES['default']['ENGINE']}))",
        env,
    )
    assert values["DEBUG"] is False
    assert values["SESSION_COOKIE_SECURE"] and values["SESSION_COOKIE_HTTPONLY"]
    assert values["CSRF_COOKIE_SECURE"] and values["CSRF_COOKIE_HTTPONLY"]
    assert values["SESSION_COOKIE_SAMESITE"] in {"Lax", "Strict"}
    assert values["CSRF_COOKIE_SAMESITE"] in {"Lax", "Strict"}
    assert values["SECURE_HSTS_SECONDS"] >= 31536000
    assert values["SECURE_HSTS_INCLUDE_SUBDOMAINS"] and values["SECURE_SSL_REDIRECT"]
    # The proxy terminates TLS and says so; without this every request would redirect.
    assert values["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert values["ALLOWED_HOSTS"] == ["carousel.example"]
    assert values["CSRF_TRUSTED_ORIGINS"] == ["https://carousel.example"]
    assert values["layer"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert values["engine"] == "django.db.backends.postgresql"


def test_production_responses_carry_the_headers_and_cookie_flags(env, tmp_path):
    """The real response of the log-in page with DEBUG off, static files collected as
    in production (a template naming a missing static file would fail here)."""
    page_env = dict(env, SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    page_env.pop("DATABASE_URL")  # rendering the log-in page needs no database rows
    done = run(["manage.py", "collectstatic", "--noinput", "-v0"], page_env)
    assert done.returncode == 0, done.stderr[-3000:]
    result = run_json(
        "from django.test import Client\n"
        "c = Client(HTTP_HOST='carousel.example')\n"
        "plain = c.get('/accounts/login/')\n"
        "r = c.get('/accounts/login/', HTTP_X_FORWARDED_PROTO='https')\n"
        "health = c.get('/healthz/live')\n"
        "print(json.dumps({'plain': [plain.status_code, plain.get('Location')],"
        " 'status': r.status_code, 'hsts': r.get('Strict-Transport-Security'),"
        " 'csp': r.get('Content-Security-Policy'), 'health': health.status_code,"
        " 'csrf_cookie': r.cookies['csrftoken'].output() if 'csrftoken' in r.cookies else ''}))",
        page_env,
    )
    assert result["plain"] == [301, "https://carousel.example/accounts/login/"]
    assert result["health"] == 200  # the proxy's probe speaks plain HTTP to the worker
    assert result["status"] == 200
    assert "max-age=31536000" in result["hsts"] and "includeSubDomains" in result["hsts"]
    assert "script-src 'self'" in result["csp"] and "unsafe-inline" not in result["csp"]
    cookie = result["csrf_cookie"].lower()
    assert "secure" in cookie and "httponly" in cookie and "samesite=lax" in cookie


@pytest.mark.parametrize(
    "key",
    [
        None,  # forgotten: the development key would be used
        "django-insecure-dev-only-key-do-not-use-in-production-7c1f",
        "django-insecure-" + "x" * 60,
        "short-but-set",
        "a" * 64,  # long, but not random
    ],
)
def test_production_refuses_to_start_without_a_real_secret_key(tmp_path, key):
    env = production_env(tmp_path)
    if key is None:
        del env["SECRET_KEY"]
    else:
        env["SECRET_KEY"] = key
    done = run(["manage.py", "check"], env)
    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr


def test_debug_may_run_on_the_development_key(tmp_path):
    env = production_env(tmp_path, DEBUG="1")
    del env["SECRET_KEY"]
    done = run(["manage.py", "check"], env)
    assert done.returncode == 0, done.stderr[-2000:]


def test_the_channel_layer_reads_longer_than_its_blocking_receive(env):
    values = run_json(
        "from django.conf import settings as s\n"
        "print(json.dumps(s.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0]))",
        env,
    )
    # redis-py 8 defaults to a 5 s read: a quiet socket's reader must outlast it.
    assert values["socket_timeout"] > 5
