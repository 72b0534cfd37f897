import re

import pytest
from django.core import mail
from django.urls import reverse

from leagues.models import User
from rummy.models import Game
from tests.cast import PASSWORD

from .conftest import make_game, make_season

SIGNUP = {
    "username": "erika",
    "display_name": "Erika",
    "email": "erika@example.com",
    "password1": "Carousel-is-fun-99",
    "password2": "Carousel-is-fun-99",
}


@pytest.mark.django_db
def test_signup_creates_account_then_the_newcomer_logs_in(client):
    # Nobody is logged in by the sign-up itself: its answer must be the same whether the
    # address was new or not (tests/leagues/test_signup_privacy.py).
    response = client.post(reverse("signup"), SIGNUP)
    assert response.status_code == 302 and response["Location"] == reverse("login")
    user = User.objects.get(username="erika")
    assert user.display_name == "Erika" and user.email == "erika@example.com"
    assert "_auth_user_id" not in client.session
    client.post(reverse("login"), {"username": "erika", "password": SIGNUP["password1"]})
    assert client.get(reverse("home")).context["user"] == user


@pytest.mark.django_db
def test_signup_sends_a_verification_link_and_the_link_verifies(client, mailoutbox):
    client.post(reverse("signup"), SIGNUP)
    user = User.objects.get(username="erika")
    assert not user.email_verified
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["erika@example.com"]
    link = next(w for w in mailoutbox[0].body.split() if "/notifications/verify/" in w)
    client.get(link.replace("http://testserver", ""))
    user.refresh_from_db()
    assert user.email_verified


@pytest.mark.django_db
def test_signup_applies_password_validators(client):
    data = {**SIGNUP, "password1": "12345678", "password2": "12345678"}
    response = client.post(reverse("signup"), data)
    assert response.status_code == 200
    assert response.context["form"].errors["password2"]
    assert not User.objects.filter(username="erika").exists()


def test_signup_with_a_taken_email_makes_no_second_account(client, cast):
    data = {**SIGNUP, "email": "ALICE@example.com"}
    response = client.post(reverse("signup"), data)
    assert response.status_code == 302 and response["Location"] == reverse("login")
    assert not User.objects.filter(username="erika").exists()


def test_login_and_logout(client, cast):
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert "_auth_user_id" in client.session
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_login_page_renders(client, db):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert b"Forgot your password?" in response.content


def test_password_change(client, cast):
    client.force_login(cast["owner"])
    assert client.get(reverse("password_change")).status_code == 200
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "Brand-new-secret-7",
            "new_password2": "Brand-new-secret-7",
        },
    )
    assert response["Location"] == reverse("password_change_done")
    cast["owner"].refresh_from_db()
    assert cast["owner"].check_password("Brand-new-secret-7")


def test_password_reset_by_email(client, cast, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"]
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", message.body).group(1)
    # Django redirects the token link to a session-bound URL, then accepts the new password.
    response = client.get(link, follow=True)
    assert response.context["validlink"]
    form_url = response.redirect_chain[-1][0]
    response = client.post(
        form_url, {"new_password1": "Reset-password-88", "new_password2": "Reset-password-88"}
    )
    assert response["Location"] == reverse("password_reset_complete")
    cast["owner"].refresh_from_db()
    assert cast["owner"].check_password("Reset-password-88")


def test_password_reset_unknown_email_sends_nothing(client, db, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert mail.outbox == []


def test_profile_shows_leagues_and_results(client, cast, public_league):
    season = make_season(public_league)
    make_game(
        public_league, season, [(cast["member"], 160, 3, True), (cast["owner"], 40, 1, False)]
    )
    client.force_login(cast["outsider"])
    response = client.get(reverse("profile", args=["carol"]))
    page = response.content.decode()
    assert response.status_code == 200
    assert public_league.name in page
    assert response.context["games_played"] == 1 and response.context["games_won"] == 1
    assert "1 game played, 1 won." in page  # one game, not "1 games"


def test_profile_counts_use_each_languages_plural_forms(client, cast, public_league):
    season = make_season(public_league)
    for _ in range(2):
        make_game(
            public_league, season, [(cast["member"], 160, 3, True), (cast["owner"], 40, 1, False)]
        )
    client.force_login(cast["outsider"])
    page = client.get(reverse("profile", args=["carol"])).content.decode()
    assert "2 games played, 2 won." in page
    client.cookies["django_language"] = "lv"
    page = client.get(reverse("profile", args=["carol"])).content.decode()
    assert "2 spēles izspēlētas, 2 uzvarētas." in page


def test_profile_hides_private_leagues_from_strangers(client, cast, league):
    season = make_season(league)
    make_game(league, season, [(cast["member"], 160, 3, True), (cast["owner"], 40, 1, False)])
    client.force_login(cast["outsider"])
    response = client.get(reverse("profile", args=["carol"]))
    assert league.name not in response.content.decode()
    assert response.context["games_played"] == 0
    client.force_login(cast["owner"])
    response = client.get(reverse("profile", args=["carol"]))
    assert league.name in response.content.decode()
    assert response.context["games_played"] == 1


def test_profile_unknown_user_is_404(client, cast):
    client.force_login(cast["owner"])
    assert client.get(reverse("profile", args=["nobody"])).status_code == 404


def test_home_landing_and_signed_in(client, cast, league):
    assert b"Sign up" in client.get(reverse("home")).content
    game = make_game(league, None, [(cast["owner"], 0, 0, False)], status=Game.Status.ACTIVE)
    client.force_login(cast["owner"])
    response = client.get(reverse("home"))
    assert league.name in response.content.decode()
    games = response.context["games"]  # rummy.lobby.games: your move / waiting / open
    assert [row["game"] for row in games["your_move"] + games["waiting"]] == [game]
