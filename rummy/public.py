"""The one door from ``leagues`` into ``rummy`` (DESIGN "Rooms"): the few reads and
commands about games that leagues, seasons, standings and profiles need. Nothing in
``leagues`` imports any other part of ``rummy``; rummy tells leagues that a game
finished through ``game_finished`` (connected in ``leagues/apps.py``)."""

from django.db.models import Exists, OuterRef

from rummy import play
from rummy.guide.links import rule_links
from rummy.history.personal import player_data
from rummy.history.profile import figures as player_figures
from rummy.history.profile import game_rows as player_game_rows
from rummy.history.profile import player_seats
from rummy.lobby.games import league_tables
from rummy.models import Draft, Game, Notice, NotificationPrefs, PushSubscription, QuietHold, Seat
from rummy.notifications.accounts import send_signup_attempt_email, send_verification_email
from rummy.play import ActionRefused, member_left, reclock, void_game
from rummy.play.demo import create_demo_games
from rummy.signals import game_finished

__all__ = [
    "ActionRefused",
    "create_demo_games",
    "finished_games",
    "forget_player",
    "game_finished",
    "league_games",
    "league_tables",
    "played_in_leagues",
    "player_data",
    "player_figures",
    "player_game_rows",
    "player_record",
    "player_seats",
    "rated_game",
    "rated_games",
    "rule_links",
    "running_games",
    "season_member_left",
    "season_results",
    "send_signup_attempt_email",
    "send_verification_email",
    "vacation_changed",
    "void_game",
]


def season_results(season):
    """Every seat of every finished game of ``season``, with its user: what the
    standings add up. A game with a bot at a seat counts only if the season says so
    (``bot_games_count``, off by default); a bot standing in for an absent
    player does not make it a game with bots: the seat is still that player's."""
    seats = Seat.objects.filter(game__season=season, game__status=Game.Status.FINISHED)
    if not season.bot_games_count:
        with_bots = Seat.objects.filter(game_id=OuterRef("game_id")).exclude(bot_level="")
        seats = seats.exclude(Exists(with_bots))
    return seats.select_related("user")


def _rated():
    """Finished league games without a bot at a seat, each with its seats: what ratings
    rate. Practice games (no league) and voided games are left out; a game with a bot at
    a seat too, whatever its season says, so that no bot is ever rated. A bot standing in
    for an absent player leaves the seat that player's (``bot_level`` stays empty)."""
    with_bots = Seat.objects.filter(game_id=OuterRef("pk")).exclude(bot_level="")
    return (
        Game.objects.filter(status=Game.Status.FINISHED, league__isnull=False)
        .exclude(Exists(with_bots))
        .prefetch_related("seats")
    )


def rated_game(game_id):
    """The game ``game_id`` with its seats if ratings rate it (``_rated``), else None."""
    return _rated().filter(pk=game_id).first()


def rated_games():
    """Every game ratings rate, in the order they finished (the id breaks a tie)."""
    return _rated().order_by("finished_at", "pk")


def running_games(season):
    """Games of ``season`` that have not ended yet, with their players."""
    return Game.objects.filter(season=season, status=Game.Status.ACTIVE).prefetch_related(
        "seats__user"
    )


def finished_games(season):
    """The finished games of ``season``, newest first, with their players."""
    return (
        Game.objects.filter(season=season, status=Game.Status.FINISHED)
        .prefetch_related("seats__user")
        .order_by("-finished_at")
    )


def league_games(league, recent=10):
    """A league page's games: open tables, games in progress, the latest results."""
    games = Game.objects.filter(league=league).prefetch_related("seats__user")
    return {
        "open_tables": games.filter(status=Game.Status.OPEN),
        "games_in_progress": games.filter(status=Game.Status.ACTIVE),
        "recent_results": games.filter(status=Game.Status.FINISHED).order_by("-finished_at")[
            :recent
        ],
    }


def player_record(player, leagues, shown=30):
    """``player``'s games in ``leagues`` (those the viewer may see), voided ones left
    out: the current ones, the latest results, and how many were played and won."""
    seats = (
        Seat.objects.filter(user=player, game__league__in=leagues)
        .exclude(game__status=Game.Status.VOIDED)
        .select_related("game", "game__league", "game__season")
        .order_by("-game__finished_at", "-game__created_at")
    )
    finished = [s for s in seats if s.game.status == Game.Status.FINISHED]
    return {
        "current_seats": [s for s in seats if s.game.status != Game.Status.FINISHED],
        "results": finished[:shown],
        "games_played": len(finished),
        "games_won": sum(1 for s in finished if s.is_winner),
    }


def vacation_changed(user, season, now=None):
    """``user``'s vacations in ``season`` changed (taken, cancelled, ended): the write
    path brings their games of the season up to date at once, so the game pages show
    it and their deadlines follow (the background pass would, a little later)."""
    games = Game.objects.filter(season=season, status=Game.Status.ACTIVE, seats__user=user)
    for game_id in games.values_list("pk", flat=True):
        try:
            reclock(game_id, now)
        except ActionRefused:
            continue  # gone since: nothing to bring up to date


def season_member_left(season, user):
    """``user`` left the league during its scheduled ``season``: their games under way
    get a bot stand-in or are voided, as the season says."""
    return member_left(season, user)


def played_in_leagues(user):
    """The ids of the leagues of every game ``user`` sat at."""
    return set(
        Seat.objects.filter(user=user, game__league__isnull=False).values_list(
            "game__league_id", flat=True
        )
    )


def forget_player(user):
    """rummy's part of deleting ``user``'s account (``leagues.erasure``), inside its
    transaction, after the account itself was made anonymous: their devices and the
    ledgers of what was sent to them go; a table not started yet loses their seat; a
    practice game (theirs alone, against bots) is voided; in every other game in
    progress the seat stays, played from now on by a bot standing in or timed out by the
    clock, as the season says (``rummy.play.player_gone``). Finished games keep their
    seats and moves untouched, so that every log still replays."""
    games = Game.objects.filter(seats__user=user)
    for game_id in games.filter(status=Game.Status.OPEN).values_list("pk", flat=True):
        try:
            play.leave_seat(game_id, user)
        except ActionRefused:
            continue  # started or gone since: the next lines or nothing
    for game_id, league_id in games.filter(status=Game.Status.ACTIVE).values_list(
        "pk", "league_id"
    ):
        try:
            if league_id is None:
                play.void_game(game_id, user)
            else:
                play.player_gone(game_id, user.pk)
        except ActionRefused:
            continue  # ended since: nothing to stand in for
    numbers = Seat.objects.filter(user=user).values_list("game_id", "number")
    for game_id, number in numbers:
        Draft.objects.filter(game_id=game_id, seat=number).delete()
    PushSubscription.objects.filter(user=user).delete()  # their pushes' ledger with them
    Notice.objects.filter(user=user).delete()
    NotificationPrefs.objects.filter(user=user).delete()
    QuietHold.objects.filter(user=user).delete()
