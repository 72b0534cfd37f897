"""Notification settings (with the player's language and time zone, which every email
follows), the browser's report of its time zone, one-click unsubscribe and address
verification.

Unsubscribe and verify links work without logging in: the signed token is the proof.
A bad token gets a page that says what went wrong (400), never an error 500.
"""

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from leagues import quiet
from leagues.models import User, reported_time_zone, time_zone_names
from rummy.models import NotificationPrefs
from rummy.notifications import accounts, prefs, tokens, vapid

# One verification email per user per this many seconds: the button cannot flood a box.
VERIFY_RESEND_SECONDS = 120


class PrefsForm(forms.ModelForm):
    class Meta:
        model = NotificationPrefs
        fields = [*prefs.PREFS, *prefs.PUSH_PREFS]

    def email_fields(self):
        return [self[name] for name in prefs.PREFS]

    def push_fields(self):
        return [self[name] for name in prefs.PUSH_PREFS]


def time_zone_choices(current=""):
    """The zones a player picks from: the IANA "Area/City" names and UTC (not the old
    aliases such as "US/Eastern" or "Etc/GMT+3"), plus ``current`` if it is another
    valid one, so that a stored zone is always shown."""
    names = {
        name
        for name in time_zone_names()
        if "/" in name and name.split("/")[0] not in {"Etc", "SystemV", "US", "posix", "right"}
    }
    names.add("UTC")
    if current in time_zone_names():
        names.add(current)
    return [(name, name.replace("_", " ")) for name in sorted(names)]


class LocaleForm(forms.ModelForm):
    """The language and time zone the player's emails (and their pages, on a browser
    without a language cookie) use. A field left out of the post keeps its value; a
    value that is not offered is refused."""

    # Each language in its own words, as the switcher in the footer names them.
    language = forms.ChoiceField(
        label=gettext_lazy("Language"),
        choices=[
            (code, translation.get_language_info(code)["name_local"].capitalize())
            for code, _name in settings.LANGUAGES
        ],
        required=False,
    )
    time_zone = forms.ChoiceField(label=gettext_lazy("Time zone"), required=False)
    quiet_start = forms.TimeField(
        label=gettext_lazy("Quiet hours from"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        error_messages={"invalid": gettext_lazy("Enter a time such as 22:00.")},
    )
    quiet_end = forms.TimeField(
        label=gettext_lazy("Quiet hours until"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        error_messages={"invalid": gettext_lazy("Enter a time such as 08:00.")},
        help_text=gettext_lazy(
            "In your time zone; a window may run past midnight, such as 22:00 to 08:00, "
            "and lasts at most 16 hours. Leave both empty for none."
        ),
    )

    class Meta:
        model = User
        fields = ["language", "time_zone", "quiet_start", "quiet_end"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = time_zone_choices(self.instance.time_zone)
        self.fields["time_zone"].help_text = gettext_lazy(
            "Times in emails and on your pages are shown in this time zone."
        )
        if not self.instance.language:
            self.initial["language"] = translation.get_language()
        if not self.instance.time_zone:
            self.initial["time_zone"] = "UTC"

    def clean_language(self):
        return self.cleaned_data["language"] or self.instance.language

    def clean_time_zone(self):
        return self.cleaned_data["time_zone"] or self.instance.time_zone

    def clean(self):
        cleaned = super().clean()
        if "quiet_start" not in self.data and "quiet_end" not in self.data:
            # Left out of the post (an older page): keep the quiet hours as they are.
            cleaned["quiet_start"] = self.instance.quiet_start
            cleaned["quiet_end"] = self.instance.quiet_end
            return cleaned
        if self.has_error("quiet_start") or self.has_error("quiet_end"):
            return cleaned
        start, end = cleaned.get("quiet_start"), cleaned.get("quiet_end")
        if (start is None) != (end is None):
            missing = "quiet_start" if start is None else "quiet_end"
            self.add_error(
                missing,
                _("Give both the start and the end of your quiet hours, or leave both empty."),
            )
        elif start is not None and start == end:
            self.add_error(
                "quiet_end", _("Quiet hours must end at a different time than they start.")
            )
        elif start is not None:
            # Whole minutes, at most 16 hours (leagues.quiet).
            for field, error in quiet.window_errors(start, end).items():
                self.add_error(field, error)
        return cleaned


def _bad_token(request, refusal):
    return render(request, "notifications/bad_token.html", {"problem": refusal.message}, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request):
    choices = prefs.prefs_for(request.user)
    form = PrefsForm(request.POST or None, instance=choices)
    locale_form = LocaleForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid() and locale_form.is_valid():
        # Not form.save(): for a player who never chose, two saves at once would both
        # insert the row, and the second would fail (a 500).
        NotificationPrefs.objects.update_or_create(user=request.user, defaults=form.cleaned_data)
        user = locale_form.save()
        # This page answers in the new language at once; UserLocale (config.middleware)
        # sets this browser's language cookie to it.
        translation.activate(user.language)
        messages.success(request, _("Your email settings are saved."))
        return redirect("notifications:settings")
    keys = vapid.site_keys()
    return render(
        request,
        "notifications/settings.html",
        {
            "form": form,
            "locale_form": locale_form,
            "push_key": keys.public_key if keys else "",
            "devices": request.user.push_subscriptions.all(),
        },
    )


@login_required
@require_POST
def report_time_zone(request):
    """The time zone this browser reports (``static/js/time-zone.js``), stored for a
    player who has none yet: a zone they chose on the settings page is never
    overwritten. A missing or unknown zone is refused (400) and changes nothing."""
    zone = reported_time_zone(request.POST.get("time_zone"))
    if not zone:
        return HttpResponseBadRequest(_("That is not a time zone we know."))
    User.objects.filter(pk=request.user.pk, time_zone="").update(time_zone=zone)
    return HttpResponse(status=204)


@login_required
@require_POST
def send_verification(request):
    user = request.user
    if user.email_verified:
        messages.info(request, _("Your address is already verified."))
        return redirect("notifications:settings")
    if not cache.add(f"notifications:verify-sent:{user.pk}", True, VERIFY_RESEND_SECONDS):
        messages.warning(
            request,
            _(
                "We sent you a link a moment ago. Please check your "
                "inbox (and spam folder) before asking again."
            ),
        )
        return redirect("notifications:settings")
    if accounts.send_verification_email(user, request):
        messages.success(
            request,
            _("We sent a link to %(email)s. Open it to verify your address.")
            % {"email": user.email},
        )
    else:
        cache.delete(f"notifications:verify-sent:{user.pk}")
        messages.error(request, _("We could not send the email just now. Please try again later."))
    return redirect("notifications:settings")


@require_http_methods(["GET", "HEAD"])
def verify(request, token):
    try:
        user = tokens.read_verification_token(token)
    except tokens.BadToken as refusal:
        return _bad_token(request, refusal)
    if not user.email_verified:
        user.email_verified = True
        user.save(update_fields=["email_verified"])
    return render(request, "notifications/verified.html", {"verified_user": user})


# Mail programs POST here without a CSRF token (RFC 8058 one-click unsubscribe); the
# signed token in the URL is what authorises the change, and it can only switch emails off.
@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request, token):
    try:
        user, pref = tokens.read_unsubscribe_token(token)
    except tokens.BadToken as refusal:
        return _bad_token(request, refusal)
    context = {"pref": pref, "what": _describe(pref), "email": user.email}
    if request.method == "POST":
        prefs.unsubscribe(user, pref)
        return render(request, "notifications/unsubscribed.html", context)
    # GET only asks: link scanners in mail systems follow links, and must not unsubscribe.
    return render(request, "notifications/unsubscribe.html", context)


def _describe(pref):
    return {
        "your_move": _("“your move” emails"),
        "reminders": _("reminders before your time runs out"),
        "results": _("game results"),
        prefs.ALL: _("all emails from Carousel"),
    }[pref]
