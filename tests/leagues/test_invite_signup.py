"""An invite link opened by someone who is not logged in: the
page names the league and who invited (never its members); sign-up and log-in carry
the invitation through the session (no redirect address taken from the request) and end
with the newcomer in the league; the email check does not lose it; a link that stopped
working gets the neutral page; a double tap or many requests at once join once."""

import re
import threading
from urllib.parse import urlencode

import pytest
from django.contrib.messages import get_messages
from django.core import mail
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from leagues.models import Invite, Membership, User
from tests.cast import PASSWORD as CAST_PASSWORD
from tests.cast import make_person

NEW_PASSWORD = "Carousel-is-fun-99"


@pytest.fixture(autouse=True)
def _locmem_email(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.RATE_LIMITS = {"signup": "1000/h"}


@pytest.fixture
def invite(cast, league):
    league.description = "Tuesday evenings, three tables."
    league.save()
    return Invite.objects.create(league=league, created_by=cast["owner"], max_uses=5)


def msg(response):
    return " ".join(str(m) for m in get_messages(response.wsgi_request))


def sign_up(client, username, email, **extra):
    return client.post(
        reverse("signup") + extra.pop("query", ""),
        {
            "username": username,
            "display_name": username.title(),
            "email": email,
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
        },
    )


def log_in(client, username, password, next_url=None):
    url = reverse("login")
    if next_url is not None:
        url += "?" + urlencode({"next": next_url})
    return client.post(
        url,
        {"username": username, "password": password, **({"next": next_url} if next_url else {})},
    )


def verify_link(email):
    (message,) = [m for m in mail.outbox if m.to == [email]]
    return re.search(r"https?://[^/\s]+(/notifications/verify/[^\s]+/)", message.body).group(1)


# --- What the link shows ----------------------------------------------------------------


def test_a_stranger_sees_the_league_and_who_invited_but_not_its_members(client, cast, invite):
    response = client.get(invite.get_absolute_url())
    page = response.content.decode()
    assert response.status_code == 200
    assert invite.league.name in page and "Tuesday evenings, three tables." in page
    assert "Alice invites you" in page
    # The members (Bob, Carol) are not the link holder's business.
    assert "Bob" not in page and "Carol" not in page
    assert f'href="{reverse("signup")}"' in page
    assert "noindex" in page


def test_a_stranger_posting_the_join_form_is_sent_to_log_in_and_nothing_changes(
    client, cast, invite
):
    response = client.post(invite.get_absolute_url())
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert invite.token in response["Location"]
    invite.refresh_from_db()
    assert invite.uses == 0


def test_an_unusable_link_gives_the_neutral_page_to_a_stranger_too(client, cast, invite):
    Invite.objects.filter(pk=invite.pk).update(revoked_at=timezone.now())
    response = client.get(invite.get_absolute_url())
    page = response.content.decode()
    assert response.status_code == 404
    assert "cannot be used" in page and invite.league.name not in page
    # Nothing carried on to sign-up either.
    assert invite.league.name not in client.get(reverse("signup")).content.decode()


# --- Sign-up --------------------------------------------------------------------------


def test_sign_up_from_an_invite_joins_and_survives_the_email_check(client, cast, invite):
    client.get(invite.get_absolute_url())
    form = client.get(reverse("signup")).content.decode()
    assert f"Alice invited you to {invite.league.name}." in form

    response = sign_up(client, "nina", "nina@example.com")
    assert response.status_code == 302
    assert response["Location"] == reverse("login") + "?next=" + invite.get_absolute_url()
    nina = User.objects.get(username="nina")
    assert Membership.objects.get(league=invite.league, user=nina).role == "member"
    invite.refresh_from_db()
    assert invite.uses == 1

    # The email check, from another device (a fresh browser): nothing is lost.
    other_device = Client()
    assert other_device.get(verify_link("nina@example.com")).status_code == 200
    nina.refresh_from_db()
    assert nina.email_verified

    # Log-in on the first device leads to the league, with a welcome.
    after = log_in(client, "nina", NEW_PASSWORD, next_url=invite.get_absolute_url())
    assert after["Location"] == invite.get_absolute_url()
    landing = client.get(after["Location"])
    assert landing["Location"] == invite.league.get_absolute_url()
    assert f"Welcome to {invite.league.name}!" in msg(landing)
    # The invitation is used: home no longer offers it.
    assert 'id="invitation"' not in client.get(reverse("home")).content.decode()

    # And logging in on the other device finds the league on the home page.
    log_in(other_device, "nina", NEW_PASSWORD)
    home = other_device.get(reverse("home")).content.decode()
    assert invite.league.get_absolute_url() in home


def test_sign_up_with_a_taken_address_answers_the_same_and_joins_nobody(cast, invite):
    def answer(username, email):
        client = Client()
        client.get(invite.get_absolute_url())
        response = sign_up(client, username, email)
        page = client.get(response["Location"]).content.decode().replace(email, "ADDRESS")
        page = re.sub(r"\b[A-Za-z0-9]{64}\b", "CSRF-TOKEN", page)
        return response.status_code, response["Location"], page

    fresh = answer("erika", "erika@example.com")
    taken = answer("frida", "dave@example.com")  # Dave's address: an outsider of the league
    assert fresh == taken
    assert not Membership.objects.filter(league=invite.league, user=cast["outsider"]).exists()
    assert not User.objects.filter(username="frida").exists()
    invite.refresh_from_db()
    assert invite.uses == 1  # erika's


def test_sign_up_ignores_a_next_address_in_the_request(client, cast, invite):
    client.get(invite.get_absolute_url())
    response = sign_up(client, "nina", "nina@example.com", query="?next=https://evil.example/")
    assert "evil" not in response["Location"]
    assert response["Location"].startswith(reverse("login"))


def test_an_invite_revoked_before_sign_up_is_dropped_and_nobody_joins(client, cast, invite):
    client.get(invite.get_absolute_url())
    Invite.objects.filter(pk=invite.pk).update(revoked_at=timezone.now())
    response = sign_up(client, "nina", "nina@example.com")
    assert response["Location"] == reverse("login")
    assert not Membership.objects.filter(user__username="nina").exists()


def test_an_invite_used_up_between_the_form_and_the_sign_up_joins_nobody(client, cast, invite):
    client.get(invite.get_absolute_url())
    client.get(reverse("signup"))
    Invite.objects.filter(pk=invite.pk).update(max_uses=1, uses=1)
    sign_up(client, "nina", "nina@example.com")
    assert User.objects.filter(username="nina").exists()
    assert not Membership.objects.filter(user__username="nina").exists()


# --- Log-in ----------------------------------------------------------------------------


def test_log_in_from_an_invite_leads_to_one_tap_that_joins(client, cast, invite):
    client.get(invite.get_absolute_url())
    login_page = client.get(reverse("login")).content.decode()
    assert f"Alice invited you to {invite.league.name}." in login_page
    # No ``next`` (the header's "Log in"): the invite this browser holds comes first.
    response = log_in(client, "dave", CAST_PASSWORD)
    assert response["Location"] == invite.get_absolute_url()
    page = client.get(invite.get_absolute_url()).content.decode()
    assert f"Join {invite.league.name}" in page
    joined = client.post(invite.get_absolute_url())
    assert joined["Location"] == invite.league.get_absolute_url()
    assert Membership.objects.filter(league=invite.league, user=cast["outsider"]).exists()


def test_log_in_never_follows_a_next_to_another_site(client, cast, invite):
    client.get(invite.get_absolute_url())
    response = log_in(client, "dave", CAST_PASSWORD, next_url="https://evil.example/")
    assert response["Location"] == invite.get_absolute_url()


def test_home_offers_the_held_invite_until_it_is_used(client, cast, invite):
    client.get(invite.get_absolute_url())
    home = client.get(reverse("home")).content.decode()  # still logged out
    assert 'id="invitation"' in home and "Alice invites you" in home
    client.force_login(cast["outsider"])
    home = client.get(reverse("home")).content.decode()
    assert f'action="{invite.get_absolute_url()}"' in home
    client.post(invite.get_absolute_url())
    assert 'id="invitation"' not in client.get(reverse("home")).content.decode()


# --- Once only ----------------------------------------------------------------------------


def test_a_double_tap_joins_once(client, cast, invite):
    client.force_login(cast["outsider"])
    first = client.post(invite.get_absolute_url())
    second = client.post(invite.get_absolute_url())
    assert first["Location"] == second["Location"] == invite.league.get_absolute_url()
    assert "already a member" in msg(second)
    assert Membership.objects.filter(league=invite.league, user=cast["outsider"]).count() == 1
    invite.refresh_from_db()
    assert invite.uses == 1


def at_once(clients, url):
    barrier = threading.Barrier(len(clients))
    statuses, errors = [None] * len(clients), []

    def run(i):
        try:
            barrier.wait()
            statuses[i] = clients[i].post(url).status_code
        except Exception as error:  # a 500: the test client re-raises the view's error
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses, errors


def _client_of(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db(transaction=True)
def test_many_taps_at_once_join_once(cast, invite):
    dave = cast["outsider"]
    statuses, errors = at_once([_client_of(dave) for _ in range(6)], invite.get_absolute_url())
    assert errors == []
    assert set(statuses) == {302}
    assert Membership.objects.filter(league=invite.league, user=dave).count() == 1
    invite.refresh_from_db()
    assert invite.uses == 1


@pytest.mark.django_db(transaction=True)
def test_the_last_use_goes_to_one_person_only(cast, invite):
    Invite.objects.filter(pk=invite.pk).update(max_uses=1)
    people = [make_person(f"guest{i}") for i in range(5)]
    statuses, errors = at_once([_client_of(p) for p in people], invite.get_absolute_url())
    assert errors == []
    # The one who got in is sent to the league; the others to the neutral page (404),
    # directly or after a refused join.
    assert set(statuses) <= {302, 404}
    assert Membership.objects.filter(league=invite.league, user__in=people).count() == 1
    invite.refresh_from_db()
    assert invite.uses == 1


# --- The newcomer's first log-in, wherever it happens -----------------------------------


def test_the_address_check_says_which_league_the_newcomer_joined(client, cast, invite):
    client.get(invite.get_absolute_url())
    sign_up(client, "nina", "nina@example.com")
    page = Client().get(verify_link("nina@example.com")).content.decode()
    assert f"You joined {invite.league.name}." in page
    assert f'href="{invite.league.get_absolute_url()}"' in page


def test_the_first_log_in_bound_for_home_lands_in_the_league(client, cast, invite):
    client.get(invite.get_absolute_url())
    sign_up(client, "nina", "nina@example.com")
    other_device = Client()  # no invite in its session
    response = log_in(other_device, "nina", NEW_PASSWORD)
    assert response["Location"] == invite.league.get_absolute_url()
    assert msg(response) == f"You joined {invite.league.name}."
    # Only the first: the next log-in goes Home, and the address check no longer says it.
    again = log_in(Client(), "nina", NEW_PASSWORD)
    assert again["Location"] == reverse("home")
    page = Client().get(verify_link("nina@example.com")).content.decode()
    assert "You joined" not in page


def test_the_first_log_in_follows_a_next_it_was_given(client, cast, invite):
    client.get(invite.get_absolute_url())
    sign_up(client, "nina", "nina@example.com")
    settings_url = reverse("notifications:settings")
    response = log_in(Client(), "nina", NEW_PASSWORD, next_url=settings_url)
    assert response["Location"] == settings_url


def test_a_first_log_in_without_a_league_goes_home(client, cast):
    sign_up(client, "nina", "nina@example.com")
    assert log_in(Client(), "nina", NEW_PASSWORD)["Location"] == reverse("home")
