from django.urls import path

from rummy.notifications import views

app_name = "notifications"

urlpatterns = [
    path("", views.settings_page, name="settings"),
    path("verify/", views.send_verification, name="send_verification"),
    path("time-zone/", views.report_time_zone, name="time_zone"),
    path("verify/<str:token>/", views.verify, name="verify"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
