"""The address the throttle and the rate limits key on is the one our proxy saw
(config.middleware.ClientAddress): what a client writes into X-Forwarded-For itself
can neither spread its guesses nor lock out somebody else."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from config.middleware import proxied_address
from tests.cast import PASSWORD


def via_proxy(client, forged, real, username, password):
    """A log-in as nginx passes it on with $proxy_add_x_forwarded_for: the client's own
    header (``forged``), then the address nginx saw (``real``)."""
    header = f"{forged}, {real}" if forged else real
    # REMOTE_ADDR as daphne --proxy-headers would set it: the LEFT-most entry, the one
    # the client wrote. The middleware must not trust it.
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=header.split(",")[0].strip(),
        HTTP_X_FORWARDED_FOR=header,
    )


@pytest.mark.parametrize(
    ("header", "count", "expected"),
    [
        ("203.0.113.5", 1, "203.0.113.5"),
        ("6.6.6.6, 203.0.113.5", 1, "203.0.113.5"),
        ("6.6.6.6, 203.0.113.5, 10.0.0.2", 2, "203.0.113.5"),
        ("203.0.113.5", 2, None),  # fewer entries than proxies: the header is not ours
        ("6.6.6.6, not-an-address", 1, None),
        ("", 1, None),
        ("2001:db8::1", 1, "2001:db8::1"),
    ],
)
def test_the_entry_our_proxy_added_is_the_address(header, count, expected):
    assert proxied_address(header, count) == expected


@pytest.fixture
def behind_proxy(settings):
    settings.TRUSTED_PROXY_COUNT = 1


def test_a_forged_address_per_guess_does_not_dodge_the_throttle(behind_proxy, cast):
    client = Client()
    for n in range(40):
        via_proxy(client, f"198.51.100.{n + 1}", "203.0.113.9", f"user{n}", "wrong")
    response = via_proxy(Client(), "198.51.100.250", "203.0.113.9", "admin-of-nothing", "x")
    assert response.status_code == 429
    assert "from your network" in response.content.decode()


def test_a_chosen_address_cannot_lock_out_the_player_there(behind_proxy, cast):
    victim = "198.51.100.77"
    for n in range(settings.LOGIN_ADDRESS_LIMIT + 5):
        via_proxy(Client(), victim, "203.0.113.9", f"someone{n}", "wrong")
    # The real player at the chosen address is unaffected: the failures were counted
    # against the attacker's real address.
    response = via_proxy(Client(), "", victim, "alice", PASSWORD)
    assert response.status_code == 302


def test_without_a_proxy_the_header_is_ignored(settings, cast):
    settings.TRUSTED_PROXY_COUNT = 0
    for n in range(settings.LOGIN_ADDRESS_LIMIT):
        Client().post(
            reverse("login"),
            {"username": f"u{n}", "password": "x"},
            REMOTE_ADDR="203.0.113.50",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{n}",
        )
    response = Client().post(
        reverse("login"),
        {"username": "alice", "password": PASSWORD},
        REMOTE_ADDR="203.0.113.50",
        HTTP_X_FORWARDED_FOR="198.51.100.99",
    )
    assert response.status_code == 429
