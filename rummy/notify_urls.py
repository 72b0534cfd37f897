from django.urls import path

from rummy import notify_views

app_name = "notify"

urlpatterns = [
    path("", notify_views.settings_page, name="settings"),
    path("verify/", notify_views.send_verification, name="send_verification"),
    path("verify/<str:token>/", notify_views.verify, name="verify"),
    path("unsubscribe/<str:token>/", notify_views.unsubscribe, name="unsubscribe"),
]
