"""Error reports: a real event, built by sentry_sdk from an exception inside a move
(a request with a session, a CSRF token and a form; the game's state in the locals, in
the exception's message and in a log line), caught by a transport of the test's own
(no network), holds nothing of a hand, the stock order, an email address, a password or
a cookie, and still says what went wrong and where. The SDK is told to attach locals,
personal data and bodies here, so that the scrubber alone is what keeps them out."""

import logging
import os
import subprocess
import sys

import pytest
import sentry_sdk
from django.test import Client
from sentry_sdk.transport import Transport

from config import sentry
from rummy.engine.cards import format_cards
from rummy.models import Game
from rummy.table import dispatch
from tests.factories import make_user, started_game

pytestmark = pytest.mark.django_db

PASSWORD = "pw-never-in-a-report-93"
log = logging.getLogger("rummy.play")


class Captured(Transport):
    envelopes: list = []

    def capture_envelope(self, envelope):
        Captured.envelopes.append(envelope.serialize())


@pytest.fixture
def reports():
    Captured.envelopes = []
    sentry.init(
        "https://public@sentry.invalid/1",
        transport=Captured,
        include_local_variables=True,
        send_default_pii=True,
        max_request_body_size="always",
    )
    yield Captured.envelopes
    sentry_sdk.init()  # no DSN: reporting off again for the other tests


def test_an_error_inside_a_move_is_reported_without_a_hand_or_a_person(reports, monkeypatch):
    ann = make_user("ann", email="ann.secret@example.org", display_name="Ann Q. Player")
    ben = make_user("ben")
    ann.set_password(PASSWORD)
    ann.save()
    game = started_game([ann, ben], seed=7)
    state = Game.objects.get(pk=game.pk).engine_state()
    hand, stock = format_cards(state.hands[0]), format_cards(state.stock)

    def broken_draw(game_id, user, version):
        game_state = Game.objects.get(pk=game_id).engine_state()
        my_hand = game_state.hands[0]
        log.error("draw failed for %s: %s", user.email, game_state.to_dict())
        raise RuntimeError(
            f"cannot draw: hand {format_cards(my_hand)}, stock "
            f"{format_cards(game_state.stock)}, {my_hand!r}, player {user.email}"
        )

    monkeypatch.setitem(dispatch.TURN_ACTIONS, "draw", broken_draw)
    client = Client(raise_request_exception=False)
    assert client.login(username="ann", password=PASSWORD)
    client.get(f"/games/{game.pk}/")
    response = client.post(
        f"/games/{game.pk}/act/?email=ann.secret@example.org",
        {"action": "draw", "version": game.version, "password": PASSWORD},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 500
    sentry_sdk.flush()

    sent = b"\n".join(reports).decode()
    assert "RuntimeError" in sent and "cannot draw" in sent  # still says what broke
    assert "broken_draw" in sent  # and where
    for secret in (
        hand,
        stock[:11],  # the first cards of the stock, in order
        *(format_cards(h)[:8] for h in state.hands),
        "ann.secret@example.org",
        "Ann Q. Player",
        PASSWORD,
        client.cookies["sessionid"].value,
        client.cookies["csrftoken"].value,
        "Card.parse",
    ):
        assert secret not in sent, secret


def test_the_scrubber_empties_secret_keys_at_any_depth():
    event = {
        "extra": {"game": {"state": {"hands": ["2C 3C"]}, "id": 4}, "note": "ok"},
        "user": {"id": 9, "email": "x@example.org", "ip_address": "203.0.113.4"},
        "logentry": {"message": "stock %s", "params": ["KH QH JH 10H"]},
    }
    scrubbed = sentry.scrub(event)
    assert scrubbed["extra"] == {"game": {"state": "[Filtered]", "id": 4}, "note": "ok"}
    assert scrubbed["user"] == {"id": 9}
    assert scrubbed["logentry"]["params"] == ["[cards]"]


PROBE = """
import django, sentry_sdk
django.setup()
from config import sentry
client = sentry_sdk.get_client()
options = client.options if client.is_active() else {}
print(client.is_active(), options.get("dsn"), options.get("before_send") is sentry.scrub,
      options.get("include_local_variables"), options.get("environment"))
"""


@pytest.mark.parametrize(
    ("dsn", "expected"),
    [
        ("https://public@sentry.invalid/1", "True https://public@sentry.invalid/1 True False"),
        ("", "False None False None None"),
    ],
)
def test_the_settings_start_reporting_only_when_the_dsn_is_set(dsn, expected):
    """What production does: ``SENTRY_DSN`` in the environment starts the SDK from the
    settings, with the scrubber and without locals; unset, nothing is reported."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SENTRY_")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", SENTRY_DSN=dsn)
    if dsn:
        env["SENTRY_ENVIRONMENT"] = "staging"
        expected += " staging"
    run = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[-2] == expected
