"""Account pages (not namespaced: Django's auth views reverse these names)."""

from django.urls import include, path

from leagues.views import accounts

urlpatterns = [
    path("signup/", accounts.signup, name="signup"),
    # login, logout, password_change(_done), password_reset(_done/_confirm/_complete)
    path("", include("django.contrib.auth.urls")),
]
