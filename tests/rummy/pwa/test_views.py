"""Installable: the web app manifest, the service worker's headers and
what it is told to cache, the offline page, and the CSP that covers them (rummy.pwa)."""

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse

from tests.security.pages import inline_code
from tests.security.production import production_env, run, run_json
from tests.test_icons import png_size

pytestmark = pytest.mark.django_db


def response_csp(url, client):
    return client.get(url)["Content-Security-Policy"]


def csp_directives(response):
    csp = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in csp.split(";") if part.strip()}


def static_path(url):
    """The file behind a /static/ URL (development names, as the default lane serves)."""
    assert url.startswith("/static/"), url
    found = finders.find(url.removeprefix("/static/"))
    assert found, url
    return Path(found)


def worker_config(body):
    match = re.search(r"^const CONFIG = (\{.*?^\});$", body, re.S | re.M)
    assert match, "sw.js starts with its CONFIG"
    return json.loads(match.group(1))


# --- the manifest ---------------------------------------------------------------------


def test_manifest_is_json_with_what_an_install_needs(client):
    response = client.get(reverse("manifest"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    for key in ("id", "name", "short_name", "start_url", "scope", "display", "icons"):
        assert data[key], key
    assert data["display"] == "standalone"
    assert data["scope"] == "/" and data["start_url"] == "/" and data["id"] == "/"
    # The site's own colours (static/css/site.css: the header and the page).
    css = (Path(settings.BASE_DIR) / "static" / "css" / "site.css").read_text()
    assert f"--accent: {data['theme_color']};" in css
    assert f"--bg: {data['background_color']};" in css


def test_manifest_icons_exist_at_their_sizes_and_one_is_maskable(client):
    icons = json.loads(client.get(reverse("manifest")).content)["icons"]
    purposes = {icon.get("purpose", "any") for icon in icons}
    assert purposes == {"any", "maskable"}
    sizes = set()
    for icon in icons:
        path = static_path(icon["src"])
        if icon["type"] == "image/png":
            width, height = png_size(path)
            assert icon["sizes"] == f"{width}x{height}", icon
            sizes.add(width)
    # Chromium installs with a 192 px and a 512 px icon at least.
    assert {192, 512} <= sizes


def test_manifest_speaks_the_language_it_is_asked_for(client):
    english = json.loads(client.get(reverse("manifest"), {"lang": "en"}).content)
    latvian = json.loads(client.get(reverse("manifest"), {"lang": "lv"}).content)
    assert english["lang"] == "en" and latvian["lang"] == "lv"
    # One app whatever the language: the same id, start and scope.
    assert {k: english[k] for k in ("id", "start_url", "scope")} == {
        k: latvian[k] for k in ("id", "start_url", "scope")
    }


@pytest.mark.parametrize("junk", ["xx", "", "lv'><script>", "\x00", "en" * 500])
def test_manifest_with_a_junk_language_answers_in_the_requests_own(client, junk):
    response = client.get(reverse("manifest"), {"lang": junk})
    assert response.status_code == 200
    assert json.loads(response.content)["lang"] == "en"


def test_pages_link_the_manifest_in_their_language_and_the_worker_script(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "et"
    html = client.get(reverse("login")).content.decode()
    assert f'<link rel="manifest" href="{reverse("manifest")}?lang=et">' in html
    script = re.search(r'<script src="([^"]+)" data-service-worker="([^"]+)" defer>', html)
    assert script and script.groups() == (static("js/pwa.js"), reverse("service_worker"))
    assert '<meta name="theme-color" content="#0b6e4f">' in html


# --- the service worker ---------------------------------------------------------------


def test_service_worker_headers(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"


def test_service_worker_with_the_session_cookie_keeps_its_no_cache(client, cast):
    # PrivateResponses would add no-store to a response without its own Cache-Control.
    client.force_login(cast.alice)
    assert client.get("/sw.js")["Cache-Control"] == "no-cache"


def test_service_worker_precaches_only_static_files_and_the_offline_page(client):
    config = worker_config(client.get("/sw.js").content.decode())
    assert config["offline"] == reverse("offline")
    assert config["staticPrefix"] == "/static/"
    for url in config["precache"]:
        assert url.startswith(config["staticPrefix"]), url
        static_path(url)  # exists
    # What the offline page links is what is precached: it must show with no network.
    offline = client.get(reverse("offline")).content.decode()
    linked = set(re.findall(r'(?:href|src)="(/static/[^"]+)"', offline))
    assert linked and linked <= set(config["precache"])
    # The notification's icon and badge are there too.
    assert {config["icon"], config["badge"]} <= set(config["precache"])


def test_service_worker_caches_by_allow_list():
    """The fetch handler answers only static files (cache first) and navigations (the
    network, the offline page when it fails); nothing else is ever put in a cache."""
    source = (Path(settings.BASE_DIR) / "templates" / "pwa" / "sw.js").read_text()
    puts = re.findall(r"cache\.(put|add|addAll)\(", source)
    # staticFile() puts a static file; install adds the precache; followLanguage() the
    # offline page. No other write to a cache.
    assert sorted(puts) == ["add", "addAll", "put"]
    assert 'request.method !== "GET"' in source


def test_service_worker_version_changes_with_a_static_file(client, tmp_path, settings):
    before = worker_config(client.get("/sw.js").content.decode())["version"]
    extra = tmp_path / "static"
    extra.mkdir()
    (extra / "new.css").write_text("p { color: red; }")
    settings.STATICFILES_DIRS = [*settings.STATICFILES_DIRS, extra]
    finders.get_finder.cache_clear()
    try:
        after = worker_config(client.get("/sw.js").content.decode())["version"]
    finally:
        finders.get_finder.cache_clear()
    assert after != before


def test_post_to_the_new_routes_is_refused_and_changes_nothing(client):
    for name in ("manifest", "service_worker", "offline"):
        assert client.post(reverse(name)).status_code == 405


# --- the offline page -----------------------------------------------------------------

OFFLINE_HEADING = {"en": "You are offline"}


@pytest.mark.parametrize("language", ["en", "lv", "et"])
def test_offline_page_renders_in_each_language(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("offline"))
    assert response.status_code == 200
    assert response["Content-Language"] == language
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    assert 'id="offline-retry"' in html
    assert inline_code(html) == []


def test_offline_page_says_nothing_was_sent_or_lost(client):
    html = client.get(reverse("offline")).content.decode()
    assert "You are offline" in html
    assert "Nothing was sent and nothing is lost" in html


def test_offline_page_holds_nothing_of_the_player(client, cast):
    """It is cached on the phone: no name, no token, no form, no script, no socket."""
    client.force_login(cast.alice)
    html = client.get(reverse("offline")).content.decode()
    assert cast.alice.name not in html and cast.alice.username not in html
    assert "csrf" not in html.lower()
    assert "<form" not in html and "<script" not in html and "ws-connect" not in html


# --- the CSP --------------------------------------------------------------------------


def test_csp_allows_our_own_worker_and_manifest_only(client):
    for url in (reverse("login"), "/sw.js", reverse("offline")):
        directives = csp_directives(client.get(url))
        assert directives["worker-src"] == ["'self'"], url
        assert directives["manifest-src"] == ["'self'"], url
        assert "'unsafe-inline'" not in response_csp(url, client)


# --- the iPhone how-to ----------------------------------------------------------------


def test_notification_settings_explain_the_home_screen_on_iphone(client, cast):
    client.force_login(cast.alice)
    html = client.get(reverse("notifications:settings")).content.decode()
    assert "Add to Home Screen" in html
    assert "work only when Carousel is added to the Home Screen" in html


# --- production: hashed names ---------------------------------------------------------


def test_production_worker_precaches_the_hashed_names(tmp_path):
    """With ManifestStaticFilesStorage (DEBUG off) the worker and the manifest name the
    collected, hashed files, and the worker's version follows them."""
    env = production_env(tmp_path, SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    env.pop("DATABASE_URL")
    done = run(["manage.py", "collectstatic", "--noinput", "-v0"], env)
    assert done.returncode == 0, done.stderr[-3000:]
    result = run_json(
        "from django.test import Client\n"
        "c = Client(HTTP_HOST='carousel.example', HTTP_X_FORWARDED_PROTO='https')\n"
        "sw = c.get('/sw.js')\n"
        "m = c.get('/manifest.webmanifest')\n"
        "print(json.dumps({'sw': sw.content.decode(), 'status': sw.status_code,"
        " 'manifest': json.loads(m.content)}))",
        env,
    )
    assert result["status"] == 200
    config = worker_config(result["sw"])
    hashed = re.compile(r"^/static/.+\.[0-9a-f]{12}\.\w+$")
    assert all(hashed.match(url) for url in config["precache"]), config["precache"]
    assert all(hashed.match(icon["src"]) for icon in result["manifest"]["icons"])
    for url in config["precache"]:
        assert (tmp_path / "static" / url.removeprefix("/static/")).exists(), url
