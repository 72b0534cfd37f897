"""config.db.reads: the rows the ORM returns for the same equal-columns filters, with the
SQL written once; and the users, rights and header counts read through it."""

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.db.models.signals import post_init
from django.urls import reverse

from config.db import reads
from config.db.backends import UserBackend
from config.db.sessions import SessionStore
from leagues.access import membership_for
from leagues.models import Membership, User
from rummy.lobby.games import move_count
from rummy.models import Game, Seat
from tests.factories import make_league, make_user, started_game

pytestmark = pytest.mark.django_db


def _values(obj):
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def test_a_row_is_the_orms_row_field_for_field(django_assert_num_queries):
    user = make_user(display_name="Zoë", language="lv")
    with django_assert_num_queries(1):
        ours = reads.first(User, pk=user.pk)
    theirs = User.objects.get(pk=user.pk)
    assert type(ours) is User and _values(ours) == _values(theirs)
    assert ours._state.adding is False and ours._state.db == "default"


@pytest.mark.parametrize("model", [User, Game, Seat])
def test_a_row_is_the_orms_instance(model):
    game = started_game([make_user(), make_user()])
    theirs = {
        User: lambda: User.objects.get(pk=game.host_id),
        Game: lambda: Game.objects.get(pk=game.pk),
        Seat: lambda: Seat.objects.filter(game=game).first(),
    }[model]()
    ours = reads.from_row(model, "default", list(_values(theirs).values()))
    assert type(ours) is model and _values(ours) == _values(theirs)
    assert ours._state.adding is False and ours._state.db == "default"
    # It behaves as the ORM's: a foreign key reads its row, a save updates in place.
    if model is Seat:
        assert ours.game == game and ours.user_id == theirs.user_id
        ours.final_score = 7
        ours.save(update_fields=["final_score"])
        assert Seat.objects.get(pk=ours.pk).final_score == 7


def test_a_row_goes_through_post_init_receivers():
    user = make_user()
    seen = []

    def receiver(sender, instance, **kwargs):
        seen.append(instance)

    post_init.connect(receiver, sender=User)
    try:
        ours = reads.first(User, pk=user.pk)
    finally:
        post_init.disconnect(receiver, sender=User)
    assert seen == [ours]


def test_rows_filter_on_every_column_given_and_keep_the_keys_order():
    owner, a, b = make_user(), make_user(), make_user()
    league = make_league(owner, members=[a, b])
    other = make_league(a)
    got = reads.rows(Membership, league=league)
    assert [m.pk for m in got] == list(
        Membership.objects.filter(league=league).order_by("pk").values_list("pk", flat=True)
    )
    assert reads.first(Membership, league=other, user=a).role == Membership.Role.OWNER
    assert reads.first(Membership, league=other, user=b) is None
    assert [m.pk for m in reads.rows(Membership, limit=1, league=league)] == [got[0].pk]


def test_count_counts_what_the_orm_counts():
    a, b, c = make_user(), make_user(), make_user()
    game = started_game([a, b, c])
    mover = game.to_move
    assert move_count(mover) == 1 == Game.objects.filter(to_move=mover).count()
    others = [u for u in (a, b, c) if u != mover]
    assert [move_count(u) for u in others] == [0, 0]
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert move_count(mover) == 0


def test_membership_for_is_none_for_strangers_the_anonymous_and_no_league():
    from django.contrib.auth.models import AnonymousUser

    owner, stranger = make_user(), make_user()
    league = make_league(owner)
    assert membership_for(owner, league).role == Membership.Role.OWNER
    assert membership_for(stranger, league) is None
    assert membership_for(AnonymousUser(), league) is None
    assert membership_for(owner, None) is None


def test_the_backend_reads_active_users_only():
    user = make_user()
    backend = UserBackend()
    assert _values(backend.get_user(user.pk)) == _values(User.objects.get(pk=user.pk))
    assert backend.get_user(user.pk + 1000) is None
    User.objects.filter(pk=user.pk).update(is_active=False)
    assert backend.get_user(user.pk) is None


def _session_for(user, backend_path):
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = backend_path
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


@pytest.mark.parametrize(
    "path",
    [
        "django.contrib.auth.backends.ModelBackend",
        "leagues.backends.UserBackend",
        "config.db.backends.UserBackend",
    ],
)
def test_sessions_made_before_the_backend_stay_signed_in(client, path):
    """A session naming Django's ModelBackend (every session made before this backend)
    or our backend where it lived before (the leagues app) is read as naming ours:
    nobody is logged out by the change."""
    user = make_user()
    client.cookies["sessionid"] = _session_for(user, path)
    page = client.get(reverse("home"))
    assert page.status_code == 200 and page.wsgi_request.user == user


def test_a_session_naming_an_unknown_backend_is_signed_out(client):
    user = make_user()
    path = "django.contrib.auth.backends.RemoteUserBackend"
    client.cookies["sessionid"] = _session_for(user, path)
    page = client.get(reverse("home"))
    assert not page.wsgi_request.user.is_authenticated


def test_logging_in_names_our_backend(client):
    user = make_user(password="pw-for-tests-123")
    assert client.login(username=user.username, password="pw-for-tests-123")
    assert client.session[BACKEND_SESSION_KEY] == "config.db.backends.UserBackend"
