"""Log-in and password reset, with the throttle (``leagues.throttle``) and the rate
limits (``leagues.limits``) around Django's own views."""

from datetime import timedelta

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.shortcuts import resolve_url
from django.utils import timezone, translation
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _

from leagues import throttle
from leagues.limits import limited, posted_email
from leagues.models import Membership, User, reported_time_zone, speaking_to, supported_language
from leagues.views import invites


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


def remember_locale(request, user):
    """At log-in, what this browser says about the player: the language of its switcher
    (a language cookie) always, else the one it was shown for a player with none
    stored; the time zone it reports (the form's hidden field) for a player with none
    stored. A zone chosen on the settings page is never overwritten; junk is ignored."""
    updates = {}
    language = supported_language(translation.get_language())
    switched = bool(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
    if language and language != user.language and (switched or not user.language):
        updates["language"] = language
    zone = reported_time_zone(request.POST.get("time_zone"))
    if zone and not user.time_zone:
        updates["time_zone"] = zone
    if updates:
        User.objects.filter(pk=user.pk).update(**updates)
        for name, value in updates.items():
            setattr(user, name, value)


class LoginView(auth_views.LoginView):
    form_class = ThrottledAuthenticationForm

    def get_context_data(self, **kwargs):
        # The invite link this browser opened, named on the page (the league it is for).
        return super().get_context_data(**kwargs, invite=invites.pending_invite(self.request))

    def get_default_redirect_url(self):
        # Without a ``next``, an invite this browser still holds comes first: its page
        # joins the league with one tap.
        invite = invites.pending_invite(self.request)
        if invite is not None:
            return invites.join_invite_url(invite)
        return super().get_default_redirect_url()

    newcomer = False

    def form_valid(self, form):
        # Before log-in sets it: a player who never logged in joined at sign-up (through
        # an invite) and is told so, wherever the email check left this browser.
        self.newcomer = form.get_user().last_login is None
        response = super().form_valid(form)
        throttle.remember_device(self.request, response, form.get_user())
        remember_locale(self.request, form.get_user())
        return response

    def get_success_url(self):
        url = super().get_success_url()
        if not self.newcomer or url != resolve_url(settings.LOGIN_REDIRECT_URL):
            return url
        # The first log-in, bound for Home: the league the newcomer joined comes first.
        # Joined as a plain member (an invite's way in; owners made their league).
        membership = (
            self.request.user.memberships.filter(role=Membership.Role.MEMBER)
            .select_related("league")
            .first()
        )
        if membership is None:
            return url
        league = membership.league
        messages.success(self.request, _("You joined %(league)s.") % {"league": league})
        return league.get_absolute_url()

    def form_invalid(self, form):
        # 429 for a pause, so that scripts (and the tests) can tell it from a typo.
        return self.render_to_response(
            self.get_context_data(form=form), status=429 if form.paused else 200
        )


class LocalizedPasswordResetForm(PasswordResetForm):
    """Django's reset form, its email written in the account owner's language, with
    the time the link stops working in their time zone; not in the language of
    whoever asked (a stranger may ask for anyone's address)."""

    def send_mail(self, subject_template_name, email_template_name, context, *args, **kwargs):
        user = context["user"]
        with speaking_to(user):
            context = {
                **context,
                "valid_until": timezone.now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT),
            }
            super().send_mail(subject_template_name, email_template_name, context, *args, **kwargs)


@method_decorator(
    limited("password_reset", also=[("password_reset_email", posted_email)]), name="dispatch"
)
class PasswordResetView(auth_views.PasswordResetView):
    form_class = LocalizedPasswordResetForm


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    def form_valid(self, form):
        response = super().form_valid(form)
        # The owner proved themselves by email: lift the account's pause and make this
        # browser a known device, so they can log in from it at once.
        throttle.lift_account_pause(form.user)
        throttle.remember_device(self.request, response, form.user)
        return response
