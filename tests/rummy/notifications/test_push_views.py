"""Turning push on per device from the settings page, listing and removing devices:
the authorization matrix of every route, the push preferences, bad subscriptions (a
clear message, nothing stored, never a 500, also when posted many times at once), only
the push services of real browsers, and one account's device never taken by another."""

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

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


def a_device(host="https://updates.push.services.mozilla.com"):
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
    alice = make_user()
    device = a_device()
    client.force_login(alice)
    assert post_json(client, device.subscription_json()).status_code == 201
    renewed = Device(endpoint=device.endpoint)  # new keys, same endpoint
    assert post_json(client, renewed.subscription_json()).status_code == 201
    stored = PushSubscription.objects.get()
    assert (stored.user, stored.p256dh, stored.auth) == (alice, renewed.p256dh, renewed.auth)


def test_another_accounts_endpoint_is_refused_and_its_device_stays(client, vapid_keys):
    alice, bob = make_user(), make_user()
    device = a_device()
    client.force_login(alice)
    post_json(client, device.subscription_json())
    alices = PushSubscription.objects.get()
    client.force_login(bob)  # another account on that browser, or one that knows the URL
    response = post_json(client, Device(endpoint=device.endpoint).subscription_json())
    assert response.status_code == 400
    assert "already gets push notifications for another account" in response.json()["error"]
    stored = PushSubscription.objects.get()
    assert (stored.pk, stored.user, stored.p256dh) == (alices.pk, alice, device.p256dh)


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


@pytest.mark.django_db(transaction=True)
def test_two_accounts_posting_one_endpoint_at_once_one_keeps_it(vapid_keys):
    """Three accounts, each posting the same new endpoint (with keys of its own) from two
    tabs at once: one account has it, the others are told why, and the rows that
    exist are that account's own."""
    users = [make_user() for _ in range(3)]
    endpoint = a_device().endpoint
    answers, errors = [], []
    barrier = threading.Barrier(6)

    def post(user):
        try:
            client = Client()
            client.force_login(user)
            body = Device(endpoint=endpoint).subscription_json()
            barrier.wait(timeout=10)
            response = post_json(client, body)
            answers.append((user.pk, response.status_code, response.json()))
        except Exception as error:  # reported below
            errors.append(error)
            barrier.abort()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=(user,)) for user in users * 2]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    [stored] = PushSubscription.objects.filter(endpoint=endpoint)
    for user_pk, status, answer in answers:
        if user_pk == stored.user_id:
            assert (status, answer["id"]) == (201, stored.pk)
        else:
            assert status == 400 and "for another account" in answer["error"]
    # Whatever the order, a later post by another account changes nothing either.
    other = next(user for user in users if user.pk != stored.user_id)
    client = Client()
    client.force_login(other)
    assert post_json(client, Device(endpoint=endpoint).subscription_json()).status_code == 400
    assert PushSubscription.objects.get() == stored


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
    "deep arrays": "[" * 3000,
    "deep objects": '{"a":' * 3000,
    "deep inside the keys": {**GOOD, "keys": json.loads("[" * 200 + "]" * 200)},
    "too long a body": {**GOOD, "padding": "x" * 5000},
}
FCM = "https://fcm.googleapis.com"
# Each one an endpoint the clock would have POSTed to (to the host the resolver makes of
# it), or one no browser hands in.
BAD_ENDPOINTS = [
    "http://updates.push.services.mozilla.com/wpush/v2/x",  # plain http
    "HTTPS://fcm.googleapis.com/fcm/send/x",  # not as browsers spell it
    "https://FCM.googleapis.com/fcm/send/x",
    "https://fcm.googleapis.com./fcm/send/x",  # a trailing dot
    "https://u:p@fcm.googleapis.com/fcm/send/x",  # a user and password
    "https://fcm.googleapis.com@127.0.0.1/x",
    "https://fcm.googleapis.com:8443/fcm/send/x",  # not port 443
    "https://fcm.googleapis.com:0443/fcm/send/x",
    "https://fcm.googleapis.com:/fcm/send/x",
    "https://fcm.googleapis.com:99999/x",
    "https://fcm.googleapis.com\\@127.0.0.1/x",  # a backslash, read apart by parsers
    "https://fcm.googleapis.com/a b",
    "https://fcm.googleapis.com/a\nb",
    "https://fcm.googleapis.com/" + "a" * 1000,
    "https://ｆcm.googleapis.com/fcm/send/x",  # not ASCII
    "https://evil.fcm.googleapis.com/x",  # not the service's own host
    "https://fcm.googleapis.com.evil.example/x",
    "https://a.b.notify.windows.com/w/",  # one label before the domain, no more
    "https://-x.notify.windows.com/w/",
    "https://notify.windows.com/w/",
    "https://push.example.net/wpush/v2/x",  # a host that is no browser's push service
    # The loopback and private addresses of the attack, in every spelling:
    "https://127.0.0.1/x",
    "https://127.1:9443/x",
    "https://0177.0.0.1/x",
    "https://0x7f.0.0.1/x",
    "https://127.000.000.001/x",
    "https://2130706433/x",
    "https://10.1/x",
    "https://10.1.2.3/x",
    "https://0251.0376.0251.0376/x",  # 169.254.169.254, the cloud's metadata
    "https://169.254.169.254/latest/",
    "https://[::1]/x",
    "https://[::7f00:1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://[64:ff9b::7f00:1]/x",
    "https://[64:ff9b::a9fe:a9fe]/x",
    "https://[fe80::1]/x",
    "https://localhost/x",
    "https://localhost./x",
    "https://①②⑦.0.0.1/x",
    "https://169.254.169.254.nip.io/x",  # public wildcard DNS to the metadata address
    "https://127.0.0.1.sslip.io/x",
    "https://intranet/x",
    "http://127.0.0.1:9/x",  # the tests' own service only where the setting says
    "javascript:alert(1)",
    "",
]


@pytest.mark.parametrize("endpoint", BAD_ENDPOINTS)
@pytest.mark.parametrize("local", [False, True])
def test_only_a_real_browsers_push_service_is_accepted(
    client, vapid_keys, settings, endpoint, local
):
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = local
    if local and endpoint == "http://127.0.0.1:9/x":
        pytest.skip("the tests' own push service, where the setting allows it")
    client.force_login(make_user())
    response = post_json(client, {**GOOD, "endpoint": endpoint})
    assert response.status_code == 400
    assert response.json()["error"] == "This browser's push service is not one we can send to."
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint",
    [
        FCM + "/fcm/send/fv3jabydF5c:APA92bEc8gXeukGXEvq",  # Chrome, Edge on Android
        FCM + "/wp/fv3jabydF5c:APA92bEc8gXeukGXEvq",
        FCM + ":443/fcm/send/x",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABn",  # Firefox
        "https://web.push.apple.com/QGuQyavXutnMH5Mi8x",  # Safari
        "https://wns2-db5p.notify.windows.com/w/?token=BQYAAADuof2g%2f5N",  # Edge, Windows
    ],
)
def test_the_push_services_of_real_browsers_are_accepted(client, vapid_keys, settings, endpoint):
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = False
    client.force_login(make_user())
    assert post_json(client, {**GOOD, "endpoint": endpoint}).status_code == 201
    assert PushSubscription.objects.get().endpoint == endpoint


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


DEFAULT_SET_UP = """
import django
django.setup()
from django.conf import settings
from rummy.notifications import subscriptions
try:
    subscriptions.check_endpoint("http://127.0.0.1:9443/x")
    print(settings.DEBUG, "accepted")
except subscriptions.Refused:
    print(settings.DEBUG, "refused")
"""


def test_the_default_set_up_takes_no_endpoint_on_this_machine():
    """No variables at all (DEBUG on, as ``make run``): still no endpoint on this
    machine, which only the tests' own push service may have."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"DEBUG", "DATABASE_URL", "REDIS_URL", "CACHE_URL", "SECRET_KEY"}
        and not name.startswith("PYTEST")
    }
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    answer = subprocess.run(
        [sys.executable, "-c", DEFAULT_SET_UP],
        cwd=Path(__file__).resolve().parents[3],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert answer.stdout.split() == ["True", "refused"]


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
