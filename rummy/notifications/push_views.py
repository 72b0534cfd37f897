"""The settings page's push controls: a browser subscribes (``static/js/push.js`` POSTs
its subscription after the player tapped and allowed notifications), and the player
removes a device. Thin: checking and storing is ``subscriptions``' work."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rummy.models import PushSubscription
from rummy.notifications import subscriptions, vapid


@login_required
@require_POST
def subscribe(request):
    """JSON in, JSON out (the script shows ``error`` as it is); a refusal is a 400
    that stores nothing."""
    if vapid.site_keys() is None:
        return JsonResponse(
            {"error": _("Push notifications are not set up on this site.")}, status=400
        )
    device = subscriptions.device_label(request.headers.get("User-Agent"))
    try:
        endpoint, p256dh, auth = subscriptions.parse(request.body)
        subscription = subscriptions.save(request.user, endpoint, p256dh, auth, device)
    except subscriptions.Refused as refusal:
        return JsonResponse({"error": refusal.message}, status=400)
    messages.success(request, _("This device now gets push notifications."))
    return JsonResponse({"id": subscription.pk, "device": subscription.device}, status=201)


@login_required
@require_POST
def remove(request, pk):
    # Another player's device is a 404, as if it did not exist.
    subscription = get_object_or_404(PushSubscription, pk=pk, user=request.user)
    subscription.delete()
    messages.success(
        request,
        _("%(device)s no longer gets push notifications.") % {"device": subscription.device},
    )
    return redirect("notifications:settings")
