"""Notification settings, one-click unsubscribe and address verification.

Unsubscribe and verify links work without logging in: the signed token is the proof.
A bad token gets a page that says what went wrong (400), never an error 500.
"""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from rummy.models import NotificationPrefs
from rummy.notifications import accounts, prefs, tokens

# One verification email per user per this many seconds: the button cannot flood a box.
VERIFY_RESEND_SECONDS = 120


class PrefsForm(forms.ModelForm):
    class Meta:
        model = NotificationPrefs
        fields = ["your_move", "reminders", "results"]


def _bad_token(request, refusal):
    return render(request, "notifications/bad_token.html", {"problem": refusal.message}, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request):
    choices = prefs.prefs_for(request.user)
    form = PrefsForm(request.POST or None, instance=choices)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your email settings are saved."))
        return redirect("notifications:settings")
    return render(request, "notifications/settings.html", {"form": form})


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
