"""No name or free-text field takes a control character (leagues.validators): a line
break in a league's name once broke every email subject that named it. A description
may have line breaks, and only those."""

import pytest
from django.urls import reverse

from leagues.forms import LeagueForm, SeasonForm, SignupForm
from leagues.models import League, Season, User
from leagues.validators import MESSAGE

pytestmark = pytest.mark.django_db

BAD = [
    "Evil\r\nBcc: x@example.com",
    "tab\there",
    "nul\x00",
    "del\x7f",
    "c1\x85",
    "line\u2028sep",
    "para\u2029sep",
    "esc\x1b[31m",
]

SIGNUP = {
    "username": "erika",
    "display_name": "Erika",
    "email": "erika@example.com",
    "password1": "Carousel-is-fun-99",
    "password2": "Carousel-is-fun-99",
}


@pytest.mark.parametrize("value", BAD)
@pytest.mark.parametrize("field", ["username", "display_name", "email"])
def test_signup_refuses_control_characters(field, value):
    form = SignupForm({**SIGNUP, field: f"a{value}b"})
    assert not form.is_valid()
    assert field in form.errors


@pytest.mark.parametrize("value", BAD)
def test_league_and_season_names_refuse_control_characters(value):
    form = LeagueForm({"name": f"Club {value} x", "description": "", "visibility": "invite"})
    assert not form.is_valid() and str(MESSAGE) in form.errors["name"]
    form = SeasonForm(
        {
            "name": f"Spring {value} x",
            "starts_on": "2025-01-01",
            "ends_on": "2025-02-01",
            "target_score": 150,
            "knock_limit": 5,
            "turn_seconds": 86400,
        },
        instance=Season(),
    )
    assert not form.is_valid() and str(MESSAGE) in form.errors["name"]


def test_a_description_keeps_its_line_breaks_and_nothing_else():
    form = LeagueForm(
        {"name": "Club", "description": "Line one\r\nLine two\rthree", "visibility": "invite"}
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["description"] == "Line one\nLine two\nthree"
    for value in ["tab\there", "nul\x00", "c1\x85c1", "line\u2028sep"]:
        form = LeagueForm({"name": "Club", "description": value, "visibility": "invite"})
        assert not form.is_valid() and "description" in form.errors


def test_creating_a_league_with_a_line_break_in_its_name_changes_nothing(client):
    client.force_login(User.objects.create_user("alice", "alice@example.com", "pw"))
    response = client.post(
        reverse("leagues:create"), {"name": "Evil\r\nBcc: x@example.com", "visibility": "invite"}
    )
    assert response.status_code == 200
    assert "control characters" in response.content.decode()
    assert not League.objects.exists()


def test_ordinary_names_still_pass():
    assert SignupForm({**SIGNUP, "display_name": "Ēriks Õun 🎲"}).is_valid()
    assert LeagueForm({"name": "Rīgas Klubs — Tallinn", "visibility": "public"}).is_valid()
