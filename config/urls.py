from django.contrib import admin
from django.http import HttpResponse
from django.urls import include, path

from leagues.views.accounts import profile
from rummy.guide.views import how_to_play
from rummy.lobby.views import home


def healthz(request):
    """Liveness probe for the proxy: no database, no session."""
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", home, name="home"),
    path("how-to-play/", how_to_play, name="how_to_play"),
    path("accounts/", include("leagues.account_urls")),
    path("u/<str:username>/", profile, name="profile"),
    path("leagues/", include("leagues.urls")),
    path("games/", include("rummy.urls")),
    path("notifications/", include("rummy.notifications.urls")),
]
