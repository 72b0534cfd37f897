"""``/healthz``: each part the site needs, checked, with the status a monitor alerts on:
200 while the database, Redis (when configured) and the background queue work, 503 with
the failing part named as soon as one does not. ``/healthz/live`` answers without any."""

import datetime
import json
import socket

import pytest
import time_machine
from django.db import connection
from django.utils import timezone

from rummy.background import queue, scan

pytestmark = pytest.mark.django_db(transaction=True)


def closed_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # nothing listens once the socket is closed


def health(client):
    response = client.get("/healthz")
    assert response["Content-Type"] == "application/json"
    return response.status_code, json.loads(response.content)


def test_all_parts_up_is_200_with_each_part_reported(client, settings):
    settings.REDIS_URL = ""
    status, body = health(client)
    assert status == 200, body
    assert body["ok"] is True
    assert body["database"] == {"ok": True}
    assert "redis" not in body  # not configured: not a part of this site
    assert body["queue"]["ok"] is True
    assert body["queue"]["threshold_seconds"] == queue.BEHIND_AFTER.total_seconds()


def test_a_queue_that_lags_past_the_threshold_is_503(client, settings):
    settings.REDIS_URL = ""
    start = timezone.now()
    with time_machine.travel(start):
        scan.look()  # due jobs, and no worker runs them
    with time_machine.travel(start + queue.BEHIND_AFTER + datetime.timedelta(seconds=30)):
        status, body = health(client)
    assert status == 503
    assert body["ok"] is False and body["database"]["ok"] is True
    assert body["queue"]["ok"] is False
    assert body["queue"]["lag_seconds"] > body["queue"]["threshold_seconds"]
    assert body["queue"]["depth"] == len(scan.PASSES)


def test_a_database_that_fails_is_503_and_named(client, settings, monkeypatch):
    settings.REDIS_URL = ""
    from django.db import OperationalError

    def refuse(*args, **kwargs):
        raise OperationalError("connection to server at db.internal:5432 failed")

    with monkeypatch.context() as patched:
        patched.setattr(connection, "cursor", refuse)
        status, body = health(client)
    assert status == 503
    assert body["database"] == {"ok": False, "error": "OperationalError"}
    # The class only: a message could carry a host name or a URL's password.
    assert "db.internal" not in json.dumps(body)


def test_a_redis_that_does_not_answer_is_503_and_named(client, settings):
    settings.REDIS_URL = f"redis://:secret-word@127.0.0.1:{closed_port()}/0"
    status, body = health(client)
    assert status == 503
    assert body["redis"] == {"ok": False, "error": "ConnectionError"}
    assert body["database"]["ok"] is True and body["queue"]["ok"] is True
    assert "secret-word" not in json.dumps(body)


def test_the_liveness_probe_needs_nothing(client, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the liveness probe must not touch the database")

    with monkeypatch.context() as patched:
        patched.setattr(connection, "cursor", refuse)
        response = client.get("/healthz/live")
    assert response.status_code == 200 and response.content == b"ok"
