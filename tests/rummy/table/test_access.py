"""rummy.table.access: what a user may do at a league's tables, as each process keeps it
(a socket takes it until it is told of a change; a page request at most
``VIEW_CHECK_SECONDS`` old)."""

import time

import pytest

from leagues.models import Membership
from rummy.table import access, memory
from tests.rummy.conftest import start_two

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh():
    memory.clear_all()
    yield
    memory.clear_all()


def _age(user, game, seconds):
    key = (user.pk, game.league_id)
    found, _checked = memory.view_checks.get(key)
    memory.view_checks.put(key, (found, time.monotonic() - seconds))


def test_a_page_request_reads_rights_older_than_its_limit_and_a_socket_does_not(
    league, cast, django_assert_num_queries
):
    game = access.game_with_seats(start_two(league, cast).pk)  # its league loaded
    carol = cast["carol"]
    with django_assert_num_queries(1):
        assert access.rights(carol, game).is_member
    _age(carol, game, access.VIEW_CHECK_SECONDS + 1)
    with django_assert_num_queries(0):
        assert access.rights(carol, game, access.SOCKET_RIGHTS_SECONDS).is_member
    with django_assert_num_queries(1):
        assert access.rights(carol, game).is_member
    _age(carol, game, access.SOCKET_RIGHTS_SECONDS + 1)
    assert access.remembered_rights(carol, game, access.SOCKET_RIGHTS_SECONDS) is None


def test_a_change_is_forgotten_in_this_process_when_committed(
    league, cast, django_capture_on_commit_callbacks
):
    """The process that changes a membership forgets the user's rights there on commit
    (its own page requests see the change at once), and no one else's."""
    game = start_two(league, cast)
    carol, bob = cast["carol"], cast["bob"]
    assert access.rights(carol, game).may_view and access.rights(bob, game).may_view
    with django_capture_on_commit_callbacks(execute=True):
        Membership.objects.filter(user=carol, league=league).get().delete()
        assert memory.view_checks.get((carol.pk, league.pk)) is not None  # not yet
    assert memory.view_checks.get((carol.pk, league.pk)) is None
    assert memory.view_checks.get((bob.pk, league.pk)) is not None
    assert access.rights(carol, game).may_view is False


def test_rights_read_while_a_change_is_told_are_not_kept(league, cast, monkeypatch):
    """A read that began before a change was told may predate it: it answers its own
    caller, but is not remembered (else a socket would keep the old rights for
    SOCKET_RIGHTS_SECONDS)."""
    game = start_two(league, cast)
    carol = cast["carol"]
    real = access.membership_for

    def read_while_told(user, league):
        found = real(user, league)
        access.forget_rights(user.pk, league.pk)  # the change's message lands meanwhile
        return found

    monkeypatch.setattr(access, "membership_for", read_while_told)
    assert access.rights(carol, game).is_member
    assert memory.view_checks.get((carol.pk, league.pk)) is None
    monkeypatch.setattr(access, "membership_for", real)
    assert access.rights(carol, game).is_member
    assert memory.view_checks.get((carol.pk, league.pk)) is not None


def test_forget_rights_drops_by_user_by_league_or_both():
    for key in [(1, 10), (1, 11), (2, 10), (2, 11)]:
        memory.view_checks.put(key, ("rights", 0.0))
    access.forget_rights(1, 10)
    assert memory.view_checks.get((1, 10)) is None and memory.view_checks.get((1, 11))
    access.forget_rights(None, 11)
    assert memory.view_checks.get((1, 11)) is None and memory.view_checks.get((2, 11)) is None
    assert memory.view_checks.get((2, 10)) is not None
