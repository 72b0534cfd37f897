"""Sign-up tells a newcomer everything at once: every problem with the password in one
answer, and what the email address is for."""

import pytest
from django.urls import reverse

from leagues.models import User

SIGNUP = {
    "username": "erika",
    "display_name": "Erika",
    "email": "erika@example.com",
}


@pytest.mark.django_db
def test_signup_reports_a_mismatch_and_a_short_password_at_once(client):
    # A typo in the confirmation must not hide that the password is too short.
    data = {**SIGNUP, "password1": "x7Kq", "password2": "x7Kz"}
    response = client.post(reverse("signup"), data)
    assert response.status_code == 200
    form = response.context["form"]
    assert form.has_error("password2", "password_mismatch")
    assert form.has_error("password1", "password_too_short")
    page = response.content.decode()
    assert "didn’t match" in page and "too short" in page
    assert not User.objects.filter(username="erika").exists()


@pytest.mark.django_db
def test_signup_says_what_the_email_address_is_for(client):
    page = client.get(reverse("signup")).content.decode()
    assert "Only used to reset your password" not in page
    assert "tell you when it is your move" in page
