import json

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from leagues import data_export, erasure, services
from leagues.forms import DeleteAccountForm, SignupForm
from leagues.models import League, Season, User, reported_time_zone, supported_language
from leagues.ratings.history import player_history
from leagues.ratings.reads import player_ratings
from leagues.views import invites
from rummy.public import (
    player_figures,
    player_game_rows,
    player_record,
    player_seats,
    send_signup_attempt_email,
    send_verification_email,
)


def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    invite = invites.pending_invite(request)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # A new account keeps the language this browser was shown (its switcher's
        # cookie, else its Accept-Language) and the time zone it reports.
        form.instance.language = supported_language(translation.get_language())
        form.instance.time_zone = reported_time_zone(request.POST.get("time_zone"))
        try:
            user, created = services.sign_up(form)
        except services.UsernameTaken as error:
            form.add_error("username", str(error))
        else:
            # The same answer whether the address was new or already had an account
            # (then its owner is told by email): the page must not tell a stranger which
            # addresses have accounts. So nobody is logged in here: the newcomer
            # confirms the address from the email and logs in. A mail failure is logged
            # by the sender and changes nothing in the answer.
            if created:
                send_verification_email(user, request)
                if invite is not None:
                    invites.join_at_signup(request, user, invite)
            else:
                send_signup_attempt_email(user, request)
            messages.success(
                request,
                _(
                    "Thank you for signing up! We sent an email to %(email)s: open the "
                    "link in it to confirm your address, then log in here."
                )
                % {"email": form.cleaned_data["email"]},
            )
            if invite is not None:
                # After log-in, the invite's page: the league, joined (or one tap away).
                return redirect_to_login(invites.join_invite_url(invite))
            return redirect("login")
    return render(request, "registration/signup.html", {"form": form, "invite": invite})


@login_required
def profile(request, username):
    """A player's leagues, games and results, as far as the viewer may see them:
    invite-only leagues (and their games) show only to fellow members. The games list
    pages through every finished game and can be narrowed to a league and a season."""
    player = get_object_or_404(User, username=username, is_active=True)
    visible = Q(visibility=League.Visibility.PUBLIC) | Q(memberships__user=request.user)
    visible_leagues = League.objects.filter(visible).distinct()
    memberships = player.memberships.filter(league__in=visible_leagues).select_related("league")
    filters, problems, choices = _game_filters(request, memberships)
    seats = player_seats(player, visible_leagues, **filters)
    page = Paginator(seats, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    site_rating, league_ratings = player_ratings(player, visible_leagues)
    context = {
        "site_rating": site_rating,
        "league_ratings": league_ratings,
        "rating_charts": player_history(player, visible_leagues),
        "player": player,
        "memberships": memberships,
        **player_record(player, visible_leagues),
        "championships": player.championships.filter(league__in=visible_leagues).select_related(
            "league"
        ),
        "games_page": page,
        "game_rows": player_game_rows(page.object_list),
        "figures": player_figures(player, seats),
        "filter_problems": problems,
        "filter_query": _query(filters),
        **choices,
    }
    return render(request, "leagues/profile.html", context)


GAMES_PER_PAGE = 20


def _game_filters(request, memberships):
    """The league and season asked for (``?league=<slug>&season=<id>``), among the
    player's leagues the viewer may see. Anything else is named and ignored."""
    leagues = [m.league for m in memberships]
    seasons = list(
        Season.objects.filter(league__in=leagues)
        .select_related("league")
        .order_by("league__name", "-starts_on")
    )
    filters, problems = {"league": None, "season": None}, []
    slug = request.GET.get("league", "").strip()
    if slug:
        filters["league"] = next((lg for lg in leagues if lg.slug == slug), None)
        if filters["league"] is None:
            problems.append(_("There is no such league among this player's leagues."))
    raw = request.GET.get("season", "").strip()
    if raw:
        wanted = raw if raw.isdigit() else None
        filters["season"] = next((s for s in seasons if str(s.pk) == wanted), None)
        if filters["season"] is None:
            problems.append(_("There is no such season in this player's leagues."))
        elif filters["league"] is not None and filters["season"].league_id != filters["league"].pk:
            problems.append(_("That season belongs to another league: showing the league's games."))
            filters["season"] = None
    choices = {
        "filter_leagues": leagues,
        "filter_seasons": seasons,
        **{f"filter_{k}": v for k, v in filters.items()},
    }
    return filters, problems, choices


def _query(filters):
    """The filters as a query string for the page links."""
    parts = {}
    if filters["league"] is not None:
        parts["league"] = filters["league"].slug
    if filters["season"] is not None:
        parts["season"] = filters["season"].pk
    return urlencode(parts)


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def delete_account(request):
    """Delete my account (``leagues.erasure``), confirmed with my password. A league's
    only owner is told, in words, to hand it over first."""
    user = request.user
    form = DeleteAccountForm(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            erasure.delete_account(user)
        except erasure.OnlyOwner as error:
            form.add_error(None, str(error))
        else:
            logout(request)
            messages.success(
                request, _("Your account is deleted. Thank you for playing on Carousel.")
            )
            return redirect("home")
    blocking = erasure.leagues_to_hand_over(user)
    return render(
        request,
        "registration/delete_account.html",
        {"form": form, "blocking": blocking, "hand_over": erasure.hand_over_message(blocking)},
    )


@login_required
@never_cache
@require_GET
def download_data(request):
    """Everything the site holds about me, as one JSON file (docs/data-export.md)."""
    document = data_export.export(request.user)
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=1), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{data_export.filename(request.user)}"'
    return response
