"""Tables before the game: open, sit, leave, start (R1.1, R2). The first dealer is
random (R2.1) and every deal comes from a CSPRNG, so no deal can be predicted."""

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.access import membership_for
from leagues.models import Membership, Season
from leagues.ratings.chances import first_chances, league_ratings
from rummy import engine
from rummy.models import Game, Move, Seat
from rummy.play import store
from rummy.play.errors import ActionRefused, NotAllowed, Result, StaleVersion


@transaction.atomic
def open_table(league, user, max_seats=4) -> Game:
    """A league member opens a table with the active season's settings."""
    if membership_for(user, league) is None:
        raise NotAllowed(_("Only members of this league can open a table."))
    try:
        max_seats = int(max_seats)
    except (TypeError, ValueError):
        max_seats = 0
    if not engine.MIN_PLAYERS <= max_seats <= engine.MAX_PLAYERS:
        raise ActionRefused(_("A table has 2 to 5 seats."), code="bad_seats")
    season = league.active_season()
    game = Game.objects.create(
        league=league,
        host=user,
        max_seats=max_seats,
        target_score=season.target_score if season else engine.DEFAULT_SETTINGS.target,
        knock_limit=season.knock_limit if season else engine.DEFAULT_SETTINGS.knock_limit,
        turn_seconds=season.turn_seconds if season else Season.DEFAULT_TURN_SECONDS,
    )
    Seat.objects.create(game=game, user=user)
    store.announce(game.pk, game.version)
    return game


CHANCE_FIELDS = ["rating_mu", "rating_sigma", "chance_first"]


def _set_chances(game: Game, seats) -> None:
    """Each seat's rating and chance of finishing first at this table (unsaved): only
    at a league's table of two people or more, as ratings rate only those games."""
    rated = game.league_id is not None and len(seats) >= 2 and not any(s.bot_level for s in seats)
    if not rated:
        for seat in seats:
            seat.rating_mu = seat.rating_sigma = seat.chance_first = None
        return
    ratings = league_ratings(game.league_id, [s.user_id for s in seats])
    for seat, (mu, sigma), chance in zip(seats, ratings, first_chances(ratings), strict=True):
        seat.rating_mu, seat.rating_sigma, seat.chance_first = mu, sigma, chance


def _bump(game: Game):
    """Seats changed before the start: the chances at the table again, and bump the
    version so open pages refresh."""
    seats = list(game.seats.all())
    _set_chances(game, seats)
    Seat.objects.bulk_update(seats, CHANCE_FIELDS)
    Game.objects.filter(pk=game.pk).update(version=game.version + 1)
    game.version += 1
    store.announce(game.pk, game.version)


@transaction.atomic
def take_seat(game_id, user, expected_version=None) -> Result:
    game = store.locked_game(game_id)
    store.check_version(game, expected_version)
    if membership_for(user, game.league) is None:
        raise NotAllowed(_("Only members of this league can sit at its tables."))
    if (
        game.rematch_of_id is not None
        and not Seat.objects.filter(game_id=game.rematch_of_id, user=user).exists()
    ):
        # Its seats are counted for the players of the game before it.
        raise NotAllowed(_("This table is a rematch: only the players of the last game can sit."))
    if game.status != Game.Status.OPEN:
        raise ActionRefused(_("This game has already started."), code="started")
    seats = list(game.seated())
    if any(s.user_id == user.pk for s in seats):
        raise ActionRefused(_("You already have a seat at this table."), code="seated")
    return sit_down(game, seats, user)


def sit_down(game: Game, seats, user, **seat) -> Result:
    """Seat ``user`` (a player, or a bot with its ``bot_level``) at the open ``game``,
    locked, whose ``seats`` were read under the lock. A full table starts by itself:
    the one place that says so, for players and bots alike."""
    if len(seats) >= game.max_seats:
        raise ActionRefused(_("This table is full."), code="full")
    Seat.objects.create(game=game, user=user, **seat)
    _bump(game)
    if len(seats) + 1 == game.max_seats:
        return _start(game)
    return Result(game, game.version)


@transaction.atomic
def leave_seat(game_id, user, expected_version=None) -> Result:
    game = store.locked_game(game_id)
    store.check_version(game, expected_version)
    if game.status != Game.Status.OPEN:
        raise ActionRefused(_("You can only leave a table before the game starts."), code="started")
    seat = store.seat_of(game, user)
    if seat is None:
        raise ActionRefused(_("You do not have a seat at this table."), code="not_seated")
    seat.delete()
    first_left = game.seats.select_related("user").first()
    if first_left is None:
        # The last one out closes the table.
        game.delete()
        return Result(game, game.version)
    if game.host_id == user.pk:
        game.host = first_left.user
        game.save(update_fields=["host"])
    _bump(game)
    return Result(game, game.version)


@transaction.atomic
def start_game(game_id, user, expected_version=None) -> Result:
    game = store.locked_game(game_id)
    store.check_version(game, expected_version)
    if game.status != Game.Status.OPEN:
        raise ActionRefused(_("This game has already started."), code="started")
    if game.host_id != user.pk:
        raise NotAllowed(_("Only the host can start the game."))
    if game.seats.count() < engine.MIN_PLAYERS:
        raise ActionRefused(_("At least two players must be seated to start."), code="too_few")
    return _start(game)


def _start(game: Game) -> Result:
    seats = list(game.seated())
    # Seat order is the order players sat down; the first dealer is random (R2.1).
    for number, seat in enumerate(seats):
        seat.number = number
    # The chances of the game as it starts, from the ratings at this moment.
    _set_chances(game, seats)
    Seat.objects.bulk_update(seats, ["number", *CHANCE_FIELDS])
    # The seats now have numbers: these are the game's seats from now on.
    game.keep_seats(seats)
    # A practice game (no league) counts for no season.
    season = game.league.active_season() if game.league is not None else None
    if season:
        game.season = season
        game.target_score = season.target_score
        game.knock_limit = season.knock_limit
    state = engine.new_game(len(seats), store.system_random, settings=game.engine_settings())
    game.status = Game.Status.ACTIVE
    return store.save(
        game,
        state,
        [(Move.Kind.START, None, game.host, {"state": state.to_dict()})],
        status=Game.Status.ACTIVE,
        started_at=timezone.now(),
        season=season,
        target_score=game.target_score,
        knock_limit=game.knock_limit,
    )


# --- Rematch: the same players again, after a finished game ---------------------------


@dataclass(frozen=True)
class Rematch:
    """The rematch table of a finished game, and what asking for it did:
    ``OPENED`` a new table, ``SEATED`` the asker at the one another player opened,
    ``ALREADY`` seated there before, or ``STARTED`` without the asker."""

    OPENED = "opened"
    SEATED = "seated"
    ALREADY = "already"
    STARTED = "started"

    game: Game
    outcome: str


def rematch_of(game: Game) -> Game | None:
    """The rematch table of ``game``, if one was opened (and not closed again)."""
    return Game.objects.filter(rematch_of=game).first()


def rematch_seasons(game: Game):
    """``(closed, counts_for)``: the season ``game`` counted for if it has closed since,
    and the league's active season, which a rematch counts for once it starts (as every
    game: ``_start``); None where there is none."""
    season = game.season
    closed = season if season is not None and season.is_closed else None
    return closed, game.league.active_season() if game.league is not None else None


@transaction.atomic
def rematch(game, user) -> Rematch:
    """A new table for the players of the finished ``game`` (a Game or its id), in the
    same league, with the same house settings (R10); the league's active season, if
    any, applies when it starts (``_start``). Only a player of the game may ask. The
    first to ask opens it and hosts; each later asker takes a seat at that same table,
    so asking twice, or two players at once, makes one table. Its seats are the players'
    (``take_seat``): it starts by itself once all of them are back, or when the host
    starts it."""
    # The finished game's row lock queues every rematch of it: one table, however many
    # ask at once (on SQLite the IMMEDIATE transaction does the same).
    finished = store.locked_game(getattr(game, "pk", game), with_seats=True)
    players = [seat.user for seat in finished.seated()]
    if user.pk not in {player.pk for player in players}:
        raise NotAllowed(_("Only the players of this game can ask for a rematch."))
    if finished.status != Game.Status.FINISHED:
        raise ActionRefused(_("A rematch can only follow a finished game."), code="not_finished")
    if membership_for(user, finished.league) is None:
        raise NotAllowed(_("Only members of this league can open a table."))
    table = rematch_of(finished)
    if table is None:
        table = _open_rematch(finished, players, user)
        if table is not None:
            return Rematch(table, Rematch.OPENED)
        # Only where the row lock is not real: the unique link let one table through.
        table = rematch_of(finished)
        if table is None:
            raise StaleVersion()
    if table.seats.filter(user=user).exists():
        return Rematch(table, Rematch.ALREADY)
    if table.status != Game.Status.OPEN:
        return Rematch(table, Rematch.STARTED)
    return Rematch(take_seat(table.pk, user).game, Rematch.SEATED)


def _open_rematch(finished: Game, players, user) -> Game | None:
    members = set(
        Membership.objects.filter(league=finished.league, user__in=players).values_list(
            "user_id", flat=True
        )
    )
    if len(members) < engine.MIN_PLAYERS:
        raise ActionRefused(
            _("The other players of this game have left the league: open a new table instead."),
            code="no_players",
        )
    try:
        with transaction.atomic():
            table = Game.objects.create(
                league=finished.league,
                host=user,
                # One seat for each player still in the league: full, it starts itself.
                max_seats=len(members),
                target_score=finished.target_score,
                knock_limit=finished.knock_limit,
                turn_seconds=finished.turn_seconds,
                rematch_of=finished,
            )
    except IntegrityError:
        return None
    Seat.objects.create(game=table, user=user)
    store.announce(table.pk, table.version)
    return table
