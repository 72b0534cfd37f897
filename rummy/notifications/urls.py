from django.urls import path

import config.converters  # noqa: F401  (registers <id:…>, the bounded id of every address)
from rummy.notifications import push_views, views

app_name = "notifications"

urlpatterns = [
    path("", views.settings_page, name="settings"),
    path("verify/", views.send_verification, name="send_verification"),
    path("time-zone/", views.report_time_zone, name="time_zone"),
    path("push/", push_views.subscribe, name="push_subscribe"),
    path("push/<id:pk>/remove/", push_views.remove, name="push_remove"),
    path("verify/<str:token>/", views.verify, name="verify"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
