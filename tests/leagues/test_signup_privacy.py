"""Sign-up never confirms which email addresses have accounts: a taken address gets the
same answer as a new one (status, redirect, page text), no second account, and the
address's owner is told by email. Usernames are public (profiles), so a taken username
is still an error."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from leagues.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "Carousel-is-fun-99"


@pytest.fixture(autouse=True)
def _locmem_email(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def signup(client, username, email):
    return client.post(
        reverse("signup"),
        {
            "username": username,
            "display_name": username.title(),
            "email": email,
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


def answer(client, response, email):
    """What the person signing up sees, with the address itself taken out."""
    page = client.get(response["Location"])
    text = page.content.decode().replace(email, "ADDRESS")
    text = re.sub(r"\b[A-Za-z0-9]{64}\b", "CSRF-TOKEN", text)  # masked per response
    return (
        response.status_code,
        response["Location"],
        sorted(response.cookies),
        page.status_code,
        text,
        "_auth_user_id" in client.session,
    )


def test_a_taken_email_gets_the_same_answer_as_a_new_one(client, django_user_model):
    from django.test import Client

    owner = User.objects.create_user("alice", "alice@example.com", "pw", display_name="Alice")
    fresh = answer(client, signup(client, "erika", "erika@example.com"), "erika@example.com")
    other = Client()
    taken = answer(other, signup(other, "frida", "Alice@Example.com"), "Alice@Example.com")
    assert fresh == taken
    assert fresh[1] == reverse("login") and fresh[5] is False
    assert "confirm your address" in fresh[4]
    assert "already exists" not in taken[4]
    # No second account; the owner is told, with a way in.
    assert not User.objects.filter(username="frida").exists()
    assert User.objects.filter(email__iexact="alice@example.com").count() == 1
    (warning,) = [m for m in mail.outbox if m.to == [owner.email]]
    assert "tried to sign up" in warning.subject
    assert reverse("login") in warning.body and reverse("password_reset") in warning.body
    assert len([m for m in mail.outbox if m.to == ["erika@example.com"]]) == 1


def test_repeated_attempts_email_the_owner_once_in_a_while(client):
    User.objects.create_user("alice", "alice@example.com", "pw")
    for n in range(3):
        assert signup(client, f"frida{n}", "alice@example.com").status_code == 302
    assert len([m for m in mail.outbox if m.to == ["alice@example.com"]]) == 1


def test_a_taken_username_is_still_an_error(client):
    User.objects.create_user("alice", "alice@example.com", "pw")
    response = signup(client, "alice", "someone@example.com")
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert User.objects.count() == 1 and mail.outbox == []
