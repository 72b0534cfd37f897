"""The stack proofs: real daphne processes on PostgreSQL + Redis.

Every test here is marked ``stack`` and is skipped unless DATABASE_URL points at
PostgreSQL and REDIS_URL is set (``make test-stack`` sets both). The server processes
share the test database that pytest-django created (``test_<name>``), so the tests use
``django_db(transaction=True)``: what a test writes is committed and the servers see it.
"""

import os

import pytest

from tests.stack.servers import server_env, start_servers, stop

STACK_READY = os.environ.get("DATABASE_URL", "").startswith(
    ("postgres://", "postgresql://")
) and bool(os.environ.get("REDIS_URL"))


def pytest_collection_modifyitems(config, items):
    skip = pytest.mark.skip(reason="stack test: set DATABASE_URL (PostgreSQL) and REDIS_URL")
    for item in items:
        if "stack" in item.keywords and not STACK_READY:
            item.add_marker(skip)


def servers_database_url():
    """The URL of the database pytest-django made (test_<name>), for the servers."""
    from django.db import connection

    s = connection.settings_dict
    auth = s["USER"] or ""
    if s["PASSWORD"]:
        auth += f":{s['PASSWORD']}"
    host = f"{auth}@" if auth else ""
    return f"postgres://{host}{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture
def stack_env():
    return server_env(servers_database_url(), os.environ["REDIS_URL"])


@pytest.fixture
def servers(transactional_db, stack_env, tmp_path):
    """A factory: ``servers(2)`` starts two daphne processes on the test database and
    Redis. They are stopped before the database is flushed, so nothing holds it open."""
    started = []

    def start(n=2, **extra):
        env = dict(stack_env, **{k: str(v) for k, v in extra.items()})
        group = start_servers(n, env, tmp_path)
        started.extend(group)
        return group

    yield start
    stop(started)
    if started:
        print("\n".join(f"--- daphne {s.port} ---\n{s.log_tail(2000)}" for s in started))


@pytest.fixture(scope="session", autouse=True)
def _release_test_database(django_db_setup, django_db_blocker):
    """At the end, close what other threads of this process left open on the test
    database (asgiref's worker threads keep their connections), so that pytest-django
    can drop it instead of warning and leaving test_<name> behind."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        connection.close()
