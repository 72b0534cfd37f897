"""Account pages (not namespaced: Django's auth views reverse these names)."""

from django.urls import include, path

from leagues.limits import limited
from leagues.views import accounts, auth

urlpatterns = [
    path("signup/", limited("signup")(accounts.signup), name="signup"),
    # Ours, with the log-in throttle and the rate limits; listed before Django's own.
    path("login/", auth.LoginView.as_view(), name="login"),
    path("delete/", accounts.delete_account, name="delete_account"),
    path("my-data/", accounts.download_data, name="download_data"),
    path("password_reset/", auth.PasswordResetView.as_view(), name="password_reset"),
    path(
        "reset/<uidb64>/<token>/",
        auth.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    # logout, password_change(_done), password_reset_done, password_reset_complete
    path("", include("django.contrib.auth.urls")),
]
