"""Failed log-ins lock the account+address pair only, and only for the cool-off."""

from datetime import datetime, timedelta, timezone

import pytest
import time_machine
from django.conf import settings
from django.urls import reverse

from .conftest import PASSWORD

IP = "203.0.113.7"  # a carrier NAT address shared by many phones


def attempt(client, username, password, ip=IP):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


@pytest.fixture
def locked_alice(client, cast):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, "alice", "wrong-password")
    return cast


@time_machine.travel(datetime(2025, 6, 1, 12, 0, tzinfo=timezone.utc), tick=False)
def test_lockout_after_failures_says_when_to_retry(client, locked_alice):
    response = attempt(client, "alice", PASSWORD)
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed log-ins" in page
    assert "try again in 15 minutes" in page
    assert "_auth_user_id" not in client.session


@time_machine.travel(datetime(2025, 6, 1, 12, 0, tzinfo=timezone.utc), tick=False)
def test_other_account_on_same_address_is_not_locked(client, locked_alice):
    response = attempt(client, "bob", PASSWORD)
    assert response.status_code == 302
    assert "_auth_user_id" in client.session


@time_machine.travel(datetime(2025, 6, 1, 12, 0, tzinfo=timezone.utc), tick=False)
def test_same_account_from_other_address_is_not_locked(client, locked_alice):
    response = attempt(client, "alice", PASSWORD, ip="198.51.100.20")
    assert response.status_code == 302


def test_lock_lifts_after_cool_off(client, cast):
    with time_machine.travel(datetime(2025, 6, 1, 12, 0, tzinfo=timezone.utc), tick=False) as t:
        for _ in range(settings.AXES_FAILURE_LIMIT):
            attempt(client, "alice", "wrong-password")
        assert attempt(client, "alice", PASSWORD).status_code == 429
        t.shift(timedelta(minutes=14))
        assert attempt(client, "alice", PASSWORD).status_code == 429
        t.shift(settings.AXES_COOLOFF_TIME + timedelta(minutes=1))
        response = attempt(client, "alice", PASSWORD)
        assert response.status_code == 302
        assert "_auth_user_id" in client.session


def test_fewer_failures_than_limit_do_not_lock(client, cast):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert attempt(client, "alice", "wrong-password").status_code == 200
    assert attempt(client, "alice", PASSWORD).status_code == 302
