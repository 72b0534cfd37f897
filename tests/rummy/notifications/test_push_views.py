"""Turning push on per device from the settings page, listing and removing devices:
the authorization matrix of every route, the push preferences, and bad subscriptions
(a clear message, nothing stored, never a 500, also when posted many times at once)."""

import json
import threading

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from rummy.models import PushSubscription
from rummy.notifications import prefs
from tests.factories import make_user

from .push_service import Device

pytestmark = pytest.mark.django_db

SUBSCRIBE = reverse("notifications:push_subscribe")
PHONE_UA = (
    "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0"  # Firefox, Android
)


def post_json(client, data, **extra):
    body = data if isinstance(data, (str, bytes)) else json.dumps(data)
    return client.post(SUBSCRIBE, body, content_type="application/json", **extra)


def a_device(host="https://push.example.net"):
    return Device(endpoint=f"{host}/wpush/v2/abc123")


def remove_url(subscription):
    return reverse("notifications:push_remove", args=[subscription.pk])


# --- The authorization matrix ---------------------------------------------------------


@pytest.mark.parametrize("route", ["subscribe", "remove"])
def test_anonymous_is_sent_to_log_in(client, vapid_keys, route):
    owner = make_user()
    subscription = PushSubscription.objects.create(user=owner, endpoint="https://x.example/1")
    url = SUBSCRIBE if route == "subscribe" else remove_url(subscription)
    for response in (client.get(url), client.post(url)):
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert PushSubscription.objects.count() == 1


@pytest.mark.parametrize("route", ["subscribe", "remove"])
def test_get_on_a_post_only_route_is_405(client, vapid_keys, route):
    user = make_user()
    subscription = PushSubscription.objects.create(user=user, endpoint="https://x.example/1")
    client.force_login(user)
    url = SUBSCRIBE if route == "subscribe" else remove_url(subscription)
    assert client.get(url).status_code == 405
    assert PushSubscription.objects.count() == 1


def test_another_players_device_is_404_and_stays(client, vapid_keys):
    alice, bob = make_user(), make_user()
    alices = PushSubscription.objects.create(user=alice, endpoint="https://x.example/1")
    client.force_login(bob)
    assert client.post(remove_url(alices)).status_code == 404
    assert client.post(reverse("notifications:push_remove", args=[9999])).status_code == 404
    assert PushSubscription.objects.filter(pk=alices.pk).exists()


# --- Subscribing, listing, removing ---------------------------------------------------


def test_a_tap_subscribes_this_device_and_the_page_lists_it(client, vapid_keys):
    alice = make_user()
    client.force_login(alice)
    page = client.get(reverse("notifications:settings")).content.decode()
    assert f'data-application-server-key="{vapid_keys.public_key}"' in page
    assert "js/push.js" in page
    device = a_device()
    response = post_json(client, device.subscription_json(), HTTP_USER_AGENT=PHONE_UA)
    assert response.status_code == 201
    stored = PushSubscription.objects.get()
    assert (stored.user, stored.endpoint) == (alice, device.endpoint)
    assert (stored.p256dh, stored.auth, stored.device) == (
        device.p256dh,
        device.auth,
        "Firefox on Android",
    )
    page = client.get(reverse("notifications:settings")).content.decode()
    assert "Firefox on Android" in page and remove_url(stored) in page


def test_the_same_browser_subscribing_again_updates_its_row(client, vapid_keys):
    alice, bob = make_user(), make_user()
    device = a_device()
    client.force_login(alice)
    post_json(client, device.subscription_json())
    renewed = Device(endpoint=device.endpoint)  # new keys, same endpoint
    client.force_login(bob)  # and now another account on that browser
    assert post_json(client, renewed.subscription_json()).status_code == 201
    stored = PushSubscription.objects.get()
    assert (stored.user, stored.p256dh) == (bob, renewed.p256dh)


def test_removing_a_device(client, vapid_keys):
    alice = make_user()
    phone = PushSubscription.objects.create(user=alice, endpoint="https://x.example/1", device="P")
    tablet = PushSubscription.objects.create(user=alice, endpoint="https://x.example/2")
    client.force_login(alice)
    response = client.post(remove_url(phone), follow=True)
    assert response.redirect_chain[-1][0] == reverse("notifications:settings")
    assert "P no longer gets push notifications" in response.content.decode()
    assert list(PushSubscription.objects.all()) == [tablet]


def test_without_vapid_keys_the_page_says_so_and_nothing_subscribes(client, settings):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_KEY_FILE = ""
    client.force_login(make_user())
    page = client.get(reverse("notifications:settings")).content.decode()
    assert "not set up on this site" in page and "data-push-form" not in page
    response = post_json(client, a_device().subscription_json())
    assert response.status_code == 400 and "not set up" in response.json()["error"]
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_same_subscription_posted_many_times_at_once_is_one_row(vapid_keys):
    alice = make_user()
    device = a_device()
    statuses, errors = [], []
    barrier = threading.Barrier(6)

    def post():
        try:
            client = Client()
            client.force_login(alice)
            barrier.wait(timeout=10)
            statuses.append(post_json(client, device.subscription_json()).status_code)
        except Exception as error:  # reported below
            errors.append(error)
            barrier.abort()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert statuses == [201] * 6
    assert PushSubscription.objects.filter(endpoint=device.endpoint).count() == 1


# --- Bad input ------------------------------------------------------------------------

GOOD = a_device().subscription_json()


def with_keys(**keys):
    return {"endpoint": GOOD["endpoint"], "keys": {**GOOD["keys"], **keys}}


BAD = {
    "not json": "{endpoint",
    "not an object": "[1, 2]",
    "no keys": {"endpoint": GOOD["endpoint"]},
    "no endpoint": {"keys": GOOD["keys"]},
    "a number for the endpoint": {"endpoint": 5, "keys": GOOD["keys"]},
    "p256dh too short": with_keys(p256dh=GOOD["keys"]["p256dh"][:40]),
    "p256dh not on the curve": with_keys(p256dh="BA" + "A" * 85),
    "p256dh not base64url": with_keys(p256dh="*" * 87),
    "auth too long": with_keys(auth=GOOD["keys"]["auth"] + "AAAA"),
    "auth empty": with_keys(auth=""),
    "plain http": {**GOOD, "endpoint": "http://push.example.net/x"},
    "http to this machine": {**GOOD, "endpoint": "http://127.0.0.1:9/x"},
    "https to this machine": {**GOOD, "endpoint": "https://127.0.0.1/x"},
    "localhost": {**GOOD, "endpoint": "https://localhost/x"},
    "a private network": {**GOOD, "endpoint": "https://10.1.2.3/x"},
    "link-local": {**GOOD, "endpoint": "https://[fe80::1]/x"},
    "a bare host name": {**GOOD, "endpoint": "https://intranet/x"},
    "credentials in the URL": {**GOOD, "endpoint": "https://u:p@push.example.net/x"},
    "javascript": {**GOOD, "endpoint": "javascript:alert(1)"},
    "a bad port": {**GOOD, "endpoint": "https://push.example.net:99999/x"},
    "too long": {**GOOD, "endpoint": "https://push.example.net/" + "a" * 1000},
    "a newline": {**GOOD, "endpoint": "https://push.example.net/a\nb"},
}


@pytest.mark.parametrize("case", BAD)
def test_a_bad_subscription_is_refused_clearly_and_stores_nothing(
    client, vapid_keys, settings, case
):
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = False
    client.force_login(make_user())
    response = post_json(client, BAD[case])
    assert response.status_code == 400
    assert response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_plain_http_to_this_machine_only_where_the_setting_allows(client, vapid_keys, settings):
    client.force_login(make_user())
    local = Device(endpoint="http://127.0.0.1:8765/push/x").subscription_json()
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = False
    assert post_json(client, local).status_code == 400
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = True
    assert post_json(client, local).status_code == 201


# --- Preferences per channel ----------------------------------------------------------


def test_the_settings_page_saves_push_and_email_choices_apart(client, vapid_keys):
    alice = make_user(email_verified=True)
    client.force_login(alice)
    html = client.get(reverse("notifications:settings")).content.decode()
    for name in (*prefs.PREFS, *prefs.PUSH_PREFS):
        assert f'name="{name}"' in html
    client.post(reverse("notifications:settings"), {"push_your_move": "on", "results": "on"})
    saved = prefs.prefs_for(type(alice).objects.get(pk=alice.pk))
    assert (saved.push_your_move, saved.push_reminders, saved.push_results) == (True, False, False)
    assert (saved.your_move, saved.reminders, saved.results) == (False, False, True)


def test_push_preferences_default_on():
    user = make_user()
    assert all(getattr(prefs.prefs_for(user), name) for name in prefs.PUSH_PREFS)


@pytest.mark.parametrize(
    ("user_agent", "label"),
    [
        (PHONE_UA, "Firefox on Android"),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
            "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
            "Safari on iPhone",
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
            "Edge on Windows",
        ),
        ("", "A browser"),
    ],
)
def test_devices_are_named_by_browser_and_system(user_agent, label):
    from rummy.notifications.subscriptions import device_label

    assert device_label(user_agent) == label
