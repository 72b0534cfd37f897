"""Log-in and password reset, with the throttle (``leagues.throttle``) and the rate
limits (``leagues.limits``) around Django's own views."""

from django import forms
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.utils.decorators import method_decorator

from leagues import throttle
from leagues.limits import limited, posted_email


class ThrottledAuthenticationForm(AuthenticationForm):
    """Django's log-in form, held back by the throttle before the password is checked:
    a paused attempt is refused without being tried, so it reveals nothing."""

    paused = False

    def clean(self):
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if not (username and password):
            return super().clean()
        pause = throttle.check(self.request, username)
        if pause is not None:
            self.paused = True
            raise forms.ValidationError(pause.message, code="paused")
        try:
            cleaned = super().clean()
        except forms.ValidationError as error:
            throttle.failed(self.request, username)
            warning = throttle.tries_left_warning(self.request, username)
            if warning is None:
                raise
            # Said before the pause, not only once it has begun.
            raise forms.ValidationError(
                [*error.error_list, forms.ValidationError(warning, code="tries_left")]
            ) from error
        throttle.succeeded(self.request, self.get_user())
        return cleaned


class LoginView(auth_views.LoginView):
    form_class = ThrottledAuthenticationForm

    def form_valid(self, form):
        response = super().form_valid(form)
        throttle.remember_device(self.request, response, form.get_user())
        return response

    def form_invalid(self, form):
        # 429 for a pause, so that scripts (and the tests) can tell it from a typo.
        return self.render_to_response(
            self.get_context_data(form=form), status=429 if form.paused else 200
        )


@method_decorator(
    limited("password_reset", also=[("password_reset_email", posted_email)]), name="dispatch"
)
class PasswordResetView(auth_views.PasswordResetView):
    pass


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    def form_valid(self, form):
        response = super().form_valid(form)
        # The owner proved themselves by email: lift the account's pause and make this
        # browser a known device, so they can log in from it at once.
        throttle.lift_account_pause(form.user)
        throttle.remember_device(self.request, response, form.user)
        return response
