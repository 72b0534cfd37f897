"""config.db.sessions: the session store reads what Django's database store reads (the
unexpired row of the key), with its SQL written once; the database stays the truth."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from config.db.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_it_is_the_sites_session_engine():
    assert settings.SESSION_ENGINE == "config.db.sessions"


def test_a_live_session_loads_as_djangos_store_loads_it(django_assert_num_queries):
    made = DjangoStore()
    made["_auth_user_id"] = "7"
    made["sort"] = "rank"
    made.create()
    key = made.session_key
    with django_assert_num_queries(1):
        ours = SessionStore(key).load()
    assert ours == DjangoStore(key).load() == {"_auth_user_id": "7", "sort": "rank"}
    store = SessionStore(key)
    assert store["sort"] == "rank" and store.session_key == key


@pytest.mark.parametrize("ended", ["expired", "deleted", "unknown", "malformed"])
def test_an_ended_or_unknown_session_loads_empty_and_forgets_its_key(ended):
    made = SessionStore()
    made["_auth_user_id"] = "7"
    made.create()
    key = made.session_key
    if ended == "expired":
        Session.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    elif ended == "deleted":
        Session.objects.filter(pk=key).delete()
    elif ended == "unknown":
        key = "x" * 32
    else:
        key = "'; DROP TABLE django_session; --"
    store = SessionStore(key)
    assert store.load() == {}
    assert store.session_key is None
    assert Session.objects.exists() == (ended != "deleted")


def test_a_saved_session_reads_back():
    store = SessionStore()
    store["a"] = 1
    store.save()
    store["b"] = 2
    store.save()
    assert SessionStore(store.session_key).load() == {"a": 1, "b": 2}
