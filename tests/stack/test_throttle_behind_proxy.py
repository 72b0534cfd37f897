"""The log-in throttle behind the documented proxy, on two real workers: the counts are
shared through Redis (a guess on one worker counts on the other), and the address is
the one the proxy appended to X-Forwarded-For, whatever the client wrote before it."""

import http.client
import secrets
import urllib.parse

import pytest

from tests.factories import make_user

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-test-password-42"


def log_in(server, username, password, forwarded_for):
    """A log-in POST as nginx passes it on ($proxy_add_x_forwarded_for)."""
    csrf = secrets.token_hex(16)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    try:
        conn.request(
            "POST",
            "/accounts/login/",
            body=urllib.parse.urlencode({"username": username, "password": password}),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "Origin": server.base_url,
                "Host": f"127.0.0.1:{server.port}",
                "X-Forwarded-For": forwarded_for,
            },
        )
        return conn.getresponse().status
    finally:
        conn.close()


@pytest.fixture(autouse=True)
def _server_hashers(settings):
    # The servers know only Django's default hashers, not the tests' fast one.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]


def test_forged_addresses_on_two_workers_still_pause_the_account(servers):
    one, two = servers(2, TRUSTED_PROXY_COUNT=1)
    make_user("alice", password=PASSWORD)
    real = "203.0.113.9"
    assert log_in(two, "alice", PASSWORD, f"198.51.100.221, {real}") == 302
    for n in range(40):
        worker = (one, two)[n % 2]
        assert log_in(worker, "alice", "wrong", f"198.51.100.{n + 1}, {real}") in (200, 429)
    assert log_in(one, "alice", PASSWORD, f"198.51.100.222, {real}") == 429
    assert log_in(two, "alice", PASSWORD, f"198.51.100.223, {real}") == 429


def test_a_chosen_address_does_not_lock_out_the_player_there(servers):
    one, two = servers(2, TRUSTED_PROXY_COUNT=1)
    make_user("bob", password=PASSWORD)
    victim = "198.51.100.77"
    for n in range(30):
        log_in((one, two)[n % 2], f"nobody{n}", "wrong", f"{victim}, 203.0.113.9")
    assert log_in(two, "bob", PASSWORD, victim) == 302
