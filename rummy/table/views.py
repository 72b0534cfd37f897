"""The game page and its controls: thin. Access helpers answer 404 to strangers; the
write path (``rummy.play``) decides. ``end_early`` is the turn clock's one control: a
league admin ends a game in which a player is marked absent.

An HTMX request gets the partial (fragments swapped by id, like the socket's frames);
any other request the full page or a redirect, so that every control works without
JavaScript. These endpoints serve a page whose socket is down and clients without JS;
with the socket up the same form travels over it (``rummy.table.consumers``).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from chat import public as chat
from rummy import play
from rummy.clock import deadlines
from rummy.table import dispatch, memory, rendering
from rummy.table.access import game_at_least, get_game_for_viewer, may_view
from rummy.table.presenters import SORTS

SORT_SESSION_KEY = "rummy_hand_sort"


def _sort(request):
    """The hand order: ?sort= wins and is remembered, so that the toggle works without JS
    and later redirects keep it."""
    sort = request.GET.get("sort")
    if sort in SORTS:
        request.session[SORT_SESSION_KEY] = sort
        return sort
    return request.session.get(SORT_SESSION_KEY, "suit")


def _render_table(request, game, flash=None, status=200, no_draft=False):
    page = rendering.page_of(
        game, request.user, _sort(request), flash=flash, read_draft=not no_draft
    )
    # The form works without JavaScript too: a plain POST needs its token.
    csrf_token = get_token(request)
    frames = rendering.build_frames(page, csrf_token)
    if request.htmx:
        # This page's socket is down, but its form says which view it shows (its stamp):
        # when this process rendered that view, only what changed since travels, as over
        # the socket; otherwise the whole view.
        stamp = request.POST.get("stamp", "")[:32] if request.method == "POST" else ""
        return HttpResponse(frames.answer(memory.views.get(stamp)), status=status)
    context = rendering.template_context(page)
    context.update(
        csrf_token=csrf_token,
        frames_html=frames.html,
        stamp=frames.stamp,
        chat_html=chat.drawer(request, game),
    )
    return render(request, "rummy/table.html", context, status=status)


@login_required
def table(request, game_id):
    game = get_game_for_viewer(request.user, game_id)
    if deadlines.enforce_deadline(game):
        # The deadline had passed with no clock tick yet: the timeout was just played.
        game = get_game_for_viewer(request.user, game_id)
    return _render_table(request, game)


@login_required
@require_POST
def act(request, game_id):
    """Every control of the table page (see ``rummy.table.dispatch``)."""
    # The hot path of a busy server: the game (seats and users) is read through the
    # process's shared memory of recent versions (rummy.table.access.game_at_least), which
    # the table's sockets use too, and so is whether the user may see its league (at
    # most seconds old): this only chooses between 404 and going on, while the services
    # check afresh what each action needs (a seat at the table, a membership to sit).
    game = game_at_least(game_id, 0)
    if game is None or not may_view(request.user, game):
        raise Http404(_("No such game."))
    try:
        outcome = dispatch.perform(game.pk, request.user, request.POST)
    except play.ActionRefused as refusal:
        game = get_game_for_viewer(request.user, game_id)
        return _render_table(request, game, flash=refusal.message, status=refusal.status)
    if outcome.game_deleted:
        messages.info(request, _("You left the table; it is closed."))
        return redirect(game.league)
    if not request.htmx:
        if outcome.flash:
            messages.info(request, outcome.flash)
        return redirect(game)
    # The game as just saved (the dispatcher remembered it for the sockets); a draft
    # edit (no new version) or a seating change reads it afresh.
    # After a turn action no draft can belong to it yet: nothing to read (Outcome.no_draft).
    game = outcome.game or get_game_for_viewer(request.user, game_id)
    return _render_table(request, game, flash=outcome.flash, no_draft=outcome.no_draft)


@login_required
@require_POST
def end_early(request, game_id):
    game = get_game_for_viewer(request.user, game_id)
    try:
        # The button is not part of the live-updated form, so it may carry no version;
        # the service re-checks that a player is still absent either way.
        play.end_early(game.pk, request.user, request.POST.get("version") or game.version)
    except play.NotAllowed as refusal:
        raise PermissionDenied(refusal.message) from None
    except play.ActionRefused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("The game was ended early and scored as it stood."))
    return redirect(game)
