"""The turn clock's one control on the table page: a league admin ends a game in which
a player is marked absent (three timeouts in a row). Thin: ``services.end_early``
decides; strangers get 404 (access helper), members who are not admins 403."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rummy import services
from rummy.access import get_game_for_viewer


@login_required
@require_POST
def end_early(request, game_id):
    game = get_game_for_viewer(request.user, game_id)
    try:
        # The button is not part of the live-updated form, so it may carry no version;
        # the service re-checks that a player is still absent either way.
        services.end_early(game.pk, request.user, request.POST.get("version") or game.version)
    except services.NotAllowed as refusal:
        raise PermissionDenied(refusal.message) from None
    except services.ActionRefused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("The game was ended early and scored as it stood."))
    return redirect(game)
