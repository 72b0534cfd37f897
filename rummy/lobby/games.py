"""The signed-in home page's games: where it is your move first
(most urgent deadline first), then games waiting for others, then open tables in your
leagues. A fixed number of queries, however many games and seats."""

from django.db.models import F

from chat import public as chat
from config.db import reads
from leagues.ratings.chances import percent
from rummy.clock import deadlines
from rummy.lobby.forms import OpenTableForm
from rummy.models import Game
from rummy.table.access import games_with_seats

OPEN_TABLES_SHOWN = 20


def move_count(user):
    """How many games await ``user``'s move (the header's badge): read on every page and
    after every move that changes it, so its SQL is written once (``config.db.reads``)."""
    return reads.count(Game, status=Game.Status.ACTIVE, to_move=user)


def _row(game, user):
    seats = list(game.seated())
    mover = next((s for s in seats if s.user_id == game.to_move_id), None)
    return {
        "game": game,
        "names": [s.user.name for s in seats if s.user_id != user.pk],
        "to_move": mover.user if mover else None,
        "to_move_absent": bool(mover and mover.is_absent),
        "absent": [s.user.name for s in seats if s.is_absent],
        "seated": any(s.user_id == user.pk for s in seats),
        "free": game.max_seats - len(seats),
        # Each player's chance of finishing first, at a league's table of people (stored
        # on the seats by the write path when they change).
        "chances": [
            (s.user.name, s.user_id == user.pk, percent(s.chance_first))
            for s in seats
            if s.chance_first is not None
        ],
    }


def _active_games(user):
    return (
        games_with_seats()
        .filter(status=Game.Status.ACTIVE, seats__user=user)
        .order_by(F("turn_deadline").asc(nulls_last=True), "pk")
    )


def _split(active, user):
    your_move, waiting = [], []
    for game in active:
        (your_move if game.to_move_id == user.pk else waiting).append(_row(game, user))
    # Games with chat messages the user has not read are marked (one query for all).
    unread = chat.unread_games(user, [row["game"].pk for row in your_move + waiting])
    for row in your_move + waiting:
        row["chat_unread"] = row["game"].pk in unread
    return your_move, waiting


def home_games(user):
    """{"your_move": [...], "waiting": [...], "open_tables": [...]}: rows with the game,
    the other players' names, who is to move and who is absent."""
    active = _active_games(user)
    if deadlines.enforce_overdue(active):
        # A missed clock tick: the timeouts were just played; read the games again.
        active = active.all()
    your_move, waiting = _split(active, user)
    open_tables = (
        games_with_seats()
        .filter(status=Game.Status.OPEN, league__memberships__user=user)
        .order_by("-created_at")[:OPEN_TABLES_SHOWN]
    )
    return {
        "your_move": your_move,
        "waiting": waiting,
        "open_tables": [_row(game, user) for game in open_tables],
    }


def turn_games(user):
    """The home page's first two lists alone ({"your_move", "waiting"}), as the header's
    socket pushes them when a turn passes. Read only: the broadcast that asks for them
    follows a change already saved, and overdue turns are the clock's (and the page's)."""
    your_move, waiting = _split(_active_games(user), user)
    return {"your_move": your_move, "waiting": waiting}


def league_tables(league, user):
    """A league's open tables and games in progress, with what ``user`` may do at each
    (``rummy/_league_tables.html``, on the league's page: ``rummy.public``). Two queries,
    however many games."""
    games = list(
        games_with_seats()
        .filter(league=league, status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
        .order_by("created_at")
    )
    rows = []
    for game in games:
        seats = list(game.seated())
        seated = any(s.user_id == user.pk for s in seats)
        rows.append(
            {
                "game": game,
                "names": [s.user.name for s in seats],
                "free": game.max_seats - len(seats),
                "may_sit": game.is_open and not seated and len(seats) < game.max_seats,
                "may_leave": game.is_open and seated,
                "may_start": game.is_open and game.host_id == user.pk and len(seats) >= 2,
                "your_move": game.to_move_id == user.pk,
            }
        )
    return {
        "open": [r for r in rows if r["game"].is_open],
        "active": [r for r in rows if r["game"].is_active],
        "form": OpenTableForm(),
    }
