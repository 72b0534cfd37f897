"""Browser tests: a real daphne server and Debian's Chromium driven by Playwright.

* ``server``: daphne (WebSockets need it; pytest-django's live_server is WSGI only) on
  a free loopback port, against a scratch SQLite file migrated first, with the
  in-memory channel layer (one process) and DEBUG on (WhiteNoise serves static files
  from the finders). No ``django_db`` fixture: everything goes over HTTP, except what
  ``run_django`` does in a separate process with the same environment: a test's
  ``django_snippet``, a module's ``run_setup`` (its world, made once).
* ``phone``: a factory of 360x740 touch "phones", one browser context (own cookies,
  own user) each. Playwright never downloads a browser here: /usr/bin/chromium only.
* On failure every phone's page is saved to test-artifacts/e2e/<test>-<name>.png.
"""

import contextlib
import email
import email.policy
import functools
import itertools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
SERVER_START_SECONDS = 30
# How long a test waits for a condition before it fails. Only a failure waits this long,
# so it is generous: the machine may be busy (the lane must pass with both cores taken).
PATIENCE_SECONDS = 30
WAIT_MS = PATIENCE_SECONDS * 1000  # the same, for Playwright


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _python():
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def _daphne():
    venv = ROOT / ".venv" / "bin" / "daphne"
    return str(venv) if venv.exists() else shutil.which("daphne") or "daphne"


@pytest.fixture(scope="session")
def server_env(tmp_path_factory):
    """The environment of the server and of every helper process: the embedded default
    (SQLite file, in-memory channel layer, DEBUG on), whatever the caller's shell has."""
    env = dict(os.environ)
    for name in (
        "DATABASE_URL",
        "REDIS_URL",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "CSRF_TRUSTED_ORIGINS",
    ):
        env.pop(name, None)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        SQLITE_PATH=str(tmp_path_factory.mktemp("e2e-db") / "e2e.sqlite3"),
        DEBUG="1",
        PYTHONUNBUFFERED="1",
        # The server's mail, as files a test can read (``sent_mail``).
        EMAIL_BACKEND="tests.mail_backends.DirectoryBackend",
        TEST_MAIL_DIR=str(tmp_path_factory.mktemp("e2e-mail")),
    )
    subprocess.run(
        [_python(), "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
    )
    return env


class Daphne:
    """One daphne process on a loopback port; it can be stopped and started again on
    the same port (the same origin: the service worker's tests take the server away
    under a page and bring it back)."""

    def __init__(self, env, log_path, port=None):
        self.env = env
        self.log_path = log_path
        self.port = port or _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = None
        self.log = None

    def start(self):
        self.log = open(self.log_path, "ab")  # noqa: SIM115 (open while it runs; closed in stop)
        self.proc = subprocess.Popen(
            [_daphne(), "-b", "127.0.0.1", "-p", str(self.port), "config.asgi:application"],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + SERVER_START_SECONDS
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"daphne exited ({self.proc.returncode}):\n{self.log_path.read_text()}"
                )
            try:
                with urllib.request.urlopen(self.base + "/healthz/live", timeout=2) as answer:
                    if answer.status == 200:
                        return self.base
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"daphne did not answer /healthz:\n{self.log_path.read_text()}")
            time.sleep(0.2)

    def stop(self):
        """Stops its process group, waiting until it is gone (the port is free again)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        if self.log is not None:
            self.log.close()
            self.log = None


@pytest.fixture(scope="session")
def server(server_env, tmp_path_factory):
    """The base URL of a running daphne; stopped (its process group) even on failure."""
    daphne = Daphne(server_env, tmp_path_factory.mktemp("e2e-log") / "daphne.log")
    try:
        yield daphne.start()
    finally:
        daphne.stop()
        if os.environ.get("E2E_SERVER_LOG"):
            print(daphne.log_path.read_text())


# Each snippet is a new process, so tests.factories' counter would start at 1 in every
# one, and two snippets making "League 3" (slug league-3) or "player1" clash in the one
# database the server keeps for the session (seen: the order of the tests decided which
# one failed). Every snippet's counter starts where none other's has been.
_snippets = itertools.count(1)
SNIPPET_NUMBERS = 100_000  # rows numbered by one snippet, at most
SNIPPET_SECONDS = 300  # a setup that plays a game out is slow on a busy machine


def run_django(env, code, *args):
    """Run Python ``code`` with Django set up against the server's database (``env``:
    the ``server_env`` fixture), in a separate process: the test process never touches
    that database itself. ``sys.argv[1:]`` are ``args``; returns its stdout."""
    start = next(_snippets) * SNIPPET_NUMBERS
    prelude = (
        "import django, sys\ndjango.setup()\n"
        "import itertools, tests.factories\n"
        f"tests.factories._counter = itertools.count({start})\n"
    )
    done = subprocess.run(
        [_python(), "-c", prelude + code, *map(str, args)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=SNIPPET_SECONDS,
    )
    if done.returncode:
        raise RuntimeError(f"snippet failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def run_setup(env, code, *args):
    """A module's world: ``run_django`` for a setup script whose last line of output is
    JSON (the usernames and ids its tests use), that line decoded."""
    return json.loads(run_django(env, code, *args).strip().splitlines()[-1])


@pytest.fixture
def django_snippet(server_env):
    """``django_snippet(code, *args)`` -> the stdout of ``run_django``."""
    return functools.partial(run_django, server_env)


@pytest.fixture
def sent_mail(server_env):
    """``sent_mail(address)`` -> the plain-text bodies of every message the server has
    sent to ``address`` so far (tests.mail_backends.DirectoryBackend), oldest first."""

    def read(address):
        bodies = []
        for path in sorted(Path(server_env["TEST_MAIL_DIR"]).glob("*.log")):
            for raw in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
                if not raw.strip():
                    continue
                message = email.message_from_bytes(raw, policy=email.policy.default)
                if address in str(message["To"]):
                    bodies.append(message.get_body(preferencelist=("plain",)).get_content())
        return bodies

    return read


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (make test-e2e does)")
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=WAIT_MS)  # its default, 5 s, is short on a busy machine

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


# Counts the table socket's opens and frames, so a test can wait for the live page
# (htmx's ws extension fires these events on the element holding ws-connect).
SOCKET_PROBE = """
(() => {
  window.__e2e = {opens: 0, frames: 0, closes: 0, log: []};
  document.addEventListener("htmx:wsOpen", (e) => {
    if (e.target && e.target.id === "game") { window.__e2e.opens += 1; }
    window.__e2e.log.push(["open", e.target && e.target.id, Date.now()]);
  });
  document.addEventListener("htmx:wsClose", (e) => {
    if (e.target && e.target.id === "game") { window.__e2e.closes += 1; }
    window.__e2e.log.push(["close", e.target && e.target.id, Date.now(),
                           e.detail && e.detail.event && e.detail.event.code]);
  });
  document.addEventListener("htmx:wsAfterMessage", (e) => {
    if (e.target && e.target.id === "game") { window.__e2e.frames += 1; }
  });
})();
"""


def phones(browser, base_url, request, probe=True):
    """A phone fixture's body: yields ``make(name, locale="en")`` -> a Page in its own
    context at a phone viewport on ``base_url`` (with ``SOCKET_PROBE`` when ``probe``),
    saved on failure under ``name``; closes the contexts after the test."""
    contexts = []
    request.node.e2e_pages = {}

    def make(name, locale="en"):
        context = browser.new_context(base_url=base_url, locale=locale, **PHONE)
        context.set_default_timeout(WAIT_MS)
        context.set_default_navigation_timeout(WAIT_MS)
        if probe:
            context.add_init_script(SOCKET_PROBE)
        contexts.append(context)
        page = context.new_page()
        request.node.e2e_pages[name] = page
        return page

    yield make
    for context in contexts:
        # The browser may already be gone; nothing left to free then.
        with contextlib.suppress(Exception):
            context.close()


@pytest.fixture
def phone(browser, server, request):
    """``phone("alice")`` -> a Page in its own context at a phone viewport."""
    yield from phones(browser, server, request)


def eventually(page, probe, what, seconds=PATIENCE_SECONDS):
    """The first truthy value of ``probe()``, polled until the deadline: for conditions
    no page function can wait for (the test's own state, a browser API that answers a
    promise). Playwright delivers its events while the page waits between polls."""
    deadline = time.monotonic() + seconds
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s in vain for {what}")
        page.wait_for_timeout(100)


def log_in(page, username, password):
    """Log in through the log-in page's form; waits until it has left that page."""
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def _slug(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)[:100]


def screenshot_all(item, suffix=""):
    """Save every page of the test as test-artifacts/e2e/<test>-<name><suffix>.png."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    saved = []
    for name, page in getattr(item, "e2e_pages", {}).items():
        path = ARTIFACTS / f"{_slug(item.name)}-{name}{suffix}.png"
        try:
            page.screenshot(path=str(path), full_page=True, timeout=10_000)
            saved.append(path)
        except Exception as error:  # a crashed page must not hide the real failure
            print(f"e2e: no screenshot of {name}: {error}")
    return saved


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        for path in screenshot_all(item):
            report.sections.append(("e2e screenshot", str(path.relative_to(ROOT))))
