"""Keeping to the privacy page (``rummy.background.retention``): what is older than the
periods the page states goes, by a pass of the background work; the page and the pass
read the same settings, so changing a period changes both."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from leagues.models import User
from leagues.privacy import periods
from rummy import play
from rummy.background import retention, scan, tasks
from rummy.models import Notice, PushNotice, PushSubscription
from tests.factories import make_league, make_user, started_game
from tests.rummy.background.test_queue import run_jobs


def _signed_up(days_ago, **fields):
    user = make_user(email_verified=False, **fields)
    User.objects.filter(pk=user.pk).update(
        date_joined=timezone.now() - timedelta(days=days_ago), last_login=None
    )
    return user


def _claimed(model, days_ago, **fields):
    row = model.objects.create(**fields)
    model.objects.filter(pk=row.pk).update(claimed_at=timezone.now() - timedelta(days=days_ago))
    return row


@pytest.mark.django_db
def test_unconfirmed_sign_ups_go_after_the_stated_period(settings):
    settings.RETENTION_UNCONFIRMED_SIGNUP_DAYS = 10
    old = _signed_up(11)
    recent = _signed_up(9)
    confirmed = _signed_up(11)
    User.objects.filter(pk=confirmed.pk).update(email_verified=True)
    logged_in = _signed_up(11)
    User.objects.filter(pk=logged_in.pk).update(last_login=timezone.now())
    seated = _signed_up(11)
    league = make_league(make_user(), members=[seated])
    open_table = play.open_table(league, seated, max_seats=2)
    removed = retention.retention_pass()
    assert removed["unconfirmed_signups"] == 1
    assert not User.objects.filter(pk=old.pk).exists()
    for kept in (recent, confirmed, logged_in, seated):
        assert User.objects.filter(pk=kept.pk).exists()
    assert open_table.seats.filter(user=seated).exists()


@pytest.mark.django_db
def test_old_notice_rows_go_after_the_stated_period(settings):
    settings.RETENTION_NOTICE_DAYS = 30
    players = [make_user(), make_user()]
    game = started_game(players)
    device = PushSubscription.objects.create(user=players[0], endpoint="https://push.example/1")
    old = _claimed(Notice, 31, user=players[0], game=game, kind=Notice.Kind.RESULT)
    new = _claimed(Notice, 29, user=players[1], game=game, kind=Notice.Kind.RESULT)
    old_push = _claimed(PushNotice, 31, subscription=device, game=game, kind=Notice.Kind.RESULT)
    new_push = _claimed(
        PushNotice,
        1,
        subscription=device,
        game=game,
        kind=Notice.Kind.YOUR_MOVE,
        turn_started_at=timezone.now(),
    )
    removed = retention.retention_pass()
    assert removed == {"unconfirmed_signups": 0, "email_notices": 1, "push_notices": 1}
    assert not Notice.objects.filter(pk=old.pk).exists()
    assert not PushNotice.objects.filter(pk=old_push.pk).exists()
    assert Notice.objects.filter(pk=new.pk).exists()
    assert PushNotice.objects.filter(pk=new_push.pk).exists()
    assert PushSubscription.objects.filter(pk=device.pk).exists()


@pytest.mark.django_db
def test_the_privacy_page_states_the_periods_the_pass_keeps_to(client, settings):
    settings.RETENTION_UNCONFIRMED_SIGNUP_DAYS = 12
    settings.RETENTION_NOTICE_DAYS = 45
    settings.LOGIN_PAUSE_SECONDS = 30 * 60
    page = client.get(reverse("privacy")).content.decode()
    assert "12 days after sign-up" in page
    assert "the notes of what we sent, 45 days." in page
    assert "the counts at most 1 hour" in page
    assert periods().notices == timedelta(days=45)
    assert periods().unconfirmed_signup == timedelta(days=12)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Privacy", "14 days after sign-up", "Chat and league boards"]),
        ("lv", ["Privātums", "14 dienas pēc reģistrācijas", "90 dienas", "Tērzēšana un līgu"]),
        ("et", ["Privaatsus", "14 päeva pärast registreerumist", "90 päeva", "Vestlus ja liigade"]),
    ],
)
def test_the_privacy_page_speaks_each_language(client, language, words):
    page = client.get(reverse("privacy"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in words:
        assert word in page


@pytest.mark.django_db
def test_the_privacy_page_is_linked_from_the_footer_and_sign_up(client):
    assert f'href="{reverse("privacy")}"' in client.get(reverse("how_to_play")).content.decode()
    signup = client.get(reverse("signup")).content.decode()
    assert signup.count(f'href="{reverse("privacy")}"') == 2  # the form's note and the footer


@pytest.mark.django_db(transaction=True)
def test_the_cleanup_is_a_periodic_pass_of_the_background_work(settings):
    settings.RETENTION_UNCONFIRMED_SIGNUP_DAYS = 3
    old = _signed_up(4)
    assert ("every:retention", tasks.retention_cleanup) in scan.PASSES
    scan.look()
    run_jobs()
    assert DBTaskResult.objects.filter(task_path=tasks.retention_cleanup.module_path).exists()
    assert not User.objects.filter(pk=old.pk).exists()


@pytest.mark.django_db
def test_throttle_and_rate_limit_counts_expire_within_the_stated_period(client, settings):
    """They live in the cache, which removes them itself: every count a wrong password,
    a sign-up or a password reset leaves expires within the period the page states, in
    the local-memory cache of the default set-up and in production's Redis (the stack
    lane)."""
    from django.core.cache import cache

    cache.clear()
    user = make_user()
    for _ in range(settings.LOGIN_ACCOUNT_LIMIT + 2):
        client.post(reverse("login"), {"username": user.username, "password": "wrong"})
    client.post(reverse("signup"), {"username": "x"})
    client.post(reverse("password_reset"), {"email": user.email})
    now = timezone.now().timestamp()
    if hasattr(cache, "_expire_info"):  # the local-memory cache: absolute expiry times
        left = {key: expiry - now for key, expiry in cache._expire_info.items()}
    elif hasattr(cache, "_cache") and hasattr(cache._cache, "get_client"):  # Redis
        redis = cache._cache.get_client(write=False)
        left = {key: redis.ttl(key) for key in redis.scan_iter(cache.make_key("*"))}
    else:
        pytest.skip(f"cannot read the expiries of {type(cache).__name__}")
    assert len(left) >= 3
    # Redis says -1 for a key without an expiry: it would stay for ever.
    assert all(
        0 <= seconds <= periods().throttle.total_seconds() + 5 for seconds in left.values()
    ), left
