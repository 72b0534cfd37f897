"""Installable, in Chromium: the manifest parses and Chromium finds the site
installable, the service worker registers and controls the page, the offline page
shows when the server is down (really down: this module's own daphne is stopped, so
nothing but the service worker can answer), a game page is never served from cache, a
push delivered through the DevTools protocol shows a notification whose tap opens the
game, and the install hint and the iPhone how-to fit a 360 px phone.

Screenshots of the offline page, the install hint and the how-to are saved as pwa-*.png
on every run, in test-artifacts/e2e or ``$E2E_SHOTS`` (look at them after a change of
look).
"""

import http.server
import json
import os
import threading
import uuid

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # `make test` (not e2e) runs without it; the browser fixture fails loudly
    expect = None

from tests.e2e.conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    ROOT,
    WAIT_MS,
    Daphne,
    eventually,
    log_in,
    phones,
    run_setup,
)
from tests.e2e.helpers import PASSWORD, no_sideways_scroll, shot

pytestmark = pytest.mark.e2e

SETUP = """
import json
from tests.factories import make_user, started_game
tag = sys.argv[1]
users = [make_user(f"{n}{tag}", display_name=n.title(), password="pw-for-tests-123")
         for n in ("pia", "quin", "rai")]
game = started_game(users, seed=15)
print(json.dumps({"users": [u.username for u in users], "game": game.pk}))
"""


@pytest.fixture(scope="module")
def players(server_env):
    return run_setup(server_env, SETUP, uuid.uuid4().hex[:6])


@pytest.fixture(scope="module")
def own_server(server_env, tmp_path_factory):
    """A daphne of this module's own, on its own port (its own origin, so no other
    test's service worker is involved), which a test may stop and start again."""
    daphne = Daphne(server_env, tmp_path_factory.mktemp("pwa-log") / "daphne.log")
    daphne.start()
    try:
        yield daphne
    finally:
        daphne.stop()


@pytest.fixture
def server_down(own_server):
    """``server_down()`` stops the server; it is started again after the test, whatever
    happens (``own_server.start()`` brings it back within a test)."""
    yield own_server.stop
    if own_server.proc is None or own_server.proc.poll() is not None:
        own_server.start()


@pytest.fixture
def app_phone(browser, own_server, request):
    """``app_phone("pia", locale="en")`` -> a 360x740 page on this module's server."""
    yield from phones(browser, own_server.base, request, probe=False)


def controlled(page):
    """Waits until the worker is active, reloads, and returns the controller's URL."""
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    return page.evaluate(
        "navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL"
    )


CACHED_URLS = """
async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) { urls.push(new URL(request.url).pathname); }
  }
  return urls;
}
"""


# --- the manifest ---------------------------------------------------------------------


def test_manifest_parses_and_chromium_finds_the_site_installable(app_phone, own_server):
    page = app_phone("pia")
    page.goto("/accounts/login/")
    page.evaluate("navigator.serviceWorker.ready")
    cdp = page.context.new_cdp_session(page)
    answer = cdp.send("Page.getAppManifest")
    assert answer["errors"] == []
    assert answer["url"] == own_server.base + "/manifest.webmanifest?lang=en"
    manifest = json.loads(answer["data"])
    assert manifest["display"] == "standalone" and manifest["scope"] == "/"
    # The page's own fetch: served as JSON, with the icons Chromium can load.
    fetched = page.evaluate(
        """async () => {
          const link = document.querySelector('link[rel="manifest"]');
          const answer = await fetch(link.href);
          const data = await answer.json();
          const icons = await Promise.all(data.icons.map(async (icon) => {
            const r = await fetch(new URL(icon.src, link.href));
            return [icon.src, r.status, r.headers.get("Content-Type")];
          }));
          return {type: answer.headers.get("Content-Type"), icons};
        }"""
    )
    assert fetched["type"] == "application/manifest+json"
    for src, status, content_type in fetched["icons"]:
        assert status == 200 and content_type.startswith("image/"), src
    # Everything Chromium requires to offer "Install"; a test context is incognito,
    # which is the one reason it names (a phone's normal window is not).
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []


# --- the service worker ---------------------------------------------------------------


def test_service_worker_registers_at_the_root_and_controls_the_page(app_phone, own_server):
    page = app_phone("pia")
    violations = []
    page.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.goto("/accounts/login/")
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == own_server.base + "/"
    assert controlled(page) == own_server.base + "/sw.js"
    assert violations == []
    # What it precached: static files and the offline page, nothing else.
    urls = page.evaluate(CACHED_URLS)
    assert "/offline/" in urls and "/static/css/site.css" in urls
    assert all(u.startswith("/static/") or u == "/offline/" for u in urls), urls


def test_a_new_worker_deletes_the_old_caches_and_keeps_others(app_phone):
    """The cache's name follows the static files (in development: their times of
    change), so touching one makes a new worker, whose activation deletes our older
    caches and leaves alone a cache that is not ours."""
    page = app_phone("pia")
    page.goto("/accounts/login/")
    assert controlled(page) is not None
    first = page.evaluate("caches.keys()")
    assert len(first) == 1 and first[0].startswith("carousel-")
    page.evaluate("Promise.all([caches.open('carousel-old'), caches.open('someone-else')])")
    css = ROOT / "static" / "css" / "site.css"
    os.utime(css)  # same content, a new time of change: a new version in development
    page.evaluate(
        """async () => {
          const registration = await navigator.serviceWorker.ready;
          const changed = new Promise((done) =>
            navigator.serviceWorker.addEventListener("controllerchange", done, {once: true}));
          await registration.update();
          await changed;
        }"""
    )

    def without_the_first():
        names = sorted(page.evaluate("caches.keys()"))
        return names if first[0] not in names else None

    names = eventually(page, without_the_first, "the first cache to be deleted")
    assert len(names) == 2 and "someone-else" in names, names
    [new] = [n for n in names if n != "someone-else"]
    assert new.startswith("carousel-") and new not in (first[0], "carousel-old")


def test_offline_page_when_the_server_is_down_and_never_a_cached_game_page(
    app_phone, own_server, players, server_down
):
    page = app_phone("pia")
    log_in(page, players["users"][0], PASSWORD)
    game_page = f"/games/{players['game']}/"
    page.goto(game_page)
    assert controlled(page) is not None
    expect(page.locator("#game")).to_be_visible()
    page.goto("/")  # and the home page with its lists: none of it may be kept
    urls = page.evaluate(CACHED_URLS)
    assert all(u.startswith("/static/") or u == "/offline/" for u in urls), urls

    server_down()
    answer = page.goto(game_page)
    # Nothing listens on the port: only the service worker can have answered.
    assert answer.from_service_worker
    assert page.url == own_server.base + game_page
    expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
    expect(page.get_by_text("Nothing was sent and nothing is lost")).to_be_visible()
    assert page.locator("#game").count() == 0
    assert no_sideways_scroll(page)
    shot(page, "pwa-offline-en", full_page=True)
    # An HTMX fragment is not answered from any cache either: the request just fails.
    fragment = page.evaluate(
        """(url) => fetch(url, {headers: {"HX-Request": "true"}})
                     .then((r) => "answered " + r.status, () => "failed")""",
        game_page,
    )
    assert fragment == "failed"

    own_server.start()
    page.get_by_role("link", name="Try again").click()
    expect(page.locator("#game")).to_be_visible()
    assert page.url == own_server.base + game_page


def gateway(status):
    """A handler answering every request as nginx does when no daphne behind it is up
    (502 Bad Gateway, 504 Gateway Timeout)."""

    class Gateway(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = f"<html><body><h1>{status} from the proxy</h1></body></html>".encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    return Gateway


@pytest.mark.parametrize("status", [502, 504])
def test_offline_page_when_the_proxy_finds_no_server(
    app_phone, own_server, players, server_down, status
):
    page = app_phone("pia")
    log_in(page, players["users"][0], PASSWORD)
    game_page = f"/games/{players['game']}/"
    page.goto(game_page)
    assert controlled(page) is not None
    server_down()
    # The port answers again, but only with the proxy's error: still no server.
    proxy = http.server.ThreadingHTTPServer(("127.0.0.1", own_server.port), gateway(status))
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    try:
        answer = page.goto(game_page)
        assert answer.from_service_worker
        expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
        assert page.locator("#game").count() == 0
    finally:
        proxy.shutdown()
        proxy.server_close()


@pytest.mark.parametrize("language", ["lv", "et"])
def test_offline_page_speaks_the_players_language(app_phone, players, server_down, language):
    # Rai's own: the language chosen here is stored on the account, for the next tests.
    page = app_phone("rai", locale="en")
    log_in(page, players["users"][2], PASSWORD)
    assert controlled(page) is not None
    page.select_option("#language-select", language)
    page.locator(".language-form button[type=submit]").click()
    page.wait_for_function(
        "(lang) => document.documentElement.lang === lang", arg=language, timeout=WAIT_MS
    )
    # The worker fetches the offline page again in the page's new language.
    cached_language = """async () => {
      const answer = await caches.match("/offline/");
      return answer && answer.headers.get("Content-Language");
    }"""
    eventually(
        page, lambda: page.evaluate(cached_language) == language, f"the offline page in {language}"
    )
    server_down()
    answer = page.goto("/")
    assert answer.from_service_worker
    assert page.evaluate("document.documentElement.lang") == language
    assert page.locator("#offline-retry").is_visible()
    assert no_sideways_scroll(page)
    shot(page, f"pwa-offline-{language}", full_page=True)


# --- push -----------------------------------------------------------------------------

SHOWN = """
() => navigator.serviceWorker.ready
  .then((r) => r.getNotifications())
  .then((all) => all.map((n) => ({title: n.title, body: n.body, tag: n.tag, data: n.data,
                                   icon: n.icon, badge: n.badge, renotify: n.renotify})))
"""


def shown_when_there(page):
    """The notifications shown. Read only once the worker has handled the push
    (``deliver_push`` waits for that): Chromium's getNotifications() deletes from its
    database every notification the platform does not report as on display yet, unless
    it was written after the read began, so a read while a push is being shown (this
    used to poll every 100 ms) can lose that notification for good."""
    shown = page.evaluate(SHOWN)
    assert shown, "no notification was shown"
    return shown


# In the worker: the tap. No browser lets a test tap a notification (headless Chromium
# has no notification centre, and the DevTools protocol can show one but not click it),
# and Chromium allows focus() and openWindow() only inside a real tap. So the worker's
# own handler is called with the real notification, and those two calls (the browser's
# part) are recorded instead of made; the test then opens what was asked for.
TAP = """
async () => {
  const calls = [];
  self.clients.openWindow = async (url) => { calls.push(["open", url]); return null; };
  WindowClient.prototype.focus = async function () { calls.push(["focus", this.url]); };
  const [notification] = await self.registration.getNotifications();
  let pending = null;
  onNotificationClick({notification, waitUntil: (promise) => { pending = promise; }});
  await pending;
  const left = await self.registration.getNotifications();
  return {calls, left: left.length};
}
"""


# In the worker: counts the push events it has finished handling (the promises the
# handler passed to waitUntil have settled). Installed once per worker; Chromium does not
# stop a worker that DevTools (Playwright) is attached to, so the count lives as long as
# the test's worker does.
WATCH_PUSHES = """
() => {
  if (self.__e2ePushes === undefined) {
    const pushes = {seen: 0, pending: 0};
    self.__e2ePushes = pushes;
    const waitUntil = ExtendableEvent.prototype.waitUntil;
    ExtendableEvent.prototype.waitUntil = function (promise) {
      if (this.type === "push") {
        pushes.pending += 1;
        Promise.resolve(promise).finally(() => { pushes.pending -= 1; });
      }
      return waitUntil.call(this, promise);
    };
    // Added after the worker's own listener, so it runs after it has called waitUntil.
    self.addEventListener("push", () => { pushes.seen += 1; });
  }
  return self.__e2ePushes.seen;
}
"""
PUSHES_HANDLED = """
(seen) => {
  const pushes = self.__e2ePushes;
  if (pushes === undefined) { throw new Error("the worker was restarted: its count is gone"); }
  return pushes.seen > seen && pushes.pending === 0;
}
"""


def deliver_push(page, cdp, origin, payload):
    """Hands ``payload`` to the page's service worker as a push message would, without a
    push service (the DevTools protocol; the registration id comes from its events), and
    waits until the worker has handled it (its notification, if any, is then shown)."""
    worker = our_worker(page)
    seen = worker.evaluate(WATCH_PUSHES)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.append(e))
    cdp.send("ServiceWorker.disable")  # enable (again) reports every registration
    cdp.send("ServiceWorker.enable")
    eventually(page, lambda: registrations, "the service workers' registrations")
    ours = [
        r
        for update in registrations
        for r in update["registrations"]
        if r["scopeURL"] == origin + "/" and not r["isDeleted"]
    ]
    assert ours, registrations
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": origin, "registrationId": ours[0]["registrationId"], "data": payload},
    )
    eventually(page, lambda: worker.evaluate(PUSHES_HANDLED, seen), "the push to be handled")


def our_worker(page):
    """Playwright's handle on the running worker (it attaches to it asynchronously)."""
    workers = eventually(
        page,
        lambda: [w for w in page.context.service_workers if w.url.endswith("/sw.js")],
        "Playwright to see the service worker",
    )
    return workers[0]


def test_push_shows_a_notification_whose_tap_opens_the_game(app_phone, own_server, players):
    page = app_phone("pia")
    page.context.grant_permissions(["notifications"], origin=own_server.base)
    log_in(page, players["users"][0], PASSWORD)
    assert controlled(page) is not None
    game_page = f"/games/{players['game']}/"
    cdp = page.context.new_cdp_session(page)
    payload = {"title": "Your move", "body": "Pia, it is your move.", "url": game_page}
    deliver_push(page, cdp, own_server.base, json.dumps({**payload, "tag": "game-1"}))
    [shown] = shown_when_there(page)
    assert shown["title"] == "Your move" and shown["body"] == "Pia, it is your move."
    assert shown["tag"] == "game-1" and shown["renotify"] is True
    assert shown["data"] == {"url": game_page}
    assert shown["icon"].endswith("/static/icons/icon-192.png")
    assert shown["badge"].endswith("/static/icons/badge-96.png")

    worker = our_worker(page)
    # No tab at the game: a new one is opened there, and the notification is closed.
    tapped = worker.evaluate(TAP)
    assert tapped == {"calls": [["open", own_server.base + game_page]], "left": 0}
    page.goto(tapped["calls"][0][1])
    expect(page.locator("#game")).to_be_visible()

    # A tab already at the game: that one comes to the front, no second tab.
    deliver_push(page, cdp, own_server.base, json.dumps({**payload, "tag": "game-2"}))
    shown_when_there(page)
    tapped = worker.evaluate(TAP)
    assert tapped == {"calls": [["focus", own_server.base + game_page]], "left": 0}


# Each one a foreign site once read as an address, some only when read a second time
# ("/.//evil.example/x" is the path "//evil.example/x" of this site).
FOREIGN_URLS = [
    "https://evil.example/games/1/",
    "//evil.example/x",
    "//evil",
    "/.//evil.example/x",
    "/a/..//evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/\\evil.example/x",
    "/\t/evil.example/x",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "",
    12,
]


@pytest.mark.parametrize("url", FOREIGN_URLS)
def test_push_with_a_foreign_url_opens_the_home_page(app_phone, own_server, url):
    page = app_phone("pia")
    page.context.grant_permissions(["notifications"], origin=own_server.base)
    page.goto("/accounts/login/")
    assert controlled(page) is not None
    cdp = page.context.new_cdp_session(page)
    payload = json.dumps({"title": "x", "body": "y", "url": url, "tag": "t"})
    deliver_push(page, cdp, own_server.base, payload)
    assert shown_when_there(page)[0]["data"] == {"url": "/"}


@pytest.mark.parametrize("url", ["/.//evil.example/x", "//evil.example/x", "/a/..//evil"])
def test_a_tap_on_a_notification_with_a_foreign_path_opens_the_home_page(
    app_phone, own_server, url
):
    """A notification that holds a foreign path (shown by an older worker, say): the tap
    itself opens only this site."""
    page = app_phone("pia")
    page.context.grant_permissions(["notifications"], origin=own_server.base)
    page.goto("/accounts/login/")
    assert controlled(page) is not None
    worker = our_worker(page)
    worker.evaluate(
        "(url) => self.registration.showNotification('x', {tag: 't', data: {url}})", url
    )
    shown_when_there(page)
    tapped = worker.evaluate(TAP)
    assert tapped == {"calls": [["open", own_server.base + "/"]], "left": 0}


def test_a_push_that_is_not_json_still_shows_the_sites_name(app_phone, own_server):
    page = app_phone("pia")
    page.context.grant_permissions(["notifications"], origin=own_server.base)
    page.goto("/accounts/login/")
    assert controlled(page) is not None
    deliver_push(page, page.context.new_cdp_session(page), own_server.base, "not json {")
    [shown] = shown_when_there(page)
    assert shown["title"] == "Carousel" and shown["data"] == {"url": "/"}


# --- the install hint and the iPhone how-to -------------------------------------------

# Chromium fires beforeinstallprompt only in a normal (not incognito) window of an
# installable site: these tests run in a persistent context (a browser profile of their
# own), where it is the real event.
COUNT_OFFERS = """
window.__offers = 0;
window.addEventListener("beforeinstallprompt", () => { window.__offers += 1; });
"""


@pytest.fixture
def normal_window(browser, own_server, tmp_path, request):
    """A page in a normal (profile, not incognito) Chromium window at 360x740."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        headless=True,
        base_url=own_server.base,
        **PHONE,
    )
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(COUNT_OFFERS)
    page = context.pages[0] if context.pages else context.new_page()
    request.node.e2e_pages = {"normal": page}
    try:
        yield page
    finally:
        context.close()


def offered(page, times=1):
    """Waits until Chromium has fired beforeinstallprompt ``times`` on this page."""
    page.wait_for_function("(n) => window.__offers >= n", arg=times)


def tap_size(page, selector):
    return page.locator(selector).evaluate(
        "(e) => { const r = e.getBoundingClientRect(); return [r.width, r.height]; }"
    )


def test_chromium_offers_install_and_the_hint_stays_dismissed(normal_window):
    page = normal_window
    page.goto("/accounts/login/")
    hint = page.locator("#install-hint")
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    offered(page)
    cdp = page.context.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    expect(hint).to_be_visible()
    for button in ("#install-button", "#install-dismiss"):
        width, height = tap_size(page, button)
        assert width >= 44 and height >= 44, (button, width, height)
    assert no_sideways_scroll(page)
    shot(page, "pwa-install-hint", full_page=True)

    page.get_by_role("button", name="Not now").click()
    expect(hint).to_be_hidden()
    page.reload()
    offered(page)  # Chromium offers again; the hint does not come back on this device
    expect(hint).to_be_hidden()


def test_install_button_opens_the_browsers_dialog(normal_window):
    """Headless Chromium answers its install dialog "dismissed" at once, so what this
    shows is that the button opened it (the dialog's answer came) and that a "no" there
    is remembered like "Not now"; an accepted install (appinstalled) is not exercised."""
    page = normal_window
    page.add_init_script(
        """window.addEventListener("beforeinstallprompt", (e) => {
             e.userChoice.then((c) => { window.__answer = c.outcome; }); });"""
    )
    page.goto("/accounts/login/")
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    offered(page)
    page.get_by_role("button", name="Install", exact=True).click()
    page.wait_for_function("() => window.__answer === 'dismissed'")
    expect(page.locator("#install-hint")).to_be_hidden()
    page.reload()
    offered(page)
    expect(page.locator("#install-hint")).to_be_hidden()


def test_iphone_how_to_on_the_notification_settings_page(app_phone, players):
    page = app_phone("quin")
    log_in(page, players["users"][1], PASSWORD)
    page.goto("/notifications/")
    howto = page.locator(".home-screen-howto")
    expect(howto).to_be_visible()
    expect(howto.get_by_text("Add to Home Screen")).to_be_visible()
    assert no_sideways_scroll(page)
    howto.scroll_into_view_if_needed()
    shot(howto, "pwa-iphone-how-to")
