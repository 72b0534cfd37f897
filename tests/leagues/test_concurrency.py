"""The same request many times at once, through the real views, on real connections:
each answer is a clear 4xx, a form error or the success, never a 500, and the rules hold
(one account per username and per address, a league always has an owner, seasons never
overlap). Run on SQLite by default and on PostgreSQL when DATABASE_URL is set; the
races in leagues.services only show on PostgreSQL, where writes really run in parallel."""

import datetime
import threading

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from leagues.models import League, Membership, Season, User
from tests.factories import make_league, make_user

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "Carousel-is-fun-99"


@pytest.fixture(autouse=True)
def _quiet(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    # Twelve sign-ups from one address would trip the sign-up rate limit (leagues.limits).
    settings.RATE_LIMITS = {"signup": "1000/h"}


def at_once(requests):
    """Run each ``request(client)`` in a thread of its own, all released together; the
    responses' status codes, and any exception a view raised (a 500)."""
    clients = [client for client, _request in requests]
    barrier = threading.Barrier(len(requests))
    statuses, errors = [None] * len(requests), []

    def run(i, request):
        try:
            barrier.wait()
            statuses[i] = request(clients[i]).status_code
        except Exception as error:  # a 500: the test client re-raises the view's error
            errors.append(error)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(i, request))
        for i, (_client, request) in enumerate(requests)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses, errors


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def signup(username, email):
    def request(client):
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

    return request


# --- C: concurrent creation -----------------------------------------------------------


def test_one_username_signed_up_twelve_times_at_once():
    statuses, errors = at_once(
        [(Client(), signup("erika", "erika@example.com")) for _ in range(12)]
    )
    assert errors == []
    assert set(statuses) <= {200, 302} and statuses.count(302) >= 1
    assert User.objects.filter(username="erika").count() == 1


def test_one_email_signed_up_twelve_times_at_once():
    # Different usernames, one address: every answer is the same "check your email".
    statuses, errors = at_once(
        [(Client(), signup(f"erika{n}", "erika@example.com")) for n in range(12)]
    )
    assert errors == []
    assert statuses == [302] * 12
    assert User.objects.filter(email__iexact="erika@example.com").count() == 1


def test_one_league_name_created_ten_times_at_once():
    users = [make_user() for _ in range(10)]

    def create(client):
        return client.post(
            reverse("leagues:create"), {"name": "Night Owls", "visibility": "invite"}
        )

    statuses, errors = at_once([(logged_in(user), create) for user in users])
    assert errors == []
    assert statuses == [302] * 10
    leagues = League.objects.filter(name="Night Owls")
    assert leagues.count() == 10 and len({league.slug for league in leagues}) == 10
    assert Membership.objects.filter(role=Membership.Role.OWNER).count() == 10


# --- D: the rules that read what they change ------------------------------------------

ROUNDS = 4  # a race is a matter of chance: a few leagues make losing it near certain


def two_owner_leagues():
    for _ in range(ROUNDS):
        first, second = make_user(), make_user()
        league = make_league(first)
        Membership.objects.create(league=league, user=second, role=Membership.Role.OWNER)
        yield league, first, second


def owners(league):
    return league.memberships.filter(role=Membership.Role.OWNER).count()


def test_two_owners_leaving_at_once_leave_an_owner():
    for league, first, second in two_owner_leagues():

        def leave(client, slug=league.slug):
            return client.post(reverse("leagues:leave", args=[slug]))

        statuses, errors = at_once([(logged_in(first), leave), (logged_in(second), leave)])
        assert errors == [] and statuses == [302, 302]
        assert owners(league) == 1


def test_two_owners_stepping_down_at_once_leave_an_owner():
    for league, first, second in two_owner_leagues():

        def step_down(user, league=league):
            pk = league.memberships.get(user=user).pk

            def request(client):
                return client.post(
                    reverse("leagues:set_role", args=[league.slug, pk]),
                    {"role": Membership.Role.ADMIN},
                )

            return request

        statuses, errors = at_once(
            [(logged_in(first), step_down(first)), (logged_in(second), step_down(second))]
        )
        assert errors == [] and statuses == [302, 302]
        assert owners(league) == 1


def test_two_owners_demoting_each_other_at_once_leave_an_owner():
    for league, first, second in two_owner_leagues():

        def demote(user, league=league):
            pk = league.memberships.get(user=user).pk

            def request(client):
                return client.post(
                    reverse("leagues:set_role", args=[league.slug, pk]),
                    {"role": Membership.Role.MEMBER},
                )

            return request

        statuses, errors = at_once(
            [(logged_in(first), demote(second)), (logged_in(second), demote(first))]
        )
        # 403: the view's own check already saw the other's demotion.
        assert errors == [] and set(statuses) <= {302, 403}
        assert owners(league) == 1


def test_ten_identical_seasons_at_once_make_one():
    owner = make_user()
    league = make_league(owner)
    start = datetime.date(2030, 1, 1)
    data = {
        "name": "Spring",
        "starts_on": start.isoformat(),
        "ends_on": (start + datetime.timedelta(days=60)).isoformat(),
        "target_score": 150,
        "knock_limit": 5,
        "turn_seconds": 86400,
    }

    def create(client):
        return client.post(reverse("leagues:season_create", args=[league.slug]), data)

    statuses, errors = at_once([(logged_in(owner), create) for _ in range(10)])
    assert errors == []
    assert set(statuses) <= {200, 302} and statuses.count(302) == 1
    assert Season.objects.filter(league=league).count() == 1
