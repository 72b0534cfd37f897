"""The manifest, the service worker and the offline page.

The service worker is a template rendered by a view, not a static file, for two
reasons: a worker's scope cannot be wider than the folder it is served from (``/sw.js``
reaches every page, ``/static/…`` would not), and it has to know the static files'
current (hashed) names to precache them.
"""

import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from config import caches

# The site's colours (static/css/site.css: --accent is the header, --bg the page), so
# the splash screen and the phone's status bar match the site.
THEME_COLOR = "#0b6e4f"
BACKGROUND_COLOR = "#f6f4ef"

# What the offline page needs, cached when the worker installs. Anything else under
# /static/ is cached the first time a page uses it.
PRECACHE = (
    "css/site.css",
    "icons/favicon.ico",
    "icons/favicon.svg",
    "icons/icon-192.png",
    "icons/badge-96.png",
)
NOTIFICATION_ICON = "icons/icon-192.png"
# Android draws the badge from its alpha channel only: a white shape on transparency.
NOTIFICATION_BADGE = "icons/badge-96.png"


def _language(request):
    """The manifest's language: ``?lang=`` (the page that links it says which, since a
    browser fetches a manifest without cookies), else the request's own."""
    code = request.GET.get("lang", "")
    if code in dict(settings.LANGUAGES):
        return code
    return translation.get_language()


@require_safe
def manifest(request):
    """The web app manifest, in the language of the page that linked it. Its ``id`` and
    ``start_url`` do not depend on the language: one install whatever the language."""
    with translation.override(_language(request)):
        data = {
            "id": "/",
            "name": "Carousel",
            "short_name": "Carousel",
            "description": _("Manipulation Rummy with your friends, one turn at a time."),
            "lang": translation.get_language(),
            "dir": "rtl" if translation.get_language_bidi() else "ltr",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "orientation": "any",
            "theme_color": THEME_COLOR,
            "background_color": BACKGROUND_COLOR,
            "icons": [
                {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
                {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
                {
                    "src": static("icons/icon-maskable-512.png"),
                    "sizes": "512x512",
                    "type": "image/png",
                    "purpose": "maskable",
                },
                {"src": static("icons/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
            ],
        }
    response = JsonResponse(data, content_type="application/manifest+json")
    # Revalidated on every use: it names hashed icon files that change with each deploy.
    response["Cache-Control"] = "no-cache"
    return response


def _hashed_names():
    """The static files' hashed names (ManifestStaticFilesStorage, production), or None
    when the names are the files' own (development, and the default test lane)."""
    return getattr(staticfiles_storage, "hashed_files", None) or None


def _static_fingerprint():
    """A digest that changes whenever a static file does. With hashed names the list of
    names is enough; otherwise each file's size and time of change count."""
    hashed = _hashed_names()
    digest = hashlib.sha256()
    if hashed:
        digest.update(json.dumps(sorted(hashed.items())).encode())
        return digest.hexdigest()
    for finder in finders.get_finders():
        for path, storage in finder.list([]):
            stat = Path(storage.path(path)).stat()
            digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _worker_config():
    template = get_template("pwa/sw.js")
    source = Path(template.origin.name).read_bytes()
    version = hashlib.sha256(source + _static_fingerprint().encode()).hexdigest()[:16]
    return {
        # The cache's name: a new one (and the old deleted) whenever the worker's code
        # or any static file changes, so a cached file is never older than the site.
        "version": version,
        "staticPrefix": "/" + settings.STATIC_URL.lstrip("/"),
        "offline": reverse("offline"),
        "precache": [static(name) for name in PRECACHE],
        "icon": static(NOTIFICATION_ICON),
        "badge": static(NOTIFICATION_BADGE),
    }


# Hashed static files change only with a deploy (a new process): worked out once.
_cached_worker_config = caches.memo(maxsize=1)(_worker_config)


@require_safe
def service_worker(request):
    config = _cached_worker_config() if _hashed_names() else _worker_config()
    body = get_template("pwa/sw.js").render({"config": json.dumps(config, indent=2)})
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    # Served from the root, so it may control every page of the site.
    response["Service-Worker-Allowed"] = "/"
    # The browser must check for a new worker on every visit, never keep an old one.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline(request):
    """What the service worker shows when a page cannot be loaded. It is cached, so it
    holds nothing of the player's: no name, no form, no token, and no script."""
    return render(request, "pwa/offline.html", {"theme_color": THEME_COLOR})
