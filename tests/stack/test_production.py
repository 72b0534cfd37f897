"""The documented production set-up, run: deploy/run_production.py starts nginx (with
deploy/nginx.conf and a self-signed certificate), two daphne workers and the background
worker on PostgreSQL and Redis, and everything a player does goes through nginx over
HTTPS: log-in, a move, the game's socket, static files; the throttle counts the address
nginx wrote, and the headers README promises are there. The script's stop ends it all."""

import http.client
import http.cookies
import json
import os
import re
import secrets
import shutil
import ssl
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest
from websockets.sync.client import connect

from leagues.throttle import address_key
from rummy import play
from rummy.models import Game
from tests.factories import make_league, make_user
from tests.stack.game_helpers import version_of

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]

BASE_DIR = Path(__file__).resolve().parents[2]
SCRIPT = BASE_DIR / "deploy" / "run_production.py"
PASSWORD = "a-long-test-password-42"
METRICS_TOKEN = secrets.token_urlsafe(32)
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
STATIC_CSS = re.compile(r'href="(/static/[^"]+\.css)"')


def nginx_available():
    if shutil.which("nginx", path=os.environ.get("PATH", "") + ":/usr/sbin"):
        return True
    subprocess.run(
        ["apt-get", "install", "-y", "-q", "nginx"],
        env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"),
        capture_output=True,
        check=False,
    )
    return bool(shutil.which("nginx", path=os.environ.get("PATH", "") + ":/usr/sbin"))


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.fixture(autouse=True)
def _server_hashers(settings):
    # The servers know only Django's default hashers, not the tests' fast one.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]


@pytest.fixture
def production(stack_env, tmp_path):
    if not nginx_available():
        pytest.skip("nginx is not installed and `apt-get install nginx` failed")
    env = dict(stack_env, SECRET_KEY=secrets.token_urlsafe(50), METRICS_TOKEN=METRICS_TOKEN)
    env.pop("DEBUG", None)
    scratch = tmp_path / "production"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "start", str(scratch)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    state_file = scratch / "state.json"
    try:
        assert run.returncode == 0, run.stdout + run.stderr
        state = json.loads(state_file.read_text())
        yield state, scratch
    finally:
        subprocess.run(
            [sys.executable, str(SCRIPT), "stop", str(scratch)], env=env, timeout=60, check=False
        )
        for log in sorted(scratch.glob("*.log")):
            print(f"--- {log.name} ---\n{log.read_bytes()[-2000:].decode(errors='replace')}")


class Browser:
    """One browser at the site's HTTPS address, trusting the script's certificate."""

    def __init__(self, state):
        self.url = state["url"]
        self.port = state["https_port"]
        self.context = ssl.create_default_context(cafile=state["cert"])
        self.cookies = {}

    def request(self, method, path, data=None, headers=None):
        conn = http.client.HTTPSConnection("127.0.0.1", self.port, timeout=30, context=self.context)
        all_headers = {"Origin": self.url, "Referer": self.url + "/"}
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if method == "POST":
            body = urllib.parse.urlencode(data or {})
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
            if "csrftoken" in self.cookies:
                all_headers["X-CSRFToken"] = self.cookies["csrftoken"]
        all_headers.update(headers or {})
        try:
            conn.request(method, path, body=body, headers=all_headers)
            reply = conn.getresponse()
            content = reply.read()
        finally:
            conn.close()
        for header in reply.headers.get_all("Set-Cookie") or []:
            for name, morsel in http.cookies.SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return reply, content

    def log_in(self, username, password, forwarded_for=None):
        reply, page = self.request("GET", "/accounts/login/")
        assert reply.status == 200, page[:300]
        token = CSRF_INPUT.search(page.decode()).group(1)
        headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
        fields = {"username": username, "password": password, "csrfmiddlewaretoken": token}
        return self.request("POST", "/accounts/login/", fields, headers)


def next_view(socket, newer_than, timeout=15):
    while True:
        version = version_of(socket.recv(timeout=timeout))
        if version is not None and version > newer_than:
            return version


def test_the_production_set_up_serves_a_game_through_nginx(production):
    state, scratch = production
    a, b = make_user("ann", password=PASSWORD), make_user("ben", password=PASSWORD)
    game = play.open_table(make_league(a, members=[b]), a, max_seats=2)
    play.take_seat(game.pk, b)
    game = Game.objects.get(pk=game.pk)
    mover, watcher = (a, b) if game.to_move_id == a.pk else (b, a)

    # Log-in over HTTPS: session and CSRF cookies Secure, HttpOnly and SameSite=Lax, as
    # README ("Variables") says.
    moving, watching = Browser(state), Browser(state)
    reply, _ = moving.log_in(mover.username, PASSWORD)
    assert reply.status == 302
    for name in ("sessionid=", "csrftoken="):
        cookie = next(c for c in reply.headers.get_all("Set-Cookie") if c.startswith(name))
        assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie, cookie
    assert watching.log_in(watcher.username, PASSWORD)[0].status == 302

    # The game page, with the headers README documents (X-Forwarded-Proto from nginx:
    # no redirect to HTTPS from a page served over HTTPS).
    reply, page = watching.request("GET", f"/games/{game.pk}/")
    assert reply.status == 200, page[:300]
    assert reply.headers["Strict-Transport-Security"] == (
        "max-age=31536000; includeSubDomains; preload"
    )
    assert reply.headers["X-Content-Type-Options"] == "nosniff"
    assert reply.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in reply.headers["Content-Security-Policy"]
    assert "no-store" in reply.headers["Cache-Control"]
    # Plain HTTP is sent to HTTPS by nginx.
    conn = http.client.HTTPConnection("127.0.0.1", state["http_port"], timeout=10)
    conn.request("GET", "/accounts/login/")
    redirect = conn.getresponse()
    conn.close()
    assert redirect.status == 301
    assert redirect.headers["Location"] == f"{state['url']}/accounts/login/"

    # The game's socket, upgraded by nginx, sees the move made over HTTPS.
    with connect(
        f"wss://127.0.0.1:{state['https_port']}/ws/games/{game.pk}/",
        ssl=watching.context,
        additional_headers={
            "Cookie": "; ".join(f"{k}={v}" for k, v in watching.cookies.items()),
            "Origin": state["url"],
        },
        open_timeout=20,
    ) as socket:
        # compressed end to end: nginx passes the extension's handshake through
        extensions = socket.response.headers.get("Sec-WebSocket-Extensions", "")
        assert extensions.startswith("permessage-deflate"), extensions
        assert next_view(socket, -1) == game.version
        reply, body = moving.request(
            "POST",
            f"/games/{game.pk}/act/",
            {"action": "draw", "version": game.version},
            {"HX-Request": "true"},
        )
        assert reply.status == 200, body[:300]
        assert next_view(socket, game.version) == game.version + 1
    game.refresh_from_db()
    assert game.version == version_of(body.decode())

    # What a monitor reads, through nginx: every part healthy, and the metrics of both
    # workers summed whichever one answers the scrape (the move was made on one of them).
    reply, body = watching.request("GET", "/healthz")
    assert reply.status == 200, body
    report = json.loads(body)
    assert report["database"]["ok"] and report["redis"]["ok"] and report["queue"]["ok"]
    assert watching.request("GET", "/metrics")[0].status == 404
    for _scrape in range(2):  # least_conn: the two scrapes may reach either worker
        reply, body = watching.request(
            "GET", "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}
        )
        assert reply.status == 200
        text = body.decode()
        assert 'carousel_game_actions_total{action="draw",outcome="applied"} 1.0' in text
        assert "carousel_websockets_opened_total 1.0" in text

    # Static files: nginx sends collectstatic's gzip files with a year's lifetime.
    stylesheet = STATIC_CSS.search(page.decode()).group(1)
    reply, content = watching.request("GET", stylesheet, headers={"Accept-Encoding": "gzip"})
    assert reply.status == 200
    assert reply.headers["Content-Encoding"] == "gzip"
    assert content[:2] == b"\x1f\x8b"
    assert reply.headers.get_all("Cache-Control") == ["public, max-age=31536000, immutable"]

    # The throttle counts the address nginx wrote, never the one the client sent.
    stranger = Browser(state)
    reply, _ = stranger.log_in("nobody", "wrong", forwarded_for="203.0.113.9")
    assert reply.status == 200
    from django.core.cache import cache

    assert cache.get(address_key("127.0.0.1")) == 1
    assert cache.get(address_key("203.0.113.9")) is None

    # stop ends every process start started.
    pids = state["pids"].values()
    assert all(alive(pid) for pid in pids)
    env = dict(os.environ)
    subprocess.run(
        [sys.executable, str(SCRIPT), "stop", str(scratch)], env=env, timeout=60, check=True
    )
    assert not any(alive(pid) for pid in pids)
