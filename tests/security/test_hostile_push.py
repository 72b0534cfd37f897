"""Hostile input to the push endpoint (``POST /notifications/push/``), with push set up
(a VAPID key pair), so that every body reaches the subscription check: endpoints that
lead into this machine or its network in any spelling, bodies nested too deep for the
JSON parser or too long, junk, and another account's endpoint, many at once from
several accounts. Each one is a 400 with words, never a 500, and stores or moves
nothing; the one account that registered the endpoint still has its device.

The endpoints property: whatever URL is posted, a 201 only for a host on a browser's
push service. Runs on both lanes (SQLite here, PostgreSQL in ``make test-stack``)."""

import json
import threading
from urllib.parse import urlsplit

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy.models import PushSubscription
from rummy.notifications import subscriptions, vapid
from tests.factories import make_user
from tests.rummy.notifications.push_service import Device

pytestmark = pytest.mark.django_db(transaction=True)

SUBSCRIBE = reverse("notifications:push_subscribe")
ENDPOINT = "https://fcm.googleapis.com/fcm/send/alices-phone"

HOSTILE_ENDPOINTS = [
    "https://127.1:9443/x",
    "https://0177.0.0.1/x",
    "https://0x7f.0.0.1/x",
    "https://127.000.000.001/x",
    "https://10.1/x",
    "https://0251.0376.0251.0376/x",
    "https://[::7f00:1]/x",
    "https://[64:ff9b::7f00:1]/x",
    "https://[64:ff9b::a9fe:a9fe]/x",
    "https://localhost./x",
    "https://①②⑦.0.0.1/x",
    "https://169.254.169.254.nip.io/x",
    "https://u:p@fcm.googleapis.com/x",
    "https://fcm.googleapis.com:8443/x",
    "https://fcm.googleapis.com./x",
    "http://127.0.0.1:9/x",
]


@pytest.fixture
def push_on(settings):
    signer = vapid.new_signer()
    settings.VAPID_PRIVATE_KEY = vapid.private_key_of(signer)
    settings.VAPID_PUBLIC_KEY = vapid.public_key_of(signer)
    settings.VAPID_KEY_FILE = ""
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = False


def bodies():
    """Every hostile body, as (what it is, the body)."""
    good = Device(endpoint=ENDPOINT).subscription_json()
    found = [
        (endpoint, json.dumps({**good, "endpoint": endpoint})) for endpoint in HOSTILE_ENDPOINTS
    ]
    found += [
        ("deep arrays", "[" * 5000),
        ("deep objects", '{"a":' * 3000),
        ("deep in the keys", json.dumps({**good, "keys": None})[:-1] + "[" * 3000),
        ("too long", json.dumps({**good, "pad": "x" * 100_000})),
        ("not JSON", "\x00\xff{"),
        ("another account's endpoint", json.dumps(Device(endpoint=ENDPOINT).subscription_json())),
    ]
    return found


def test_hostile_subscriptions_many_at_once_are_refused_and_move_nothing(push_on):
    alice = make_user()
    phone = Device(endpoint=ENDPOINT)
    client = Client()
    client.force_login(alice)
    assert client.post(SUBSCRIBE, phone.subscription_json(), "application/json").status_code == 201
    before = list(PushSubscription.objects.values_list("pk", "user", "endpoint", "p256dh"))

    others = [make_user() for _ in range(3)]
    clients = []
    for user in others:
        client = Client()
        client.force_login(user)
        clients.append(client)
    work = [(clients[n % len(clients)], what, body) for n, (what, body) in enumerate(bodies() * 2)]
    answers, errors = [], []
    barrier = threading.Barrier(len(work))

    def post(client, what, body):
        try:
            barrier.wait(timeout=30)
            response = client.post(SUBSCRIBE, body, content_type="application/json")
            answers.append((what, response.status_code, response.json().get("error")))
        except Exception as error:  # reported below
            errors.append((what, error))
            barrier.abort()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=job) for job in work]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(answers) == len(work)
    for what, status, error in answers:
        assert status == 400 and error, (what, status)
    after = list(PushSubscription.objects.values_list("pk", "user", "endpoint", "p256dh"))
    assert after == before


hosts = st.one_of(
    st.sampled_from(
        [
            "fcm.googleapis.com",
            "updates.push.services.mozilla.com",
            "web.push.apple.com",
            "wns2-db5p.notify.windows.com",
            "127.1",
            "0x7f.1",
            "[::1]",
            "localhost",
            "fcm.googleapis.com.",
            "FCM.googleapis.com",
            "x.y.notify.windows.com",
        ]
    ),
    st.text(min_size=1, max_size=30),
    st.from_regex(r"[a-z0-9.-]{1,20}\.(notify\.windows\.com|push\.apple\.com)", fullmatch=True),
)
endpoints = st.builds(
    lambda scheme, userinfo, host, port, path: f"{scheme}://{userinfo}{host}{port}/{path}",
    st.sampled_from(["https", "http", "HTTPS", "ftp"]),
    st.sampled_from(["", "u@", "u:p@", "fcm.googleapis.com@"]),
    hosts,
    st.sampled_from(["", ":443", ":8443", ":", ":0443", ":99999"]),
    st.text(max_size=20),
)


@settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(endpoint=st.one_of(endpoints, st.text(max_size=60)))
def test_any_endpoint_is_stored_only_on_a_browsers_push_service(push_on, endpoint):
    user = make_user()
    client = Client()
    client.force_login(user)
    body = {**Device(endpoint="").subscription_json(), "endpoint": endpoint}
    response = client.post(SUBSCRIBE, json.dumps(body), content_type="application/json")
    assert response.status_code in (201, 400)
    if response.status_code == 201:
        parts = urlsplit(endpoint)
        host = parts.hostname
        assert endpoint.startswith("https://") and parts.port in (None, 443)
        assert parts.username is None and parts.netloc in (host, f"{host}:443")
        assert host in subscriptions.PUSH_SERVICES or host.endswith(
            tuple("." + domain for domain in subscriptions.PUSH_SERVICE_DOMAINS)
        )
        PushSubscription.objects.filter(user=user).delete()
    else:
        assert response.json()["error"]
        assert not PushSubscription.objects.filter(user=user).exists()
