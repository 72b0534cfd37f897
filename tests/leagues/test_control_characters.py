"""No name or free-text field takes a control character (leagues.validators): a line
break in a league's name once broke every email subject that named it. A description
may have line breaks, and only those. Nor an invisible format character (a right-to-left
override, a zero-width space, a byte order mark): at sign-up, on the admin's pages (where
a name is edited later) and for league and season names."""

import pytest
from django.contrib import admin
from django.test import RequestFactory
from django.urls import reverse

from leagues.admin import LeagueAdmin, SeasonAdmin, UserAdmin
from leagues.forms import LeagueForm, SeasonForm, SignupForm
from leagues.models import League, Season, User
from leagues.validators import FORMAT_MESSAGE, MESSAGE

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


# Invisible format characters (Unicode category Cf): they reorder (U+202E, the right-to-
# left override; U+2066, an isolate), hide (U+200B, the zero-width space; U+FEFF, the byte
# order mark; U+00AD, the soft hyphen; U+2060, the word joiner) or tag (U+E0041) text.
FORMAT = ["\u202e", "\u200b", "\ufeff", "\u200e", "\u2066", "\u00ad", "\u2060", "\U000e0041"]


@pytest.mark.parametrize("char", FORMAT)
@pytest.mark.parametrize("field", ["username", "display_name", "email"])
def test_signup_refuses_invisible_format_characters(field, char):
    form = SignupForm({**SIGNUP, field: f"al{char}ice"})
    assert not form.is_valid()
    assert field in form.errors
    if field == "display_name":
        assert form.errors[field] == [str(FORMAT_MESSAGE)]


@pytest.mark.parametrize("char", FORMAT)
def test_signing_up_with_an_invisible_character_in_the_name_changes_nothing(client, char):
    response = client.post(
        reverse("signup"), {**SIGNUP, "display_name": f"Erika{char}gnp.exe"}, follow=True
    )
    assert response.status_code == 200
    assert "invisible characters" in response.content.decode()
    assert not User.objects.exists()


@pytest.mark.parametrize("char", FORMAT)
def test_league_and_season_names_and_descriptions_refuse_format_characters(char):
    form = LeagueForm({"name": f"Club{char}x", "description": "", "visibility": "invite"})
    assert not form.is_valid() and form.errors["name"] == [str(FORMAT_MESSAGE)]
    form = LeagueForm({"name": "Club", "description": f"a\nb{char}c", "visibility": "invite"})
    assert not form.is_valid() and form.errors["description"] == [str(FORMAT_MESSAGE)]
    form = SeasonForm(
        {
            "name": f"Spring{char}x",
            "starts_on": "2025-01-01",
            "ends_on": "2025-02-01",
            "target_score": 150,
            "knock_limit": 5,
            "turn_seconds": 86400,
        },
        instance=Season(),
    )
    assert not form.is_valid() and form.errors["name"] == [str(FORMAT_MESSAGE)]


def _admin_form(admin_class, model, obj, superuser):
    request = RequestFactory().get("/admin/")
    request.user = superuser
    model_admin = admin_class(model, admin.site)
    return model_admin.get_form(request, obj=obj, change=obj is not None)


def _as_data(form):
    """The text fields of the change page as they stand."""
    return {name: value for name, value in form.initial.items() if isinstance(value, str)}


@pytest.mark.parametrize("char", FORMAT)
def test_the_profile_edit_refuses_format_characters_in_names(char):
    """A display name is edited after sign-up only on the admin's change page (the
    player's own pages do not edit it): it takes the same rules."""
    superuser = User.objects.create_superuser("root", "root@example.com", "pw")
    player = User.objects.create_user("erika", "erika@example.com", "pw", display_name="Erika")
    Form = _admin_form(UserAdmin, User, player, superuser)
    data = _as_data(Form(instance=player))
    assert not {"display_name", "username"} & set(Form(data, instance=player).errors)
    for field in ("display_name", "username", "first_name", "last_name"):
        form = Form({**data, field: f"Er{char}ika"}, instance=player)
        assert not form.is_valid() and form.errors[field] == [str(FORMAT_MESSAGE)], field
    # Adding a player in the admin: the same.
    Form = _admin_form(UserAdmin, User, None, superuser)
    form = Form(
        {
            "username": "newcomer",
            "display_name": f"New{char}comer",
            "email": "new@example.com",
            "usable_password": "false",
        }
    )
    assert not form.is_valid() and form.errors["display_name"] == [str(FORMAT_MESSAGE)]
    player.refresh_from_db()
    assert player.display_name == "Erika"


@pytest.mark.parametrize("char", ["\u202e", "\u200b", "\ufeff"])
def test_the_admin_refuses_format_characters_in_league_and_season_names(char):
    superuser = User.objects.create_superuser("root", "root@example.com", "pw")
    Form = _admin_form(LeagueAdmin, League, None, superuser)
    form = Form({"name": f"Club{char}", "slug": "club", "visibility": "invite"})
    assert not form.is_valid() and form.errors["name"] == [str(FORMAT_MESSAGE)]
    Form = _admin_form(SeasonAdmin, Season, None, superuser)
    form = Form({"name": f"Spring{char}", "starts_on": "2025-01-01", "ends_on": "2025-02-01"})
    assert not form.is_valid() and form.errors["name"] == [str(FORMAT_MESSAGE)]


def test_names_in_other_scripts_and_with_emoji_still_pass():
    for name in ["Ēriks Õun 🎲", "עִבְרִית", "العربية", "Ελληνικά", "日本語の名前", "👍🏽"]:
        assert SignupForm({**SIGNUP, "display_name": name}).is_valid(), name
