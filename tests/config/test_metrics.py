"""/metrics: Prometheus' format, for the scraper's bearer token or a staff user only
(anyone else: 404); requests, sockets, game actions and background jobs counted where
they happen; and, in the multiprocess mode the production set-up uses, one scrape sums
every process of the machine, and a killed process's open sockets stop counting."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from config import metrics
from rummy.background import scan
from tests.factories import make_user, started_game
from tests.rummy.background.test_queue import run_jobs

pytestmark = pytest.mark.django_db(transaction=True)

BASE_DIR = Path(__file__).resolve().parents[2]
TOKEN = "a-scrapers-token-of-some-length"


def samples(body: bytes) -> dict:
    """{(name, sorted labels): value} of an exposition."""
    found = {}
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def scrape(client=None, token=TOKEN):
    client = client or Client()
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.get("/metrics", **headers)


@pytest.fixture(autouse=True)
def _token(settings):
    settings.METRICS_TOKEN = TOKEN


def test_only_the_token_or_staff_may_read_it(settings):
    assert Client().get("/metrics").status_code == 404
    assert scrape(token="not-the-token").status_code == 404
    member = Client()
    member.force_login(make_user())
    assert member.get("/metrics").status_code == 404
    staff = Client()
    staff.force_login(make_user(is_staff=True))
    assert staff.get("/metrics").status_code == 200
    response = scrape()
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    settings.METRICS_TOKEN = ""  # no token set: no bearer gets in, however it is spelt
    assert scrape(token="").status_code == 404
    assert Client().get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404


def test_requests_actions_and_jobs_are_counted():
    ann, ben = make_user(), make_user()
    game = started_game([ann, ben])
    mover = ann if game.to_move_id == ann.pk else ben
    before = samples(scrape().content)
    player = Client()
    player.force_login(mover)
    answer = player.post(
        f"/games/{game.pk}/act/",
        {"action": "draw", "version": game.version},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200
    stale = player.post(
        f"/games/{game.pk}/act/",
        {"action": "draw", "version": game.version},
        HTTP_HX_REQUEST="true",
    )
    assert stale.status_code == 409
    player.post(f"/games/{game.pk}/act/", {"action": "made-up-control" * 3, "version": 1})
    scan.look()  # the periodic passes, due
    run_jobs()
    after = samples(scrape().content)

    def grew(name, **labels):
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0) - before.get(key, 0)

    assert grew("carousel_game_actions_total", action="draw", outcome="applied") == 1
    assert grew("carousel_game_actions_total", action="draw", outcome="refused") == 1
    # A control nobody has is counted as "other", never under the name a client sent.
    assert grew("carousel_game_actions_total", action="other", outcome="refused") == 1
    assert grew("carousel_http_requests_total", method="POST", status="2xx") == 1
    assert grew("carousel_http_requests_total", method="POST", status="4xx") == 2
    # Only what grew here: the process's counts hold earlier tests' jobs too.
    jobs = {
        labels: value - before.get((name, labels), 0)
        for (name, labels), value in after.items()
        if name == "carousel_background_jobs_total" and value > before.get((name, labels), 0)
    }
    assert sum(jobs.values()) == len(scan.PASSES)
    assert all(dict(labels)["status"] == "successful" for labels in jobs), jobs
    timed = sum(
        value - before.get((name, labels), 0)
        for (name, labels), value in after.items()
        if name == "carousel_background_job_seconds_count"
    )
    assert timed == len(scan.PASSES)
    assert ("carousel_queue_depth", ()) in after and ("carousel_queue_lag_seconds", ()) in after


def test_a_socket_counts_as_open_from_its_accept_to_its_end():
    open_now = metrics.SOCKETS_OPEN._value.get()
    seen = []

    async def app(scope, receive, send):
        await send({"type": "websocket.accept"})
        seen.append(metrics.SOCKETS_OPEN._value.get())

    async def refused(scope, receive, send):
        await send({"type": "websocket.close"})

    async def nothing(message):
        pass

    async_to_sync(metrics.CountSockets(app))({"type": "websocket"}, None, nothing)
    async_to_sync(metrics.CountSockets(refused))({"type": "websocket"}, None, nothing)
    assert seen == [open_now + 1]
    assert metrics.SOCKETS_OPEN._value.get() == open_now


PROCESS = """
import os, sys
import django
django.setup()
from config import metrics
metrics.ACTIONS.labels("draw", "applied").inc()
metrics.SOCKETS_OPEN.inc()  # and never closed: the process ends as if killed
if sys.argv[1] == "scrape":
    from django.test import Client
    reply = Client().get("/metrics", HTTP_AUTHORIZATION="Bearer " + os.environ["METRICS_TOKEN"])
    sys.stdout.write(reply.content.decode())
    os._exit(0)
os.kill(os.getpid(), 9)
"""


def test_one_scrape_sums_every_process_and_forgets_dead_ones_sockets(tmp_path):
    env = dict(
        os.environ,
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"),
        METRICS_TOKEN=TOKEN,
        DJANGO_SETTINGS_MODULE="config.settings",
        SQLITE_PATH=str(tmp_path / "db.sqlite3"),
    )
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    # The scrape reads the queue's figures from the database: a site of its own, migrated.
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=BASE_DIR, env=env, check=True
    )
    for _ in range(2):  # two workers, killed
        subprocess.run([sys.executable, "-c", PROCESS, "die"], cwd=BASE_DIR, env=env, check=False)
    scraped = subprocess.run(
        [sys.executable, "-c", PROCESS, "scrape"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        check=True,
    )
    figures = samples(scraped.stdout)
    # Three processes' actions, one total; only the live one's socket.
    key = ("carousel_game_actions_total", (("action", "draw"), ("outcome", "applied")))
    assert figures[key] == 3
    assert figures[("carousel_websockets_open", ())] == 1
