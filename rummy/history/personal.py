"""What rummy holds about one player, for the download of their data
(``leagues.data_export``, through ``rummy.public``; the format is docs/data-export.md):
their seats, the moves made at them, the emails and pushes sent to them, their devices,
and each of their finished games as the season download's record of it
(``rummy.history.exports.game_line``), the portable record included.

Read only. A game still in progress gives its seat and the player's own moves, never a
record: that would hold the other hands and the stock."""

from rummy.history.exports import game_line
from rummy.history.log import games_with_moves
from rummy.models import Game, Move, Notice, NotificationPrefs, PushNotice, PushSubscription, Seat
from rummy.play.replay import ReplayMismatch

# The notification settings as the download names them (the model's own field names).
PREF_FIELDS = (
    "your_move",
    "reminders",
    "results",
    "push_your_move",
    "push_reminders",
    "push_results",
)


def _iso(moment):
    return moment.isoformat() if moment is not None else None


def notification_settings(user):
    """The player's choices, or the defaults (all on) when they never chose."""
    prefs = NotificationPrefs.objects.filter(user=user).first() or NotificationPrefs()
    return {name: getattr(prefs, name) for name in PREF_FIELDS}


def seats(user):
    rows = Seat.objects.filter(user=user).select_related("game", "game__league", "game__season")
    return [
        {
            "game": seat.game_id,
            "league": seat.game.league.slug if seat.game.league else None,
            "season": seat.game.season.name if seat.game.season else None,
            "status": seat.game.status,
            "seat": seat.number,
            "joined_at": _iso(seat.joined_at),
            "final_score": seat.final_score,
            "rounds_won": seat.rounds_won,
            "winner": seat.is_winner,
        }
        for seat in rows.order_by("game_id")
    ]


def moves(user):
    """Every logged move made at the player's seats (theirs, the clock's timeouts and a
    bot's standing in for them), oldest first per game."""
    numbers = dict(Seat.objects.filter(user=user).values_list("game_id", "number"))
    rows = (
        Move.objects.filter(game_id__in=numbers)
        .exclude(seat__isnull=True)
        .order_by("game_id", "seq")
        .values_list("game_id", "seq", "kind", "seat", "user_id", "bot_level", "created_at")
    )
    return [
        {
            "game": game_id,
            "seq": seq,
            "kind": kind,
            "seat": seat,
            "by": "bot" if bot_level else ("player" if by == user.pk else "clock"),
            "at": _iso(at),
        }
        for game_id, seq, kind, seat, by, bot_level, at in rows.iterator()
        if numbers.get(game_id) == seat
    ]


def email_notices(user):
    rows = Notice.objects.filter(user=user).order_by("claimed_at", "pk")
    return [
        {
            "game": notice.game_id,
            "kind": notice.kind,
            "turn_started_at": _iso(notice.turn_started_at),
            "sent_at": _iso(notice.sent_at),
        }
        for notice in rows
    ]


def devices(user):
    return [
        {
            "device": sub.device,
            "subscribed_at": _iso(sub.created_at),
            "last_push_at": _iso(sub.last_success_at),
        }
        for sub in PushSubscription.objects.filter(user=user)
    ]


def push_notices(user):
    rows = (
        PushNotice.objects.filter(subscription__user=user)
        .select_related("subscription")
        .order_by("claimed_at", "pk")
    )
    return [
        {
            "device": notice.subscription.device,
            "game": notice.game_id,
            "kind": notice.kind,
            "turn_started_at": _iso(notice.turn_started_at),
            "sent_at": _iso(notice.sent_at),
        }
        for notice in rows
    ]


def finished_games(user, chunk=50):
    """Each finished game the player sat at, as the season download's line: the
    players, the rounds, the results and the portable record."""
    games = (
        Game.objects.filter(seats__user=user, status=Game.Status.FINISHED)
        .select_related("league", "season")
        .prefetch_related("seats__user", "rounds")
        .order_by("finished_at", "pk")
    )
    out = []
    for game, game_moves in games_with_moves(games, chunk=chunk):
        try:
            line = game_line(game, game_moves)
        except ReplayMismatch:
            # The log does not replay (verify_games reports it): the rest still counts.
            line = {"game": game.pk, "record": None}
        out.append(line)
    return out


def player_data(user):
    """Everything rummy holds about ``user``, as the download's sections."""
    return {
        "notification_settings": notification_settings(user),
        "seats": seats(user),
        "moves": moves(user),
        "email_notices": email_notices(user),
        "push_devices": devices(user),
        "push_notices": push_notices(user),
        "games": finished_games(user),
    }
