"""Deleting accounts at once on PostgreSQL: the same account deleted from eight browsers
at once is deleted once and no answer is a 500; the two owners of a league deleting
their accounts at once cannot leave it without an owner (one of them is told to hand
it over first)."""

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from leagues.models import Membership, User
from rummy.models import Game, Move, Seat
from tests.factories import make_league, make_user, started_game

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-for-tests-123"


def _at_once(calls):
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i):
        try:
            barrier.wait()
            results[i] = calls[i]()
        except Exception as error:  # reported, so that the test says which
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return results


def _browser(user):
    client = Client()
    client.force_login(user)
    return client


def test_one_account_deleted_from_eight_browsers_at_once_is_deleted_once():
    player, other = make_user(), make_user()
    game = started_game([player, other], league=make_league(other, members=[player]))
    browsers = [_browser(player) for _ in range(8)]
    answers = _at_once(
        [lambda b=b: b.post(reverse("delete_account"), {"password": PASSWORD}) for b in browsers]
    )
    codes = [getattr(a, "status_code", a) for a in answers]
    assert all(code == 302 for code in codes), codes
    gone = User.objects.get(pk=player.pk)
    assert gone.deleted_at is not None and not gone.is_active
    # One stand-in mark, one logged clock move for it, and the game goes on.
    assert Move.objects.filter(game=game, kind=Move.Kind.CLOCK).count() == 1
    assert Seat.objects.get(game=game, user=player).is_absent
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_two_owners_deleting_at_once_leave_the_league_an_owner():
    first, second, member = make_user(), make_user(), make_user()
    league = make_league(first, members=[member])
    Membership.objects.create(league=league, user=second, role=Membership.Role.OWNER)
    answers = _at_once(
        [
            lambda: _browser(first).post(reverse("delete_account"), {"password": PASSWORD}),
            lambda: _browser(second).post(reverse("delete_account"), {"password": PASSWORD}),
        ]
    )
    codes = sorted(getattr(a, "status_code", a) for a in answers)
    assert codes == [200, 302], codes  # one deleted, the other told to hand over first
    assert Membership.objects.filter(league=league, role=Membership.Role.OWNER).count() == 1
