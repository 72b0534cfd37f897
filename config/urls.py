from django.conf import settings
from django.contrib import admin
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.utils.cache import patch_cache_control
from django.utils.crypto import constant_time_compare
from prometheus_client.core import GaugeMetricFamily

from config import health, metrics
from leagues.views.accounts import profile
from leagues.views.privacy import privacy_page
from rummy.background import queue
from rummy.guide.views import how_to_play
from rummy.lobby.views import home
from rummy.pwa import views as pwa


def healthz(request):
    """Whether the site works (``config.health``): the database, Redis and the
    background queue's lag, as JSON; 503 when any part is down, so that a monitor can
    alert on the status alone."""
    report = health.report()
    return JsonResponse(report, status=200 if report["ok"] else 503)


def healthz_live(request):
    """Liveness probe: whether the process answers at all. No database, no session."""
    return HttpResponse("ok", content_type="text/plain")


def healthz_queue(request):
    """Whether the background work keeps up (``rummy.background.queue.status``): queue
    depth, the oldest due job's age, jobs running, failures in the last hour. 503 while
    the oldest due job has waited too long, so that a monitor can alert on the status."""
    status = queue.status()
    return JsonResponse(status, status=200 if status["keeping_up"] else 503)


def metrics_view(request):
    """The metrics (``config.metrics``) with the queue's figures read now, for a scraper
    holding ``METRICS_TOKEN`` as a bearer token or for a staff user; a 404 for anyone
    else, as if there were no such page."""
    token = settings.METRICS_TOKEN
    offered = request.headers.get("Authorization", "")
    allowed = (token and constant_time_compare(offered, f"Bearer {token}")) or (
        request.user.is_authenticated and request.user.is_staff
    )
    if not allowed:
        raise Http404
    body, content_type = metrics.collect(QueueFigures())
    return HttpResponse(body, content_type=content_type)


class QueueFigures:
    """The background queue as gauges, read from the database at each scrape: the same
    from any worker, whichever machine the background workers run on."""

    def collect(self):
        figures = queue.status()
        for name, help_text, value in (
            ("depth", "Background jobs due and waiting", figures["depth"]),
            (
                "lag_seconds",
                "How long the oldest due job has waited",
                figures["oldest_due_seconds"],
            ),
            ("running", "Background jobs running", figures["running"]),
            (
                "failed_last_hour",
                "Background jobs failed in the last hour",
                figures["failed_last_hour"],
            ),
        ):
            yield GaugeMetricFamily(f"carousel_queue_{name}", help_text, value=value)


def favicon(request):
    """Browsers ask for /favicon.ico on a first visit whatever the page links: send them
    to the icon among the static files (a redirect, not permanent: its hashed name
    changes with its content), and let them keep the answer for a day."""
    response = redirect(static("icons/favicon.ico"))
    patch_cache_control(response, public=True, max_age=24 * 60 * 60)
    return response


urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("healthz/live", healthz_live, name="healthz_live"),
    path("healthz/queue", healthz_queue, name="healthz_queue"),
    path("metrics", metrics_view, name="metrics"),
    path("favicon.ico", favicon, name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
    # The site as an app (rummy.pwa): the worker must sit at the root to control every page.
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("", home, name="home"),
    path("how-to-play/", how_to_play, name="how_to_play"),
    path("privacy/", privacy_page, name="privacy"),
    path("accounts/", include("leagues.account_urls")),
    path("u/<str:username>/", profile, name="profile"),
    path("leagues/", include("leagues.urls")),
    path("games/", include("rummy.urls")),
    path("notifications/", include("rummy.notifications.urls")),
    path("", include("chat.urls")),
]
