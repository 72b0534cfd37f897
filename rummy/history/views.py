"""The history pages of a game and the downloads: thin. Who may look is
``rummy.table.access`` (404 to strangers, as the game page); what they see is decided
by the presenters here (``sheet``, ``viewer``); nothing here writes a game.

An HTMX request for a replay step gets the step's fragment, any other request the
whole page, so the replay works without JavaScript too.
"""

import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from leagues.access import can_view_league, require_league_admin
from leagues.models import Season
from leagues.ratings.history import game_changes
from rummy import play
from rummy.history import exports
from rummy.history.hints_used import hints_used
from rummy.history.missed import missed_plays
from rummy.history.sheet import score_sheet
from rummy.history.viewer import NoSuchStep, deals_of, parse_position, replay_step
from rummy.models import Game
from rummy.play.replay import ReplayMismatch
from rummy.table.access import get_game_for_viewer


def _refused(request, game, message, status):
    return render(
        request, "history/refused.html", {"game": game, "message": message}, status=status
    )


@login_required
@require_GET
def record(request, game_id):
    """The score sheet (running or finished games)."""
    game = get_game_for_viewer(request.user, game_id)
    deals = deals_of(game)
    dealers = {d.round_no: d.dealer for d in deals}
    sheet = score_sheet(game, list(game.rounds.all()), dealers)
    names = {p.number: p.name for p in sheet["players"]}
    context = {
        "game": game,
        "sheet": sheet,
        "hints": hints_used(game, deals, names),
        # Stored by the background pass; read here, never solved (rummy.history.review).
        "missed": missed_plays(game),
        "rating_changes": game_changes(game.pk) if game.status == Game.Status.FINISHED else [],
    }
    return render(request, "history/record.html", context)


@login_required
@require_GET
def replay(request, game_id):
    game = get_game_for_viewer(request.user, game_id)
    deals = deals_of(game)
    if not deals:
        return _refused(
            request, game, _("This game has not started: there is nothing to replay."), 404
        )
    try:
        seq = parse_position(deals, game.version, request.GET.get("at"), request.GET.get("round"))
    except NoSuchStep as missing:
        return _refused(request, game, missing.message, missing.status)
    seat = play.seat_of(game, request.user)
    try:
        step = replay_step(game, seat.number if seat else None, deals, seq)
    except ReplayMismatch:
        return _refused(request, game, _("This game's record cannot be replayed."), 409)
    context = {"game": game, "step": step}
    template = "history/_replay_step.html" if request.htmx else "history/replay.html"
    return render(request, template, context)


@login_required
@require_GET
def record_json(request, game_id):
    """A finished game as ``carousel-vectors/1`` (the portable record)."""
    game = get_game_for_viewer(request.user, game_id)
    if game.status != Game.Status.FINISHED:
        # Before the end the record would hold the hands and the stock.
        return _refused(request, game, _("Only a finished game can be downloaded."), 409)
    try:
        document = exports.vector_document(game)
    except ReplayMismatch:
        return _refused(request, game, _("This game's record cannot be replayed."), 409)
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=1), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{exports.vector_filename(game)}"'
    return response


def _admin_season(request, pk):
    """The season if ``request.user`` administers its league: 404 to those who may not
    see the league, 403 to its other viewers."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    if not can_view_league(request.user, season.league):
        raise Http404(_("No such season."))
    require_league_admin(request.user, season.league)
    return season


def _download(season, rows, suffix, content_type):
    response = StreamingHttpResponse(rows, content_type=content_type)
    name = f"carousel-{season.league.slug}-season-{season.pk}-{suffix}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_GET
def season_games(request, pk):
    """A season's finished games, one JSON line each (JSON Lines)."""
    season = _admin_season(request, pk)
    return _download(season, exports.season_lines(season), "games.jsonl", "application/jsonl")


@login_required
@require_GET
def season_results(request, pk):
    season = _admin_season(request, pk)
    return _download(
        season, exports.season_csv_rows(season), "results.csv", "text/csv; charset=utf-8"
    )
