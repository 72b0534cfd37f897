"""Rate limits (leagues.limits) on what makes the site create accounts or send email:
over the limit, a POST changes nothing, sends nothing and is answered 429 with a page
that says so."""

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from leagues.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _mail(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def signup(n, ip="203.0.113.7"):
    password = "Carousel-is-fun-99"
    return Client().post(
        reverse("signup"),
        {
            "username": f"newcomer{n}",
            "display_name": f"Newcomer {n}",
            "email": f"newcomer{n}@example.com",
            "password1": password,
            "password2": password,
        },
        REMOTE_ADDR=ip,
    )


def test_one_address_cannot_make_accounts_without_end(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "signup": "10/h"}
    assert all(signup(n).status_code == 302 for n in range(10))
    sent = len(mail.outbox)
    over = signup(10)
    assert over.status_code == 429
    assert "too many times" in over.content.decode()
    assert not User.objects.filter(username="newcomer10").exists()
    assert len(mail.outbox) == sent
    # Another address is not held back.
    assert signup(11, ip="198.51.100.4").status_code == 302


def test_showing_the_form_is_not_counted(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "signup": "2/h"}
    for _ in range(5):
        assert Client().get(reverse("signup"), REMOTE_ADDR="203.0.113.7").status_code == 200
    assert signup(1).status_code == 302


def reset(email, ip="203.0.113.7"):
    return Client().post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=ip)


@pytest.fixture
def alice():
    return User.objects.create_user(
        "alice", "alice@example.com", "a-long-pass-42", display_name="Alice"
    )


def test_one_mailbox_gets_few_reset_emails_whoever_asks(settings, alice):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "password_reset_email": "3/h"}
    statuses = [reset("alice@example.com", ip=f"198.51.100.{n}").status_code for n in range(15)]
    assert statuses == [302] * 3 + [429] * 12
    assert len(mail.outbox) == 3
    # The same address written differently is the same mailbox.
    assert reset(" ALICE@example.com ", ip="198.51.100.99").status_code == 429


def test_one_address_cannot_ask_for_resets_without_end(settings, alice):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "password_reset": "10/h"}
    statuses = [reset(f"someone{n}@example.com").status_code for n in range(12)]
    assert statuses == [302] * 10 + [429] * 2
    assert reset("alice@example.com").status_code == 429
    assert mail.outbox == []
