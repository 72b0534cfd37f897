"""The chat's pages, thin: the HTMX fallback of the game page's drawer (post a message,
the read mark), the whole thread (works without JavaScript), one message's actions
(report, block, hide, mute) and a league's moderation page."""

import uuid

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from chat import access, board, public, reads, services
from chat import render as chat_render
from chat.models import BoardPost, Message, ModerationAction, Mute, Report
from leagues.access import get_league_for_member, require_league_admin
from rummy.models import Game

THREAD_PAGE = 200


def _game_for_reader(user, game_id):
    game = Game.objects.select_related("league").filter(pk=game_id).first()
    if game is None or not access.game_access(user, game).read:
        raise Http404(_("No such chat."))
    return game


@login_required
@require_GET
def thread(request, game_id):
    """The whole chat of a game on a page of its own."""
    game = _game_for_reader(request.user, game_id)
    context = public.thread_context(request.user, game, limit=THREAD_PAGE)
    return render(request, "chat/thread.html", context)


@login_required
@require_POST
def post(request, game_id):
    game = _game_for_reader(request.user, game_id)
    data = request.POST
    try:
        services.post(
            request.user,
            game,
            text=data.get("text", ""),
            phrase=data.get("phrase", ""),
            token=data.get("token", ""),
        )
    except services.ChatRefused as refusal:
        if not request.htmx:
            messages.error(request, refusal.message)
            return redirect("chat:thread", game.pk)
        return HttpResponse(public.after_send(refusal=refusal.message), status=refusal.status)
    if not request.htmx:
        return redirect("chat:thread", game.pk)
    # Without the socket the page's thread is sent whole (it is at most a page long).
    context = public.thread_context(request.user, game)
    assert context is not None
    html = public.after_send(Message(phrase=data.get("phrase", "")))
    html += render_to_string("chat/_log.html", {**context, "oob": True})
    return HttpResponse(html)


@login_required
@require_POST
def read(request, game_id):
    game = _game_for_reader(request.user, game_id)
    last = public.last_id(request.POST.get("last", ""))
    if last:
        services.mark_read(request.user, game, last)
    return HttpResponse(status=204)


def _message_for_reader(user, pk):
    message = Message.objects.select_related("author", "game", "game__league").filter(pk=pk)
    message = message.first()
    if message is None or not access.game_access(user, message.game).read:
        raise Http404(_("No such message."))
    return message


def _days(text):
    text = str(text)[:4]
    return int(text) if text.isascii() and text.isdigit() else None


def _item_actions(request, found, *, report, set_hidden, template, context, again):
    """The actions of one table message or board post, the same on both pages: report
    it, block or unblock its author; for the league's admins, hide or show it and mute
    its author. ``report`` and ``set_hidden`` are the item's services, ``context()``
    its page's context in ``template``, ``again`` the arguments of the redirect back to
    it after an action. A refusal is shown on the page, with its status."""
    if request.method != "POST":
        return render(request, template, context())
    action = request.POST.get("action", "")
    try:
        if action == "report":
            report(
                request.user,
                found.pk,
                request.POST.get("reason", ""),
                request.POST.get("words", ""),
            )
            messages.success(request, _("Thank you: the league's admins will look at it."))
        elif action in ("block", "unblock"):
            services.set_block(request.user, found.author, action == "block")
            messages.success(
                request,
                _("You will not see their messages.")
                if action == "block"
                else _("You see their messages again."),
            )
        elif action in ("hide", "show"):
            set_hidden(request.user, found.pk, action == "hide", request.POST.get("reason", ""))
            messages.success(request, _("Done."))
        elif action == "mute":
            services.mute(
                request.user,
                found.league,
                found.author,
                _days(request.POST.get("days", "")),
                request.POST.get("reason", ""),
            )
            messages.success(request, _("The member is muted."))
        else:
            raise services.ChatRefused(_("The request could not be read."))
    except services.ChatRefused as refusal:
        if refusal.status == 404:
            raise Http404(refusal.message) from None
        messages.error(request, refusal.message)
        return render(request, template, context(), status=refusal.status)
    return redirect(*again)


@login_required
@require_http_methods(["GET", "POST"])
def message(request, pk):
    """One message's actions: report it, block its author; for the league's admins,
    hide or show it and mute its author."""
    found = _message_for_reader(request.user, pk)
    rights = access.game_access(request.user, found.game)
    blocked = found.author_id in reads.blocked_ids(request.user)
    return _item_actions(
        request,
        found,
        report=services.report,
        set_hidden=services.set_hidden,
        template="chat/message.html",
        context=lambda: _message_context(request.user, found, rights, blocked),
        again=("chat:message", found.pk),
    )


def _message_context(user, found, rights, blocked):
    return {
        "found": found,
        "item": chat_render.message_context(found, user.pk, rights.moderate),
        "rights": rights,
        "blocked": blocked,
        "reasons": Report.Reason.choices,
        "mine": found.author_id == user.pk,
    }


@login_required
@require_http_methods(["GET", "POST"])
def league(request, slug):
    """A league's chat moderation: open reports, active mutes, the chat's setting and
    the record of moderation. Owners and admins only."""
    found = get_league_for_member(request.user, slug)
    require_league_admin(request.user, found)
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "settings":
                services.set_spectators_may_talk(
                    request.user, found, request.POST.get("spectators_may_talk") == "on"
                )
            elif action == "close_report":
                services.close_report(request.user, public.last_id(request.POST.get("report")))
            elif action == "close_board_report":
                board.close_report(request.user, found, public.last_id(request.POST.get("report")))
            elif action == "unmute":
                member = get_object_or_404(
                    get_user_model(), pk=public.last_id(request.POST.get("user")) or 0
                )
                services.unmute(request.user, found, member)
            else:
                raise services.ChatRefused(_("The request could not be read."))
        except services.ChatRefused as refusal:
            messages.error(request, refusal.message)
        else:
            messages.success(request, _("Done."))
        return redirect(reverse("chat:league", args=[found.slug]))
    now = timezone.now()
    context = {
        "league": found,
        "reports": Report.objects.filter(message__league=found, closed=False)
        .select_related("message", "message__author", "reporter")
        .order_by("-pk")[:100],
        "board_reports": board.open_reports(found),
        "mutes": Mute.objects.filter(league=found, until__gt=now).select_related("user", "by"),
        "spectators_may_talk": access.spectators_may_talk(found.pk),
        "actions": ModerationAction.objects.filter(league=found)[:50],
    }
    return render(request, "chat/league.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def board_page(request, slug):
    """A league's board: its members read and post; its admins pin, hide and lock."""
    found = get_league_for_member(request.user, slug)
    may_read, may_post, moderate = board.rights(request.user, found)
    if not may_read:
        raise PermissionDenied(_("Only members of this league can do that."))
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "post":
                board.post(
                    request.user, found, request.POST.get("text", ""), request.POST.get("token", "")
                )
            elif action in ("pin", "unpin"):
                board.set_pinned(
                    request.user, public.last_id(request.POST.get("post", "")), action == "pin"
                )
            elif action == "hide":
                board.hide(
                    request.user,
                    public.last_id(request.POST.get("post", "")),
                    request.POST.get("reason", ""),
                )
            elif action in ("lock", "unlock"):
                board.set_locked(request.user, found, action == "lock")
            else:
                raise services.ChatRefused(_("The request could not be read."))
        except services.ChatRefused as refusal:
            if refusal.status == 404:
                raise Http404(refusal.message) from None
            if refusal.status == 403 and action != "post":
                raise PermissionDenied(refusal.message) from None
            messages.error(request, refusal.message)
        return redirect(reverse("chat:board", args=[found.slug]))
    mute = access.active_mute(request.user, found.pk)
    shown = board.posts(request.user, found, moderate)
    context = {
        "league": found,
        # The pinned ones on top; new posts arrive live above the others (ws/me/?board=).
        "pinned_posts": [p for p in shown if p.pinned],
        "posts": [p for p in shown if not p.pinned],
        "may_post": may_post,
        "moderate": moderate,
        "locked": board.is_locked(found),
        "mute_words": services.mute_words(mute) if mute is not None else "",
        "token": uuid.uuid4().hex,
    }
    board.mark_read(request.user, found)
    return render(request, "chat/board.html", context)


def _post_for_reader(user, slug, pk):
    """A board post of the league ``slug`` that ``user`` may read, and whether they
    moderate it; 404 otherwise (another league's post, a hidden one, an outsider)."""
    league = get_league_for_member(user, slug)
    try:
        found, moderate = board.for_reader(user, pk)
    except services.ChatRefused:
        raise Http404(_("No such post.")) from None
    if found.league_id != league.pk:
        raise Http404(_("No such post."))
    return found, moderate


@login_required
@require_http_methods(["GET", "POST"])
def board_post(request, slug, pk):
    """One board post's actions, as a table message's: report it, block its author; for
    the league's admins, hide or show it and mute its author."""
    found, moderate = _post_for_reader(request.user, slug, pk)
    return _item_actions(
        request,
        found,
        report=board.report,
        set_hidden=board.set_hidden,
        template="chat/board_post.html",
        context=lambda: _post_context(request.user, found, moderate),
        again=("chat:board_post", found.league.slug, found.pk),
    )


def _post_context(user, found: BoardPost, moderate):
    return {
        "league": found.league,
        "p": found,
        "moderate": moderate,
        "blocked": found.author_id in reads.blocked_ids(user),
        "reasons": Report.Reason.choices,
        "mine": found.author_id == user.pk,
    }
