"""The log-in throttle (leagues.throttle): per account and per address for new devices,
per device for a browser that logged in before; pauses that end by themselves, that a
password reset lifts, and that never hold back the owner's own phone."""

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from leagues import throttle
from tests.cast import PASSWORD, make_person

NAT = "203.0.113.7"  # a carrier NAT address shared by many phones
START = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def attempt(client, username, password, ip=NAT):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def logged_in(client):
    return "_auth_user_id" in client.session


def known_phone(username, ip=NAT):
    """A browser on which ``username`` logged in before (it holds the device cookie)."""
    phone = Client()
    assert attempt(phone, username, PASSWORD, ip=ip).status_code == 302
    phone.post(reverse("logout"))
    assert not logged_in(phone)
    return phone


@pytest.fixture
def frozen():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def test_a_few_wrong_passwords_do_not_pause(client, cast):
    for _ in range(settings.LOGIN_ACCOUNT_LIMIT - 1):
        assert attempt(client, "alice", "wrong-password").status_code == 200
    assert attempt(client, "alice", PASSWORD).status_code == 302


def test_forged_addresses_cannot_spread_guesses_over_one_account(client, cast, frozen):
    # The seen attack: a new address for every guess. The account's own count stops it.
    for n in range(40):
        attempt(client, "alice", "wrong-password", ip=f"198.51.100.{n + 1}")
    response = attempt(client, "alice", PASSWORD, ip="198.51.100.200")
    assert response.status_code == 429
    assert "paused for 15 minutes" in response.content.decode()
    assert not logged_in(client)


def test_pause_says_how_long_and_ends_by_itself(client, cast, frozen):
    for _ in range(settings.LOGIN_ACCOUNT_LIMIT):
        attempt(client, "alice", "wrong-password")
    assert attempt(client, "alice", PASSWORD).status_code == 429
    frozen.shift(timedelta(minutes=14))
    response = attempt(client, "alice", PASSWORD)
    assert response.status_code == 429
    assert "paused for 1 minute." in response.content.decode()
    frozen.shift(timedelta(minutes=2))
    assert attempt(client, "alice", PASSWORD).status_code == 302


def test_trying_on_during_a_pause_does_not_lengthen_it(client, cast, frozen):
    for _ in range(settings.LOGIN_ACCOUNT_LIMIT):
        attempt(client, "alice", "wrong-password")
    for _ in range(10):
        frozen.shift(timedelta(minutes=1))
        attempt(client, "alice", "wrong-password")
    frozen.shift(timedelta(minutes=6))
    assert attempt(client, "alice", PASSWORD).status_code == 302


def test_the_owners_own_phone_is_never_locked_out_by_others(cast, frozen):
    phone = known_phone("alice")
    stranger = Client()
    # Someone behind the same NAT (or anywhere) pauses alice's account for new devices...
    for _ in range(settings.LOGIN_ACCOUNT_LIMIT + 3):
        attempt(stranger, "alice", "wrong-password")
    assert attempt(stranger, "alice", PASSWORD).status_code == 429
    # ...but alice, on the phone she used before, at the same address, gets in.
    assert attempt(phone, "alice", PASSWORD).status_code == 302
    assert logged_in(phone)


def test_a_known_device_has_its_own_allowance(cast, frozen):
    phone = known_phone("alice")
    for _ in range(settings.LOGIN_DEVICE_LIMIT):
        attempt(phone, "alice", "wrong-password")
    response = attempt(phone, "alice", PASSWORD)
    assert response.status_code == 429
    assert "on this device" in response.content.decode()


def test_a_device_cookie_of_another_account_does_not_count(cast, frozen):
    bobs_phone = known_phone("bob")
    for _ in range(settings.LOGIN_ACCOUNT_LIMIT):
        attempt(Client(), "alice", "wrong-password")
    assert attempt(bobs_phone, "alice", PASSWORD).status_code == 429


def test_a_forged_device_cookie_is_ignored(client, cast, frozen):
    client.cookies[throttle.DEVICE_COOKIE] = "forged"
    for _ in range(settings.LOGIN_ACCOUNT_LIMIT):
        attempt(client, "alice", "wrong-password")
    assert attempt(client, "alice", PASSWORD).status_code == 429


def test_one_address_trying_many_accounts_is_paused(client, cast, frozen):
    for n in range(settings.LOGIN_ADDRESS_LIMIT):
        attempt(client, f"someone{n}", "wrong-password")
    response = attempt(Client(), "bob", PASSWORD)
    assert response.status_code == 429
    assert "from your network" in response.content.decode()
    # Another address is not affected, nor a device bob logged in on before.
    assert attempt(Client(), "bob", PASSWORD, ip="198.51.100.9").status_code == 302


def test_failures_of_other_accounts_do_not_pause_an_account(client, cast, frozen):
    for _ in range(settings.LOGIN_ACCOUNT_LIMIT):
        attempt(client, "alice", "wrong-password")
    assert attempt(Client(), "bob", PASSWORD).status_code == 302


def test_username_case_does_not_give_extra_tries(client, cast, frozen):
    for name in ("alice", "Alice", "ALICE", "aLice", "alicE"):
        attempt(client, name, "wrong-password")
    assert attempt(client, "alice", PASSWORD).status_code == 429


def test_a_password_reset_lifts_the_pause_and_trusts_the_browser(cast, frozen):
    user = cast["owner"]
    for _ in range(settings.LOGIN_ACCOUNT_LIMIT):
        attempt(Client(), "alice", "wrong-password")
    new_phone = Client()
    assert attempt(new_phone, "alice", PASSWORD).status_code == 429
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    url = reverse("password_reset_confirm", args=[uid, token])
    form_url = new_phone.get(url)["Location"]  # Django moves the token into the session
    new_password = "another-long-password-77"
    response = new_phone.post(
        form_url, {"new_password1": new_password, "new_password2": new_password}
    )
    assert response.status_code == 302
    assert attempt(new_phone, "alice", new_password).status_code == 302
    # The pause is lifted for every device, not only this one.
    assert attempt(Client(), "alice", new_password, ip="198.51.100.3").status_code == 302


def test_a_paused_attempt_reveals_nothing_about_the_password(client, cast, frozen):
    for _ in range(settings.LOGIN_ACCOUNT_LIMIT):
        attempt(client, "alice", "wrong-password")
    right = attempt(client, "alice", PASSWORD)
    wrong = attempt(client, "alice", "still-wrong")
    assert right.status_code == wrong.status_code == 429

    def page(response):  # the CSRF token is masked afresh for every response
        masked = r'(csrfmiddlewaretoken" value=|CSRFToken": )"[^"]+"'
        return re.sub(masked, "", response.content.decode())

    assert page(right) == page(wrong)


def test_unknown_accounts_are_counted_like_real_ones(client, db, frozen):
    make_person("real")
    for _ in range(settings.LOGIN_ACCOUNT_LIMIT):
        attempt(client, "nobody", "wrong-password")
    assert attempt(client, "nobody", "x").status_code == 429


def test_a_wrong_password_says_how_many_tries_are_left_once_few_are(client, cast, frozen):
    limit = settings.LOGIN_ACCOUNT_LIMIT
    pages = [attempt(client, "alice", "wrong-password").content.decode() for _ in range(limit)]
    # Quiet while the pause is far off (WARN_WHEN_LEFT), then a count before it begins.
    for page, left in zip(pages, range(limit - 1, -1, -1), strict=True):
        warned = "before log-ins from new devices pause for 15 minutes" in page
        assert warned == (0 < left <= throttle.WARN_WHEN_LEFT), left
    assert "2 tries left before log-ins from new devices pause for 15 minutes." in pages[-3]
    assert "1 try left before log-ins from new devices pause for 15 minutes." in pages[-2]
    assert "Please enter a correct username and password" in pages[-2]
    assert attempt(client, "alice", PASSWORD).status_code == 429


def test_tries_left_follows_the_pause_that_comes_first(rf, cast, frozen):
    request = rf.post("/", REMOTE_ADDR=NAT)
    assert throttle.tries_left(request, "alice") == (settings.LOGIN_ACCOUNT_LIMIT, False)
    # The network has used up all but two of its allowance on other accounts.
    for n in range(settings.LOGIN_ADDRESS_LIMIT - 2):
        throttle.failed(rf.post("/", REMOTE_ADDR=NAT), f"someone{n}")
    assert throttle.tries_left(request, "alice") == (2, False)
    # Elsewhere alice's account has its own full count.
    assert throttle.tries_left(rf.post("/", REMOTE_ADDR="198.51.100.9"), "alice") == (
        settings.LOGIN_ACCOUNT_LIMIT,
        False,
    )


def test_a_known_device_is_told_its_own_count(cast, frozen):
    phone = known_phone("alice")
    for _ in range(settings.LOGIN_ACCOUNT_LIMIT + 3):
        attempt(Client(), "alice", "wrong-password")  # pauses new devices, not the phone
    for _ in range(settings.LOGIN_DEVICE_LIMIT - 2):
        page = attempt(phone, "alice", "wrong-password").content.decode()
    assert "2 tries left before log-ins on this device pause for 15 minutes." in page
    assert "new devices" not in page
