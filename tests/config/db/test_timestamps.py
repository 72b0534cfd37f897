"""PostgreSQL timestamps are parsed by psycopg's C loader (``config.db.timestamps``) and
read as Django's own loader reads them: the same instants, in ``datetime.timezone.utc``.
On PostgreSQL only (the PostgreSQL + Redis lane); SQLite has no such loader."""

import datetime

import pytest
from django.conf import settings
from django.db import connection
from django.db.backends.postgresql import psycopg_any
from django.test import override_settings
from psycopg.pq import Format

from config.db import timestamps

pytestmark = pytest.mark.django_db

VALUES = [
    "2026-03-29 01:30:00+00",
    "1999-12-31 23:59:59.999999+00",
    "0001-01-01 00:00:00+00",
    "9999-12-31 23:59:59.999999+00",
    "2026-10-25 03:00:00+03",
    "2026-12-03 13:20:07.123+05:30",
]


def _read(values):
    select = ", ".join(f"'{v}'::timestamptz" for v in values) + ", null::timestamptz"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {select}")
        return cursor.fetchone()


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")


def test_new_connections_read_timestamps_with_the_c_loader(postgres):
    connection.ensure_connection()
    loader = connection.connection.adapters.get_loader(1184, Format.TEXT)
    assert loader is timestamps.UtcTimestamptzLoader


def test_they_read_what_djangos_loader_reads(postgres):
    ours = _read(VALUES)
    connection.ensure_connection()
    # Django's own loader on this connection, for comparison.
    psycopg_any.register_tzloader(datetime.UTC, connection.connection)
    try:
        djangos = _read(VALUES)
    finally:
        connection.connection.adapters.register_loader(
            "timestamptz", timestamps.UtcTimestamptzLoader
        )
    assert ours == djangos and ours[-1] is None
    assert all(value.tzinfo is datetime.UTC for value in ours[:-1])
    assert ours[4] == datetime.datetime(2026, 10, 25, 0, 0, tzinfo=datetime.UTC)


def test_a_database_in_another_zone_keeps_djangos_loader(monkeypatch):
    with override_settings(USE_TZ=False):
        assert timestamps.install() is False
    monkeypatch.setitem(settings.DATABASES["default"], "TIME_ZONE", "Europe/Riga")
    assert timestamps.install() is False
